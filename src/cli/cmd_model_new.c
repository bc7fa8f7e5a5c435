/* cmd_model_new.c: `iolab model new`: a drive model file from a datasheet's figures
 * (model_datasheet.h; docs/model-format.md "From a datasheet"). */
#include <ctype.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "iolab/disk_model.h"
#include "iolab/model_datasheet.h"
#include "iolab/outfile.h"

static void help_new(void)
{
	printf("usage: iolab model new --capacity SIZE --rpm N --avg-seek T --track-seek T --full-seek T\n"
	       "                 --media-rate R[-R] --cache SIZE --queue N -o OUT.model [--force]\n"
	       "                 [--surfaces N] [--zones N] [--interface R] [--name NAME]\n\n"
	       "Writes a complete drive model from a datasheet's figures: zones from the media rates\n"
	       "and the capacity, a seek curve through the three seek times, skews, and documented\n"
	       "defaults for what a datasheet leaves out, each marked '# ASSUMED: why' in the file\n"
	       "(docs/model-format.md, \"From a datasheet\"). 'iolab model check OUT.model' compares\n"
	       "what the model predicts with these figures.\n\n"
	       "  --capacity SIZE    formatted capacity: G, GB = 10^9 bytes as drives are sold (T, TB,\n"
	       "                     M, MB alike); GiB, TiB, MiB powers of two. The model holds at\n"
	       "                     least SIZE / 512 blocks\n"
	       "  --rpm N            spindle speed, 1000..30000\n"
	       "  --avg-seek T       average seek (ms or us, like 4.7ms): the curve passes it at a\n"
	       "                     third of the full stroke\n"
	       "  --track-seek T     track-to-track (one cylinder) seek\n"
	       "  --full-seek T      full-stroke seek\n"
	       "  --media-rate R     media (internal) transfer rate, outer and inner edge: MAX-MIN or\n"
	       "                     MIN-MAX, or one rate (MB/s = 10^6 bytes/s, or MiB/s), like 57-36MB/s\n"
	       "  --cache SIZE       the buffer: K, M (KB, MB too) are powers of two as buffer memory\n"
	       "                     is; 0 for none\n"
	       "  --queue N          commands the drive accepts, 1..256; 1 = no command queuing\n"
	       "  --surfaces N       recording surfaces (heads), 1..256 (default 4, assumed)\n"
	       "  --zones N          recording zones, 1..100 (default 20, assumed)\n"
	       "  --interface R      the host interface's rate (default: the first of 100, 150, 300,\n"
	       "                     600 MB/s not slower than the outer media rate, assumed)\n"
	       "  --name NAME        the model's name (letters, digits, '.', '_', '-'; default: OUT's\n"
	       "                     stem)\n"
	       "  -o, --output OUT   the model file to write ('-' = stdout)\n"
	       "  --force            replace OUT if it exists\n\n"
	       "Exit status: 0 written, 1 write error, 2 bad input or OUT exists.\n");
}

/* The model's name: NAME as given (checked), else OUT's stem with bytes other than letters,
 * digits, '.', '_' and '-' made '_' ("datasheet" for stdout or an empty stem). */
static int model_name(const char *given, const char *out, char name[64])
{
	if (given) {
		size_t n = strlen(given);
		if (!n || n > 63 || strspn(given, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
					   "0123456789._-") != n)
			return cli_errorf(EXIT_USAGE, "model new: --name: '%s' is not 1..63 letters, digits, "
					  "'.', '_' or '-'", given);
		strcpy(name, given);
		return EXIT_OK;
	}
	const char *base = strrchr(out, '/');
	base = base ? base + 1 : out;
	size_t len = strlen(base);
	const char *dot = strrchr(base, '.');
	if (dot && dot != base)
		len = (size_t)(dot - base);
	if (len > 63)
		len = 63;
	for (size_t i = 0; i < len; i++)
		name[i] = isalnum((unsigned char)base[i]) || strchr("._-", base[i]) ? base[i] : '_';
	name[len] = 0;
	if (!len || !strcmp(out, "-"))
		strcpy(name, "datasheet");
	return EXIT_OK;
}

