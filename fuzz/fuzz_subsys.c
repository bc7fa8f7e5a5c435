/* fuzz_subsys.c: libFuzzer target for the subsystem-file parser (subsys_parse.c): any bytes must
 * give a subsystem that iolab_subsys_check accepts again, or one error line naming the file,
 * never a crash, a leak or undefined behaviour. Inputs naming a path ('/') are skipped so that
 * the fuzzer never opens files outside its directory as drive models. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "iolab/subsys.h"

static struct iolab_subsys sub;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (memchr(data, '/', size))
		return 0;
	char *text = fuzz_text(data, size);
	if (!text)
		return 0;
	struct iolab_err err;
	if (iolab_subsys_parse("fuzz.conf", text, &sub, &err) == 0) {
		if (iolab_subsys_check(&sub, &err) != 0)
			abort(); /* what the parser accepts, the checker accepts */
		iolab_subsys_free(&sub);
	} else {
		fuzz_check_error(&err, "fuzz.conf"); /* every error names the file */
		if (strchr(err.msg, '\n') || sub.nmodel)
			abort(); /* one line; nothing left to free */
	}
	free(text);
	return 0;
}
