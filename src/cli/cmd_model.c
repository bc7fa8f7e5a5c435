/* cmd_model.c: `iolab model import-disksim | show | list` and `iolab models`: drive models for
 * the simulator (docs/model-format.md); the SSD side (import-mqsim, showing an SSD model) is
 * cmd_model_ssd.c, `model new` (a model from a datasheet) cmd_model_new.c, `model check`
 * cmd_model_check.c. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "iolab/disk_model.h"
#include "iolab/disksim_import.h"
#include "iolab/model_predict.h"
#include "iolab/outfile.h"

static const char *const sched_names[] = {"fcfs", "sstf", "clook", "sptf"};

static void help_model(void)
{
	printf("usage: iolab model new --capacity SIZE --rpm N --avg-seek T --track-seek T\n"
	       "                 --full-seek T --media-rate R[-R] --cache SIZE --queue N -o OUT.model\n"
	       "       iolab model check NAME|FILE [--json]\n"
	       "       iolab model import-disksim FILE.diskspecs -o OUT.model [--force]\n"
	       "       iolab model import-mqsim FILE.xml -o OUT.model [--force]\n"
	       "       iolab model show NAME|FILE [--json]\n"
	       "       iolab model list\n\n"
	       "Drive and SSD models for the simulator ('iolab sim'); the format is\n"
	       "docs/model-format.md (an SSD model starts 'device = ssd': \"SSD models\").\n"
	       "  new             write a drive model from a datasheet's figures (zones, seek curve,\n"
	       "                  skews; the rest assumed and marked so in the file)\n"
	       "  check           what a drive model predicts (seeks, rotation, media rates,\n"
	       "                  capacity, random 4 KiB reads at QD 1) beside its datasheet figures\n"
	       "  import-disksim  convert a DiskSim 4.0 drive (its .diskspecs, the .model it sources\n"
	       "                  and that file's .seek curve) into a model file\n"
	       "  import-mqsim    convert MQSim's SSD configuration (ssdconfig.xml) into an SSD\n"
	       "                  model file\n"
	       "  show            capacity, rotation, seek figures and the zone table of a drive\n"
	       "                  model; capacity, flash array and the model file of an SSD model\n"
	       "  list            the built-in models (same as 'iolab models')\n\n"
	       "NAME is a built-in model; a FILE is any argument that holds '/' or ends in '.model'.\n"
	       "'iolab model COMMAND --help' for each command's options.\n");
}

static void help_import(void)
{
	printf("usage: iolab model import-disksim FILE.diskspecs -o OUT.model [--force]\n\n"
	       "Reads a DiskSim 4.0 drive: FILE.diskspecs (controller, cache, queue), the file its\n"
	       "'Model = source X.model' names (geometry, mechanics, zones) and that file's 'Full seek\n"
	       "curve = X.seek', both relative to the directory of the file naming them. Writes the\n"
	       "model, named after FILE's stem, to OUT ('-' = stdout).\n\n"
	       "  -o, --output OUT   the model file to write (required)\n"
	       "  --force            overwrite OUT if it exists\n\n"
	       "Exit status: 0 written, 1 write error, 2 bad input or OUT exists.\n");
}

static void help_show(void)
{
	printf("usage: iolab model show NAME|FILE [--json]\n\n"
	       "Prints a model's derived figures: capacity (GB = 10^9 bytes), rotation, mean rotational\n"
	       "latency, single / average (over uniformly random cylinder pairs) / full-stroke seek,\n"
	       "interface rate, cache and queue, and the zone table with each zone's media rate.\n"
	       "For an SSD model (device = ssd): capacity, flash array, spare and GC reserve, queue,\n"
	       "then the model file itself.\n\n"
	       "  --json   the same as one JSON object on stdout\n");
}

static void help_list(const char *cmd)
{
	printf("usage: iolab %s\n\nLists the built-in drive and SSD models, one a line: name, then "
	       "(an SSD) 'SSD:',\nthen what the device is and where its figures come from. Use them "
	       "with\n'iolab model show NAME' and 'iolab sim'.\n", cmd);
}

static bool is_help(const char *a)
{
	return !strcmp(a, "--help") || !strcmp(a, "-h");
}

/* The parameters DiskSim accepts that iolab does not model, gathered for one line. */
struct unmodelled {
	FILE *f; /* "'Name' (file:line), ..." */
	char *text;
	size_t len;
	unsigned n;
};

