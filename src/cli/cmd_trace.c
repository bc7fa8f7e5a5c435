/* cmd_trace.c: `iolab trace formats | info | convert | import`: I/O traces in iolab's own
 * formats and the foreign ones it reads or writes (include/iolab/trace.h, docs/trace-format.md).
 * Every trace is streamed: memory stays bounded whatever its size. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "iolab/outfile.h"
#include "iolab/output.h"
#include "iolab/parse.h"
#include "iolab/trace.h"
#include "trace/trace_internal.h"
#include "trace/trace_stats.h"

/* The usage: on standard output when asked for (--help), on standard error when no command
 * was given. */
static void help_trace(FILE *f)
{
	fprintf(f, "usage: iolab trace formats\n"
	       "       iolab trace info FILE [--format F] [--json -|FILE] [--force]\n"
	       "       iolab trace convert IN [--format F] --to FMT -o OUT [--force] [TRANSFORMS]\n"
	       "       iolab trace import IN --format F -o OUT.iot [--force] [TRANSFORMS]\n"
	       "       iolab trace record --device DEV -o OUT [--time T] [--format F] [--force]\n\n"
	       "I/O traces: iolab's own binary (.iot) and text forms, and the foreign formats it reads\n"
	       "or writes (docs/trace-format.md). A trace is read as a stream, in bounded memory.\n"
	       "  formats   the formats, and whether each can be read and written\n"
	       "  info      requests, duration, read share, sizes, sequentiality, inter-arrival,\n"
	       "            footprint, queue depth and an offset-against-time map\n"
	       "  convert   rewrite a trace in another format, optionally transformed\n"
	       "  import    a foreign trace to .iot (convert --to iot)\n"
	       "  record    capture a live block device's requests (tracefs; root)\n\n"
	       "Without --format, IN is iolab's own binary or text trace, told by its first byte.\n"
	       "'iolab trace COMMAND --help' for each command's options.\n");
}

static void help_formats(void)
{
	printf("usage: iolab trace formats\n\nLists the trace formats: name, whether iolab reads "
	       "(r) and writes (w) it, and what it is.\nUse the name with --format (input) and --to "
	       "(output).\n");
}

static void help_info(void)
{
	printf("usage: iolab trace info FILE [--format F] [--json -|FILE] [--force]\n\n"
	       "Reads the trace FILE ('-' = stdin) once and prints: requests and their ops, duration,\n"
	       "read share of reads and writes, a size histogram (powers of two), sequential share\n"
	       "(requests starting where the previous request of the same target ended), inter-arrival\n"
	       "mean/p50/p99, offset range, footprint (distinct 4 KiB blocks, a HyperLogLog estimate\n"
	       "within about 1%%), queue depth (mean over time and max, when completions are known) and\n"
	       "a 60 x 16 map of offset against time.\n\n"
	       "  --format F     FILE's format (default: iolab's own, binary or text)\n"
	       "  --json PATH    the same as one JSON object ('-' = stdout, instead of the text)\n"
	       "  --force        overwrite the --json file if it exists\n\n"
	       "Exit status: 0, 1 write error, 2 bad input.\n");
}

