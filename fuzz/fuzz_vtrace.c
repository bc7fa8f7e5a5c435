/* fuzz_vtrace.c: libFuzzer target for the DiskSim validate-trace reader: any bytes must give a
 * trace or one error line, never a crash, a leak or undefined behaviour. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "iolab/validate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	struct iolab_vtrace t;
	struct iolab_err err;
	if (iolab_vtrace_parse("fuzz.trace", text, &t, &err) == 0)
		iolab_vtrace_free(&t);
	else if (!memchr(err.msg, 0, sizeof(err.msg)) || strncmp(err.msg, "fuzz.trace", 10) != 0)
		abort(); /* every error names the file */
	free(text);
	return 0;
}
