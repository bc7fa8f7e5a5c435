/* fuzz_trace_import.c: libFuzzer target for the foreign trace readers (src/trace/fmt_*.c): the
 * first byte picks the format, the rest is the file. Any bytes must give records or one error
 * line naming the file, never a crash, a leak or undefined behaviour; the records a writable
 * format reads must also go through its writer (which may refuse them, with a message). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "fuzz_common.h"
#include "iolab/trace.h"

static const char *const formats[] = {"blkparse", "fio-iolog", "msr", "spc", "disksim",
				      "validate", "mqsim", "alibaba", "tencent"};
#define NFORMATS (sizeof(formats) / sizeof(formats[0]))

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	const struct iolab_trace_format *fmt = iolab_trace_format_find(formats[data[0] % NFORMATS]);
	if (!fmt)
		abort(); /* a format missing from the registry */
	char path[] = "/tmp/fuzz_trace_import_XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		return 0;
	if (write(fd, data + 1, size - 1) != (ssize_t)(size - 1)) {
		close(fd);
		unlink(path);
		return 0;
	}
	close(fd);
	FILE *out = fmt->write_open ? fopen("/dev/null", "w") : NULL;
	for (unsigned skip = 0; skip < 2; skip++) {
		struct iolab_trace_reader *r;
		struct iolab_trace_writer *w = NULL;
		struct iolab_err err, werr;
		struct iolab_trace_rec rec;
		int rc = iolab_trace_open(path, fmt, skip ? IOLAB_TRACE_SKIP_BAD : 0, &r, &err);
		if (!rc) {
			if (out && iolab_trace_create(out, fmt, iolab_trace_header(r), &w, &werr))
				w = NULL;
			while ((rc = iolab_trace_next(r, &rec, &err)) == 1) {
				const struct iolab_trace_header *h = iolab_trace_header(r);
				if (rec.target >= h->ntargets || rec.op > IOLAB_TRACE_FLUSH)
					abort();
				if (w && rec.target < iolab_trace_header(r)->ntargets)
					(void)iolab_trace_write(w, &rec, &werr);
			}
			if (w)
				(void)iolab_trace_finish(w, &werr);
			iolab_trace_close(r);
		}
		if (rc < 0)
			fuzz_check_error(&err, path);
	}
	if (out)
		fclose(out);
	unlink(path);
	return 0;
}
