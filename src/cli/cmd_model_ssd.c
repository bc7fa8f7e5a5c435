/* cmd_model_ssd.c: the SSD side of `iolab model`: `model import-mqsim` (MQSim's ssdconfig.xml
 * into an SSD model file, mqsim_import.h) and what `model show` prints for an SSD model (its
 * derived figures, then the model file itself). */
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "iolab/disk_model.h"
#include "iolab/examples.h"
#include "iolab/mqsim_import.h"
#include "iolab/outfile.h"
#include "iolab/ssd_model.h"
#include "sim/formats/ssd_model_file.h"

static void help_import_mqsim(void)
{
	printf("usage: iolab model import-mqsim FILE.xml -o OUT.model [--force]\n\n"
	       "Reads MQSim's SSD configuration (ssdconfig.xml: <Execution_Parameter_Set> with\n"
	       "<Host_Parameter_Set>, <Device_Parameter_Set> and <Flash_Parameter_Set>) and writes\n"
	       "an SSD model (docs/model-format.md, \"SSD models\"), named after FILE's stem, to OUT\n"
	       "('-' = stdout). Each MQSim parameter becomes the iolab field of the same meaning; the\n"
	       "ones iolab does not model (seeds, logging, wear levelling, sharing modes, suspension,\n"
	       "Page_Metadat_Capacity, ...) are accepted and named on stderr, one a line, as are the\n"
	       "missing ones that take MQSim's default. An unknown element is refused. When no file\n"
	       "FILE exists, a shipped one of that name is read: 'ssdconfig.xml' is MQSim's own\n"
	       "(see 'iolab sim examples'), whose model equals the built-in mqsim-default.\n\n"
	       "  -o, --output OUT   the model file to write (required)\n"
	       "  --force            overwrite OUT if it exists\n\n"
	       "Exit status: 0 written, 1 write error, 2 bad input or OUT exists.\n");
}

/* Each parameter accepted without effect, or taken at MQSim's default, one line on stderr. */
static void import_note(const char *file, unsigned line, const char *field, const char *what,
			void *ctx)
{
	(void)ctx;
	const char *base = strrchr(file, '/');
	if (line)
		fprintf(stderr, "iolab: note: %s:%u: %s: %s\n", base ? base + 1 : file, line, field, what);
	else
		fprintf(stderr, "iolab: note: %s: %s: %s\n", base ? base + 1 : file, field, what);
}

int model_import_mqsim(int argc, char **argv)
{
	const char *out, *in;
	bool force, to_stdout;
	int rc = model_import_args(argc, argv, "model import-mqsim", "MQSim configuration (.xml)",
				   help_import_mqsim, &in, &out, &force);
	if (rc >= 0)
		return rc;
	struct iolab_err err;
	const struct iolab_output outs[] = {{"--output", out, IOLAB_OUT_REPLACE}};
	if (iolab_outputs_check(outs, 1, &in, 1, force, &err))
		return cli_errorf(EXIT_USAGE, "model import-mqsim: %s", err.msg);
	struct iolab_disk_model m;
	const char *shipped = iolab_example_text_for(in);
	rc = shipped ? iolab_import_mqsim_text(in, shipped, &m, import_note, NULL, &err)
			 : iolab_import_mqsim(in, &m, import_note, NULL, &err);
	if (rc)
		return cli_errorf(EXIT_USAGE, "%s", err.msg);
	if (model_import_write(&m, "model import-mqsim", in,
			       shipped ? " (the copy shipped with iolab)" : NULL,
			       "# MQSim's ONFI read command time (290 ns) is its channel_command_ns; its "
			       "channel rate is\n# width x Channel_Transfer_Rate exactly (MQSim truncates "
			       "1000 / rate to whole ns)\n", out, &to_stdout, &err)) {
		iolab_model_free(&m);
		return cli_errorf(EXIT_FAILED, "%s", err.msg);
	}
	if (!to_stdout)
		cli_errorf(EXIT_OK, "wrote %s: SSD model '%s', %" PRIu64 " logical pages of %" PRIu32
			   " bytes (%.2f GB)", out, m.name, iolab_ssd_logical_pages(m.ssd),
			   m.ssd->page_bytes, (double)m.blocks * m.block_bytes / 1e9);
	iolab_model_free(&m);
	return EXIT_OK;
}

/* The model as its file says it, in a string (NULL: out of memory). */
static char *model_text(const struct iolab_disk_model *m)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return NULL;
	int rc = iolab_model_write(m, f);
	fclose(f);
	if (rc) {
		free(text);
		return NULL;
	}
	return text;
}

int model_show_ssd(const struct iolab_disk_model *m, bool json)
{
	const struct iolab_ssd_model *s = m->ssd;
	uint64_t phys = iolab_ssd_physical_pages(s), logical = iolab_ssd_logical_pages(s);
	uint64_t dies = (uint64_t)s->channels * s->chips_per_channel * s->dies_per_chip;
	double cap_gb = (double)m->blocks * m->block_bytes / 1e9;
	char *text = model_text(m);
	if (!text)
		return cli_errorf(EXIT_FAILED, "model show: out of memory");
	if (json) {
		json_t *root = json_pack("{s:s, s:s, s:s, s:I, s:I, s:f, s:I, s:I, s:I, s:I, s:I, s:s}",
			"name", m->name, "about", m->about, "device", "ssd",
			"blocks", (json_int_t)m->blocks, "block_bytes", (json_int_t)m->block_bytes,
			"capacity_gb", cap_gb, "physical_pages", (json_int_t)phys,
			"logical_pages", (json_int_t)logical, "dies", (json_int_t)dies,
			"gc_reserve_blocks", (json_int_t)iolab_ssd_gc_reserve_blocks(s),
			"queue_depth", (json_int_t)m->queue_depth, "model", text);
		free(text);
		if (!root)
			return cli_errorf(EXIT_FAILED, "model show: out of memory");
		int rc = json_dumpf(root, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
		json_decref(root);
		fputc('\n', stdout);
		return rc ? EXIT_FAILED : EXIT_OK;
	}
	printf("%s: %s\n\n", m->name, m->about);
	printf("%-12s %.2f GB (%" PRIu64 " blocks of %u bytes): %" PRIu64 " logical pages of %" PRIu32
	       " bytes\n", "capacity", cap_gb, m->blocks, m->block_bytes, logical, s->page_bytes);
	printf("%-12s %u channels x %u chips x %u dies x %u planes (%" PRIu64 " dies), %" PRIu32
	       " blocks of %" PRIu32 " pages a plane: %" PRIu64 " physical pages\n", "flash",
	       s->channels, s->chips_per_channel, s->dies_per_chip, s->planes_per_die, dies,
	       s->blocks_per_plane, s->pages_per_block, phys);
	printf("%-12s %.2f %% of the physical pages spare; GC keeps %" PRIu32 " free blocks a plane\n",
	       "spare", 100.0 * (double)(phys - logical) / (double)phys, iolab_ssd_gc_reserve_blocks(s));
	printf("%-12s %u commands (%u queue%s x %u)\n\n", "queue", m->queue_depth, s->queues,
	       s->queues == 1 ? "" : "s", s->queue_entries);
	fputs(text, stdout);
	free(text);
	return EXIT_OK;
}