static void help_convert(const char *sub)
{
	bool imp = !strcmp(sub, "import");
	printf("usage: iolab trace %s\n\n", imp ? "import IN --format F -o OUT.iot [--force] [TRANSFORMS]"
		: "convert IN [--format F] --to FMT -o OUT [--force] [TRANSFORMS]");
	printf("%s IN ('-' = stdin) and writes it to OUT ('-' = stdout) as %s. Transforms,\n"
	       "applied to each request in this order (docs/trace-format.md):\n"
	       "  --op OP            keep only read, write, trim or flush requests\n"
	       "  --target N         keep only target N (its index in the header)\n"
	       "  --slice START:LEN  keep requests issued in [START, START+LEN) (durations: 10s,\n"
	       "                     500ms); their times become relative to START\n"
	       "  --clip START:LEN   keep requests wholly inside bytes [START, START+LEN) (sizes:\n"
	       "                     0:36.7G); their offsets become relative to START\n"
	       "  --shift N          add N bytes (may be negative: -4k) to every offset\n"
	       "  --scale SIZE       shrink offsets proportionally onto SIZE bytes (512-byte\n"
	       "                     aligned; a trace that fits is kept as it is, never scaled up);\n"
	       "                     a request that started where its target's previous one ended\n"
	       "                     still does, so sequential runs stay sequential\n"
	       "  --wrap SIZE        offsets modulo SIZE instead (a request that would run past the\n"
	       "                     end starts at 0)\n"
	       "  --speed X          divide all times by X (2 = twice as fast)\n\n"
	       "  %s\n"
	       "  -o, --output OUT   the trace to write (required)\n"
	       "  --force            overwrite OUT if it exists\n"
	       "  --skip-bad         skip and count lines that cannot be read, instead of stopping\n\n"
	       "Exit status: 0 written, 1 write error, 2 bad input, OUT exists or out of bounds.\n",
	       imp ? "Imports" : "Reads", imp ? "iolab's binary trace (.iot)" : "format FMT",
	       imp ? "--format F         IN's format (required; see 'iolab trace formats')"
		   : "--format F         IN's format (default: iolab's own)\n"
		     "  --to FMT           OUT's format (required; see 'iolab trace formats')");
}

static bool is_help(const char *a)
{
	return !strcmp(a, "--help") || !strcmp(a, "-h");
}


/* The format named by --format/--to, or NULL with the message said. */
static const struct iolab_trace_format *format_arg(const char *sub, const char *opt, const char *name)
{
	const struct iolab_trace_format *f = iolab_trace_format_find(name);
	if (!f)
		cli_errorf(EXIT_USAGE, "trace %s: %s: unknown format '%s' (see 'iolab trace formats')", sub,
			   opt, name);
	return f;
}

static int cmd_formats(int argc, char **argv)
{
	if (argc > 1 && is_help(argv[1])) {
		help_formats();
		return EXIT_OK;
	}
	if (argc > 1)
		return cli_errorf(EXIT_USAGE, "trace formats: unexpected argument '%s'", argv[1]);
	for (unsigned i = 0; iolab_trace_format_at(i); i++) {
		const struct iolab_trace_format *f = iolab_trace_format_at(i);
		printf("%-12s %c%c  %s\n", f->name, f->read_next ? 'r' : '-', f->write_rec ? 'w' : '-',
		       f->about);
	}
	return EXIT_OK;
}

/* ---- info ---- */

static const char *fmt_ns(double ns, char *buf, size_t n)
{
	if (ns >= 1e9)
		snprintf(buf, n, "%.3f s", ns / 1e9);
	else if (ns >= 1e6)
		snprintf(buf, n, "%.3f ms", ns / 1e6);
	else if (ns >= 1e3)
		snprintf(buf, n, "%.3f us", ns / 1e3);
	else
		snprintf(buf, n, "%.0f ns", ns);
	return buf;
}

static uint64_t duration_of(const struct trace_stats *s)
{
	if (!s->n)
		return 0;
	uint64_t end = s->last_done > s->last_issue ? s->last_done : s->last_issue;
	return end - s->first_issue;
}

static double read_pct(const struct trace_stats *s)
{
	uint64_t rw = s->ops[IOLAB_TRACE_READ] + s->ops[IOLAB_TRACE_WRITE];
	return rw ? 100.0 * s->ops[IOLAB_TRACE_READ] / rw : 0;
}

static double seq_pct(const struct trace_stats *s)
{
	uint64_t data = s->n - s->ops[IOLAB_TRACE_FLUSH];
	return data ? 100.0 * s->sequential / data : 0;
}

