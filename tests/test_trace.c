/* test_trace.c: iolab's traces (include/iolab/trace.h, docs/trace-format.md): the binary .iot and
 * its text form written and read back exactly, through real files in a scratch directory; a
 * truncated, extended or miscounted binary trace and a bad text line refused with one line
 * naming the file, the line or record and the field; bad lines skipped on request; the
 * transforms; and `iolab trace` through the command line. */
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>
#include <jansson.h>
#include <math.h>

#include "helpers.h"
#include "iolab/trace.h"

#define NREC 5000

static void header_of(struct iolab_trace_header *h, bool completions)
{
	memset(h, 0, sizeof(*h));
	snprintf(h->source, sizeof(h->source), "test_trace \\ with\ta tab");
	h->start_unix_ns = 1700000000123456789ull;
	h->completions = completions;
	h->ntargets = 3;
	snprintf(h->target[0].name, sizeof(h->target[0].name), "/dev/sdb");
	h->target[0].size = 1000204886016ull;
	snprintf(h->target[1].name, sizeof(h->target[1].name), " disk 3 ");
	h->target[1].size = 0;
	snprintf(h->target[2].name, sizeof(h->target[2].name), "scratch.img");
	h->target[2].size = UINT64_MAX;
}

/* Record i of a made-up trace with sequential runs, random jumps, going back in time, all ops,
 * unknown completions and the largest values. */
static void rec_of(unsigned i, bool completions, struct iolab_trace_rec *r)
{
	uint64_t x = (uint64_t)i * 0x9e3779b97f4a7c15ull;
	memset(r, 0, sizeof(*r));
	r->issue_ns = (uint64_t)i * 1000 + (i % 7 == 3 ? 0 : 500) - (i % 11 == 5 ? 400 : 0);
	r->op = (uint8_t)(i % 13 == 0 ? IOLAB_TRACE_FLUSH : i % 17 == 0 ? IOLAB_TRACE_TRIM : x >> 63);
	r->target = (uint16_t)(i % 50 == 0 ? 2 : i % 9 == 0 ? 1 : 0);
	r->len = r->op == IOLAB_TRACE_FLUSH ? 0 : (i % 3 ? 4096 : 512u << (i % 8));
	r->offset = i % 4 ? (uint64_t)i * 4096 : (x >> 20) & ~4095ull;
	if (i == 77)
		r->offset = UINT64_MAX - r->len;
	r->done_ns = completions && i % 5 ? r->issue_ns + 100 + (x & 0xffff) : IOLAB_TRACE_NO_TIME;
	if (completions && i == 99)
		r->done_ns = UINT64_MAX - 1;
}

static void path_of(char *buf, size_t n, const char *name)
{
	snprintf(buf, n, "%s/%s", th_dir, name);
}

/* Writes NREC records (or nrec if given) as format fmt to path. */
static void write_trace(const char *path, const char *fmt, bool completions, unsigned nrec)
{
	struct iolab_trace_header h;
	struct iolab_trace_writer *w;
	struct iolab_err err;
	header_of(&h, completions);
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(iolab_trace_create(f, iolab_trace_format_find(fmt), &h, &w, &err), 0);
	for (unsigned i = 0; i < nrec; i++) {
		struct iolab_trace_rec r;
		rec_of(i, completions, &r);
		assert_int_equal(iolab_trace_write(w, &r, &err), 0);
	}
	assert_int_equal(iolab_trace_finish(w, &err), 0);
	assert_int_equal(fclose(f), 0);
}

/* Reads path (its format told by its first bytes) and compares it with what write_trace wrote. */
static void check_trace(const char *path, bool completions, unsigned nrec)
{
	struct iolab_trace_reader *r;
	struct iolab_err err;
	struct iolab_trace_header want;
	header_of(&want, completions);
	int rc = iolab_trace_open(path, NULL, 0, &r, &err);
	if (rc)
		fail_msg("%s", err.msg);
	const struct iolab_trace_header *h = iolab_trace_header(r);
	assert_string_equal(h->source, want.source);
	assert_int_equal(h->start_unix_ns, want.start_unix_ns);
	assert_int_equal(h->completions, completions);
	assert_int_equal(h->ntargets, 3);
	for (unsigned t = 0; t < 3; t++) {
		assert_string_equal(h->target[t].name, want.target[t].name);
		assert_true(h->target[t].size == want.target[t].size);
	}
	struct iolab_trace_rec got, exp;
	for (unsigned i = 0; i < nrec; i++) {
		rc = iolab_trace_next(r, &got, &err);
		if (rc != 1)
			fail_msg("record %u: %d %s", i, rc, err.msg);
		rec_of(i, completions, &exp);
		assert_true(got.issue_ns == exp.issue_ns);
		assert_true(got.done_ns == exp.done_ns);
		assert_true(got.offset == exp.offset);
		assert_true(got.len == exp.len);
		assert_int_equal(got.target, exp.target);
		assert_int_equal(got.op, exp.op);
	}
	assert_int_equal(iolab_trace_next(r, &got, &err), 0);
	iolab_trace_close(r);
}

