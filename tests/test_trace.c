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

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static const char text_head[] = "# iolab trace 1\n# source: hand\n# start_unix_ns: 0\n"
				"# completions: yes\n# target: 0 1048576 disk\n";

static void test_text_errors(void **state)
{
	(void)state;
	char p[512], buf[1024];
	path_of(p, sizeof(p), "bad.txt");
	snprintf(buf, sizeof(buf), "%s0 10 read 0 0 4096\n5 - write 0 x12 4096\n", text_head);
	write_text(p, buf);
	expect_read_error(p, 0, ":7: field 'offset': 'x12' is not a number", NULL);
	snprintf(buf, sizeof(buf), "%s0 10 read 1 0 4096\n", text_head);
	write_text(p, buf);
	expect_read_error(p, 0, ":6: field 'target'", "1 target");
	snprintf(buf, sizeof(buf), "%s9 8 read 0 0 4096\n", text_head);
	write_text(p, buf);
	expect_read_error(p, 0, ":6: field 'done'", "before");
	snprintf(buf, sizeof(buf), "%s9 10 move 0 0 4096\n", text_head);
	write_text(p, buf);
	expect_read_error(p, 0, ":6: field 'op'", "move");
	snprintf(buf, sizeof(buf), "%s9 10 read 0 0\n", text_head);
	write_text(p, buf);
	expect_read_error(p, 0, ":6: field 'len': missing", NULL);
	write_text(p, "# iolab trace 1\n# source: x\n1 - read 0 0 1\n");
	expect_read_error(p, 0, "field 'target'", "no '# target:'");
	write_text(p, "timestamp,offset\n");
	expect_read_error(p, 0, ":1: field 'magic'", NULL);
	expect_read_error(th_dir, 0, "not a regular file", NULL);

	/* SKIP_BAD: the two bad lines are counted, the good ones read */
	snprintf(buf, sizeof(buf), "%s0 10 read 0 0 4096\nbad\n1 - write 0 4096 4096\n9 8 read 0 0 1\n",
		 text_head);
	write_text(p, buf);
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
	};
	return cmocka_run_group_tests(tests, th_dir_setup, th_dir_teardown);
}