static void print_info(const char *path, const struct iolab_trace_format *fmt,
		       const struct iolab_trace_header *h, const struct trace_stats *s, uint64_t skipped)
{
	char a[32], b[32], c[32];
	printf("%-13s %s (%s)\n", "trace", path, fmt ? fmt->name : "iot");
	printf("%-13s ", "source");
	iolab_trace_put_escaped(stdout, h->source);
	printf("\n");
	for (unsigned i = 0; i < h->ntargets; i++) {
		printf("%-13s %u ", i ? "" : "targets", i);
		iolab_trace_put_escaped(stdout, h->target[i].name);
		if (h->target[i].size)
			printf(", %" PRIu64 " bytes (%s)", h->target[i].size,
			       iolab_fmt_size(h->target[i].size, a, sizeof(a)));
		else
			printf(", size unknown");
		printf("\n");
	}
	printf("%-13s %" PRIu64 ": %" PRIu64 " reads, %" PRIu64 " writes, %" PRIu64 " trims, %" PRIu64
	       " flushes", "requests", s->n, s->ops[0], s->ops[1], s->ops[2], s->ops[3]);
	if (skipped)
		printf(" (%" PRIu64 " bad lines skipped)", skipped);
	printf("\n%-13s %s (first issue at %" PRIu64 " ns)\n", "duration",
	       fmt_ns((double)duration_of(s), a, sizeof(a)), s->n ? s->first_issue : 0);
	printf("%-13s %.1f%% of reads and writes (%.1f%% of their bytes)\n", "read", read_pct(s),
	       s->bytes[0] + s->bytes[1] ? 100.0 * s->bytes[0] / (s->bytes[0] + s->bytes[1]) : 0);
	printf("%-13s %.1f%% start where the previous request of their target ended\n", "sequential",
	       seq_pct(s));
	printf("%-13s mean %s, p50 %s, p99 %s\n", "inter-arrival",
	       fmt_ns(iolab_hist_mean(&s->gap), a, sizeof(a)),
	       fmt_ns(iolab_hist_percentile(&s->gap, 50), b, sizeof(b)),
	       fmt_ns(iolab_hist_percentile(&s->gap, 99), c, sizeof(c)));
	if (s->off_end)
		printf("%-13s %" PRIu64 " to %" PRIu64 " (%s to %s)\n", "offsets", s->off_min, s->off_end,
		       iolab_fmt_size(s->off_min, a, sizeof(a)), iolab_fmt_size(s->off_end, b, sizeof(b)));
	printf("%-13s %.0f bytes (%.3f GiB: distinct 4 KiB blocks, a HyperLogLog estimate, about 1%%)\n",
	       "footprint", trace_stats_footprint(s), trace_stats_footprint(s) / (1 << 30));
	if (s->qd_known && !s->qd_overflow && s->n)
		printf("%-13s mean %.2f over time, max %u (from the completions)\n", "queue depth",
		       trace_stats_qd_mean(s), s->qd_max);
	else
		printf("%-13s unknown (%s)\n", "queue depth",
		       s->qd_overflow ? "more than 1048576 outstanding"
				       : "not every request has a completion time");
	printf("%-13s\n", "sizes");
	for (unsigned i = 0; i < 64; i++)
		if (s->size_hist[i])
			printf("  %8s .. < %-8s %12" PRIu64 "  %5.1f%%\n", iolab_fmt_size(1ull << i, a, sizeof(a)),
			       i < 63 ? iolab_fmt_size(2ull << i, b, sizeof(b)) : "2^64", s->size_hist[i],
			       100.0 * s->size_hist[i] / s->n);
	if (!s->off_end)
		return;
	printf("map           offset (rows of %s, the highest at the top) against time (columns of %s)\n",
	       iolab_fmt_size(s->row_bytes, a, sizeof(a)), fmt_ns((double)s->col_ns, b, sizeof(b)));
	unsigned top = TS_MAP_ROWS;
	while (top > 1 && s->off_end <= (top - 1) * s->row_bytes)
		top--;
	char row[TS_MAP_COLS + 1];
	for (unsigned r = top; r-- > 0;) {
		trace_stats_map_row(s, r, row);
		printf("  %8s |%s|\n", iolab_fmt_size(r * s->row_bytes, a, sizeof(a)), row);
	}
}