static void test_binary_roundtrip(void **state)
{
	(void)state;
	char p[512];
	path_of(p, sizeof(p), "a.iot");
	for (int c = 0; c < 2; c++) {
		write_trace(p, "iot", c, NREC);
		check_trace(p, c, NREC);
		write_trace(p, "iot", c, 0);
		check_trace(p, c, 0);
	}
	/* compact: a sequential 4 KiB stream a microsecond apart costs 3 bytes a record, the tag
	 * and a 2-byte time delta (docs/trace-format.md) */
	struct iolab_trace_header h;
	struct iolab_trace_writer *w;
	struct iolab_err err;
	header_of(&h, false);
	FILE *f = fopen(p, "wb");
	assert_non_null(f);
	assert_int_equal(iolab_trace_create(f, iolab_trace_format_find("iot"), &h, &w, &err), 0);
	for (unsigned i = 0; i < NREC; i++) {
		struct iolab_trace_rec r = {.issue_ns = i * 1000ull, .done_ns = IOLAB_TRACE_NO_TIME,
					    .offset = i * 4096ull, .len = 4096};
		assert_int_equal(iolab_trace_write(w, &r, &err), 0);
	}
	assert_int_equal(iolab_trace_finish(w, &err), 0);
	long hdr = ftell(f);
	fclose(f);
	assert_true(hdr > 3 * NREC && hdr < 3 * NREC + 200);
}

static void test_text_roundtrip(void **state)
{
	(void)state;
	char p[512];
	path_of(p, sizeof(p), "a.iot.txt");
	for (int c = 0; c < 2; c++) {
		write_trace(p, "iot-text", c, NREC);
		check_trace(p, c, NREC);
	}
}

/* Copies a trace from one format to another through the library. */
static void convert(const char *in, const char *out, const char *fmt)
{
	struct iolab_trace_reader *r;
	struct iolab_trace_writer *w;
	struct iolab_err err;
	struct iolab_trace_rec rec;
	assert_int_equal(iolab_trace_open(in, NULL, 0, &r, &err), 0);
	FILE *f = fopen(out, "wb");
	assert_non_null(f);
	assert_int_equal(iolab_trace_create(f, iolab_trace_format_find(fmt), iolab_trace_header(r), &w,
					    &err), 0);
	int rc;
	while ((rc = iolab_trace_next(r, &rec, &err)) == 1)
		assert_int_equal(iolab_trace_write(w, &rec, &err), 0);
	assert_int_equal(rc, 0);
	assert_int_equal(iolab_trace_finish(w, &err), 0);
	fclose(f);
	iolab_trace_close(r);
}

static void test_binary_text_binary_same_bytes(void **state)
{
	(void)state;
	char a[512], t[512], b[512];
	path_of(a, sizeof(a), "x.iot");
	path_of(t, sizeof(t), "x.txt");
	path_of(b, sizeof(b), "y.iot");
	write_trace(a, "iot", true, NREC);
	convert(a, t, "iot-text");
	convert(t, b, "iot");
	assert_int_equal(th_sh("cmp -s '%s' '%s'", a, b), 0);
}

/* Expects opening and reading path to fail with a message holding every needle. */
static void expect_read_error(const char *path, unsigned flags, const char *n1, const char *n2)
{
	struct iolab_trace_reader *r;
	struct iolab_err err;
	struct iolab_trace_rec rec;
	int rc = iolab_trace_open(path, NULL, flags, &r, &err);
	if (!rc) {
		while ((rc = iolab_trace_next(r, &rec, &err)) == 1)
			;
		iolab_trace_close(r);
	}
	if (rc == 0)
		fail_msg("%s was read without an error", path);
	if (!strstr(err.msg, n1) || (n2 && !strstr(err.msg, n2)))
		fail_msg("message '%s' lacks '%s' or '%s'", err.msg, n1, n2 ? n2 : "");
	assert_non_null(strstr(err.msg, path));
	assert_null(strchr(err.msg, '\n'));
}

