/* cmd_record.c: `iolab trace record --device DEV --time T -o FILE`: captures the requests a live
 * block device serves through tracefs (trace_capture.h) into a trace. The first SIGINT or
 * SIGTERM ends the capture early; what was captured is still written. A capture that saw no
 * request writes nothing and fails (exit 1): an empty trace would hide a tracefs that does not
 * deliver the block events. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "iolab/outfile.h"
#include "iolab/parse.h"
#include "iolab/trace.h"
#include "iolab/trace_capture.h"

static volatile sig_atomic_t record_stop;

static void on_signal(int sig)
{
	record_stop = sig;
}

static void record_help(void)
{
	printf("usage: iolab trace record --device DEV -o FILE [--time T] [--format NAME] [--force]\n\n"
	       "Captures the requests block device DEV serves (a disk or a partition; reading only,\n"
	       "a mounted device is fine) through the kernel's block tracepoints in tracefs, until\n"
	       "--time has passed or SIGINT or SIGTERM, and writes them as a trace. Needs root and\n"
	       "tracefs.\n\n"
	       "  --device DEV      the block device\n"
	       "  -o, --output FILE the trace to write ('-' = stdout)\n"
	       "  --time T          how long, more than 0 (30, 500ms, 10m; default: until SIGINT or\n"
	       "                    SIGTERM, which end the capture and write what it holds)\n"
	       "  --format NAME     the trace's format (default iot; iolab trace formats)\n"
	       "  --force           replace an existing FILE\n\n"
	       "Events the kernel's trace buffer dropped are counted and reported. A capture that\n"
	       "saw no request of DEV writes no trace.\n"
	       "Exit status: 0 captured, 1 no request seen or a write error, 2 bad input or refused\n"
	       "(not root, no tracefs or no block events in it), 130 --time cut short by a signal.\n");
}

struct record_args {
	const char *device, *out, *format;
	uint64_t time_ns;
	bool force;
};

static int record_parse(int argc, char **argv, struct record_args *a)
{
	static const struct option lo[] = {
		{"device", required_argument, NULL, 'd'}, {"output", required_argument, NULL, 'o'},
		{"time", required_argument, NULL, 't'}, {"format", required_argument, NULL, 'F'},
		{"force", no_argument, NULL, 'f'}, {"help", no_argument, NULL, 'h'}, {0, 0, 0, 0},
	};
	struct iolab_err err;
	int ch;
	opterr = 0;
	optind = 1;
	while ((ch = getopt_long(argc, argv, ":ho:", lo, NULL)) != -1) {
		switch (ch) {
		case 'd': a->device = optarg; break;
		case 'o': a->out = optarg; break;
		case 'F': a->format = optarg; break;
		case 'f': a->force = true; break;
		case 'h': record_help(); return -1;
		case 't':
			if (iolab_parse_duration("--time", optarg, &a->time_ns, &err))
				return cli_errorf(EXIT_USAGE, "trace record: %s", err.msg);
			if (!a->time_ns)
				return cli_errorf(EXIT_USAGE, "trace record: --time '%s': give a time above 0 "
						  "(without --time the capture runs until SIGINT or SIGTERM)",
						  optarg);
			break;
		case ':':
			return cli_errorf(EXIT_USAGE, "trace record: option '%s' needs a value",
					  argv[optind - 1]);
		default:
			return cli_errorf(EXIT_USAGE, "trace record: unknown option '%s' (see 'iolab trace "
					  "record --help')", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return cli_errorf(EXIT_USAGE, "trace record: unexpected '%s' (the device is --device)",
				  argv[optind]);
	if (!a->device)
		return cli_errorf(EXIT_USAGE, "trace record: --device is required");
	if (!a->out)
		return cli_errorf(EXIT_USAGE, "trace record: -o FILE is required");
	return 0;
}

static void report(const struct record_args *a, const struct iolab_capture_stats *s)
{
	char extra[192];
	int n = 0;
	extra[0] = 0;
	if (s->incomplete)
		n += snprintf(extra + n, sizeof(extra) - (size_t)n, "; %llu without a completion",
			      (unsigned long long)s->incomplete);
	if (s->unmatched && n < (int)sizeof(extra))
		n += snprintf(extra + n, sizeof(extra) - (size_t)n, "; %llu completions of requests "
			      "issued before the start", (unsigned long long)s->unmatched);
	if (s->bad_lines && n < (int)sizeof(extra))
		snprintf(extra + n, sizeof(extra) - (size_t)n, "; %llu unreadable lines",
			 (unsigned long long)s->bad_lines);
	cli_errorf(EXIT_OK, "trace record: %s: %llu requests in %.1f s to %s; lost events: %llu%s",
		   a->device, (unsigned long long)s->records, s->seconds, a->out,
		   (unsigned long long)s->lost, extra);
	if (s->lost)
		cli_errorf(EXIT_OK, "trace record: the kernel's trace buffer dropped %llu events: the "
			   "trace misses requests (a busier device needs a shorter capture)",
			   (unsigned long long)s->lost);
}

/* Captures into out; returns an exit status. */
static int capture(const struct record_args *a, const struct iolab_trace_format *fmt)
{
	struct iolab_err err;
	struct iolab_trace_header h;
	struct iolab_capture *c;
	int rc = iolab_capture_start(a->device, &h, &c, &err);
	if (rc)
		return cli_errorf(rc == -ENOMEM ? EXIT_FAILED : EXIT_USAGE, "%s", err.msg);
	struct sigaction sa = {.sa_handler = on_signal}; /* no SA_RESTART: the wait ends at once */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	struct iolab_out out;
	struct iolab_trace_writer *w = NULL;
	rc = iolab_out_open(&out, a->out, &err);
	if (!rc && (rc = iolab_trace_create(out.f, fmt, &h, &w, &err)))
		iolab_out_abort(&out);
	if (rc) {
		iolab_capture_end(c);
		return cli_errorf(EXIT_FAILED, "%s", err.msg);
	}
	rc = iolab_capture_run(c, w, a->time_ns, &record_stop, &err);
	struct iolab_capture_stats st;
	iolab_capture_stats(c, &st);
	iolab_capture_end(c);
	int fin = iolab_trace_finish(w, rc ? &(struct iolab_err){0} : &err);
	if (!rc)
		rc = fin;
	if (rc) {
		iolab_out_abort(&out);
		if (rc == -ENODATA) /* nothing captured: no trace at all */
			return cli_errorf(EXIT_FAILED, "%s", err.msg);
		return cli_errorf(EXIT_FAILED, "%s: %s", a->out, err.msg);
	}
	if ((rc = iolab_out_commit(&out, &err)))
		return cli_errorf(EXIT_FAILED, "%s", err.msg);
	report(a, &st);
	/* SIGINT is how a capture without --time ends; with --time it cut the capture short */
	return record_stop && a->time_ns ? EXIT_INTERRUPTED : EXIT_OK;
}

int cmd_trace_record(int argc, char **argv)
{
	struct record_args a = {0};
	int rc = record_parse(argc, argv, &a);
	if (rc)
		return rc < 0 ? EXIT_OK : rc;
	const struct iolab_trace_format *fmt = iolab_trace_format_find(a.format ? a.format : "iot");
	if (!fmt || !fmt->write_open)
		return cli_errorf(EXIT_USAGE, "trace record: --format %s: %s", a.format,
				  fmt ? "cannot be written" : "no such format (iolab trace formats)");
	const struct iolab_output outs[] = {{"-o", a.out, IOLAB_OUT_REPLACE}};
	const char *inputs[] = {a.device};
	struct iolab_err err;
	if (iolab_outputs_check(outs, 1, inputs, 1, a.force, &err))
		return cli_errorf(EXIT_USAGE, "trace record: %s", err.msg);
	return capture(&a, fmt);
}