static json_t *info_json(const char *path, const struct iolab_trace_format *fmt,
			 const struct iolab_trace_header *h, const struct trace_stats *s, uint64_t skipped)
{
	json_t *targets = json_array(), *sizes = json_array(), *map = json_array();
	for (unsigned i = 0; i < h->ntargets; i++)
		json_array_append_new(targets, json_pack("{s:o, s:I}", "name",
							 iolab_json_text(h->target[i].name), "size",
							 (json_int_t)h->target[i].size));
	for (unsigned i = 0; i < 64; i++)
		if (s->size_hist[i])
			json_array_append_new(sizes, json_pack("{s:I, s:I}", "min_bytes", (json_int_t)(1ull << i),
							       "count", (json_int_t)s->size_hist[i]));
	for (unsigned r = 0; r < TS_MAP_ROWS; r++) {
		json_t *row = json_array();
		for (unsigned c = 0; c < TS_MAP_COLS; c++)
			json_array_append_new(row, json_integer((json_int_t)s->map[r][c]));
		json_array_append_new(map, row);
	}
	json_t *qd = s->qd_known && !s->qd_overflow && s->n
		     ? json_pack("{s:f, s:i}", "mean", trace_stats_qd_mean(s), "max", (int)s->qd_max)
		     : json_null();
	json_t *root = json_pack(
		"{s:o, s:s, s:o, s:I, s:b, s:o, s:I, s:I, s:{s:I, s:I, s:I, s:I}, s:I, s:I, s:f, s:o, s:f,"
		" s:{s:f, s:f, s:f}, s:I, s:I, s:f, s:s, s:o}",
		"file", iolab_json_text(path), "format", fmt ? fmt->name : "iot", "source",
		iolab_json_text(h->source),
		"start_unix_ns", (json_int_t)h->start_unix_ns, "completions", h->completions,
		"targets", targets, "requests", (json_int_t)s->n, "skipped", (json_int_t)skipped,
		"ops", "read", (json_int_t)s->ops[0], "write", (json_int_t)s->ops[1],
		"trim", (json_int_t)s->ops[2], "flush", (json_int_t)s->ops[3],
		"first_issue_ns", (json_int_t)(s->n ? s->first_issue : 0),
		"duration_ns", (json_int_t)duration_of(s), "read_pct", read_pct(s), "sizes", sizes,
		"sequential_pct", seq_pct(s), "interarrival_ns", "mean", iolab_hist_mean(&s->gap),
		"p50", iolab_hist_percentile(&s->gap, 50), "p99", iolab_hist_percentile(&s->gap, 99),
		"offset_min", (json_int_t)(s->off_end ? s->off_min : 0), "offset_end", (json_int_t)s->off_end,
		"footprint_bytes", trace_stats_footprint(s), "footprint_method", "hyperloglog-4k",
		"queue_depth", qd);
	json_object_set_new(root, "map", json_pack("{s:i, s:i, s:I, s:I, s:o}", "columns", TS_MAP_COLS,
						   "rows", TS_MAP_ROWS, "ns_per_column", (json_int_t)s->col_ns,
						   "bytes_per_row", (json_int_t)s->row_bytes, "counts", map));
	return root;
}