static void test_binary_damage(void **state)
{
	(void)state;
	char p[512], q[512];
	path_of(p, sizeof(p), "d.iot");
	path_of(q, sizeof(q), "e.iot");
	write_trace(p, "iot", true, 100);
	struct stat st;
	assert_int_equal(stat(p, &st), 0);
	/* cut anywhere: always an error, never a shorter trace read as whole */
	for (off_t cut = 1; cut < st.st_size; cut += cut < 80 ? 1 : 37) {
		assert_int_equal(th_sh("head -c %lld '%s' > '%s'", (long long)cut, p, q), 0);
		expect_read_error(q, IOLAB_TRACE_SKIP_BAD, cut < 60 ? "" : "trunc", NULL);
	}
	assert_int_equal(th_sh("cp '%s' '%s' && printf x >> '%s'", p, q, q), 0);
	expect_read_error(q, 0, "end marker", "bytes follow");
	/* the count at the end says 100: make it 101 */
	assert_int_equal(th_sh("head -c %lld '%s' > '%s' && printf '\\377\\145' >> '%s'",
			       (long long)st.st_size - 2, p, q, q), 0);
	expect_read_error(q, 0, "field 'count'", "101 records");
	/* a newer version */
	assert_int_equal(th_sh("cp '%s' '%s' && printf '\\002' | dd of='%s' bs=1 seek=8 conv=notrunc "
			       "2>/dev/null", p, q, q), 0);
	expect_read_error(q, 0, "field 'version'", "2");
}

static const char text_head[] = "# iolab trace 1\n# source: hand\n# start_unix_ns: 0\n"
				"# completions: yes\n# target: 0 1048576 disk\n";

static void test_text_errors(void **state)
{
	(void)state;
	char p[512], buf[1024];
	path_of(p, sizeof(p), "bad.txt");
	snprintf(buf, sizeof(buf), "%s0 10 read 0 0 4096\n5 - write 0 x12 4096\n", text_head);
	th_write_text(p, buf);
	expect_read_error(p, 0, ":7: field 'offset': 'x12' is not a number", NULL);
	snprintf(buf, sizeof(buf), "%s0 10 read 1 0 4096\n", text_head);
	th_write_text(p, buf);
	expect_read_error(p, 0, ":6: field 'target'", "1 target");
	snprintf(buf, sizeof(buf), "%s9 8 read 0 0 4096\n", text_head);
	th_write_text(p, buf);
	expect_read_error(p, 0, ":6: field 'done'", "before");
	snprintf(buf, sizeof(buf), "%s9 10 move 0 0 4096\n", text_head);
	th_write_text(p, buf);
	expect_read_error(p, 0, ":6: field 'op'", "move");
	snprintf(buf, sizeof(buf), "%s9 10 read 0 0\n", text_head);
	th_write_text(p, buf);
	expect_read_error(p, 0, ":6: field 'len': missing", NULL);
	th_write_text(p, "# iolab trace 1\n# source: x\n1 - read 0 0 1\n");
	expect_read_error(p, 0, "field 'target'", "no '# target:'");
	th_write_text(p, "timestamp,offset\n");
	expect_read_error(p, 0, ":1: field 'magic'", NULL);
	expect_read_error(th_dir, 0, "not a regular file", NULL);

	/* SKIP_BAD: the two bad lines are counted, the good ones read */
	snprintf(buf, sizeof(buf), "%s0 10 read 0 0 4096\nbad\n1 - write 0 4096 4096\n9 8 read 0 0 1\n",
		 text_head);
	th_write_text(p, buf);
	struct iolab_trace_reader *r;
	struct iolab_err err;
	struct iolab_trace_rec rec;
	assert_int_equal(iolab_trace_open(p, NULL, IOLAB_TRACE_SKIP_BAD, &r, &err), 0);
	assert_int_equal(iolab_trace_next(r, &rec, &err), 1);
	assert_int_equal(iolab_trace_next(r, &rec, &err), 1);
	assert_int_equal(rec.op, IOLAB_TRACE_WRITE);
	assert_true(rec.offset == 4096 && rec.done_ns == IOLAB_TRACE_NO_TIME);
	assert_int_equal(iolab_trace_next(r, &rec, &err), 0);
	assert_int_equal(iolab_trace_skipped(r), 2);
	iolab_trace_close(r);
}

