/* cmd_sim.c: `iolab sim validate`: a drive model against measurements of the real drive (the
 * demerit figure), and dispatch of `iolab sim examples` (cmd_sim_examples.c) and of `iolab sim`
 * workload runs (cmd_run.c). */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "iolab/disk_model.h"
#include "iolab/disk_sim.h"
#include "iolab/outfile.h"
#include "iolab/output.h"
#include "iolab/sim_kinds.h"
#include "iolab/validate.h"

static void validate_help(void)
{
	printf("usage: iolab sim validate --model NAME|FILE TRACE [--json FILE] [--requests FILE] [--force]\n\n"
	       "Replays a DiskSim validate-format trace (R|W Hit|Miss lbn blocks service_us think_us,\n"
	       "measured on a real drive, closed loop at depth 1) on the model and prints the\n"
	       "demerit figure: the RMS horizontal distance between the measured and simulated\n"
	       "service-time distributions, as a percentage of the measured mean.\n"
	       "--json FILE also writes both distributions (CDFs); --requests FILE writes one CSV\n"
	       "row per request with its measured and simulated times. '-' is standard output\n"
	       "(the summary then goes to standard error); --force replaces an existing file.\n");
}

static json_t *cdf(const double *sorted, size_t n)
{
	json_t *a = json_array();
	for (unsigned k = 1; k <= 100; k++) {
		double p = k / 100.0;
		json_array_append_new(a, json_pack("{s:f,s:f}", "p", p, "us", iolab_cdf_quantile(sorted, n, p)));
	}
	return a;
}

/* Writes the per-request CSV. */
static void write_requests(FILE *f, const struct iolab_vtrace *t, const double *sim)
{
	fprintf(f, "index,type,lbn,blocks,think_us,measured_us,simulated_us\n");
	for (size_t i = 0; i < t->n; i++)
		fprintf(f, "%zu,%c,%llu,%u,%.1f,%.1f,%.1f\n", i + 1, t->req[i].write ? 'W' : 'R',
			(unsigned long long)t->req[i].lbn, t->req[i].blocks, t->req[i].think_us,
			t->req[i].service_us, sim[i]);
}

/* Writes the --json document into an output opened after those in outs[0..*n); returns 0 or
 * -errno with err set. */
static int add_json(const char *path, json_t *root, struct iolab_out *outs, unsigned *n,
		    struct iolab_err *err)
{
	int rc = iolab_out_open(&outs[*n], path, err);
	if (rc)
		return rc;
	FILE *f = outs[(*n)++].f;
	errno = 0;
	if (json_dumpf(root, f, JSON_INDENT(2)) || fputc('\n', f) == EOF)
		return iolab_errf(err, EIO, "%s: error writing the JSON document: %s", path,
				  strerror(errno ? errno : EIO));
	return 0;
}