static int cmd_info(int argc, char **argv)
{
	static const struct option lo[] = {
		{"format", required_argument, NULL, 'F'},
		{"json", required_argument, NULL, 'j'},
		{"force", no_argument, NULL, 'f'},
		{"help", no_argument, NULL, 'h'},
		{0},
	};
	const char *json = NULL, *in;
	const struct iolab_trace_format *fmt = NULL;
	bool force = false;
	int ch;
	opterr = 0;
	optind = 1;
	while ((ch = getopt_long(argc, argv, ":h", lo, NULL)) != -1) {
		switch (ch) {
		case 'F':
			if (!(fmt = format_arg("info", "--format", optarg)))
				return EXIT_USAGE;
			break;
		case 'j': json = optarg; break;
		case 'f': force = true; break;
		case 'h': help_info(); return EXIT_OK;
		default: return cli_opt_error("trace info", ch, argv);
		}
	}
	if (optind >= argc)
		return cli_errorf(EXIT_USAGE, "trace info: which trace? (see 'iolab trace info --help')");
	in = argv[optind++];
	if (optind < argc)
		return cli_errorf(EXIT_USAGE, "trace info: unexpected argument '%s'", argv[optind]);
	struct iolab_err err;
	const struct iolab_output outs[] = {{"--json", json, IOLAB_OUT_REPLACE}};
	if (iolab_outputs_check(outs, 1, &in, 1, force, &err))
		return cli_errorf(EXIT_USAGE, "trace info: %s", err.msg);
	struct iolab_trace_reader *r;
	if (iolab_trace_open(in, fmt, 0, &r, &err))
		return cli_errorf(EXIT_USAGE, "%s", err.msg);
	struct trace_stats *s = malloc(sizeof(*s));
	if (!s || trace_stats_init(s, iolab_trace_header(r)->completions)) {
		free(s);
		iolab_trace_close(r);
		return cli_errorf(EXIT_FAILED, "trace info: out of memory");
	}
	struct iolab_trace_rec rec;
	int rc;
	while ((rc = iolab_trace_next(r, &rec, &err)) == 1)
		trace_stats_add(s, &rec);
	int status = EXIT_OK;
	if (iolab_trace_note(r))
		cli_errorf(EXIT_OK, "%s", iolab_trace_note(r));
	if (rc < 0) {
		status = cli_errorf(EXIT_USAGE, "%s", err.msg);
	} else {
		trace_stats_finish(s);
		const struct iolab_trace_header *h = iolab_trace_header(r);
		if (!json || !iolab_out_is_stdout(json))
			print_info(in, fmt, h, s, iolab_trace_skipped(r));
		if (json) {
			json_t *root = info_json(in, fmt, h, s, iolab_trace_skipped(r));
			if (cli_write_json(json, root))
				status = EXIT_FAILED;
			json_decref(root);
		}
	}
	trace_stats_free(s);
	free(s);
	iolab_trace_close(r);
	return status;
}

/* ---- convert and import ---- */

struct convert_opts {
	const char *in, *out;
	const struct iolab_trace_format *from, *to;
	bool force;
	unsigned flags;       /* IOLAB_TRACE_SKIP_BAD (--skip-bad) */
	const char *scale;    /* --scale or --wrap's value as given, for messages */
	struct iolab_trace_xform x;
};

/* "A:B" into two values parsed by parse (sizes or durations). */
static int parse_pair(const char *opt, const char *s, uint64_t *a, uint64_t *b,
		      int (*parse)(const char *, const char *, uint64_t *, struct iolab_err *),
		      struct iolab_err *err)
{
	char buf[128];
	const char *colon = strchr(s, ':');
	if (!colon || strlen(s) >= sizeof(buf))
		return iolab_errf(err, EINVAL, "%s: '%s' is not START:LEN", opt, s);
	snprintf(buf, sizeof(buf), "%.*s", (int)(colon - s), s);
	if (parse(opt, buf, a, err) || parse(opt, colon + 1, b, err))
		return -EINVAL;
	if (!*b)
		return iolab_errf(err, EINVAL, "%s: '%s': the length is 0", opt, s);
	return 0;
}

static int parse_shift(const char *s, int64_t *v, struct iolab_err *err)
{
	uint64_t u;
	bool neg = *s == '-';
	if (iolab_parse_size("--shift", s + neg, &u, err))
		return -EINVAL;
	if (u > (uint64_t)INT64_MAX)
		return iolab_errf(err, EINVAL, "--shift: '%s' is too large", s);
	*v = neg ? -(int64_t)u : (int64_t)u;
	return 0;
}

