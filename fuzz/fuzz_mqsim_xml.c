/* fuzz_mqsim_xml.c: libFuzzer target for `iolab model import-mqsim`'s reader (import_mqsim.c
 * over xml_simple.c): any bytes must give an SSD model or one error line naming the file, never
 * a crash, a leak or undefined behaviour; a model it accepts passes iolab's own check, and
 * written in the model file format it reads back with the same capacity. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "iolab/disk_model.h"
#include "iolab/mqsim_import.h"
#include "iolab/ssd_model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	if (!text)
		return 0;
	struct iolab_disk_model m;
	struct iolab_err err;
	if (iolab_import_mqsim_text("fuzz.xml", text, &m, NULL, NULL, &err) == 0) {
		if (!m.ssd || iolab_ssd_model_check(m.ssd, &err))
			abort();
		char *out = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&out, &len);
		if (f) {
			int rc = iolab_model_write(&m, f);
			fclose(f);
			struct iolab_disk_model back;
			if (rc || iolab_model_parse("back.model", out, &back, &err) || !back.ssd ||
			    back.blocks != m.blocks)
				abort();
			iolab_model_free(&back);
			free(out);
		}
		iolab_model_free(&m);
	} else {
		fuzz_check_error(&err, "fuzz.xml"); /* every error names the file */
	}
	free(text);
	return 0;
}
