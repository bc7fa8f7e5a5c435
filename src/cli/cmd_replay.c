/* cmd_replay.c: `iolab replay TRACE... | DIR`: takes the replay's own options (the mode, the format,
 * the transforms of trace.h) out of the command line and hands the rest to the command line of
 * `run` (real targets, --target) or `sim` (--model, --array with --drive, --config), which runs
 * the trace with every option of theirs and reports as they do (cmd_run.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "iolab/parse.h"
#include "iolab/replay.h"

/* The replay's options: name, whether it takes a value, help. */
static const struct {
	const char *name;
	bool value;
	const char *arg, *help;
} opts[] = {
	{"mode", true, "closed|timed", "closed: --qd requests in flight, in trace order, as fast as the"},
	{NULL, false, "", "target goes (IOPS); timed: each at its recorded time / --speed (open loop,"},
	{NULL, false, "", "--qd its cap, 1024 by default); closed by default"},
	{"format", true, "NAME", "the trace's format (iolab trace formats; default: .iot or its text)"},
	{"speed", true, "X", "timed: times divided by X (2: twice as fast)"},
	{"clip", true, "START:LEN", "keep requests inside [START, START+LEN), offsets from START"},
	{"shift", true, "[-]SIZE", "add SIZE to every offset"},
	{"scale", false, NULL, "fit offsets to each target's region (proportionally)"},
	{"wrap", false, NULL, "fit offsets to each target's region (modulo)"},
	{"op", true, "read,write,...", "keep only these operations (read, write, trim, flush)"},
	{"trace-target", true, "N", "keep only the trace's target N (0: the first in its header)"},
	{"slice", true, "START:LEN", "keep requests issued in [START, START+LEN) (times: 2s, 500ms)"},
};

static void help(void)
{
	printf("usage: iolab replay TRACE [--mode closed|timed] --target PATH[,PATH] [OPTIONS]\n"
	       "       iolab replay TRACE [--mode closed|timed] --model NAME|FILE [OPTIONS]\n"
	       "       iolab replay TRACE [--mode closed|timed] --array LEVEL:N --drive NAME [OPTIONS]\n"
	       "       iolab replay TRACE [--mode closed|timed] --config FILE [OPTIONS]\n"
	       "       iolab replay TRACE TRACE ... | DIR [OPTIONS]\n\n"
	       "Replays a trace's reads and writes on files and block devices (every option of\n"
	       "'iolab run', --force to write to an existing file or a device) or on a simulated\n"
	       "path in virtual time (every option of 'iolab sim'). Trace target i goes to --target\n"
	       "i, or every one to a single target. Offsets beyond a target are an error unless\n"
	       "--clip, --scale or --wrap fits them; a trace recorded on a larger target (its\n"
	       "header says) is scaled down as --scale would, with a note. Several traces, or a\n"
	       "directory (its *.iot files, sorted; every file with --format), are a series each:\n"
	       "the points are trace x --qd, each with its trace in JSON points[].trace. The\n"
	       "point ends with the trace, or at --time. One worker. A trace's trims are replayed\n"
	       "on a simulated path (counted apart: JSON 'trims') and skipped on files and\n"
	       "devices. Replay's own options:\n\n");
	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		char left[64] = "";
		if (opts[i].name)
			snprintf(left, sizeof(left), "--%s%s%s", opts[i].name, opts[i].arg ? " " : "",
				 opts[i].arg ? opts[i].arg : "");
		printf("  %-28s %s\n", left, opts[i].help);
	}
	printf("\nSee 'iolab run --help' and 'iolab sim --help' for the rest; docs/replay.md.\n");
}

/* "A:B" into two values parsed by fn. */
static int parse_pair(const char *field, const char *v,
		      int (*fn)(const char *, const char *, uint64_t *, struct iolab_err *),
		      uint64_t *a, uint64_t *b, struct iolab_err *err)
{
	const char *colon = strchr(v, ':');
	char first[64];
	if (!colon || (size_t)(colon - v) >= sizeof(first))
		return iolab_errf(err, EINVAL, "%s: '%s' is not START:LEN", field, v);
	memcpy(first, v, (size_t)(colon - v));
	first[colon - v] = 0;
	int rc = fn(field, first, a, err);
	if (!rc)
		rc = fn(field, colon + 1, b, err);
	if (!rc && !*b)
		rc = iolab_errf(err, EINVAL, "%s: the length of '%s' is 0", field, v);
	return rc;
}

static int parse_ops(const char *v, unsigned *ops, struct iolab_err *err)
{
	static const char *const name[] = {"read", "write", "trim", "flush"};
	char buf[256], *items[IOLAB_LIST_MAX];
	int n = iolab_split_list("op", v, buf, sizeof(buf), items, IOLAB_LIST_MAX, err);
	if (n < 0)
		return n;
	for (int i = 0; i < n; i++) {
		unsigned k = 0;
		while (k < 4 && strcmp(items[i], name[k]))
			k++;
		if (k == 4)
			return iolab_errf(err, EINVAL, "op: '%s' is not read, write, trim or flush", items[i]);
		*ops |= 1u << k;
	}
	return 0;
}

