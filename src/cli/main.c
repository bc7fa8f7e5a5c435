/* main.c: iolab's entry point: dispatches to a subcommand, and makes sure what it printed on
 * standard output arrived (a full disk or a closed pipe there is a failure, exit 1). */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "iolab/cluster.h"
#include "iolab/outfile.h"
#include "iolab/utf8.h"

static const struct {
	const char *name;
	int (*fn)(int, char **);
	const char *about;
} commands[] = {
	{"run", cmd_run, "measure files and block devices (load generator)"},
	{"sim", cmd_sim, "run a workload on a simulated drive; validate a model (sim validate); shipped examples (sim examples); part kinds (sim kinds)"},
	{"replay", cmd_replay, "replay a trace on files, devices or a simulated path"},
	{"patterns", cmd_patterns, "list the built-in access patterns with their definitions"},
	{"engines", cmd_engines, "list the I/O engines"},
	{"model", cmd_model, "drive models: new (from a datasheet), check, import-disksim, import-mqsim, show, list (docs/model-format.md)"},
	{"probe", cmd_probe, "measure a drive, real or simulated, into a model (docs/probe.md)"},
	{"models", cmd_models, "list the built-in drive models"},
	{"trace", cmd_trace, "I/O traces: formats, info, convert, import (docs/trace-format.md)"},
	{"db", cmd_db, "saved results: list, show, export, delete (docs/results-db.md)"},
	{"compare", cmd_compare, "saved runs point by point: % of a reference, gain, error (docs/compare.md)"},
	{"report", cmd_report, "one self-contained HTML page of saved runs, with charts (docs/report.md)"},
};

static void usage(FILE *f)
{
	fprintf(f, "usage: iolab COMMAND [OPTIONS]   (iolab COMMAND --help for its options)\n\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].about);
	fprintf(f, "\nExit status: 0 success, 1 the run hit I/O errors, 2 bad input or refused, "
		   "3 probe: the device does not rotate, 130 interrupted.\nSee iolab(1) and docs/.\n");
}

static char last_error[8192]; /* a line naming a path of PATH_MAX fits */

int cli_errorf(int status, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *text = NULL;
	int n = vasprintf(&text, fmt, ap);
	va_end(ap);
	/* What came from outside (a file name, a line of a file) may hold bytes that are not UTF-8,
	 * or control characters that a terminal would obey: shown as \xNN (utf8.h). */
	char *shown = n >= 0 ? iolab_utf8_escape_dup(text) : NULL;
	snprintf(last_error, sizeof(last_error), "%s", shown ? shown : n >= 0 ? text : fmt);
	fprintf(stderr, "iolab: %s\n", last_error);
	free(shown);
	free(text);
	return status;
}

const char *cli_last_error(void)
{
	return last_error;
}

/* Under mpirun rank 0 speaks for the job: the others' output goes nowhere (a rank that cannot
 * be silenced runs on). */
static void quiet_other_ranks(void)
{
	if (iolab_cluster_rank() != 0) {
		bool quiet = freopen("/dev/null", "w", stdout) && freopen("/dev/null", "w", stderr);
		(void)quiet;
	}
}

/* The exit status, made EXIT_FAILED if standard output could not be written. */
static int stdout_checked(int status)
{
	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return status;
	cli_errorf(EXIT_FAILED, "standard output: write error: %s", strerror(errno ? errno : EIO));
	return status == EXIT_OK ? EXIT_FAILED : status;
}

int cli_argc;
char **cli_argv;

/* A signal that ends the process first removes the temporary files of the outputs still being
 * written (outfile.h), then ends it as the signal would. */
static void on_fatal_signal(int sig)
{
	iolab_out_remove_pending();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* True for the commands that stop cleanly on SIGINT and SIGTERM with handlers of their own,
 * installed once they are ready to keep what they measured (run, sim runs, replay, probe, trace
 * record): until then the signal's default action ends them, and nothing is half written. */
static bool stops_cleanly(int argc, char **argv)
{
	const char *cmd = argv[1], *sub = argc > 2 ? argv[2] : "";
	return !strcmp(cmd, "run") || !strcmp(cmd, "replay") || !strcmp(cmd, "probe") ||
	       (!strcmp(cmd, "sim") && strcmp(sub, "validate") && strcmp(sub, "examples") &&
		strcmp(sub, "kinds")) ||
	       (!strcmp(cmd, "trace") && !strcmp(sub, "record"));
}

static void remove_outputs_on_signals(void)
{
	struct sigaction sa = {.sa_handler = on_fatal_signal};
	sigemptyset(&sa.sa_mask);
	const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
	for (unsigned i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

int main(int argc, char **argv)
{
	cli_argc = argc;
	cli_argv = argv;
	cli_keep_command_line(argc, argv);
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!stops_cleanly(argc, argv))
		remove_outputs_on_signals();
	const char *cmd = argv[1];
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
		printf("iolab %s\n", IOLAB_VERSION);
		return EXIT_OK;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (strcmp(cmd, commands[i].name))
			continue;
		struct iolab_err err;
		int joined = iolab_cluster_start(&argc, &argv, &err);
		quiet_other_ranks();
		if (joined)
			return cli_errorf(EXIT_USAGE, "%s", err.msg);
		int status = stdout_checked(commands[i].fn(argc - 1, argv + 1));
		iolab_cluster_end();
		return status;
	}
	return cli_errorf(EXIT_USAGE, "unknown command '%s' (try 'iolab --help')", cmd);
}