static void import_note(const char *file, unsigned line, const char *field, const char *block,
			void *ctx)
{
	(void)block;
	struct unmodelled *u = ctx;
	const char *base = strrchr(file, '/');
	if (u->f)
		fprintf(u->f, "%s'%s' (%s:%u)", u->n ? ", " : "", field, base ? base + 1 : file, line);
	u->n++;
}

/* Says (say), in one line, what the import accepted without modelling it, and frees u. */
static void end_unmodelled(struct unmodelled *u, bool say)
{
	if (u->f)
		fclose(u->f);
	u->f = NULL;
	if (say && u->n && u->text)
		cli_errorf(EXIT_OK, "note: %u parameter%s DiskSim 4.0 accepts %s not modelled by iolab "
			   "and had no effect: %s", u->n, u->n == 1 ? "" : "s", u->n == 1 ? "is" : "are",
			   u->text);
	free(u->text);
}

int model_import_args(int argc, char **argv, const char *cmd, const char *what, void (*help)(void),
		      const char **in, const char **out, bool *force)
{
	static const struct option lo[] = {
		{"output", required_argument, NULL, 'o'},
		{"force", no_argument, NULL, 'f'},
		{"help", no_argument, NULL, 'h'},
		{0},
	};
	*out = *in = NULL;
	*force = false;
	int ch;
	opterr = 0;
	optind = 1;
	while ((ch = getopt_long(argc, argv, ":o:h", lo, NULL)) != -1) {
		switch (ch) {
		case 'o': *out = optarg; break;
		case 'f': *force = true; break;
		case 'h': help(); return EXIT_OK;
		default: return cli_opt_error(cmd, ch, argv);
		}
	}
	if (optind >= argc)
		return cli_errorf(EXIT_USAGE, "%s: which %s? (see 'iolab %s --help')", cmd, what, cmd);
	*in = argv[optind++];
	if (optind < argc)
		return cli_errorf(EXIT_USAGE, "%s: unexpected argument '%s'", cmd, argv[optind]);
	if (!*out)
		return cli_errorf(EXIT_USAGE, "%s: -o OUT.model is required", cmd);
	return -1;
}

int model_import_write(const struct iolab_disk_model *m, const char *cmd, const char *in,
		       const char *note, const char *extra, const char *out, bool *to_stdout,
		       struct iolab_err *err)
{
	struct iolab_out o;
	int rc = iolab_out_open(&o, out, err);
	if (rc)
		return rc;
	*to_stdout = o.to_stdout;
	const char *base = strrchr(in, '/');
	fprintf(o.f, "# Imported by 'iolab %s' from ", cmd);
	for (const char *c = base ? base + 1 : in; *c; c++)
		fputc((unsigned char)*c < ' ' ? '?' : *c, o.f);
	fprintf(o.f, "%s\n%s", note ? note : "", extra ? extra : "");
	rc = iolab_model_write(m, o.f);
	if (rc) {
		iolab_out_abort(&o);
		return iolab_errf(err, -rc, "%s: error writing the model", out);
	}
	return iolab_out_commit(&o, err);
}

static int import_disksim(int argc, char **argv)
{
	const char *out, *in;
	bool force, to_stdout;
	int rc = model_import_args(argc, argv, "model import-disksim", ".diskspecs file", help_import,
				   &in, &out, &force);
	if (rc >= 0)
		return rc;
	struct iolab_err err;
	struct iolab_disk_model m;
	struct unmodelled u = {0};
	u.f = open_memstream(&u.text, &u.len);
	if (iolab_import_disksim_notes(in, &m, import_note, &u, &err)) {
		end_unmodelled(&u, false);
		return cli_errorf(EXIT_USAGE, "%s", err.msg);
	}
	/* checked once every file the specification sources has been read (outfile.h) */
	const struct iolab_output outs[] = {{"--output", out, IOLAB_OUT_REPLACE}};
	if (iolab_outputs_check(outs, 1, &in, 1, force, &err)) {
		end_unmodelled(&u, false);
		iolab_model_free(&m);
		return cli_errorf(EXIT_USAGE, "model import-disksim: %s", err.msg);
	}
	if (model_import_write(&m, "model import-disksim", in, NULL, NULL, out, &to_stdout, &err)) {
		end_unmodelled(&u, false);
		cli_errorf(EXIT_FAILED, "%s", err.msg);
		iolab_model_free(&m);
		return EXIT_FAILED;
	}
	if (!to_stdout)
		cli_errorf(EXIT_FAILED, "wrote %s: model '%s', %u zones, %" PRIu64 " blocks, %u seek points",
			out, m.name, m.nzones, m.blocks, m.nseek);
	end_unmodelled(&u, true);
	iolab_model_free(&m);
	return EXIT_OK;
}