/* A transform with nothing on. */
static struct iolab_trace_xform xf_none(void)
{
	return (struct iolab_trace_xform){.target = -1};
}

static void test_xform_clip_shift(void **state)
{
	(void)state;
	struct iolab_err err;
	struct iolab_trace_xform x = xf_none();
	x.clip_start = 1 << 20;
	x.clip_len = 1 << 20;
	struct iolab_trace_rec r = {.offset = (1 << 20) + 4096, .len = 4096, .done_ns = IOLAB_TRACE_NO_TIME};
	assert_int_equal(iolab_trace_xform_apply(&x, &r, 1, &err), 1);
	assert_int_equal(r.offset, 4096); /* relative to the clip's start */
	r = (struct iolab_trace_rec){.offset = (2 << 20) - 4096, .len = 4096};
	assert_int_equal(iolab_trace_xform_apply(&x, &r, 2, &err), 1); /* ends on the clip's end */
	r = (struct iolab_trace_rec){.offset = (2 << 20) - 4096, .len = 8192};
	assert_int_equal(iolab_trace_xform_apply(&x, &r, 3, &err), 0); /* runs past it */
	r = (struct iolab_trace_rec){.offset = (1 << 20) - 512, .len = 4096};
	assert_int_equal(iolab_trace_xform_apply(&x, &r, 4, &err), 0); /* starts before it */
	x = xf_none();
	x.shift = -8192;
	r = (struct iolab_trace_rec){.offset = 4096, .len = 4096};
	assert_int_equal(iolab_trace_xform_apply(&x, &r, 9, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "record 9: field 'offset'"));
	x.shift = 4096;
	x.bound = 16384;
	r = (struct iolab_trace_rec){.offset = 8192, .len = 4096};
	assert_int_equal(iolab_trace_xform_apply(&x, &r, 1, &err), 1);
	assert_int_equal(r.offset, 12288);
	r = (struct iolab_trace_rec){.offset = 8192, .len = 8192};
	assert_int_equal(iolab_trace_xform_apply(&x, &r, 12, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "record 12: field 'offset': 12288 + length 8192 is past"));
}

/* Scale and wrap keep every offset + length within the size, for any offset of the source. */
static void test_xform_fit_in_bounds(void **state)
{
	(void)state;
	struct iolab_err err;
	const uint64_t from = 1000204886016ull, to = 10ull << 30;
	for (int wrap = 0; wrap < 2; wrap++) {
		struct iolab_trace_xform x = xf_none();
		x.fit_size = to;
		x.wrap = wrap;
		x.from_size = from;
		x.bound = to;
		uint64_t seed = 1;
		for (unsigned i = 0; i < 100000; i++) {
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			uint64_t len = (uint64_t)512 << (seed >> 61);
			struct iolab_trace_rec r = {.len = len, .done_ns = IOLAB_TRACE_NO_TIME};
			r.offset = i < 2 ? (i ? from - len : 0) : (seed >> 8) % (from - len + 1) / 512 * 512;
			uint64_t before = r.offset;
			assert_int_equal(iolab_trace_xform_apply(&x, &r, i + 1, &err), 1);
			assert_true(r.offset + r.len <= to);
			assert_int_equal(r.offset % 512, 0);
			if (wrap && before % to + len <= to)
				assert_true(r.offset == before % to);
		}
	}
	/* scale is monotonic: the last byte of the source lands at the end */
	struct iolab_trace_xform x = xf_none();
	x.fit_size = to;
	x.from_size = from;
	struct iolab_trace_rec r = {.offset = from - 4096, .len = 4096};
	assert_int_equal(iolab_trace_xform_apply(&x, &r, 1, &err), 1);
	assert_true(r.offset == to - 4096);
	x.from_size = 0;
	assert_int_equal(iolab_trace_xform_apply(&x, &r, 1, &err), -EINVAL);
}

