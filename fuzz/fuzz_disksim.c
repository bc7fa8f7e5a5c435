/* fuzz_disksim.c: libFuzzer target for the DiskSim importer (import_disksim.c, layout_sparing.c,
 * layout_g4.c). The input is up to three files separated by lines "@@@": the .diskspecs file,
 * then `f.model` and `f.layout`, which it may pull in with `source` (as may they each other, or
 * themselves: the depth limit); `f.seek` is always a valid seek curve. Any bytes must give a
 * model or one error line naming a file of the set, never a crash, a leak or undefined
 * behaviour. A model it accepts must map its first, middle and last block onto the disk (a
 * table layout may leave a block unmapped: -ERANGE), and must read back from what
 * iolab_model_write makes of it. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_common.h"
#include "iolab/disk_model.h"
#include "iolab/disksim_import.h"
#include "sim/devices/layout.h"

static char dir[] = "/tmp/fuzz_disksim_XXXXXX";

static void put(const char *name, const char *text, size_t len)
{
	char path[128];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	if (!f)
		abort();
	if (len && fwrite(text, 1, len, f) != len)
		abort();
	fclose(f);
}

static void check_model(struct iolab_disk_model *m)
{
	const uint64_t lbns[3] = {0, m->blocks / 2, m->blocks - 1};
	for (int i = 0; i < 3; i++) {
		struct iolab_phys p;
		int rc = iolab_layout_map(m, lbns[i], &p);
		if ((rc && !(m->g4 && rc == -ERANGE)) || (!rc && (p.cyl >= m->cylinders || p.head >= m->surfaces)))
			abort();
		if (!rc)
			(void)iolab_layout_next(m, &p);
	}
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f || iolab_model_write(m, f) || fclose(f))
		abort();
	struct iolab_disk_model back;
	struct iolab_err err;
	if (iolab_model_parse("back.model", text, &back, &err))
		abort(); /* what the importer accepts, the model format holds */
	iolab_model_free(&back);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool ready;
	if (!ready) {
		if (!mkdtemp(dir))
			abort();
		static const char seek[] = "Seek distances measured: 2\n1,\t1.0\n2,\t1.5\n";
		put("f.seek", seek, sizeof(seek) - 1);
		ready = true;
	}
	char *text = fuzz_text(data, size);
	if (!text)
		return 0;
	static const char *const names[] = {"fuzz.diskspecs", "f.model", "f.layout"};
	char *part = text;
	for (int i = 0; i < 3; i++) {
		char *sep = i < 2 ? strstr(part, "\n@@@\n") : NULL;
		size_t len = sep ? (size_t)(sep - part) : strlen(part);
		put(names[i], part, len);
		part = sep ? sep + 5 : part + len;
	}
	char spec[128];
	snprintf(spec, sizeof(spec), "%s/fuzz.diskspecs", dir);
	struct iolab_disk_model m;
	struct iolab_err err;
	if (iolab_import_disksim(spec, &m, &err) == 0) {
		check_model(&m);
		iolab_model_free(&m);
	} else {
		fuzz_check_error(&err, dir); /* every error names one of the files */
	}
	free(text);
	return 0;
}
