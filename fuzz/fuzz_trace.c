/* fuzz_trace.c: libFuzzer target for iolab's own trace readers (the binary .iot and its text
 * form, told apart by the first byte as iolab_trace_open does): any bytes must give records or
 * one error line naming the file, never a crash, a leak or undefined behaviour. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "fuzz_common.h"
#include "iolab/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[] = "/tmp/fuzz_trace_XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		unlink(path);
		return 0;
	}
	close(fd);
	for (unsigned skip = 0; skip < 2; skip++) {
		struct iolab_trace_reader *r;
		struct iolab_err err;
		struct iolab_trace_rec rec;
		int rc = iolab_trace_open(path, NULL, skip ? IOLAB_TRACE_SKIP_BAD : 0, &r, &err);
		if (!rc) {
			const struct iolab_trace_header *h = iolab_trace_header(r);
			while ((rc = iolab_trace_next(r, &rec, &err)) == 1)
				if (rec.target >= h->ntargets || rec.op > IOLAB_TRACE_FLUSH)
					abort(); /* the framework's checks let a bad record through */
			iolab_trace_close(r);
		}
		if (rc < 0)
			fuzz_check_error(&err, path);
	}
	unlink(path);
	return 0;
}