static void test_xform_filters_time(void **state)
{
	(void)state;
	struct iolab_err err;
	struct iolab_trace_xform x = xf_none();
	x.ops = 1u << IOLAB_TRACE_WRITE;
	x.target = 1;
	struct iolab_trace_rec r = {.op = IOLAB_TRACE_READ, .target = 1};
	assert_int_equal(iolab_trace_xform_apply(&x, &r, 1, &err), 0);
	r = (struct iolab_trace_rec){.op = IOLAB_TRACE_WRITE, .target = 0};
	assert_int_equal(iolab_trace_xform_apply(&x, &r, 1, &err), 0);
	r = (struct iolab_trace_rec){.op = IOLAB_TRACE_WRITE, .target = 1, .done_ns = 5};
	assert_int_equal(iolab_trace_xform_apply(&x, &r, 1, &err), 1);
	x = xf_none();
	x.slice_start_ns = 1000;
	x.slice_len_ns = 1000;
	x.speed = 2;
	r = (struct iolab_trace_rec){.issue_ns = 999, .done_ns = IOLAB_TRACE_NO_TIME};
	assert_int_equal(iolab_trace_xform_apply(&x, &r, 1, &err), 0);
	r = (struct iolab_trace_rec){.issue_ns = 2000, .done_ns = IOLAB_TRACE_NO_TIME};
	assert_int_equal(iolab_trace_xform_apply(&x, &r, 1, &err), 0);
	r = (struct iolab_trace_rec){.issue_ns = 1500, .done_ns = 2500};
	assert_int_equal(iolab_trace_xform_apply(&x, &r, 1, &err), 1);
	assert_int_equal(r.issue_ns, 250); /* (1500 - 1000) / 2 */
	assert_int_equal(r.done_ns, 750);
	x = xf_none();
	x.speed = 0.5;
	r = (struct iolab_trace_rec){.issue_ns = UINT64_MAX - 5, .done_ns = IOLAB_TRACE_NO_TIME};
	assert_int_equal(iolab_trace_xform_apply(&x, &r, 1, &err), 1);
	assert_true(r.issue_ns < IOLAB_TRACE_NO_TIME && r.done_ns == IOLAB_TRACE_NO_TIME);
}

/* `iolab trace` end to end: convert both ways gives the same bytes, info's figures on a known
 * trace, --clip's documented syntax, refusals with exit 2 and one line. */
static void test_cli(void **state)
{
	(void)state;
	char a[512], t[512], b[512], j[512], c[512];
	path_of(a, sizeof(a), "cli.iot");
	path_of(t, sizeof(t), "cli.txt");
	path_of(b, sizeof(b), "cli2.iot");
	path_of(j, sizeof(j), "cli.json");
	path_of(c, sizeof(c), "clip.txt");
	write_trace(a, "iot", true, NREC);
	struct th_out o = th_iolab("trace", "convert", a, "--to", "iot-text", "-o", t, NULL);
	TH_EXPECT_EXIT(o, 0, "wrote", "5000 requests");
	o = th_iolab("trace", "import", t, "--format", "iot-text", "-o", b, NULL);
	TH_EXPECT_EXIT(o, 0, "wrote");
	assert_int_equal(th_sh("cmp -s '%s' '%s'", a, b), 0);
	o = th_iolab("trace", "convert", a, "--to", "iot-text", "-o", t, NULL);
	TH_EXPECT_EXIT(o, 2, "--output", "exists");

	/* a known trace: 4 KiB reads and writes, 1 ms apart, every other one sequential */
	FILE *f = fopen(t, "w");
	assert_non_null(f);
	fputs("# iolab trace 1\n# source: t\n# start_unix_ns: 0\n# completions: yes\n"
	      "# target: 0 1073741824 d\n", f);
	for (unsigned i = 0; i < 1000; i++)
		fprintf(f, "%u %u %s 0 %u 4096\n", i * 1000000, i * 1000000 + 500000, i % 4 ? "read" : "write",
			(i / 2) * 1048576 + (i % 2) * 4096);
	fclose(f);
	o = th_iolab("trace", "info", t, "--json", j, NULL);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "requests      1000: 750 reads, 250 writes"));
	th_out_free(&o);
	struct json_t *root = th_load_json(j);
	assert_non_null(root);
	assert_int_equal(json_integer_value(json_object_get(root, "requests")), 1000);
	assert_true(json_real_value(json_object_get(root, "read_pct")) == 75.0);
	assert_true(json_real_value(json_object_get(root, "sequential_pct")) == 50.0);
	assert_int_equal(json_integer_value(json_object_get(root, "duration_ns")), 999500000);
	double foot = json_real_value(json_object_get(root, "footprint_bytes"));
	assert_true(foot > 1000 * 4096 * 0.97 && foot < 1000 * 4096 * 1.03); /* HLL: about 1% */
	json_t *qd = json_object_get(root, "queue_depth");
	assert_true(fabs(json_real_value(json_object_get(qd, "mean")) - 0.5) < 0.001);
	assert_int_equal(json_integer_value(json_object_get(qd, "max")), 1);
	json_t *ia = json_object_get(root, "interarrival_ns");
	assert_true(fabs(json_real_value(json_object_get(ia, "mean")) - 1e6) < 1);
	json_decref(root);

	/* --clip with the documented syntax, and an offset past a --scale size refused */
	o = th_iolab("trace", "convert", t, "--to", "iot-text", "-o", c, "--clip", "0:36.7G", "--op",
		     "write", "--speed", "2", NULL);
	TH_EXPECT_EXIT(o, 0, "250 requests of 1000");
	o = th_iolab("trace", "convert", t, "--to", "iot", "-o", b, "--force", "--clip", "1m:1m", NULL);
	TH_EXPECT_EXIT(o, 0, "2 requests of 1000");
	o = th_iolab("trace", "convert", t, "--to", "iot", "-o", b, "--force", "--shift", "-8k", NULL);
	TH_EXPECT_EXIT(o, 2, "record 1: field 'offset'", "below 0");
	o = th_iolab("trace", "convert", t, "--to", "nope", "-o", b, NULL);
	TH_EXPECT_EXIT(o, 2, "unknown format 'nope'");
	o = th_iolab("trace", "convert", t, "--to", "iot", "-o", b, "--force", "--clip", "36.7G", NULL);
	TH_EXPECT_EXIT(o, 2, "--clip", "START:LEN");
	o = th_iolab("trace", "info", th_dir, NULL);
	TH_EXPECT_EXIT(o, 2, "not a regular file");
	o = th_iolab("trace", "info", a, "--format", "iot-text", NULL);
	TH_EXPECT_EXIT(o, 2, ":1: field 'magic'");
	o = th_iolab("trace", "formats", NULL);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "iot-text"));
	th_out_free(&o);
	static const char *const subs[] = {"formats", "info", "convert", "import"};
	for (unsigned i = 0; i < 4; i++) {
		o = th_iolab("trace", subs[i], "--help", NULL);
		assert_int_equal(o.status, 0);
		assert_non_null(strstr(o.out, "usage: iolab trace"));
		th_out_free(&o);
	}
}