static int convert_option(struct convert_opts *o, int ch, const char *arg, struct iolab_err *err)
{
	uint64_t v;
	int op;
	switch (ch) {
	case 'c': return parse_pair("--clip", arg, &o->x.clip_start, &o->x.clip_len, iolab_parse_size, err);
	case 'l':
		return parse_pair("--slice", arg, &o->x.slice_start_ns, &o->x.slice_len_ns,
				  iolab_parse_duration, err);
	case 's': return parse_shift(arg, &o->x.shift, err);
	case 'S':
	case 'W':
		if (o->x.fit_size)
			return iolab_errf(err, EINVAL, "--scale and --wrap: give one of them, once");
		if (iolab_parse_size(ch == 'S' ? "--scale" : "--wrap", arg, &o->x.fit_size, err))
			return -EINVAL;
		o->scale = arg;
		if (o->x.fit_size < 4096)
			return iolab_errf(err, EINVAL, "%s: '%s' is smaller than 4 KiB",
					  ch == 'S' ? "--scale" : "--wrap", arg);
		o->x.wrap = ch == 'W';
		return 0;
	case 'O':
		if ((op = iolab_trace_op_parse(arg)) < 0)
			return iolab_errf(err, EINVAL, "--op: '%s' is not read, write, trim or flush", arg);
		o->x.ops |= 1u << op;
		return 0;
	case 't':
		if (iolab_parse_uint("--target", arg, 0, IOLAB_TRACE_TARGETS_MAX - 1, &v, err))
			return -EINVAL;
		o->x.target = (int)v;
		return 0;
	case 'x': return iolab_parse_double("--speed", arg, 1e-6, 1e6, &o->x.speed, err);
	}
	return -EINVAL;
}

/* The source size for --scale: the clip's length, the (chosen) target's size, or the highest
 * offset + length of a first pass over the input. */
static int scale_from(struct convert_opts *o, const struct iolab_trace_header *h, struct iolab_err *err)
{
	if (o->x.clip_len) {
		o->x.from_size = o->x.clip_len;
		return 0;
	}
	for (unsigned i = 0; i < h->ntargets; i++)
		if ((o->x.target < 0 || (unsigned)o->x.target == i) && h->target[i].size > o->x.from_size)
			o->x.from_size = h->target[i].size;
	if (o->x.from_size)
		return 0;
	if (!strcmp(o->in, "-"))
		return iolab_errf(err, EINVAL, "--scale: the trace on stdin gives no target size (use "
				  "--clip 0:SIZE, or a file)");
	struct iolab_trace_reader *r;
	struct iolab_trace_rec rec;
	int rc = iolab_trace_open(o->in, o->from, o->flags, &r, err);
	if (rc)
		return rc;
	while ((rc = iolab_trace_next(r, &rec, err)) == 1)
		if ((o->x.target < 0 || rec.target == o->x.target) && rec.op != IOLAB_TRACE_FLUSH &&
		    rec.offset + rec.len > o->x.from_size)
			o->x.from_size = rec.offset + rec.len;
	iolab_trace_close(r);
	if (rc < 0)
		return rc;
	if (!o->x.from_size)
		return iolab_errf(err, EINVAL, "--scale: %s has no request with data to scale", o->in);
	return 0;
}

/* --scale's note when the source already fits: nothing moves. */
static void say_scale_kept(const struct convert_opts *o)
{
	char a[32], b[32];
	cli_errorf(EXIT_OK, "--scale %s: the trace's %" PRIu64 " bytes (%s) already fit in %" PRIu64
		   " (%s): offsets kept as they are (--scale never scales up)", o->scale,
		   o->x.from_size, iolab_fmt_size(o->x.from_size, a, sizeof(a)), o->x.fit_size,
		   iolab_fmt_size(o->x.fit_size, b, sizeof(b)));
}

