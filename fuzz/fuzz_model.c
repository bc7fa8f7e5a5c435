/* fuzz_model.c: libFuzzer target for the drive-model reader: any bytes must give a model or one
 * error line, never a crash, a leak or undefined behaviour; a model it accepts must map its first,
 * middle and last block (the layout arithmetic: every sparing scheme, slips, defects; a [g4]
 * table may leave a block unmapped, -ERANGE, but never places one off the disk). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "iolab/disk_model.h"
#include "sim/devices/layout.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	if (!text)
		return 0;
	struct iolab_disk_model m;
	struct iolab_err err;
	if (iolab_model_parse("fuzz.model", text, &m, &err) == 0) {
		(void)iolab_model_seek_ns(&m, m.cylinders - 1, true);
		const uint64_t lbns[3] = {0, m.blocks / 2, m.blocks - 1};
		for (int i = 0; i < 3; i++) {
			struct iolab_phys p;
			int rc = iolab_layout_map(&m, lbns[i], &p);
			if (rc == -ERANGE && m.g4)
				continue; /* a [g4] table may leave a block unmapped (layout_g4.c) */
			if (rc || p.cyl >= m.cylinders)
				abort(); /* an accepted model maps every block it claims */
			(void)iolab_layout_next(&m, &p);
		}
		iolab_model_free(&m);
	} else {
		fuzz_check_error(&err, "fuzz.model"); /* every error names the file */
	}
	free(text);
	return 0;
}