/* A bad line stops an import with its line and field named; --skip-bad counts and skips it. */
static void test_skip_bad(void **state)
{
	(void)state;
	char in[512], out[512];
	path_of(in, sizeof(in), "bad.csv");
	path_of(out, sizeof(out), "bad.iot");
	FILE *f = fopen(in, "w");
	assert_non_null(f);
	fputs("128166372003061629,web,0,Read,3154152448,4096,1018\n"
	      "128166372003061630,web,0,Bogus,3154152448,4096,1018\n"
	      "128166372013061629,web,1,Write,315415,512,2000\n", f);
	fclose(f);
	struct th_out o = th_iolab("trace", "import", in, "--format", "msr", "-o", out, NULL);
	TH_EXPECT_EXIT(o, 2, "bad.csv:2:", "Type");
	assert_false(th_exists(out));
	o = th_iolab("trace", "import", in, "--format", "msr", "-o", out, "--skip-bad", NULL);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.err, "2 requests of 2"));
	assert_non_null(strstr(o.err, "skipped 1 bad line"));
	th_out_free(&o);
}

static void test_registry(void **state)
{
	(void)state;
	assert_non_null(iolab_trace_format_find("iot"));
	assert_non_null(iolab_trace_format_find("iot-text"));
	assert_null(iolab_trace_format_find("nope"));
	unsigned n = 0;
	while (iolab_trace_format_at(n))
		n++;
	assert_true(n >= 2);
	assert_null(iolab_trace_format_at(n + 5));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry),
		cmocka_unit_test(test_binary_roundtrip),
		cmocka_unit_test(test_text_roundtrip),
		cmocka_unit_test(test_binary_text_binary_same_bytes),
		cmocka_unit_test(test_binary_damage),
		cmocka_unit_test(test_text_errors),
		cmocka_unit_test(test_xform_clip_shift),
		cmocka_unit_test(test_xform_fit_in_bounds),
		cmocka_unit_test(test_xform_filters_time),
		cmocka_unit_test(test_cli),
		cmocka_unit_test(test_skip_bad),
	};
	return cmocka_run_group_tests(tests, th_dir_setup, th_dir_teardown);
}