int model_new(int argc, char **argv)
{
	enum { OPT_NAME = 1000, OPT_FORCE, OPT_INPUT = 1100 };
	static struct option lo[IOLAB_DS_NINPUTS + 5];
	if (!lo[0].name) {
		for (unsigned i = 0; i < IOLAB_DS_NINPUTS; i++)
			lo[i] = (struct option){iolab_ds_option(i) + 2, required_argument, NULL,
						(int)(OPT_INPUT + i)};
		lo[IOLAB_DS_NINPUTS] = (struct option){"name", required_argument, NULL, OPT_NAME};
		lo[IOLAB_DS_NINPUTS + 1] = (struct option){"output", required_argument, NULL, 'o'};
		lo[IOLAB_DS_NINPUTS + 2] = (struct option){"force", no_argument, NULL, OPT_FORCE};
		lo[IOLAB_DS_NINPUTS + 3] = (struct option){"help", no_argument, NULL, 'h'};
	}
	struct iolab_datasheet d = {0};
	struct iolab_err err;
	const char *out = NULL, *name = NULL;
	bool force = false;
	int ch;
	opterr = 0;
	optind = 1;
	while ((ch = getopt_long(argc, argv, ":o:h", lo, NULL)) != -1) {
		if (ch >= OPT_INPUT && ch < OPT_INPUT + IOLAB_DS_NINPUTS) {
			unsigned in = (unsigned)(ch - OPT_INPUT);
			if (d.given[in][0])
				return cli_errorf(EXIT_USAGE, "model new: %s given twice", iolab_ds_option(in));
			if (iolab_ds_set(&d, in, optarg, &err))
				return cli_errorf(EXIT_USAGE, "model new: %s", err.msg);
			continue;
		}
		switch (ch) {
		case 'o': out = optarg; break;
		case OPT_NAME: name = optarg; break;
		case OPT_FORCE: force = true; break;
		case 'h': help_new(); return EXIT_OK;
		default: return cli_opt_error("model new", ch, argv);
		}
	}
	if (optind < argc)
		return cli_errorf(EXIT_USAGE, "model new: unexpected argument '%s' (every figure is an "
				  "option: see 'iolab model new --help')", argv[optind]);
	if (!out)
		return cli_errorf(EXIT_USAGE, "model new: -o OUT.model is required");
	if (model_name(name, out, d.name))
		return EXIT_USAGE;
	char *text;
	if (iolab_ds_model_text(&d, &text, &err))
		return cli_errorf(EXIT_USAGE, "model new: %s", err.msg);
	/* what was made must load as any model file does */
	struct iolab_disk_model m;
	if (iolab_model_parse(out, text, &m, &err)) {
		free(text);
		return cli_errorf(EXIT_FAILED, "model new: the model made from these figures does not "
				  "load: %s", err.msg);
	}
	const struct iolab_output outs[] = {{"--output", out, IOLAB_OUT_REPLACE}};
	struct iolab_out o;
	int rc = iolab_outputs_check(outs, 1, NULL, 0, force, &err);
	if (rc) {
		rc = cli_errorf(EXIT_USAGE, "model new: %s", err.msg);
	} else if (iolab_out_open(&o, out, &err)) {
		rc = cli_errorf(EXIT_FAILED, "model new: %s", err.msg);
	} else if (fputs(text, o.f) == EOF) {
		iolab_out_abort(&o);
		rc = cli_errorf(EXIT_FAILED, "model new: %s: error writing the model", out);
	} else if (iolab_out_commit(&o, &err)) {
		rc = cli_errorf(EXIT_FAILED, "model new: %s", err.msg);
	} else if (!o.to_stdout) {
		cli_errorf(EXIT_OK, "wrote %s: model '%s', %u zone%s, %u cylinders, %" PRIu64 " blocks "
			   "(%.2f GB)", out, m.name, m.nzones, m.nzones == 1 ? "" : "s", m.cylinders, m.blocks,
			   (double)m.blocks * m.block_bytes / 1e9);
	}
	iolab_model_free(&m);
	free(text);
	return rc;
}