static int validate(int argc, char **argv)
{
	static const struct option lo[] = {
		{"model", required_argument, NULL, 'm'},
		{"json", required_argument, NULL, 'j'},
		{"requests", required_argument, NULL, 'r'},
		{"force", no_argument, NULL, 'f'},
		{"help", no_argument, NULL, 'h'},
		{0},
	};
	const char *model_name = NULL, *json = NULL, *per_req = NULL;
	bool force = false;
	int ch;
	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":h", lo, NULL)) != -1) {
		switch (ch) {
		case 'm': model_name = optarg; break;
		case 'j': json = optarg; break;
		case 'r': per_req = optarg; break;
		case 'f': force = true; break;
		case 'h': validate_help(); return EXIT_OK;
		case ':':
			return cli_errorf(EXIT_USAGE, "sim validate: option '%s' needs a value", argv[optind - 1]);
		default:
			return cli_errorf(EXIT_USAGE, "sim validate: unknown option '%s'", argv[optind - 1]);
		}
	}
	if (!model_name)
		return cli_errorf(EXIT_USAGE, "sim validate: --model is required");
	if (optind != argc - 1)
		return cli_errorf(EXIT_USAGE, "sim validate: give exactly one trace file");
	const char *trace = argv[optind];
	struct iolab_disk_model m;
	struct iolab_vtrace t;
	struct iolab_err err;
	const struct iolab_output outs[] = {{"--json", json, IOLAB_OUT_REPLACE},
					    {"--requests", per_req, IOLAB_OUT_REPLACE}};
	const char *inputs[] = {trace, model_name};
	if (iolab_outputs_check(outs, 2, inputs, 2, force, &err)) {
		return cli_errorf(EXIT_USAGE, "%s", err.msg);
	}
	if (iolab_model_open(model_name, &m, &err)) {
		return cli_errorf(EXIT_USAGE, "%s", err.msg);
	}
	if (iolab_vtrace_load(trace, &t, &err)) {
		cli_errorf(EXIT_FAILED, "%s", err.msg);
		iolab_model_free(&m);
		return EXIT_USAGE;
	}
	double *meas = malloc(t.n * sizeof(double)), *sim = malloc(t.n * sizeof(double));
	struct iolab_disk_stats st;
	int status = EXIT_OK;
	if (!meas || !sim) {
		status = cli_errorf(EXIT_USAGE, "out of memory");
	} else if (iolab_validate_run(&m, &t, sim, &st, &err)) {
		status = cli_errorf(EXIT_USAGE, "%s: %s", trace, err.msg);
	} else {
		/* --requests and --json are put in place together, or neither (outfile.h) */
		struct iolab_out outs[2], *done[2] = {&outs[0], &outs[1]};
		unsigned nout = 0;
		int rc = 0;
		if (per_req && !(rc = iolab_out_open(&outs[0], per_req, &err)))
			write_requests(outs[nout++].f, &t, sim); /* before the sort below */
		double ms = 0, ss = 0;
		for (size_t i = 0; i < t.n; i++) {
			meas[i] = t.req[i].service_us;
			ms += meas[i];
			ss += sim[i];
		}
		ms /= (double)t.n;
		ss /= (double)t.n;
		double dem = iolab_demerit(meas, sim, t.n); /* sorts both */
		json_t *root = NULL;
		if (json && !rc &&
		    !(root = json_pack("{s:s,s:s,s:o,s:o,s:I,s:f,s:f,s:f,s:f,s:o,s:o}", "iolab",
				       IOLAB_VERSION, "command", "sim validate", "model",
				       iolab_json_text(m.name), "trace", iolab_json_text(trace),
				       "requests", (json_int_t)t.n,
				       "measured_mean_us", ms, "simulated_mean_us", ss,
				       "demerit_us", dem, "demerit_pct", 100 * dem / ms,
				       "measured_cdf", cdf(meas, t.n), "simulated_cdf", cdf(sim, t.n))))
			rc = iolab_errf(&err, ENOMEM, "%s: cannot build the JSON document (out of memory)",
					json);
		if (root && !rc)
			rc = add_json(json, root, outs, &nout, &err);
		json_decref(root);
		if (rc)
			for (unsigned i = 0; i < nout; i++)
				iolab_out_abort(&outs[i]);
		else
			rc = iolab_outs_commit(done, nout, &err);
		if (rc)
			status = cli_errorf(EXIT_FAILED, "%s; nothing written", err.msg);
		/* The summary goes where no output does. */
		FILE *sum = iolab_out_is_stdout(json) || iolab_out_is_stdout(per_req) ? stderr : stdout;
		fprintf(sum, "model %s, trace %s: %zu requests\n", m.name, trace, t.n);
		fprintf(sum, "mean service time: measured %.3f ms, simulated %.3f ms (%+.1f%%)\n", ms / 1e3,
		       ss / 1e3, 100 * (ss - ms) / ms);
		fprintf(sum, "read hits %llu of %llu reads (partial %llu); of the simulated time: seek %.0f%%, "
		       "rotation %.0f%%, media %.0f%%, interface %.0f%% (overlaps media), overhead %.0f%%, "
		       "waits %.0f%%\n",
		       (unsigned long long)st.read_hits, (unsigned long long)st.reads,
		       (unsigned long long)st.read_partial_hits, 100 * st.seek_ns / (ss * 1e3 * t.n),
		       100 * st.rotate_ns / (ss * 1e3 * t.n), 100 * st.media_ns / (ss * 1e3 * t.n),
		       100 * st.bus_ns / (ss * 1e3 * t.n), 100 * st.overhead_ns / (ss * 1e3 * t.n),
		       100 * st.queue_ns / (ss * 1e3 * t.n));
		fprintf(sum, "demerit %.1f%% (%.3f%%: %.4f ms RMS distance between the distributions)\n",
		       100 * dem / ms, 100 * dem / ms, dem / 1e3);
	}
	free(meas);
	free(sim);
	iolab_vtrace_free(&t);
	iolab_model_free(&m);
	return status;
}

/* `iolab sim kinds [KIND]`: the kinds of parts a subsystem file is made of, and their keys. */
static int kinds(int argc, char **argv)
{
	if (argc > 2)
		return cli_errorf(EXIT_USAGE, "sim kinds: give at most one kind");
	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		printf("usage: iolab sim kinds [KIND]\n\n"
		       "Lists the kinds of parts a subsystem file (--config) is made of, each with its\n"
		       "keys: the value each takes, whether it is required, whether it may vary between\n"
		       "the points of a sweep, its range and its default (docs/subsystem-format.md).\n");
		return EXIT_OK;
	}
	if (argc == 2) {
		const struct iolab_kind *k = iolab_kind_find(argv[1]);
		char names[200];
		iolab_kind_names(names, sizeof(names));
		if (!k)
			return cli_errorf(EXIT_USAGE, "sim kinds: '%s' is not a kind (%s)", argv[1], names);
		iolab_kind_write_text(k, stdout);
		return EXIT_OK;
	}
	for (unsigned i = 0; iolab_kind_at(i); i++) {
		printf(i ? "\n" : "");
		iolab_kind_write_text(iolab_kind_at(i), stdout);
	}
	return EXIT_OK;
}

int cmd_sim(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "kinds"))
		return kinds(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "validate"))
		return validate(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "examples"))
		return cmd_sim_examples(argc - 1, argv + 1);
	return cmd_sim_run(argc, argv);
}