struct figures {
	double capacity_gb, rev_ms, latency_ms, seek_single_ms, seek_avg_ms, seek_full_ms;
	double interface_mb_s; /* 0: no bus time given */
};

static void derive(const struct iolab_disk_model *m, struct figures *f)
{
	f->capacity_gb = (double)m->blocks * m->block_bytes / 1e9;
	f->rev_ms = m->rev_ns / 1e6;
	f->latency_ms = f->rev_ms / 2;
	f->seek_single_ms = iolab_model_seek_ns(m, 1, false) / 1e6;
	f->seek_avg_ms = iolab_model_random_seek_ns(m) / 1e6;
	f->seek_full_ms = m->cylinders > 1 ? iolab_model_seek_ns(m, m->cylinders - 1, false) / 1e6 : 0;
	f->interface_mb_s = m->bus_ns_per_block ? m->block_bytes * 1e3 / (double)m->bus_ns_per_block : 0;
}

static double media_mb_s(const struct iolab_disk_model *m, const struct iolab_zone *z)
{
	return m->rev_ns ? (double)z->spt * m->block_bytes * 1e3 / (double)m->rev_ns : 0;
}

static void show_text(const struct iolab_disk_model *m, const struct figures *f)
{
	printf("%s: %s\n\n", m->name, m->about);
	printf("%-12s %.2f GB (%" PRIu64 " blocks of %u bytes)\n", "capacity", f->capacity_gb,
	       m->blocks, m->block_bytes);
	printf("%-12s %u surfaces, %u cylinders, %u zones, %s mapping\n", "geometry", m->surfaces,
	       m->cylinders, m->nzones, m->cylinder_serpentine ? "serpentine" : "cylinder");
	printf("%-12s %.0f rpm: %.3f ms a revolution, mean rotational latency %.3f ms\n", "rotation",
	       m->rpm, f->rev_ms, f->latency_ms);
	printf("%-12s single %.3f ms, average %.3f ms (random cylinder pairs), full stroke %.3f ms\n",
	       "seek", f->seek_single_ms, f->seek_avg_ms, f->seek_full_ms);
	static const char *const formula[] = {"", "", "HPL equation", "first ten seek times, then the "
					      "HPL equation", "Lee's curve through the single, average "
					      "and full-stroke times", "straight lines through the single, "
					      "average and full-stroke times", "constant seek time"};
	static const char *const type[] = {"", "", "hpl", "hplplus10", "curve", "linear", "constant"};
	if (m->seek_type > IOLAB_SEEK_EXTRACTED)
		printf("%-12s %s (seek_type = %s)\n", "", formula[m->seek_type], type[m->seek_type]);
	else if (m->nseek)
		printf("%-12s measured curve of %u points\n", "", m->nseek);
	else
		printf("%-12s fitted to the datasheet figures (single %.3f, average %.3f, full %.3f ms)\n",
		       "", m->seek_single_ns / 1e6, m->seek_avg_ns / 1e6, m->seek_full_ns / 1e6);
	printf("%-12s head switch %.3f ms, read/write switch %.3f ms, write settle %+.3f ms\n", "",
	       m->head_switch_ns / 1e6, m->rw_switch_ns / 1e6, m->write_settle_ns / 1e6);
	if (m->access == IOLAB_ACCESS_AVG_ROTATION)
		printf("%-12s rotational latency taken as half a revolution (access_time)\n", "");
	else if (m->access == IOLAB_ACCESS_CONSTANT)
		printf("%-12s constant %.3f ms instead of seek and rotation (access_time)\n", "",
		       m->access_const_ns / 1e6);
	if (f->interface_mb_s > 0)
		printf("%-12s %.1f MB/s (%.3f us a block)\n", "interface", f->interface_mb_s,
		       m->bus_ns_per_block / 1e3);
	else
		printf("%-12s no transfer time\n", "interface");
	printf("%-12s read hit %.3f/%.3f, read miss %.3f/%.3f, write hit %.3f/%.3f, write miss "
	       "%.3f/%.3f ms\n", "overheads", m->ovh_read_hit[0] / 1e6, m->ovh_read_hit[1] / 1e6,
	       m->ovh_read_miss[0] / 1e6, m->ovh_read_miss[1] / 1e6, m->ovh_write_hit[0] / 1e6,
	       m->ovh_write_hit[1] / 1e6, m->ovh_write_miss[0] / 1e6, m->ovh_write_miss[1] / 1e6);
	printf("%-12s (after a read / after a write)\n", "");
	if (m->segments)
		printf("%-12s %u segments of %u blocks (%.1f MiB)%s; read-ahead %s; write-%s\n", "cache",
		       m->segments, m->segment_blocks,
		       (double)m->segments * m->segment_blocks * m->block_bytes / 1048576.0,
		       m->separate_write_segment ? " + a write segment" : "",
		       m->readahead_track ? "to the end of the track" : "up to a number of blocks",
		       m->write_back ? "back" : "through");
	else
		printf("%-12s none\n", "cache");
	printf("%-12s depth %u, %s\n\n", "queue", m->queue_depth, sched_names[m->sched]);

	printf("%5s %13s %6s %12s %12s %11s\n", "zone", "cylinders", "spt", "first lbn", "blocks",
	       "media MB/s");
	for (unsigned i = 0; i < m->nzones; i++) {
		const struct iolab_zone *z = &m->zone[i];
		char cyl[32];
		snprintf(cyl, sizeof(cyl), "%u-%u", z->first_cyl, z->last_cyl);
		printf("%5u %13s %6u %12" PRIu64 " %12" PRIu64 " %11.2f\n", i + 1, cyl, z->spt,
		       z->first_lbn, z->nblocks, media_mb_s(m, z));
	}
}