static int parse_shift(const char *v, int64_t *shift, struct iolab_err *err)
{
	uint64_t s;
	int rc = iolab_parse_size("shift", v + (*v == '-'), &s, err);
	if (!rc && s > INT64_MAX)
		rc = iolab_errf(err, EINVAL, "shift: '%s' is too large", v);
	if (!rc)
		*shift = *v == '-' ? -(int64_t)s : (int64_t)s;
	return rc;
}

/* Sets the replay option called name from v; returns 0 or an exit status. */
static int set_opt(struct iolab_replay *r, const char *name, const char *v)
{
	struct iolab_err err;
	struct iolab_trace_xform *x = &r->xform;
	int rc = 0;
	uint64_t u;
	if (!strcmp(name, "mode")) {
		if (!strcmp(v, "closed") || !strcmp(v, "timed"))
			r->mode = !strcmp(v, "timed") ? IOLAB_REPLAY_TIMED : IOLAB_REPLAY_CLOSED;
		else
			rc = iolab_errf(&err, EINVAL, "mode: '%s' is not closed or timed", v);
	} else if (!strcmp(name, "format")) {
		if (!(r->fmt = iolab_trace_format_find(v)))
			rc = iolab_errf(&err, EINVAL, "format: no format '%s' (see 'iolab trace formats')", v);
	} else if (!strcmp(name, "speed")) {
		rc = iolab_parse_double("speed", v, 1e-6, 1e6, &x->speed, &err);
	} else if (!strcmp(name, "clip")) {
		rc = parse_pair("clip", v, iolab_parse_size, &x->clip_start, &x->clip_len, &err);
	} else if (!strcmp(name, "slice")) {
		rc = parse_pair("slice", v, iolab_parse_duration, &x->slice_start_ns, &x->slice_len_ns, &err);
	} else if (!strcmp(name, "shift")) {
		rc = parse_shift(v, &x->shift, &err);
	} else if (!strcmp(name, "op")) {
		rc = parse_ops(v, &x->ops, &err);
	} else if (!strcmp(name, "trace-target")) {
		if (!(rc = iolab_parse_uint("trace-target", v, 0, IOLAB_TRACE_TARGETS_MAX - 1, &u, &err)))
			x->target = (int)u;
	} else if (!strcmp(name, "scale")) {
		r->scale = true;
	} else if (!strcmp(name, "wrap")) {
		x->wrap = true;
	}
	return rc ? cli_errorf(EXIT_USAGE, "replay: --%s", err.msg) : 0;
}

/* Takes the replay's options out of argv (kept in order in rest, argv[0] first). Returns 0 or
 * an exit status; *sim is set when the command line names a simulated path. */
static int take_opts(int argc, char **argv, struct iolab_replay *r, char **rest, int *nrest, bool *sim)
{
	bool seen[sizeof(opts) / sizeof(opts[0])] = {0};
	*nrest = 0;
	rest[(*nrest)++] = argv[0];
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--")) { /* the rest is positional */
			while (i < argc)
				rest[(*nrest)++] = argv[i++];
			break;
		}
		size_t len = strcspn(a, "=");
		for (const char *s = "--model\0--drive\0--config\0"; *s; s += strlen(s) + 1)
			if (len == strlen(s) && !strncmp(a, s, len))
				*sim = true;
		size_t k = 0;
		for (; k < sizeof(opts) / sizeof(opts[0]); k++)
			if (opts[k].name && a[0] == '-' && a[1] == '-' && len - 2 == strlen(opts[k].name) &&
			    !strncmp(a + 2, opts[k].name, len - 2))
				break;
		if (k == sizeof(opts) / sizeof(opts[0])) {
			rest[(*nrest)++] = argv[i];
			continue;
		}
		if (seen[k])
			return cli_errorf(EXIT_USAGE, "replay: --%s is given twice", opts[k].name);
		seen[k] = true;
		const char *v = a[len] == '=' ? a + len + 1 : NULL;
		if (opts[k].value && !v) {
			if (i + 1 >= argc)
				return cli_errorf(EXIT_USAGE, "replay: option '%s' needs a value", a);
			v = argv[++i];
		} else if (!opts[k].value && v) {
			return cli_errorf(EXIT_USAGE, "replay: option '--%s' takes no value", opts[k].name);
		}
		int rc = set_opt(r, opts[k].name, v);
		if (rc)
			return rc;
	}
	if (r->scale && r->xform.wrap)
		return cli_errorf(EXIT_USAGE, "replay: --scale and --wrap cannot be used together");
	if (r->xform.speed > 0 && r->xform.speed != 1 && r->mode != IOLAB_REPLAY_TIMED)
		return cli_errorf(EXIT_USAGE, "replay: --speed applies to --mode timed (closed replays "
				  "as fast as the target goes)");
	rest[*nrest] = NULL;
	return 0;
}

int cmd_replay(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			help();
			return EXIT_OK;
		}
	struct iolab_replay r = {.mode = IOLAB_REPLAY_CLOSED};
	r.xform.target = -1;
	char **rest = calloc((size_t)argc + 1, sizeof(*rest));
	if (!rest)
		return cli_errorf(EXIT_USAGE, "out of memory");
	int nrest;
	bool sim = false;
	int status = take_opts(argc, argv, &r, rest, &nrest, &sim);
	r.trims = sim; /* a simulated path's devices take trims; the engines skip them */
	if (!status)
		status = cmd_replay_run(nrest, rest, sim, &r);
	free(rest);
	return status;
}