/* Reads, transforms and writes every record. Returns an exit status (said on stderr). */
static int convert_records(struct convert_opts *o, struct iolab_trace_reader *r, struct iolab_out *out,
			   uint64_t *kept, uint64_t *n)
{
	struct iolab_trace_header h = *iolab_trace_header(r);
	struct iolab_err err;
	struct iolab_trace_writer *w;
	for (unsigned i = 0; i < h.ntargets; i++)
		if (o->x.fit_size || o->x.clip_len)
			h.target[i].size = o->x.fit_size ? o->x.fit_size : o->x.clip_len;
	if (iolab_trace_create(out->f, o->to, &h, &w, &err))
		return cli_errorf(EXIT_USAGE, "%s: %s", o->out, err.msg);
	struct iolab_trace_rec rec;
	int rc, status = EXIT_OK;
	while ((rc = iolab_trace_next(r, &rec, &err)) == 1) {
		int k = iolab_trace_xform_apply(&o->x, &rec, ++*n, &err);
		if (k < 0) {
			status = cli_errorf(EXIT_USAGE, "%s: %s", o->in, err.msg);
			break;
		}
		if (k && (rc = iolab_trace_write(w, &rec, &err))) {
			status = cli_errorf(rc == -EIO ? EXIT_FAILED : EXIT_USAGE, "%s: %s", o->out, err.msg);
			break;
		}
		*kept += k;
	}
	if (rc < 0 && status == EXIT_OK)
		status = cli_errorf(EXIT_USAGE, "%s", err.msg);
	rc = iolab_trace_finish(w, &err);
	if (rc && status == EXIT_OK)
		status = cli_errorf(EXIT_FAILED, "%s: %s", o->out, err.msg);
	return status;
}

static int run_convert(struct convert_opts *o)
{
	struct iolab_err err;
	const struct iolab_output outs[] = {{"--output", o->out, IOLAB_OUT_REPLACE}};
	if (iolab_outputs_check(outs, 1, &o->in, 1, o->force, &err))
		return cli_errorf(EXIT_USAGE, "trace convert: %s", err.msg);
	if (!o->to->write_rec)
		return cli_errorf(EXIT_USAGE, "trace convert: --to %s: iolab cannot write that format",
				  o->to->name);
	struct iolab_trace_reader *r;
	if (iolab_trace_open(o->in, o->from, o->flags, &r, &err))
		return cli_errorf(EXIT_USAGE, "%s", err.msg);
	/* A file's header names all its targets; standard input's may grow while it is read. */
	if (strcmp(o->in, "-") &&
	    iolab_trace_xform_check_target(&o->x, iolab_trace_header(r), "--target", &err)) {
		iolab_trace_close(r);
		return cli_errorf(EXIT_USAGE, "%s: %s", o->in, err.msg);
	}
	struct iolab_trace_runs *runs = NULL;
	if (o->x.fit_size && !o->x.wrap) {
		if (scale_from(o, iolab_trace_header(r), &err)) {
			iolab_trace_close(r);
			return cli_errorf(EXIT_USAGE, "%s", err.msg);
		}
		if (o->x.from_size <= o->x.fit_size)
			say_scale_kept(o);
		else if (!(o->x.runs = runs = calloc(1, sizeof(*runs)))) {
			iolab_trace_close(r);
			return cli_errorf(EXIT_FAILED, "trace convert: out of memory");
		}
	}
	if (o->x.fit_size)
		o->x.bound = o->x.fit_size;
	struct iolab_out out;
	if (iolab_out_open(&out, o->out, &err)) {
		free(runs);
		iolab_trace_close(r);
		return cli_errorf(EXIT_FAILED, "%s", err.msg);
	}
	uint64_t kept = 0, n = 0;
	int status = convert_records(o, r, &out, &kept, &n);
	free(runs);
	o->x.runs = NULL;
	const char *note = iolab_trace_note(r);
	if (note)
		cli_errorf(EXIT_OK, "%s", note);
	if (status == EXIT_OK &&
	    iolab_trace_xform_check_target(&o->x, iolab_trace_header(r), "--target", &err))
		status = cli_errorf(EXIT_USAGE, "%s: %s", strcmp(o->in, "-") ? o->in : "standard input",
				    err.msg);
	uint64_t skipped = iolab_trace_skipped(r);
	iolab_trace_close(r);
	if (status != EXIT_OK) {
		iolab_out_abort(&out);
		return status;
	}
	if (iolab_out_commit(&out, &err))
		return cli_errorf(EXIT_FAILED, "%s", err.msg);
	if (!out.to_stdout)
		cli_errorf(EXIT_OK, "wrote %s (%s): %" PRIu64 " requests of %" PRIu64 " read", o->out,
			   o->to->name, kept, n);
	if (skipped)
		cli_errorf(EXIT_OK, "skipped %" PRIu64 " bad lines (--skip-bad)", skipped);
	return EXIT_OK;
}