static int show_json(const struct iolab_disk_model *m, const struct figures *f)
{
	json_t *zones = json_array();
	for (unsigned i = 0; i < m->nzones; i++) {
		const struct iolab_zone *z = &m->zone[i];
		json_array_append_new(zones, json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:f}",
			"zone", (json_int_t)(i + 1), "first_cyl", (json_int_t)z->first_cyl,
			"last_cyl", (json_int_t)z->last_cyl, "sectors_per_track", (json_int_t)z->spt,
			"first_lbn", (json_int_t)z->first_lbn, "blocks", (json_int_t)z->nblocks,
			"media_mb_s", media_mb_s(m, z)));
	}
	json_t *root = json_pack("{s:s, s:s, s:I, s:I, s:f, s:I, s:I, s:s, s:f, s:f, s:f}",
		"name", m->name, "about", m->about, "blocks", (json_int_t)m->blocks,
		"block_bytes", (json_int_t)m->block_bytes, "capacity_gb", f->capacity_gb,
		"surfaces", (json_int_t)m->surfaces, "cylinders", (json_int_t)m->cylinders,
		"mapping", m->cylinder_serpentine ? "serpentine" : "cylinder", "rpm", m->rpm,
		"revolution_ms", f->rev_ms, "rotational_latency_ms", f->latency_ms);
	json_object_set_new(root, "seek_single_ms", json_real(f->seek_single_ms));
	json_object_set_new(root, "seek_average_ms", json_real(f->seek_avg_ms));
	json_object_set_new(root, "seek_full_ms", json_real(f->seek_full_ms));
	json_object_set_new(root, "seek_points", json_integer(m->nseek));
	json_object_set_new(root, "head_switch_ms", json_real(m->head_switch_ns / 1e6));
	json_object_set_new(root, "read_write_switch_ms", json_real(m->rw_switch_ns / 1e6));
	json_object_set_new(root, "write_settle_ms", json_real(m->write_settle_ns / 1e6));
	json_object_set_new(root, "bus_us_per_block", json_real(m->bus_ns_per_block / 1e3));
	json_object_set_new(root, "interface_mb_s", f->interface_mb_s > 0 ? json_real(f->interface_mb_s)
									   : json_null());
	json_object_set_new(root, "cache_segments", json_integer(m->segments));
	json_object_set_new(root, "segment_blocks", json_integer(m->segment_blocks));
	json_object_set_new(root, "write_back", json_boolean(m->write_back));
	json_object_set_new(root, "queue_depth", json_integer(m->queue_depth));
	json_object_set_new(root, "scheduler", json_string(sched_names[m->sched]));
	json_object_set_new(root, "zones", zones);
	int rc = json_dumpf(root, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
	json_decref(root);
	fputc('\n', stdout);
	return rc ? EXIT_FAILED : EXIT_OK;
}

