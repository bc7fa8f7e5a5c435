/* cmd_run.c: `iolab run` and `iolab sim` (a workload on a drive model): parses the command line
 * (or a job file) into configurations, checks every output before anything runs, runs them with
 * a progress line, prints the table and writes --json / --csv, and saves the results in the
 * results store (store.h; --db, --no-db, --label). `iolab replay` runs through here
 * too (cmd_replay.c takes its own options out first), with a trace in place of a pattern.
 *
 * Stopping: the first SIGINT or SIGTERM stops the run cleanly; what was measured is still
 * printed and written, the last point marked partial, and SIGTERM also removes the scratch files
 * the run created. Further signals are ignored while the results are saved (`timeout` signals
 * iolab and then its process group, so a second one is normal); a third one while the run is
 * still stopping ends iolab at once. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "record_dir.h"
#include "replay_traces.h"
#include "iolab/disk_model.h"
#include "iolab/examples.h"
#include "iolab/job.h"
#include "iolab/outfile.h"
#include "iolab/output.h"
#include "iolab/replay.h"
#include "iolab/run.h"
#include "iolab/cluster.h"
#include "iolab/store.h"
#include "iolab/trace_record.h"
#include "iolab/utf8.h"

/* The job `make run` runs: a short sweep on a scratch file in a temporary directory. */
static const char default_job[] =
	"[run default]\n"
	"size = 256m\n"
	"pattern = rand-read, seq-read, rand-write\n"
	"qd = 1, 16\n"
	"time = 2\n";

enum { OPT_JOB = 1000, OPT_JSON, OPT_CSV, OPT_QUIET, OPT_DEFAULT, OPT_HELP, OPT_MODEL,
       OPT_EXPLAIN, OPT_CONFIG, OPT_RECORD, OPT_DB, OPT_NO_DB, OPT_LABEL, OPT_PRICE, OPT_TABLE_BASE };

