/* cmd_run.c: `iolab run`: parses the command line (or a job file) into configurations, runs
 * them with a progress line, prints the table and writes --json / --csv. SIGINT stops the run
 * cleanly: what was measured is still printed and written, the last point marked partial. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "iolab/disk_model.h"
#include "iolab/job.h"
#include "iolab/output.h"
#include "iolab/run.h"

/* The job `make run` runs: a short sweep on a scratch file in a temporary directory. */
static const char default_job[] =
	"[run default]\n"
	"size = 256m\n"
	"pattern = rand-read, seq-read, rand-write\n"
	"qd = 1, 16\n"
	"time = 2\n";

enum { OPT_JOB = 1000, OPT_JSON, OPT_CSV, OPT_QUIET, OPT_DEFAULT, OPT_HELP, OPT_MODEL, OPT_TABLE_BASE };

static void help(bool sim)
{
	if (sim)
		printf("usage: iolab sim --model NAME|FILE [OPTIONS]\n"
		       "       iolab sim validate --model NAME|FILE TRACE [--json FILE]\n\n"
		       "Runs the workload on a simulated drive in virtual time: --time is simulated\n"
		       "seconds. Every option of 'iolab run' applies (targets are not needed).\n"
		       "'iolab models' lists the built-in drives. Options:\n\n");
	else
	printf("usage: iolab run [OPTIONS] [TARGET...]\n"
	       "       iolab run --job FILE [OPTIONS]\n"
	       "       iolab run --default\n\n"
	       "Measures files and block devices. List options (pattern, bs, qd, read, workers)\n"
	       "take comma lists; the run is their cross product, pattern outermost, then\n"
	       "workers, read, bs, and qd innermost. Sizes: 4096, 4k, 1m, 2G. Times: 30, 500ms, 2m.\n\n");
	for (unsigned i = 0; i < iolab_option_count(); i++) {
		const struct iolab_option *o = iolab_option_at(i);
		char left[64];
		snprintf(left, sizeof(left), "--%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
		printf("  %-28s %s\n", left, o->help);
	}
	printf("  %-28s %s\n", "--job FILE", "run the [run] sections of a job file (docs/job-files.md);");
	printf("  %-28s %s\n", "", "other options given here override the file's");
	printf("  %-28s %s\n", "--json FILE", "write results as JSON ('-' = stdout; docs/json-schema.md)");
	printf("  %-28s %s\n", "--csv FILE", "write one CSV row per point ('-' = stdout)");
	printf("  %-28s %s\n", "--quiet", "no progress line");
	if (sim)
		printf("  %-28s %s\n", "--model NAME|FILE", "the drive to simulate (built-in name or model file)");
	else
		printf("  %-28s %s\n", "--default", "run the built-in quick sweep on a temporary scratch file");
	printf("\nExit status: 0 success, 1 stopped by I/O errors, 2 bad input or refused, "
	       "130 interrupted.\n");
}

struct setting {
	const char *name, *value;
};

static void on_sigint(int sig)
{
	(void)sig;
	iolab_stop_requested = 1;
	signal(SIGINT, SIG_DFL); /* a second Ctrl-C ends the process at once */
}

static void progress(const struct iolab_progress *p, void *ctx)
{
	(void)ctx;
	fprintf(stderr, "\r\033[Kpoint %u/%u", p->point, p->points);
	if (p->reps > 1)
		fprintf(stderr, " run %u/%u", p->rep, p->reps);
	fprintf(stderr, "  %6.1f s  %12.0f %s", p->elapsed_s, p->iops,
		p->simulated ? "simulated I/Os per s" : "IOPS");
}

/* True if an output file can be written at path (NULL and "-" always can). Checked before a
 * run so that a typo does not cost the whole measurement. */
static bool writable(const char *path)
{
	if (!path || !strcmp(path, "-"))
		return true;
	if (access(path, F_OK) == 0)
		return access(path, W_OK) == 0;
	char dir[4096];
	snprintf(dir, sizeof(dir), "%s", path);
	char *slash = strrchr(dir, '/');
	if (!slash)
		return access(".", W_OK) == 0;
	if (slash == dir)
		slash[1] = 0;
	else
		*slash = 0;
	return access(dir, W_OK) == 0;
}

static int apply(struct iolab_config *c, const struct setting *s, unsigned n, const char *where)
{
	struct iolab_err err;
	for (unsigned i = 0; i < n; i++)
		if (iolab_config_set(c, s[i].name, s[i].value, &err)) {
			fprintf(stderr, "iolab: %s%s--%s\n", where, *where ? ": " : "", err.msg);
			return -1;
		}
	return 0;
}

static int run_all(const char *command, struct iolab_config **cfg, unsigned ncfg, const char *job,
		   const char *json, const char *csv, bool quiet)
{
	struct iolab_results res = {0};
	struct iolab_err err;
	int status = EXIT_OK;
	bool show_progress = !quiet && isatty(2);
	struct sigaction sa = {.sa_handler = on_sigint};
	sigaction(SIGINT, &sa, NULL);
	for (unsigned i = 0; i < ncfg && !iolab_stop_requested && !res.io_failed; i++) {
		cfg[i]->quiet = quiet;
		int rc = iolab_run(cfg[i], &res, show_progress ? progress : NULL, NULL, &err);
		if (show_progress)
			fprintf(stderr, "\r\033[K");
		if (rc) {
			fprintf(stderr, "iolab: %s\n", err.msg);
			status = rc == -EINTR ? EXIT_INTERRUPTED : EXIT_USAGE;
			break;
		}
	}
	if (res.n || status == EXIT_OK) {
		bool to_stdout = (json && !strcmp(json, "-")) || (csv && !strcmp(csv, "-"));
		if (!to_stdout) /* '-' sends JSON or CSV to stdout instead of the table */
			iolab_output_table(stdout, &res);
		struct iolab_report rep = {.command = command, .job = job, .nconfig = ncfg,
					   .config = (const struct iolab_config *const *)cfg};
		if (json && iolab_output_json(json, &rep, &res, &err)) {
			fprintf(stderr, "iolab: %s\n", err.msg);
			status = EXIT_FAILED;
		}
		if (csv && iolab_output_csv(csv, &res, &err)) {
			fprintf(stderr, "iolab: %s\n", err.msg);
			status = EXIT_FAILED;
		}
	}
	if (status == EXIT_OK && res.io_failed) {
		fprintf(stderr, "iolab: stopped by an I/O error (use --on-error continue to go on)\n");
		status = EXIT_FAILED;
	}
	if (res.interrupted)
		status = EXIT_INTERRUPTED;
	iolab_results_free(&res);
	return status;
}

/* `iolab run` and `iolab sim` (sim: a drive model instead of targets). */
static int run_main(int argc, char **argv, bool sim)
{
	unsigned nopt = iolab_option_count();
	struct option *lo = calloc(nopt + 8, sizeof(*lo));
	struct setting *set = calloc((size_t)argc + 1, sizeof(*set));
	char **targets = calloc((size_t)argc + 1, sizeof(*targets));
	if (!lo || !set || !targets) {
		free(lo);
		free(set);
		free(targets);
		return cli_usage_error("out of memory");
	}
	for (unsigned i = 0; i < nopt; i++) {
		const struct iolab_option *o = iolab_option_at(i);
		lo[i] = (struct option){o->name, o->arg ? required_argument : no_argument, NULL,
					OPT_TABLE_BASE + (int)i};
	}
	lo[nopt + 0] = (struct option){"job", required_argument, NULL, OPT_JOB};
	lo[nopt + 1] = (struct option){"json", required_argument, NULL, OPT_JSON};
	lo[nopt + 2] = (struct option){"csv", required_argument, NULL, OPT_CSV};
	lo[nopt + 3] = (struct option){"quiet", no_argument, NULL, OPT_QUIET};
	lo[nopt + 4] = (struct option){"default", no_argument, NULL, OPT_DEFAULT};
	lo[nopt + 5] = (struct option){"help", no_argument, NULL, OPT_HELP};
	if (sim)
		lo[nopt + 6] = (struct option){"model", required_argument, NULL, OPT_MODEL};

	const char *job_path = NULL, *json = NULL, *csv = NULL, *model_name = NULL;
	struct iolab_disk_model model = {0};
	bool quiet = false, use_default = false;
	unsigned nset = 0, ntarget = 0;
	int status = EXIT_OK, ch;
	opterr = 0;
	optind = 1;
	while ((ch = getopt_long(argc, argv, ":h", lo, NULL)) != -1) {
		if (ch >= OPT_TABLE_BASE) {
			set[nset++] = (struct setting){iolab_option_at((unsigned)(ch - OPT_TABLE_BASE))->name,
						       optarg};
			continue;
		}
		switch (ch) {
		case OPT_JOB: job_path = optarg; break;
		case OPT_JSON: json = optarg; break;
		case OPT_CSV: csv = optarg; break;
		case OPT_QUIET: quiet = true; break;
		case OPT_DEFAULT: use_default = !sim; break;
		case OPT_MODEL: model_name = optarg; break;
		case 'h':
		case OPT_HELP:
			help(sim);
			goto out;
		case ':': {
			char msg[256];
			snprintf(msg, sizeof(msg), "run: option '%s' needs a value", argv[optind - 1]);
			status = cli_usage_error(msg);
			goto out;
		}
		default: {
			char msg[256];
			const char *bad = argv[optind - 1];
			if (optopt >= OPT_TABLE_BASE || (optopt >= OPT_JOB && optopt < OPT_TABLE_BASE))
				snprintf(msg, sizeof(msg), "run: option '%.*s' takes no value",
					 (int)strcspn(bad, "="), bad);
			else if (optopt)
				snprintf(msg, sizeof(msg), "run: unknown option '-%c' (see 'iolab run --help')",
					 optopt);
			else
				snprintf(msg, sizeof(msg), "run: unknown option '%s' (see 'iolab run --help')", bad);
			status = cli_usage_error(msg);
			goto out;
		}
		}
	}
	while (optind < argc)
		targets[ntarget++] = argv[optind++];

	if (!writable(json) || !writable(csv)) {
		fprintf(stderr, "iolab: %s: cannot write there: %s\n", !writable(json) ? json : csv,
			strerror(errno));
		status = EXIT_USAGE;
		goto out;
	}
	struct iolab_job job = {0};
	struct iolab_err err;
	char tmpdir[64] = "", scratch[96] = "";
	if (sim) {
		if (!model_name) {
			status = cli_usage_error("sim: --model is required (see 'iolab models')");
			goto out;
		}
		if (ntarget) {
			status = cli_usage_error("sim: takes no targets: the drive is --model");
			goto out;
		}
		if (iolab_model_open(model_name, &model, &err)) {
			fprintf(stderr, "iolab: %s\n", err.msg);
			status = EXIT_USAGE;
			goto out;
		}
	}
	if (job_path && use_default) {
		status = cli_usage_error("run: --job and --default cannot be used together");
		goto out;
	}
	if (use_default) {
		snprintf(tmpdir, sizeof(tmpdir), "/var/tmp/iolab-XXXXXX");
		if (!mkdtemp(tmpdir)) {
			fprintf(stderr, "iolab: cannot create a temporary directory in /var/tmp: %s\n",
				strerror(errno));
			status = EXIT_USAGE;
			goto out;
		}
		snprintf(scratch, sizeof(scratch), "%s/scratch.img", tmpdir);
		printf("iolab: the default job: rand-read, seq-read and rand-write at QD 1 and 16, "
		       "2 s each, on a 256 MiB scratch file %s\n", scratch);
		fflush(stdout);
	}
	if (job_path || use_default) {
		int rc = use_default ? iolab_job_parse("(default job)", default_job, &job, &err)
				     : iolab_job_load(job_path, &job, &err);
		if (rc) {
			fprintf(stderr, "iolab: %s\n", err.msg);
			status = EXIT_USAGE;
			goto out_tmp;
		}
	} else {
		job.run = calloc(1, sizeof(*job.run));
		if (!job.run) {
			status = cli_usage_error("out of memory");
			goto out_tmp;
		}
		job.nrun = 1;
		iolab_config_init(&job.run[0]);
	}
	struct iolab_config **cfg = calloc(job.nrun, sizeof(*cfg));
	for (unsigned i = 0; cfg && i < job.nrun; i++) {
		struct iolab_config *c = &job.run[i];
		c->patterns = &job.patterns;
		if (apply(c, set, nset, job_path ? job_path : "")) {
			status = EXIT_USAGE;
			break;
		}
		for (unsigned t = 0; t < ntarget && !status; t++)
			if (iolab_config_set(c, "target", targets[t], &err)) {
				fprintf(stderr, "iolab: %s\n", err.msg);
				status = EXIT_USAGE;
			}
		if (use_default && !status)
			iolab_config_set(c, "target", scratch, &err);
		if (sim) {
			c->engine = &iolab_engine_sim;
			c->engine_config = &model;
			c->model_name = model.name;
			c->virtual_size = model.blocks * model.block_bytes;
			c->direct = true;
		}
		cfg[i] = c;
	}
	if (!status && cfg)
		status = run_all(sim ? "sim" : "run", cfg, job.nrun, job_path, json, csv, quiet);
	free(cfg);
	iolab_job_free(&job);
out_tmp:
	if (*scratch) {
		unlink(scratch);
		rmdir(tmpdir);
	}
out:
	iolab_model_free(&model);
	free(lo);
	free(set);
	free(targets);
	return status;
}

int cmd_run(int argc, char **argv)
{
	return run_main(argc, argv, false);
}

int cmd_sim_run(int argc, char **argv)
{
	return run_main(argc, argv, true);
}