static int cmd_convert(int argc, char **argv)
{
	static const struct option lo[] = {
		{"format", required_argument, NULL, 'F'}, {"to", required_argument, NULL, 'T'},
		{"output", required_argument, NULL, 'o'}, {"force", no_argument, NULL, 'f'},
		{"clip", required_argument, NULL, 'c'},   {"shift", required_argument, NULL, 's'},
		{"scale", required_argument, NULL, 'S'},  {"wrap", required_argument, NULL, 'W'},
		{"op", required_argument, NULL, 'O'},     {"target", required_argument, NULL, 't'},
		{"speed", required_argument, NULL, 'x'},  {"slice", required_argument, NULL, 'l'},
		{"skip-bad", no_argument, NULL, 'B'},
		{"help", no_argument, NULL, 'h'},         {0},
	};
	const char *sub = argv[0];
	bool imp = !strcmp(sub, "import");
	struct convert_opts o = {.x = {.target = -1}};
	struct iolab_err err;
	int ch;
	opterr = 0;
	optind = 1;
	while ((ch = getopt_long(argc, argv, ":o:h", lo, NULL)) != -1) {
		switch (ch) {
		case 'F':
			if (!(o.from = format_arg(sub, "--format", optarg)))
				return EXIT_USAGE;
			break;
		case 'T':
			if (imp)
				return cli_errorf(EXIT_USAGE, "trace import: writes .iot: --to is for 'trace "
						       "convert'");
			if (!(o.to = format_arg(sub, "--to", optarg)))
				return EXIT_USAGE;
			break;
		case 'o': o.out = optarg; break;
		case 'f': o.force = true; break;
		case 'B': o.flags |= IOLAB_TRACE_SKIP_BAD; break;
		case 'h': help_convert(sub); return EXIT_OK;
		case ':':
		case '?': return cli_opt_error(imp ? "trace import" : "trace convert", ch, argv);
		default:
			if (convert_option(&o, ch, optarg, &err))
				return cli_errorf(EXIT_USAGE, "trace %s: %s", sub, err.msg);
		}
	}
	if (optind >= argc)
		return cli_errorf(EXIT_USAGE, "trace %s: which trace? (see 'iolab trace %s --help')", sub, sub);
	o.in = argv[optind++];
	if (optind < argc)
		return cli_errorf(EXIT_USAGE, "trace %s: unexpected argument '%s'", sub, argv[optind]);
	if (imp && !o.from)
		return cli_errorf(EXIT_USAGE, "trace import: --format F is required (see 'iolab trace formats')");
	if (imp)
		o.to = iolab_trace_format_find("iot");
	if (!o.to)
		return cli_errorf(EXIT_USAGE, "trace convert: --to FMT is required (see 'iolab trace formats')");
	if (!o.out)
		return cli_errorf(EXIT_USAGE, "trace %s: -o OUT is required", sub);
	return run_convert(&o);
}

/* ---- the dispatcher ---- */

static const struct {
	const char *name;
	int (*fn)(int, char **);
} subs[] = {
	{"formats", cmd_formats},
	{"info", cmd_info},
	{"convert", cmd_convert},
	{"import", cmd_convert},
	{"record", cmd_trace_record},
};

int cmd_trace(int argc, char **argv)
{
	if (argc < 2) {
		help_trace(stderr);
		return EXIT_USAGE;
	}
	if (is_help(argv[1]) || !strcmp(argv[1], "help")) {
		help_trace(stdout);
		return EXIT_OK;
	}
	for (size_t i = 0; i < sizeof(subs) / sizeof(subs[0]); i++)
		if (!strcmp(argv[1], subs[i].name))
			return subs[i].fn(argc - 1, argv + 1);
	return cli_errorf(EXIT_USAGE, "trace: unknown command '%s' (try 'iolab trace --help')", argv[1]);
}