static void help(bool sim)
{
	if (sim)
		printf("usage: iolab sim --model NAME|FILE [OPTIONS]\n"
		       "       iolab sim --array raid0|raid1|raid10|raid4|raid5|raid6:N --drive NAME|FILE [OPTIONS]\n"
		       "       iolab sim --config FILE|NAME [--target VOLUME[,VOLUME]] [OPTIONS]\n"
		       "       iolab sim validate --model NAME|FILE TRACE [--json FILE] [--requests FILE]\n"
		       "       iolab sim examples [NAME]\n"
		       "       iolab sim kinds [KIND]\n\n"
		       "Runs the workload on a simulated drive or subsystem in virtual time: --time is simulated\n"
		       "seconds. List options take comma lists, as for 'iolab run'; the run is their cross\n"
		       "product, pattern outermost, then host scheduler, the path's swept settings (--set,\n"
		       "--drive, --channel, ... lists; in the order given), write policy, cache, array,\n"
		       "stripe, workers, read, bs and the load. 'iolab models' lists the built-in drives,\n"
		       "'iolab sim examples' the shipped subsystem and job files that --config NAME and\n"
		       "--job NAME find by name. Options:\n\n");
	else
		printf("usage: iolab run [OPTIONS] [TARGET...]\n"
		       "       iolab run --job FILE [OPTIONS]\n"
		       "       iolab run --default\n\n"
		       "Measures files and block devices. List options (pattern, bs, qd, read, workers,\n"
		       "clients, rate) take comma lists; the run is their cross product, pattern\n"
		       "outermost, then workers, read, bs, and the load (qd, clients or rate)\n"
		       "innermost. Sizes: 4096, 4k, 1.5m, 2G (1024-based), 500GB (1000-based).\n"
		       "Times: 30, 500ms, 2m.\n\n");
	for (unsigned i = 0; i < iolab_option_count(); i++) {
		const struct iolab_option *o = iolab_option_at(i);
		if (sim ? !iolab_option_simulated(o->name) : !iolab_option_real(o->name))
			continue;
		char left[64];
		snprintf(left, sizeof(left), "--%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
		printf("  %-28s %s\n", left, o->help);
	}
	printf("  %-28s %s\n", "--job FILE", "run the [run] sections of a job file (docs/job-files.md);");
	printf("  %-28s %s\n", "", "other options given here override the file's; [worker NAME]");
	printf("  %-28s %s\n", "", "sections give a run's workers each its own pattern and load");
	printf("  %-28s %s\n", "--json FILE", "write results as JSON ('-' = stdout; docs/json-schema.md)");
	printf("  %-28s %s\n", "--csv FILE", "write one CSV row per point ('-' = stdout)");
	printf("  %-28s %s\n", "--quiet", "no progress line");
	printf("  %-28s %s\n", "--record FILE", "write every I/O of the run (one point) as a trace;");
	printf("  %-28s %s\n", "--record DIR/", "a trace per point in DIR (made if missing), each");
	printf("  %-28s %s\n", "", "named from its point: file-server-qd1.iot");
	printf("  %-28s %s\n", "", "(docs/trace-format.md)");
	printf("  %-28s %s\n", "--label TEXT", "name the run in the results store ('iolab db list')");
	printf("  %-28s %s\n", "--price USD", "what the hardware costs, for $/GB, $/IOPS and $/(MB/s) in");
	printf("  %-28s %s\n", "", "'iolab compare' (docs/compare.md)");
	printf("  %-28s %s\n", "--db FILE", "the results store to save into (default");
	printf("  %-28s %s\n", "", "$XDG_DATA_HOME/iolab/results.db; docs/results-db.md)");
	printf("  %-28s %s\n", "--no-db", "save nothing in the results store");
	if (sim) {
		printf("  %-28s %s\n", "--model NAME|FILE", "the drive to simulate (built-in name or model file)");
		printf("  %-28s %s\n", "--config FILE", "the subsystem to simulate (docs/subsystem-format.md)");
		printf("  %-28s %s\n", "--explain", "what each part of the path did, and the bottleneck");
	} else {
		printf("  %-28s %s\n", "--default", "run the built-in quick sweep on a temporary scratch file");
		printf("  %-28s %s\n", "", "(no target or workload option goes with it)");
	}
	printf("\nAn existing output file is replaced only with --force. Limits: --qd and --clients\n"
	       "1..4096, --workers 1..256, --repeat 1..%u, buffers within --mem-limit.\n"
	       "Exit status: 0 success, 1 the run failed (I/O errors, counted to the end under\n"
	       "--on-error continue; a verify mismatch; a point that completed fewer I/Os than it kept\n"
	       "in flight; a write error), 2 bad input or refused, 130 interrupted.\n",
	       IOLAB_REPEAT_MAX);
}

/* ---- signals ---- */

static volatile sig_atomic_t saving, extra_signals;

static void on_stop(int sig)
{
	if (!iolab_stop_requested) {
		iolab_stop_requested = sig;
		return;
	}
	if (sig == SIGTERM && iolab_stop_requested != SIGTERM) {
		iolab_stop_requested = SIGTERM; /* mpirun ending the job, after an interrupt */
		return;
	}
	if (!saving && ++extra_signals >= 2)
		_exit(EXIT_INTERRUPTED);
}

/* SA_RESTART: a stop is a flag the runner looks at twenty times a second, not an error of the
 * call the signal happened to interrupt, so reads and writes that a signal interrupts restart
 * (signal(7): read, write and their kin on slow files, a FUSE target among them) rather than
 * fail with EINTR and count as I/O errors, and writing the reports is not cut short. Calls that
 * never restart (io_getevents, io_uring_enter, nanosleep) are looped on EINTR where they wait. */
static void catch_stop_signals(void)
{
	struct sigaction sa = {.sa_handler = on_stop, .sa_flags = SA_RESTART};
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* ---- the command line ---- */

struct setting {
	const char *name, *value;
};

struct args {
	bool sim, quiet, use_default, help, explain;
	const char *job, *json, *csv, *model, *config, *record;
	const char *db, *label;  /* the results store (NULL: the default) and the run's label */
	double price_usd;        /* --price: what the hardware costs (0: not given) */
	bool no_db;
	char *cmdline;        /* the whole command line, for the results store (malloc'd) */
	char source[256];     /* the command line, for --record's header */
	unsigned nset, ntarget;
	struct setting *set;  /* table options, in command-line order */
	char **targets;
	const struct iolab_replay *replay; /* iolab replay, else NULL */
	struct replay_traces traces;       /* its trace files: a run each (replay_traces.h) */
	struct iolab_replay *replays;      /* replay with each trace's path (malloc'd) */
	struct record_dir *record_dir;     /* --record DIR/: a trace per point, else NULL */
};

static const char *cmd_of(const struct args *a)
{
	return a->replay ? "replay" : a->sim ? "sim" : "run";
}

/* Refuses an option given twice, two that exclude each other, and, for sim, one it does not
 * use. seen[] holds the names given so far (the table options and the CLI's own). */
static int check_given(const struct args *a, const char *name, const char *const *seen, unsigned nseen)
{
	const char *cmd = cmd_of(a);
	const char *other = iolab_option_excludes(name);
	for (unsigned i = 0; i < nseen; i++) {
		if (!strcmp(seen[i], name) && !iolab_option_repeatable(name))
			return cli_errorf(EXIT_USAGE, "%s: --%s is given twice", cmd, name);
		if (other && !strcmp(seen[i], other))
			return cli_errorf(EXIT_USAGE, "%s: --%s and --%s cannot be used together", cmd, other,
					  name);
	}
	if (a->sim && !iolab_option_simulated(name))
		return cli_errorf(EXIT_USAGE, "%s: --%s does not apply to a simulated drive (see 'iolab "
				  "sim --help')", cmd, name);
	if (!a->sim && !iolab_option_real(name))
		return cli_errorf(EXIT_USAGE, "%s: --%s applies only to a simulated drive (iolab sim)",
				  cmd, name);
	return 0;
}

static int parse_args(int argc, char **argv, struct args *a)
{
	const char *cmd = cmd_of(a);
	unsigned nopt = iolab_option_count();
	struct option *lo = calloc(nopt + 15, sizeof(*lo));
	const char **seen = calloc((size_t)argc + 1, sizeof(*seen));
	a->set = calloc((size_t)argc + 1, sizeof(*a->set));
	a->targets = calloc((size_t)argc + 1, sizeof(*a->targets));
	int status = EXIT_OK;
	if (!lo || !seen || !a->set || !a->targets) {
		status = cli_errorf(EXIT_USAGE, "out of memory");
		goto out;
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
	lo[nopt + 4] = (struct option){"help", no_argument, NULL, OPT_HELP};
	lo[nopt + 5] = a->sim ? (struct option){"model", required_argument, NULL, OPT_MODEL}
			      : (struct option){"default", no_argument, NULL, OPT_DEFAULT};
	if (a->sim) {
		lo[nopt + 6] = (struct option){"explain", no_argument, NULL, OPT_EXPLAIN};
		lo[nopt + 7] = (struct option){"config", required_argument, NULL, OPT_CONFIG};
	}
	unsigned k = nopt + (a->sim ? 8 : 6);
	lo[k++] = (struct option){"record", required_argument, NULL, OPT_RECORD};
	lo[k++] = (struct option){"db", required_argument, NULL, OPT_DB};
	lo[k++] = (struct option){"no-db", no_argument, NULL, OPT_NO_DB};
	lo[k++] = (struct option){"label", required_argument, NULL, OPT_LABEL};
	lo[k++] = (struct option){"price", required_argument, NULL, OPT_PRICE};
	unsigned nseen = 0;
	int ch, idx;
	opterr = 0;
	optind = 1;
	while (!status && (ch = getopt_long(argc, argv, ":h", lo, &idx)) != -1) {
		if (ch == 'h' || ch == OPT_HELP) {
			a->help = true;
			break;
		}
		if (ch == ':' || ch == '?') {
			const char *bad = argv[optind - 1];
			if (ch == ':')
				status = cli_errorf(EXIT_USAGE, "%s: option '%s' needs a value", cmd, bad);
			else if (optopt >= OPT_JOB) /* getopt names it as typed: "--quiet=yes" */
				status = cli_errorf(EXIT_USAGE, "%s: option '%.*s' takes no value", cmd,
						    (int)strcspn(bad, "="), bad);
			else if (optopt)
				status = cli_errorf(EXIT_USAGE, "%s: unknown option '-%c' (see 'iolab %s "
						    "--help')", cmd, optopt, cmd);
			else
				status = cli_errorf(EXIT_USAGE, "%s: unknown option '%s' (see 'iolab %s "
						    "--help')", cmd, bad, cmd);
			break;
		}
		const char *name = lo[idx].name;
		if ((status = check_given(a, name, seen, nseen)))
			break;
		seen[nseen++] = name;
		switch (ch) {
		case OPT_JOB: a->job = optarg; break;
		case OPT_JSON: a->json = optarg; break;
		case OPT_CSV: a->csv = optarg; break;
		case OPT_QUIET: a->quiet = true; break;
		case OPT_DEFAULT: a->use_default = true; break;
		case OPT_MODEL: a->model = optarg; break;
		case OPT_EXPLAIN: a->explain = true; break;
		case OPT_CONFIG: a->config = optarg; break;
		case OPT_RECORD: a->record = optarg; break;
		case OPT_DB: a->db = optarg; break;
		case OPT_NO_DB: a->no_db = true; break;
		case OPT_LABEL:
			a->label = optarg;
			status = cli_check_label(cmd, optarg);
			break;
		case OPT_PRICE: status = cli_parse_price(cmd, optarg, &a->price_usd); break;
		default:
			a->set[a->nset++] = (struct setting){name, optarg};
		}
	}
	while (!status && optind < argc)
		a->targets[a->ntarget++] = argv[optind++];
out:
	free(lo);
	free(seen);
	return status;
}

static void free_args(struct args *a)
{
	free(a->set);
	free(a->targets);
	free(a->cmdline);
	free(a->replays);
	replay_traces_free(&a->traces);
	free(a->record_dir);
}

/* ---- running ---- */

/* How the run's news is shown: a point's progress and a scratch file being written on a
 * terminal only, --precondition's progress and notes always; nothing with --quiet. */
struct show {
	bool quiet, tty;
	unsigned before, points; /* the points of the runs before this one, and of them all */
	bool line; /* a progress line is open on stderr */
};

static void end_line(struct show *s)
{
	if (s->line)
		fputs(s->tty ? "\r\033[K" : "\n", stderr);
	s->line = false;
}

static void progress(const struct iolab_progress *p, void *ctx)
{
	struct show *s = ctx;
	if (s->quiet)
		return;
	switch (p->kind) {
	case IOLAB_PROGRESS_NOTE:
		end_line(s);
		cli_errorf(EXIT_OK, "%s", p->what);
		return;
	case IOLAB_PROGRESS_PRECONDITION:
		fprintf(stderr, "\rprecondition: %llu of %llu MiB written",
			(unsigned long long)(p->done >> 20), (unsigned long long)(p->total >> 20));
		s->line = true;
		if (p->done == p->total) {
			fputc('\n', stderr);
			s->line = false;
		}
		return;
	case IOLAB_PROGRESS_CREATE:
		if (!s->tty)
			return;
		fprintf(stderr, "\rcreating %s: %d%%", p->what,
			p->total ? (int)(100 * p->done / p->total) : 100);
		s->line = true;
		if (p->done == p->total)
			end_line(s);
		return;
	case IOLAB_PROGRESS_POINT:
		if (!s->tty)
			return;
		fprintf(stderr, "\r\033[Kpoint %u/%u", s->before + p->point,
			s->points ? s->points : p->points); /* counted over every run of the job */
		if (p->reps > 1)
			fprintf(stderr, " run %u/%u", p->rep, p->reps);
		fprintf(stderr, "  %6.1f s  %12.0f %s", p->elapsed_s, p->iops,
			p->simulated ? "simulated I/Os per s" : "IOPS");
		s->line = true;
	}
}

/* Writes one report (JSON or CSV) to path through a temporary file; returns an exit status. */
static int save(const char *path, const struct iolab_report *rep, const struct iolab_results *res,
		bool json)
{
	struct iolab_out out;
	struct iolab_err err;
	int rc = iolab_out_open(&out, path, &err);
	if (rc)
		return cli_errorf(EXIT_FAILED, "%s", err.msg);
	rc = json ? iolab_output_json(out.f, rep, res, &err) : iolab_output_csv(out.f, res, &err);
	if (rc) {
		iolab_out_abort(&out);
		iolab_err_prefix(&err, "%s", path);
	} else {
		rc = iolab_out_commit(&out, &err);
	}
	if (rc)
		cli_errorf(EXIT_FAILED, "%s", err.msg);
	return rc ? EXIT_FAILED : EXIT_OK;
}

/* --record: the trace of the run's one point, written through a temporary file (outfile.h). */
static int record_open(const struct args *a, struct iolab_out *out, struct iolab_recorder **r)
{
	struct iolab_err err;
	if (iolab_out_open(out, a->record, &err))
		return cli_errorf(EXIT_FAILED, "%s", err.msg);
	if (iolab_recorder_new(r, out->f, NULL, a->source, &err)) {
		iolab_out_abort(out);
		return cli_errorf(EXIT_FAILED, "%s", err.msg);
	}
	return EXIT_OK;
}

static int record_save(const struct args *a, struct iolab_out *out, struct iolab_recorder *r)
{
	struct iolab_err err;
	int rc = iolab_recorder_end(r, &err);
	if (rc) {
		iolab_out_abort(out);
		iolab_err_prefix(&err, "%s", a->record);
	} else {
		rc = iolab_out_commit(out, &err);
	}
	if (rc)
		cli_errorf(EXIT_FAILED, "%s", err.msg);
	else if (iolab_recorder_late(r))
		cli_errorf(EXIT_OK, "--record %s: %llu of %llu I/Os are out of issue order (each "
			   "outlived more than the recorder's window of later ones)", a->record,
			   (unsigned long long)iolab_recorder_late(r),
			   (unsigned long long)iolab_recorder_count(r));
	iolab_recorder_free(r);
	return rc ? EXIT_FAILED : EXIT_OK;
}

/* ---- the results store ---- */

/* The store the run saves into, into path (empty with --no-db); returns an exit status. */
static int store_path(const struct args *a, char *path, size_t n)
{
	struct iolab_err err;
	*path = 0;
	if (a->no_db && (a->db || a->label))
		return cli_errorf(EXIT_USAGE, "%s: --no-db saves nothing: --%s does not apply", cmd_of(a),
				  a->db ? "db" : "label");
	if (a->no_db)
		return EXIT_OK;
	if (a->db && !*a->db)
		return cli_errorf(EXIT_USAGE, "%s: --db needs a file name (--no-db saves nothing)",
				  cmd_of(a));
	if (a->db)
		snprintf(path, n, "%s", a->db);
	else if (iolab_store_default_path(path, n, &err))
		return cli_errorf(EXIT_USAGE, "%s", err.msg);
	return EXIT_OK;
}

/* Opens the store the run saves into (none with --no-db); returns an exit status. */
static int store_open(const char *path, struct iolab_store **s)
{
	struct iolab_err err;
	*s = NULL;
	if (*path && iolab_store_open(s, path, true, &err))
		return cli_errorf(EXIT_USAGE, "%s", err.msg);
	return EXIT_OK;
}

/* What the run measured: the simulated model, or the targets. */
static void store_target(struct iolab_config **cfg, unsigned ncfg, char *buf, size_t n)
{
	size_t len = 0;
	*buf = 0;
	for (unsigned i = 0; i < ncfg && len < n; i++) {
		if (cfg[i]->model_name) {
			len += (size_t)snprintf(buf + len, n - len, "%s%s", len ? "," : "", cfg[i]->model_name);
			continue;
		}
		for (unsigned t = 0; t < cfg[i]->ntargets && len < n; t++)
			len += (size_t)snprintf(buf + len, n - len, "%s%s", len ? "," : "", cfg[i]->target[t]);
	}
	if (!*buf && ncfg) /* an engine without targets (null) */
		snprintf(buf, n, "(%s engine)", cfg[0]->engine->name);
}

/* Saves the results (the points measured so far, if interrupted); returns an exit status. */
static int store_save(const struct args *a, struct iolab_store *s, const struct iolab_report *rep,
		      const struct iolab_results *res, struct iolab_config **cfg, unsigned ncfg)
{
	char *json = NULL, *table = NULL, target[1024];
	size_t jn = 0, tn = 0;
	struct iolab_err err;
	FILE *jf = open_memstream(&json, &jn), *tf = open_memstream(&table, &tn);
	int rc = jf && tf ? 0 : iolab_errf(&err, ENOMEM, "out of memory");
	if (!rc) {
		rc = iolab_output_json(jf, rep, res, &err);
		iolab_output_table(tf, res, a->explain);
	}
	if (jf)
		fclose(jf);
	if (tf)
		fclose(tf);
	store_target(cfg, ncfg, target, sizeof(target));
	/* paths and arguments as the JSON holds them: bytes that are not text escaped (utf8.h) */
	char *command = iolab_utf8_escape_dup(a->cmdline ? a->cmdline : a->source);
	char *shown = iolab_utf8_escape_dup(target);
	if (!rc && (!command || !shown))
		rc = iolab_errf(&err, ENOMEM, "out of memory");
	int64_t id;
	const struct iolab_store_run run = {.label = a->label, .command = command, .kind = cmd_of(a),
					    .target = shown, .json = json, .table = table};
	if (!rc)
		rc = iolab_store_save(s, &run, &id, &err);
	free(command);
	free(shown);
	free(json);
	free(table);
	if (rc)
		cli_errorf(EXIT_FAILED, "results store: %s", err.msg);
	return rc ? EXIT_FAILED : EXIT_OK;
}

/* --verify: every mismatch a point kept, one line each (the target named by its config:
 * end[i] is the number of points after cfg[i] ran), then the count; returns an exit status. */
static int report_mismatches(const struct iolab_results *res, struct iolab_config **cfg,
			     const unsigned *end, unsigned ncfg)
{
	uint64_t total = 0;
	unsigned points = 0, ci = 0;
	for (unsigned i = 0; i < res->n; i++) {
		const struct iolab_verify_result *v = &res->point[i].verify;
		while (ci + 1 < ncfg && i >= end[ci])
			ci++;
		for (unsigned k = 0; k < v->nkept; k++) {
			char line[1024];
			const struct iolab_verify_mismatch *m = &v->kept[k];
			iolab_verify_mismatch_text(m, line, sizeof(line));
			cli_errorf(EXIT_FAILED, "verify: point %u: %s %s", i + 1,
				   m->target < cfg[ci]->ntargets ? cfg[ci]->target[m->target] : "?", line);
		}
		total += v->mismatches;
		points += v->mismatches > 0;
	}
	if (!total)
		return EXIT_OK;
	return cli_errorf(EXIT_FAILED, "verify: %llu block%s did not hold what was written (%u "
			  "point%s)%s", (unsigned long long)total, total == 1 ? "" : "s", points,
			  points == 1 ? "" : "s", res->verify_failed ? "; stopped at the first (use "
			  "--on-error continue to go on)" : "");
}

static int run_all(const struct args *a, struct iolab_config **cfg, unsigned ncfg,
		   struct iolab_store *store)
{
	struct iolab_results res = {0};
	struct iolab_err err;
	int status = EXIT_OK;
	struct iolab_out rec_out;
	struct iolab_recorder *rec = NULL;
	if (a->record_dir) {
		record_dir_attach(a->record_dir);
	} else if (a->record) {
		if ((status = record_open(a, &rec_out, &rec)))
			return EXIT_USAGE;
		cfg[0]->record = rec;
	}
	unsigned *end = calloc(ncfg ? ncfg : 1, sizeof(*end)); /* each config's last point */
	if (!end) {
		if (rec) {
			iolab_out_abort(&rec_out);
			iolab_recorder_free(rec);
		}
		return cli_errorf(EXIT_USAGE, "out of memory");
	}
	struct show show = {.quiet = a->quiet, .tty = isatty(2)};
	for (unsigned i = 0; i < ncfg; i++)
		show.points += iolab_config_points(cfg[i]);
	for (unsigned i = 0; i < ncfg && !iolab_run_stopped(&res); i++) {
		show.before += i ? iolab_config_points(cfg[i - 1]) : 0;
		int rc = iolab_run(cfg[i], &res, progress, &show, &err);
		end[i] = res.n;
		end_line(&show);
		if (rc) {
			cli_errorf(EXIT_FAILED, "%s", err.msg);
			status = rc == -EINTR ? EXIT_INTERRUPTED : EXIT_USAGE;
			break;
		}
	}
	saving = 1;
	if (res.n || status == EXIT_OK) {
		if (!iolab_out_is_stdout(a->json) && !iolab_out_is_stdout(a->csv))
			iolab_output_table(stdout, &res, a->explain); /* '-' puts JSON or CSV there instead */
		struct iolab_report rep = {.command = cmd_of(a), .job = a->job, .nconfig = ncfg,
					   .config = (const struct iolab_config *const *)cfg,
					   .price_usd = a->price_usd};
		int s = a->json ? save(a->json, &rep, &res, true) : EXIT_OK;
		int t = a->csv ? save(a->csv, &rep, &res, false) : EXIT_OK;
		int r = rec ? record_save(a, &rec_out, rec) : EXIT_OK;
		int d = store && res.n ? store_save(a, store, &rep, &res, cfg, ncfg) : EXIT_OK;
		if (a->record_dir && a->record_dir->status)
			r = a->record_dir->status;
		rec = NULL;
		if (s || t || r || d)
			status = EXIT_FAILED;
	}
	if (rec) {
		iolab_out_abort(&rec_out);
		iolab_recorder_free(rec);
	}
	if (status == EXIT_OK)
		status = report_mismatches(&res, cfg, end, ncfg);
	free(end);
	if (status == EXIT_OK && res.io_failed && res.n) {
		const struct iolab_errors *e = &res.point[res.n - 1].errors;
		char first[256] = "an engine call";
		if (e->has_first)
			iolab_error_describe(&e->first, first, sizeof(first));
		status = cli_errorf(EXIT_FAILED, "point %u stopped by an I/O error, %s (use --on-error "
				    "continue to count errors and go on)", res.n, first);
	}
	uint64_t errors = 0;
	unsigned erring = 0;
	for (unsigned i = 0; i < res.n; i++) {
		uint64_t n = iolab_errors_count(&res.point[i].errors);
		errors += n;
		erring += n > 0;
	}
	if (status == EXIT_OK && errors) /* --on-error continue went on: the run still failed */
		status = cli_errorf(EXIT_FAILED, "%llu I/O error%s in %u of %u point%s (--on-error "
				    "continue; the warnings say which)", (unsigned long long)errors,
				    errors == 1 ? "" : "s", erring, res.n, res.n == 1 ? "" : "s");
	if (status == EXIT_OK && res.short_point > res.n) /* MPI: a point of rank 0's, which says it */
		status = EXIT_FAILED;
	if (status == EXIT_OK && res.short_point) {
		const struct iolab_point *p = &res.point[res.short_point - 1];
		unsigned long long ios = p->dir[0].ios + p->dir[1].ios;
		char kept[96]; /* what the point kept in flight, in its load model's terms */
		if (p->clients)
			snprintf(kept, sizeof(kept), "%u worker(s) x %u clients", p->workers, p->clients);
		else if (p->target_iops > 0)
			snprintf(kept, sizeof(kept), "%u I/Os (at most, at rate %.6g)", p->inflight_max,
				 p->target_iops);
		else
			snprintf(kept, sizeof(kept), "%u worker(s) x queue depth %u", p->workers, p->qd);
		const char *lower = p->clients ? "--clients" : p->target_iops > 0 ? "--rate" : "--qd";
		if (!ios)
			status = cli_errorf(EXIT_FAILED, "point %u completed no I/O in its measured time (%s): "
					    "there is no result; give more --time or lower %s/--workers",
					    res.short_point, kept, lower);
		else
			status = cli_errorf(EXIT_FAILED, "point %u completed %llu I/Os, fewer than the %s it "
					    "kept in flight: the queue never turned over, so there is no "
					    "steady-state result; give more --time or lower %s/--workers",
					    res.short_point, ios, kept, lower);
	}
	if (iolab_cluster_lost())
		cli_errorf(EXIT_INTERRUPTED, "the MPI job lost a rank (mpirun names it); the points "
			   "finished before are kept");
	if (res.interrupted)
		status = EXIT_INTERRUPTED;
	iolab_results_free(&res);
	return status;
}

/* Under mpirun, the ranks' setups (the files each reads, rank 0's outputs and results store)
 * meet here, each rank once, before the run's collectives: a rank whose setup failed does not
 * leave the others waiting for it there. Returns EXIT_OK on every rank if every setup went well,
 * otherwise on every rank the status of the lowest-numbered failed rank, rank 0 having said its
 * line (a failed rank keeps its own, said). Alone: status. */
static int ranks_in_step(int status)
{
	struct iolab_err err;
	int rc = iolab_cluster_agree(status ? -status : 0, cli_last_error(), &err);
	if (!rc || status)
		return status;
	if (iolab_cluster_lost())
		return cli_errorf(EXIT_INTERRUPTED, "%s", err.msg);
	return cli_errorf(-rc, "%s", err.msg);
}

/* ---- assembling the configurations ---- */

static int apply(struct iolab_config *c, const struct setting *s, unsigned n)
{
	struct iolab_err err;
	for (unsigned i = 0; i < n; i++)
		if (iolab_config_set(c, s[i].name, s[i].value, &err)) {
			cli_errorf(EXIT_FAILED, "--%s", err.msg);
			return -1;
		}
	return 0;
}

/* Checks --json, --csv, --record and the store against each other and every input of the run
 * (targets, the job file, the files a model or subsystem file named) before anything runs. */
static int check_outputs(const struct args *a, struct iolab_config **cfg, unsigned ncfg,
			 const char *store)
{
	unsigned n = 0;
	bool force = ncfg > 0;
	for (unsigned i = 0; i < ncfg; i++) {
		n += cfg[i]->ntargets;
		force &= cfg[i]->force;
	}
	const char **inputs = calloc(n + 2 * ncfg, sizeof(*inputs));
	const struct record_dir *rd = a->record_dir;
	struct iolab_output *outs = calloc(4 + ncfg + (rd ? rd->n : 0), sizeof(*outs));
	if (!inputs || !outs) {
		free(inputs);
		free(outs);
		return cli_errorf(EXIT_USAGE, "out of memory");
	}
	n = 0;
	for (unsigned i = 0; i < ncfg; i++)
		for (unsigned t = 0; t < cfg[i]->ntargets; t++)
			inputs[n++] = cfg[i]->target[t];
	for (unsigned i = 0; i < ncfg; i++)
		if (cfg[i]->replay)
			inputs[n++] = cfg[i]->replay->path;
	outs[0] = (struct iolab_output){"--db", *store ? store : NULL, IOLAB_OUT_ADD};
	outs[1] = (struct iolab_output){"--json", a->json, IOLAB_OUT_REPLACE};
	outs[2] = (struct iolab_output){"--csv", a->csv, IOLAB_OUT_REPLACE};
	outs[3] = (struct iolab_output){"--record", rd ? NULL : a->record, IOLAB_OUT_REPLACE};
	/* a --verify run writes its journal (in place, as it goes); --verify-only reads one, which
	 * may be the journal an earlier run of the same job writes */
	unsigned nout = 4;
	for (unsigned i = 0; i < ncfg; i++)
		if (*cfg[i]->verify_journal && !cfg[i]->verify_only)
			outs[nout++] = (struct iolab_output){"--verify-journal", cfg[i]->verify_journal,
							     IOLAB_OUT_REPLACE};
	for (unsigned i = 0; i < ncfg; i++) {
		bool written = false;
		for (unsigned k = 4; k < nout; k++)
			written |= !strcmp(outs[k].option, "--verify-journal") &&
				   !strcmp(outs[k].path, cfg[i]->verify_journal);
		if (cfg[i]->verify_only && *cfg[i]->verify_journal && !written)
			inputs[n++] = cfg[i]->verify_journal;
	}
	if (rd) { /* a trace per point */
		record_dir_outputs(rd, outs + nout);
		nout += rd->n;
	}
	struct iolab_err err;
	int rc = iolab_outputs_check(outs, nout, inputs, n, force, &err);
	free(inputs);
	free(outs);
	if (rc)
		cli_errorf(EXIT_FAILED, "%s", err.msg);
	return rc ? EXIT_USAGE : EXIT_OK;
}

/* --drive goes with --array, --model without; a subsystem file describes the whole path. */
static int check_volume(const struct args *a, struct iolab_config **cfg, unsigned ncfg)
{
	for (unsigned i = 0; i < ncfg && a->config; i++) {
		const struct iolab_config *c = cfg[i];
		const char *clash = c->sim.array_level ? "array" : c->sim.has_channel ? "channel"
				    : c->sim.channels ? "channels" : c->sim.has_bus ? "bus"
				    : c->sim.controllers ? "controllers" : c->sim.failed[0] ? "failed"
				    : c->sim.rebuild_rate ? "rebuild-rate" : NULL;
		if (clash)
			return cli_errorf(EXIT_USAGE, "sim: --%s: the subsystem file %s describes the "
					  "path; change it there", clash, a->config);
	}
	for (unsigned i = 0; i < ncfg; i++) {
		bool array = cfg[i]->sim.array_level != 0, drive = *cfg[i]->sim.drive;
		if (drive && (a->model || a->config))
			return cli_errorf(EXIT_USAGE, "sim: --model is one drive, --drive the drives of an "
					  "--array, --config a whole subsystem: give one of them");
		if (a->sim && !drive && !a->model && !a->config)
			return cli_errorf(EXIT_USAGE, "sim: --model is required (see 'iolab models'), or "
					  "--array with --drive, or --config");
		if (array && a->model)
			return cli_errorf(EXIT_USAGE, "sim: --array builds a volume of --drive drives; "
					  "--model is for a single drive");
		if (!array && drive)
			return cli_errorf(EXIT_USAGE, "sim: --drive names the drives of an --array (for a "
					  "single drive use --model)");
	}
	return EXIT_OK;
}

/* Loads the job (a file, the default job, or one run from the command line alone). */
static int load_job(const struct args *a, struct iolab_job *job)
{
	struct iolab_err err;
	const char *shipped;
	int rc = 0;
	if (a->use_default)
		rc = iolab_job_parse("(default job)", default_job, false, job, &err);
	else if (a->job && (shipped = iolab_example_text_for(a->job)))
		rc = iolab_job_parse(a->job, shipped, a->sim, job, &err); /* examples/ (examples.h) */
	else if (a->job)
		rc = iolab_job_load(a->job, a->sim, job, &err);
	else if (!(job->run = calloc(a->replay ? a->traces.n : 1, sizeof(*job->run))))
		return cli_errorf(EXIT_USAGE, "out of memory");
	else { /* one run from the command line; a replay's: one per trace */
		job->nrun = a->replay ? a->traces.n : 1;
		for (unsigned i = 0; i < job->nrun; i++)
			iolab_config_init(&job->run[i]);
	}
	if (rc)
		cli_errorf(EXIT_FAILED, "%s", err.msg);
	return rc ? EXIT_USAGE : EXIT_OK;
}

/* Applies the command line over each run of the job; returns an exit status. A run whose
 * drives are --drive's (the command line's or its section's) gets its first model opened into
 * drives[i]. */
static int build_configs(const struct args *a, struct iolab_job *job,
			 const struct iolab_disk_model *model, const struct iolab_subsys *subsys,
			 struct iolab_disk_model *drives, struct iolab_config **cfg)
{
	struct iolab_err err;
	for (unsigned i = 0; i < job->nrun; i++) {
		struct iolab_config *c = &job->run[i];
		c->patterns = &job->patterns;
		if (a->replay) { /* the trace sets the work: it runs to its end unless --time */
			c->replay = &a->replays[i];
			c->time_ns = 0;
		}
		if (apply(c, a->set, a->nset))
			return EXIT_USAGE;
		for (unsigned t = 0; t < a->ntarget; t++)
			if (iolab_config_set(c, "target", a->targets[t], &err)) {
				return cli_errorf(EXIT_USAGE, "%s", err.msg);
			}
		const struct iolab_disk_model *m = model;
		if (a->sim && !m && *c->sim.drive) {
			if (iolab_model_open(c->sim.drive, &drives[i], &err))
				return cli_errorf(EXIT_USAGE, "--drive: %s", err.msg);
			m = &drives[i];
		}
		if (m) {
			c->engine = &iolab_engine_sim;
			c->engine_config = m;
			c->model_name = m->name;
			c->virtual_size = m->blocks * m->block_bytes;
		}
		if (subsys) { /* the file's path: its size comes from its volumes */
			c->sim.subsys = subsys;
			c->model_name = a->config;
		}
		iolab_config_for_rank(c); /* mpirun: %r, %h in the targets */
		cfg[i] = c;
	}
	return EXIT_OK;
}

/* --record FILE takes a run of one point; --record DIR/ a trace per point (record_dir.h). */
static int check_record(struct args *a, struct iolab_config **cfg, unsigned ncfg)
{
	const char *cmd = cmd_of(a);
	if (record_is_dir(a->record)) {
		if (!(a->record_dir = calloc(1, sizeof(*a->record_dir))))
			return cli_errorf(EXIT_USAGE, "out of memory");
		return record_dir_plan(a->record_dir, a->record, a->source, cfg, ncfg);
	}
	unsigned points = 0;
	for (unsigned i = 0; i < ncfg; i++)
		points += iolab_config_points(cfg[i]) * cfg[i]->repeat;
	if (points != 1)
		return cli_errorf(EXIT_USAGE, "%s: --record FILE writes the trace of one point, and this "
				  "run has %u (one value per list option, --repeat 1; --record DIR/ writes "
				  "one per point)", cmd, points);
	return EXIT_OK;
}

/* The command line as typed, in its order and quoted (cli_cmdline.c): whole for the store, cut
 * at its size for the header of --record's trace. */
static void command_line(struct args *a, int argc, char **argv)
{
	a->cmdline = cli_command_line();
	if (a->cmdline) {
		snprintf(a->source, sizeof(a->source), "%s", a->cmdline);
		return;
	}
	size_t n = (size_t)snprintf(a->source, sizeof(a->source), "iolab %s", cmd_of(a));
	for (int i = 1; i < argc && n < sizeof(a->source); i++)
		n += (size_t)snprintf(a->source + n, sizeof(a->source) - n, " %s", argv[i]);
}

/* Makes the temporary directory of the default job; returns an exit status. */
static int make_default_scratch(char *tmpdir, size_t tn, char *scratch, size_t sn)
{
	snprintf(tmpdir, tn, "/var/tmp/iolab-XXXXXX");
	if (!mkdtemp(tmpdir)) {
		cli_errorf(EXIT_FAILED, "cannot create a temporary directory in /var/tmp: %s",
			strerror(errno));
		*tmpdir = 0;
		return EXIT_USAGE;
	}
	snprintf(scratch, sn, "%s/scratch.img", tmpdir);
	printf("iolab: the default job: rand-read, seq-read and rand-write at QD 1 and 16, "
	       "2 s each, on a 256 MiB scratch file %s\n", scratch);
	fflush(stdout);
	return EXIT_OK;
}

/* A replay's traces: the positional arguments, files or directories of them (targets go with
 * --target); each trace is a run of its own, with replay's options. */
static int take_traces(struct args *a, const struct iolab_replay *replay)
{
	if (a->job || a->use_default)
		return cli_errorf(EXIT_USAGE, "replay: --job does not apply: give the trace and options");
	bool aimed = a->sim; /* a simulated path, --target or --engine: where the requests go */
	for (unsigned i = 0; i < a->nset; i++)
		aimed |= !strcmp(a->set[i].name, "target") || !strcmp(a->set[i].name, "engine");
	if (a->ntarget > 1 && !aimed)
		return cli_errorf(EXIT_USAGE, "replay: %u traces and no target: every argument is a "
				  "trace (targets go with --target PATH[,PATH])", a->ntarget);
	int status = replay_traces_list(a->targets, a->ntarget, replay->fmt != NULL, &a->traces);
	if (status)
		return status;
	if (!(a->replays = calloc(a->traces.n, sizeof(*a->replays))))
		return cli_errorf(EXIT_USAGE, "out of memory");
	for (unsigned i = 0; i < a->traces.n; i++) {
		a->replays[i] = *replay;
		a->replays[i].path = a->traces.path[i];
	}
	a->ntarget = 0;
	return EXIT_OK;
}

static int run_main(int argc, char **argv, bool sim, const struct iolab_replay *replay)
{
	struct args a = {.sim = sim, .replay = replay};
	struct iolab_disk_model model = {0}, *drives = NULL; /* --model; each run's --drive */
	struct iolab_subsys *subsys = NULL; /* --config */
	struct iolab_job job = {0};
	struct iolab_config **cfg = NULL;
	struct iolab_store *store = NULL;
	char tmpdir[64] = "", scratch[96] = "", dbpath[PATH_MAX] = "";
	struct iolab_err err;
	bool in_step = false, agreed = false;
	int status = parse_args(argc, argv, &a);
	command_line(&a, argc, argv);
	if (status || a.help) {
		if (a.help)
			help(sim);
		goto out;
	}
	if (replay && (status = take_traces(&a, replay)))
		goto out;
	in_step = true; /* what follows reads files and rank 0's outputs: it may fail on one rank */
	if (iolab_cluster_rank() != 0) { /* under mpirun rank 0 writes the job's results */
		a.json = a.csv = a.db = a.label = NULL;
		a.no_db = true;
	}
	if ((status = load_job(&a, &job)))
		goto out;
	if (sim && !a.model && !a.config && *job.model) /* model = in the job file's [global] */
		a.model = job.model;
	if (sim && a.model && a.config)
		status = cli_errorf(EXIT_USAGE, "sim: --model is one drive, --drive the drives of an "
				    "--array, --config a whole subsystem: give one of them");
	else if (sim && a.ntarget)
		status = cli_errorf(EXIT_USAGE, "sim: takes no targets as arguments: the drive is "
				    "--model (the volumes of a --config file are named with --target)");
	else if (a.job && a.use_default)
		status = cli_errorf(EXIT_USAGE, "run: --job and --default cannot be used together");
	else if (a.use_default && (a.ntarget || a.nset))
		status = cli_errorf(EXIT_USAGE, "run: --default runs its own sweep on a scratch file of "
				    "its own: %s%s does not apply (without --default, give the target and "
				    "options)", a.ntarget ? "the target " : "--",
				    a.ntarget ? a.targets[0] : a.set[0].name);
	if (status)
		goto out;
	if (sim && a.config) {
		if (!(subsys = malloc(sizeof(*subsys)))) {
			status = cli_errorf(EXIT_USAGE, "out of memory");
			goto out;
		}
		const char *shipped = iolab_example_text_for(a.config); /* examples/ (examples.h) */
		if (shipped ? iolab_subsys_parse(a.config, shipped, subsys, &err)
			    : iolab_subsys_load(a.config, subsys, &err)) {
			free(subsys);
			subsys = NULL;
			status = cli_errorf(EXIT_USAGE, "%s", err.msg);
			goto out;
		}
	} else if (sim && a.model && iolab_model_open(a.model, &model, &err)) {
		status = cli_errorf(EXIT_USAGE, "%s", err.msg);
		goto out;
	}
	cfg = calloc(job.nrun, sizeof(*cfg));
	drives = calloc(job.nrun, sizeof(*drives));
	if (!cfg || !drives) {
		status = cli_errorf(EXIT_USAGE, "out of memory");
		goto out;
	}
	if ((status = build_configs(&a, &job, !sim ? NULL : subsys ? &subsys->model[0] : a.model ?
				    &model : NULL, subsys, drives, cfg)) ||
	    (status = check_volume(&a, cfg, job.nrun)) ||
	    (status = store_path(&a, dbpath, sizeof(dbpath))) ||
	    (a.record && (status = check_record(&a, cfg, job.nrun))) ||
	    (status = check_outputs(&a, cfg, job.nrun, dbpath)))
		goto out;
	if ((status = store_open(dbpath, &store)))
		goto out;
	if (a.use_default) {
		if ((status = make_default_scratch(tmpdir, sizeof(tmpdir), scratch, sizeof(scratch))))
			goto out;
		for (unsigned i = 0; i < job.nrun; i++)
			if (iolab_config_set(cfg[i], "target", scratch, &err)) {
				status = cli_errorf(EXIT_USAGE, "%s", err.msg);
				goto out;
			}
	}
	catch_stop_signals();
	agreed = true;
	if (!(status = ranks_in_step(EXIT_OK)))
		status = run_all(&a, cfg, job.nrun, store);
out:
	if (a.record_dir)
		record_dir_free(a.record_dir, !agreed);
	if (in_step && !agreed) /* this rank's setup failed: the others learn it */
		ranks_in_step(status);
	iolab_store_close(store);
	if (*tmpdir) {
		unlink(scratch);
		rmdir(tmpdir);
	}
	free(cfg);
	for (unsigned i = 0; drives && i < job.nrun; i++) /* before the job says how many */
		iolab_model_free(&drives[i]);
	free(drives);
	iolab_job_free(&job);
	iolab_model_free(&model);
	if (subsys)
		iolab_subsys_free(subsys);
	free(subsys);
	free_args(&a);
	return status;
}

int cmd_run(int argc, char **argv)
{
	return run_main(argc, argv, false, NULL);
}

int cmd_sim_run(int argc, char **argv)
{
	return run_main(argc, argv, true, NULL);
}

int cmd_replay_run(int argc, char **argv, bool sim, const struct iolab_replay *r)
{
	return run_main(argc, argv, sim, r);
}
