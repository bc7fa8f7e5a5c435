/* fuzz_model.c: libFuzzer target for the drive-model reader: any bytes must give a model or one
 * error line, never a crash, a leak or undefined behaviour; a model it accepts must map its first,
 * middle and last block (the layout arithmetic: every sparing scheme, slips, defects; a [g4]
 * table may leave a block unmapped, -ERANGE, but never places one off the disk); an SSD model
 * (`device = ssd`) it accepts must derive its capacity from its pages and read back the same
 * once written. The "# datasheet:" lines `iolab model new` writes (model_datasheet.h) are read
 * from the same bytes: when they give the eight figures, the model made from them must load and
 * hold the capacity. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "iolab/disk_model.h"
#include "iolab/model_datasheet.h"
#include "iolab/ssd_model.h"
#include "sim/devices/layout.h"

/* An accepted SSD model: its derived figures agree, and written out it reads back the same. */
static void ssd_written_back(const struct iolab_disk_model *m)
{
	const struct iolab_ssd_model *s = m->ssd;
	uint64_t logical = iolab_ssd_logical_pages(s);
	if (!logical || logical > iolab_ssd_physical_pages(s) || m->block_bytes != 512 ||
	    m->blocks != logical * (s->page_bytes / 512))
		abort();
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return;
	int rc = iolab_model_write(m, f);
	fclose(f);
	struct iolab_disk_model back;
	struct iolab_err err;
	if (rc || iolab_model_parse("back.model", text, &back, &err))
		abort();
	if (!back.ssd || back.blocks != m->blocks || back.ssd->overprovisioning != s->overprovisioning ||
	    back.ssd->read_ns[2] != s->read_ns[2] || back.ssd->channel_rate != s->channel_rate ||
	    back.ssd->cache_bytes != s->cache_bytes || strcmp(back.name, m->name))
		abort();
	iolab_model_free(&back);
	free(text);
}

/* A drive model maps its first, middle and last block. */
static void drive_maps(const struct iolab_disk_model *m)
{
	(void)iolab_model_seek_ns(m, m->cylinders - 1, true);
	const uint64_t lbns[3] = {0, m->blocks / 2, m->blocks - 1};
	for (int i = 0; i < 3; i++) {
		struct iolab_phys p;
		int rc = iolab_layout_map(m, lbns[i], &p);
		if (rc == -ERANGE && m->g4)
			continue; /* a [g4] table may leave a block unmapped (layout_g4.c) */
		if (rc || p.cyl >= m->cylinders)
			abort(); /* an accepted model maps every block it claims */
		(void)iolab_layout_next(m, &p);
	}
}

/* A model made from datasheet lines loads and holds the capacity. */
static void datasheet_model(const char *text)
{
	struct iolab_datasheet d = {0};
	struct iolab_err err;
	char *made;
	if (iolab_ds_from_model_text(text, &d, &err) < 8)
		return;
	snprintf(d.name, sizeof(d.name), "fuzz");
	if (iolab_ds_model_text(&d, &made, &err))
		return;
	struct iolab_disk_model m;
	if (iolab_model_parse("made.model", made, &m, &err))
		abort();
	if ((double)m.blocks * 512 < (double)d.capacity_bytes)
		abort();
	iolab_model_free(&m);
	free(made);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	if (!text)
		return 0;
	struct iolab_disk_model m;
	struct iolab_err err;
	if (iolab_model_parse("fuzz.model", text, &m, &err) == 0) {
		if (m.ssd)
			ssd_written_back(&m);
		else
			drive_maps(&m);
		iolab_model_free(&m);
	} else {
		fuzz_check_error(&err, "fuzz.model"); /* every error names the file */
	}
	datasheet_model(text);
	free(text);
	return 0;
}
