/* fuzz_vtrace.c: libFuzzer target for the DiskSim validate-trace reader: any bytes must give a
 * trace or one error line, never a crash, a leak or undefined behaviour. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "iolab/validate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	if (!text)
		return 0;
	struct iolab_vtrace t;
	struct iolab_err err;
	if (iolab_vtrace_parse("fuzz.trace", text, &t, &err) == 0)
		iolab_vtrace_free(&t);
	else
		fuzz_check_error(&err, "fuzz.trace"); /* every error names the file */
	free(text);
	return 0;
}