int model_one_arg(int argc, char **argv, const char *cmd, void (*help)(void), bool *json,
		  const char **name)
{
	static const struct option lo[] = {
		{"json", no_argument, NULL, 'j'},
		{"help", no_argument, NULL, 'h'},
		{0},
	};
	*json = false;
	*name = NULL;
	int ch;
	opterr = 0;
	optind = 1;
	while ((ch = getopt_long(argc, argv, ":h", lo, NULL)) != -1) {
		switch (ch) {
		case 'j': *json = true; break;
		case 'h': help(); return EXIT_OK;
		default: return cli_opt_error(cmd, ch, argv);
		}
	}
	if (optind >= argc)
		return cli_errorf(EXIT_USAGE, "%s: which model? (a name from 'iolab models', or a "
				  "model file)", cmd);
	if (optind + 1 < argc)
		return cli_errorf(EXIT_USAGE, "%s: unexpected argument '%s'", cmd, argv[optind + 1]);
	*name = argv[optind];
	return EXIT_OK;
}

static int show(int argc, char **argv)
{
	bool json;
	const char *name;
	int st = model_one_arg(argc, argv, "model show", help_show, &json, &name);
	if (st || !name)
		return st;
	struct iolab_disk_model m;
	struct iolab_err err;
	if (iolab_model_open(name, &m, &err)) {
		return cli_errorf(EXIT_USAGE, "%s", err.msg);
	}
	if (m.ssd) {
		int rc = model_show_ssd(&m, json);
		iolab_model_free(&m);
		return rc;
	}
	struct figures f;
	derive(&m, &f);
	int rc = EXIT_OK;
	if (json)
		rc = show_json(&m, &f);
	else
		show_text(&m, &f);
	iolab_model_free(&m);
	return rc;
}

/* `iolab models` and `iolab model list` (cmd names which). */
static int list_models(const char *cmd, int argc, char **argv)
{
	if (argc > 1 && is_help(argv[1])) {
		help_list(cmd);
		return EXIT_OK;
	}
	if (argc > 1) {
		return cli_errorf(EXIT_USAGE, "%s: unexpected argument '%s'", cmd, argv[1]);
	}
	int status = EXIT_OK;
	for (unsigned i = 0; i < iolab_model_builtin_count(); i++) {
		struct iolab_disk_model m;
		struct iolab_err err;
		const char *name = iolab_model_builtin_name(i);
		if (iolab_model_open(name, &m, &err)) {
			status = cli_errorf(EXIT_FAILED, "built-in model %s: %s", name, err.msg);
			continue;
		}
		if (m.ssd) /* the built-in SSDs are marked: their name, then "SSD:" */
			printf("%-12s SSD: %s\n", name, m.about);
		else
			printf("%-12s %s\n", name, m.about);
		iolab_model_free(&m);
	}
	return status;
}

int cmd_models(int argc, char **argv)
{
	return list_models("models", argc, argv);
}

int cmd_model(int argc, char **argv)
{
	if (argc < 2)
		return cli_errorf(EXIT_USAGE, "model: which command? new, check, import-disksim, "
				       "import-mqsim, show or list (see 'iolab model --help')");
	const char *sub = argv[1];
	if (is_help(sub) || !strcmp(sub, "help")) {
		help_model();
		return EXIT_OK;
	}
	if (!strcmp(sub, "new"))
		return model_new(argc - 1, argv + 1);
	if (!strcmp(sub, "check"))
		return model_check(argc - 1, argv + 1);
	if (!strcmp(sub, "import-disksim"))
		return import_disksim(argc - 1, argv + 1);
	if (!strcmp(sub, "import-mqsim"))
		return model_import_mqsim(argc - 1, argv + 1);
	if (!strcmp(sub, "show"))
		return show(argc - 1, argv + 1);
	if (!strcmp(sub, "list"))
		return list_models("model list", argc - 1, argv + 1);
	return cli_errorf(EXIT_USAGE, "model: unknown command '%s' (new, check, import-disksim, "
			  "import-mqsim, show or list)", sub);
}
