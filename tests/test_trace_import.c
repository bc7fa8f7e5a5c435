/* test_trace_import.c: the foreign trace formats (src/trace/fmt_*.c, docs/trace-format.md): each
 * read from a small file written as its own documentation describes it (blkparse(1), fio(1)'s
 * "TRACE FILE FORMAT", the DiskSim 4.0 manual section 4.1, MQSim's README, the MSR Cambridge,
 * SPC, Alibaba and Tencent releases' field lists) with every field checked; a bad line refused as
 * "FILE:LINE: field 'X': ..." or skipped and counted; the writable formats read back exactly what
 * they wrote; several million lines read in bounded memory; and fio itself replaying an
 * exported log. */
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "helpers.h"
#include "iolab/trace.h"

#define NO IOLAB_TRACE_NO_TIME
#define MAXREC 4096

struct got {
	struct iolab_trace_header h;
	unsigned n;
	uint64_t skipped;
	struct iolab_trace_rec rec[MAXREC];
};

/* Writes text to a new file named name in the scratch directory; its path into path. */
static void put(char *path, size_t n, const char *name, const char *text)
{
	snprintf(path, n, "%s/%s", th_dir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

/* Reads path as format fmt into g; returns 0 or the first error (message in err). */
static int slurp(const char *path, const char *fmt, unsigned flags, struct got *g,
		 struct iolab_err *err)
{
	memset(g, 0, sizeof(*g));
	const struct iolab_trace_format *f = iolab_trace_format_find(fmt);
	assert_non_null(f);
	struct iolab_trace_reader *r;
	int rc = iolab_trace_open(path, f, flags, &r, err);
	if (rc)
		return rc;
	g->h = *iolab_trace_header(r);
	struct iolab_trace_rec rec;
	while ((rc = iolab_trace_next(r, &rec, err)) == 1) {
		assert_true(g->n < MAXREC);
		g->rec[g->n++] = rec;
	}
	g->h = *iolab_trace_header(r); /* targets found while reading */
	g->skipped = iolab_trace_skipped(r);
	iolab_trace_close(r);
	return rc;
}

static struct got g, g2;

static void text_trace(const char *name, const char *fmt, const char *text)
{
	char path[512];
	struct iolab_err err = {{0}};
	put(path, sizeof(path), name, text);
	int rc = slurp(path, fmt, 0, &g, &err);
	if (rc)
		fail_msg("%s", err.msg);
}

static void check_rec(unsigned i, uint64_t issue, uint64_t done, unsigned op, uint64_t off,
		      uint64_t len, unsigned target)
{
	const struct iolab_trace_rec *r = &g.rec[i];
	if (r->issue_ns != issue || r->done_ns != done || r->op != op || r->offset != off ||
	    r->len != len || r->target != target)
		fail_msg("record %u: issue %" PRIu64 " done %" PRIu64 " op %u offset %" PRIu64
			 " len %" PRIu64 " target %u", i, r->issue_ns, r->done_ns, r->op, r->offset,
			 r->len, r->target);
}

/* The first line of err is "NAME:LINE: field 'FIELD': ..." with NAME the file's path. */
static void check_error(const char *path, const char *name_line_field, const struct iolab_err *err)
{
	char want[600];
	snprintf(want, sizeof(want), "%s:%s", path, name_line_field);
	if (strncmp(err->msg, want, strlen(want)) || strchr(err->msg, '\n'))
		fail_msg("error '%s', expected it to start '%s'", err->msg, want);
}

static void bad_line(const char *fmt, const char *text, const char *line_field)
{
	char path[512];
	struct iolab_err err = {{0}};
	put(path, sizeof(path), "bad.txt", text);
	assert_int_equal(slurp(path, fmt, 0, &g, &err), -EINVAL);
	check_error(path, line_field, &err);
}

/* MSR Cambridge: filetime 100 ns units (SNIA IOTTA's MSR release); completion = issue +
 * ResponseTime; a target per host and disk. */
static void test_msr(void **state)
{
	(void)state;
	text_trace("msr.csv", "msr",
		   "128166372003061629,hm,1,Read,383496192,32768,4421\n"
		   "128166372003071629,hm,1,Write,1000,512,10\n"
		   "128166372003081629,prn,0,Read,0,4096,100\n");
	assert_int_equal(g.n, 3);
	assert_true(g.h.completions);
	assert_int_equal(g.h.ntargets, 2);
	assert_string_equal(g.h.target[0].name, "hm_1");
	assert_string_equal(g.h.target[1].name, "prn_0");
	/* 2007-02-22 17:00:00 UTC: (filetime - 116444736000000000) * 100 ns */
	assert_int_equal(g.h.start_unix_ns, 1172163600306162900ull);
	check_rec(0, 0, 442100, IOLAB_TRACE_READ, 383496192, 32768, 0);
	check_rec(1, 1000000, 1001000, IOLAB_TRACE_WRITE, 1000, 512, 0);
	check_rec(2, 2000000, 2010000, IOLAB_TRACE_READ, 0, 4096, 1);
	/* a file is read through once at open for its targets: a writer given the header knows
	 * prn_0, first seen at the third record */
	char path[512];
	struct iolab_err err;
	struct iolab_trace_reader *r;
	snprintf(path, sizeof(path), "%s/msr.csv", th_dir);
	assert_int_equal(iolab_trace_open(path, iolab_trace_format_find("msr"), 0, &r, &err), 0);
	assert_int_equal(iolab_trace_header(r)->ntargets, 2);
	iolab_trace_close(r);
	bad_line("msr", "128166372003061629,hm,1,Reed,0,512,1\n", "1: field 'Type': 'Reed'");
	bad_line("msr", "128166372003061629,hm,1,Read,0,512,1\n128166372003061628,hm,1,Read,0,512,1\n",
		 "2: field 'Timestamp'");
	bad_line("msr", "128166372003061629,hm,1,Read,0,512\n", "1: expected 7 fields");
}

/* Alibaba block traces 2020: device_id,opcode,offset,length,timestamp (us since the epoch). */
static void test_alibaba(void **state)
{
	(void)state;
	text_trace("ali.csv", "alibaba",
		   "0,R,126703644672,4096,1577808000000065\n"
		   "3,W,0,8192,1577808000000165\n");
	assert_int_equal(g.n, 2);
	assert_false(g.h.completions);
	assert_int_equal(g.h.start_unix_ns, 1577808000000065000ull);
	assert_string_equal(g.h.target[1].name, "3");
	check_rec(0, 0, NO, IOLAB_TRACE_READ, 126703644672ull, 4096, 0);
	check_rec(1, 100000, NO, IOLAB_TRACE_WRITE, 0, 8192, 1);
	bad_line("alibaba", "0,R,12x,4096,1\n", "1: field 'offset': '12x'");
}

/* Tencent CBS: Timestamp s, Offset and Size in 512-byte sectors, IOType 0 read 1 write. */
static void test_tencent(void **state)
{
	(void)state;
	text_trace("tencent.csv", "tencent",
		   "1538323200,5892608,8,1,1283\n"
		   "1538323201,100,16,0,1284\n");
	assert_int_equal(g.n, 2);
	assert_int_equal(g.h.start_unix_ns, 1538323200000000000ull);
	assert_string_equal(g.h.target[0].name, "1283");
	check_rec(0, 0, NO, IOLAB_TRACE_WRITE, 5892608ull * 512, 4096, 0);
	check_rec(1, 1000000000, NO, IOLAB_TRACE_READ, 51200, 8192, 1);
	bad_line("tencent", "1538323200,5892608,8,2,1283\n", "1: field 'IOType': '2'");
}

/* SPC (UMass Financial1's first lines): ASU,LBA (512 B),Size (bytes),Opcode,Timestamp (s). */
static void test_spc(void **state)
{
	(void)state;
	text_trace("fin.spc", "spc",
		   "0,303567,3584,w,0.000000\n"
		   "1,55590,3072,r,0.026214,extra\n"
		   "0,303574,3584,W,0.117964\n");
	assert_int_equal(g.n, 3);
	assert_int_equal(g.h.ntargets, 2);
	check_rec(0, 0, NO, IOLAB_TRACE_WRITE, 303567ull * 512, 3584, 0);
	check_rec(1, 26214000, NO, IOLAB_TRACE_READ, 55590ull * 512, 3072, 1);
	check_rec(2, 117964000, NO, IOLAB_TRACE_WRITE, 303574ull * 512, 3584, 0);
	bad_line("spc", "0,1,512,r,1.2.3\n", "1: field 'Timestamp': '1.2.3'");
}

/* MQSim's example trace (an excerpt in tests/data/mqsim, with its licence). */
static void test_mqsim(void **state)
{
	(void)state;
	char path[512];
	struct iolab_err err;
	th_data_path(path, sizeof(path), "mqsim/tpcc-excerpt.trace");
	if (slurp(path, "mqsim", 0, &g, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(g.n, 20);
	/* "938513000 4 264719034 16 0": ns, device 4, sector, 16 sectors, write */
	assert_string_equal(g.h.target[0].name, "4");
	check_rec(0, 938513000, NO, IOLAB_TRACE_WRITE, 264719034ull * 512, 8192, 0);
	bad_line("mqsim", "1 0 0 8 3\n", "1: field 'type': '3'");
}

/* DiskSim ascii: ms, device, block, blocks, hex flags with bit 0 for a read. */
static void test_disksim(void **state)
{
	(void)state;
	text_trace("ds.trace", "disksim",
		   "0.000000 0 1000 8 1\n"
		   "1.5 2 0 16 0x0\n"
		   "  2.000001\t0 7 1 0x11\n");
	assert_int_equal(g.n, 3);
	assert_string_equal(g.h.target[1].name, "2");
	check_rec(0, 0, NO, IOLAB_TRACE_READ, 512000, 4096, 0);
	check_rec(1, 1500000, NO, IOLAB_TRACE_WRITE, 0, 8192, 1);
	check_rec(2, 2000001, NO, IOLAB_TRACE_READ, 3584, 512, 0);
	bad_line("disksim", "0.1 0 5 0 1\n", "1: field 'size': '0'");
	bad_line("disksim", "0.1 0 5 1 xyz\n", "1: field 'flags': 'xyz'");
}

/* DiskSim validate traces, closed loop: the next request issues think_us after the previous
 * completion; the Atlas 10K trace of DiskSim's validation suite reads whole. */
static void test_validate(void **state)
{
	(void)state;
	text_trace("v.trace", "validate", "# comment\nR Miss 100 8 1000.5 200\nW Hit 0 16 50 0\n");
	assert_int_equal(g.n, 2);
	assert_true(g.h.completions);
	check_rec(0, 0, 1000500, IOLAB_TRACE_READ, 51200, 4096, 0);
	check_rec(1, 1200500, 1250500, IOLAB_TRACE_WRITE, 0, 8192, 0);
	bad_line("validate", "R Miss 100 8 1 2\nR Maybe 1 1 1 1\n", "2: field 'hit': 'Maybe'");
	char path[512];
	struct iolab_err err;
	th_data_path(path, sizeof(path), "disksim/atlas10k-2000.trace");
	if (slurp(path, "validate", 0, &g, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(g.n, 2000);
	/* "W Hit 4583176 4 663.00000 45422.00000" */
	check_rec(0, 0, 663000, IOLAB_TRACE_WRITE, 4583176ull * 512, 2048, 0);
	assert_int_equal(g.rec[1].issue_ns, 663000 + 45422000);
}

static const char fio_v3[] =
	"fio version 3 iolog\n"
	"0 /tmp/a.img add\n"
	"0 /tmp/b.img add\n"
	"0 /tmp/a.img open\n"
	"0 /tmp/b.img open\n"
	"10 /tmp/a.img trim 0 4096\n"
	"25 /tmp/b.img read 512 512\n"
	"25 /tmp/a.img write 8192 65536\n"
	"40 /tmp/a.img sync 0 0\n"
	"41 /tmp/a.img close\n"
	"41 /tmp/b.img close\n";

/* fio iologs as fio 3.33 replays them (fmt_fio_iolog.c): v2 `wait` in ms since the start, v3
 * timestamps as delays from the previous line (none while it was 0). tests/test_trace_producers.c
 * checks the edges, tests/test_trace_fio_timing.c against fio itself. */
static void test_fio(void **state)
{
	(void)state;
	text_trace("v2.log", "fio-iolog",
		   "fio version 2 iolog\n/dev/sdb add\n/dev/sdb open\n/dev/sdb read 0 4096\n"
		   "/dev/sdb wait 1000 0\n/dev/sdb write 4096 8192\n/dev/sdb datasync 0 0\n"
		   "/dev/sdb close\n");
	assert_int_equal(g.n, 3);
	assert_string_equal(g.h.target[0].name, "/dev/sdb");
	check_rec(0, 0, NO, IOLAB_TRACE_READ, 0, 4096, 0);
	check_rec(1, 1000000000, NO, IOLAB_TRACE_WRITE, 4096, 8192, 0);
	check_rec(2, 1000000000, NO, IOLAB_TRACE_FLUSH, 0, 0, 0);
	text_trace("v3.log", "fio-iolog", fio_v3);
	assert_int_equal(g.n, 4);
	assert_int_equal(g.h.ntargets, 2);
	/* the first I/O follows lines at 0: no delay; then 15 and 15 us after it */
	check_rec(0, 0, NO, IOLAB_TRACE_TRIM, 0, 4096, 0);
	check_rec(1, 15000, NO, IOLAB_TRACE_READ, 512, 512, 1);
	check_rec(2, 15000, NO, IOLAB_TRACE_WRITE, 8192, 65536, 0);
	check_rec(3, 30000, NO, IOLAB_TRACE_FLUSH, 0, 0, 0);
	bad_line("fio-iolog", "fio version 1 iolog\n", "1: field 'version'");
	bad_line("fio-iolog", "fio version 2 iolog\n/a add\n/a rread 0 1\n", "3: field 'action'");
}

/* blkparse: Q issues, C completes whatever it covers (a merged request), F without sectors is a
 * flush, summary lines are not events; a request never completed has no completion. */
static void test_blkparse(void **state)
{
	(void)state;
	text_trace("bp.txt", "blkparse",
		   "  8,0    0        1     0.000000000  1234  Q   W 1000 + 8 [dd]\n"
		   "  8,0    0        2     0.000001000  1234  G   W 1000 + 8 [dd]\n"
		   "  8,0    0        3     0.000002000  1234  Q   W 1008 + 8 [dd]\n"
		   "  8,0    0        4     0.000003000  1234  M   W 1008 + 8 [dd]\n"
		   "  8,0    0        5     0.000004000  1234  D   W 1000 + 16 [dd]\n"
		   "  8,16   1        1     0.000005000    99  Q   R 0 + 8 [cat]\n"
		   "  8,0    0        6     0.000010000     0  C   W 1000 + 16 [0]\n"
		   "  8,0    0        7     0.000011000  1234  Q FWS [kworker/0:1]\n"
		   "  8,0    0        8     0.000020000     0  C FWS 0 [0]\n"
		   "  8,16   1        2     0.000030000     0  C   R 0 + 8 [0]\n"
		   "  8,0    0        9     0.000040000  1234  Q  DS 2048 + 2048 [fstrim]\n"
		   "CPU0 (8,0):\n"
		   " Reads Queued:           0,        0KiB\t Writes Queued:           2,        8KiB\n"
		   "Total (8,0):\n");
	assert_int_equal(g.n, 5);
	assert_true(g.h.completions);
	assert_int_equal(g.h.ntargets, 2);
	assert_string_equal(g.h.target[0].name, "8,0");
	assert_string_equal(g.h.target[1].name, "8,16");
	check_rec(0, 0, 10000, IOLAB_TRACE_WRITE, 512000, 4096, 0);
	check_rec(1, 2000, 10000, IOLAB_TRACE_WRITE, 1008 * 512, 4096, 0);
	check_rec(2, 5000, 30000, IOLAB_TRACE_READ, 0, 4096, 1);
	check_rec(3, 11000, 20000, IOLAB_TRACE_FLUSH, 0, 0, 0);
	check_rec(4, 40000, NO, IOLAB_TRACE_TRIM, 2048 * 512, 2048 * 512, 0);
	/* D only (blkparse -a issue -a complete): D issues */
	text_trace("bpd.txt", "blkparse",
		   "8,0 0 1 0.5 1 D R 8 + 8 [a]\n8,0 0 2 0.75 0 C R 8 + 8 [0]\n");
	assert_int_equal(g.n, 1);
	check_rec(0, 500000000, 750000000, IOLAB_TRACE_READ, 4096, 4096, 0);
	bad_line("blkparse", "8,0 0 1 0.0x 1 Q W 1 + 8 [a]\n", "1: field 'time': '0.0x'");
	bad_line("blkparse", "8,0 0 1 0.1 1 Q W 1 + 8z [a]\n", "1: field 'sectors': '8z'");
}

/* --skip-bad: a bad line (even the first, read ahead for the header) is counted, not fatal. */
static void test_skip_bad(void **state)
{
	(void)state;
	char path[512];
	struct iolab_err err;
	put(path, sizeof(path), "skip.csv", "x,R,0,512,1\n1,R,0,512,2\n1,Q,0,512,3\n2,W,512,512,4\n");
	assert_int_equal(slurp(path, "alibaba", IOLAB_TRACE_SKIP_BAD, &g, &err), 0);
	assert_int_equal(g.n, 2);
	assert_int_equal(g.skipped, 2);
	check_rec(1, 2000, NO, IOLAB_TRACE_WRITE, 512, 512, 1);
	assert_int_equal(slurp(path, "alibaba", 0, &g, &err), -EINVAL);
	check_error(path, "1: field 'device_id': 'x'", &err);
	/* a line longer than the readers take, then a good one */
	char *big = malloc(10000);
	assert_non_null(big);
	memset(big, '7', 9000);
	strcpy(big + 9000, "\n0.5 0 1 1 1\n");
	put(path, sizeof(path), "long.trace", big);
	free(big);
	assert_int_equal(slurp(path, "disksim", IOLAB_TRACE_SKIP_BAD, &g, &err), 0);
	assert_int_equal(g.n, 1);
	assert_int_equal(g.skipped, 1);
}

/* Writes g (header and records) as format fmt to path. */
static void export(const char *path, const char *fmt)
{
	struct iolab_err err;
	struct iolab_trace_writer *w;
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	if (iolab_trace_create(f, iolab_trace_format_find(fmt), &g.h, &w, &err))
		fail_msg("%s", err.msg);
	for (unsigned i = 0; i < g.n; i++)
		if (iolab_trace_write(w, &g.rec[i], &err))
			fail_msg("%s", err.msg);
	if (iolab_trace_finish(w, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(fclose(f), 0);
}

/* import -> export -> import gives the same records and targets. */
static void round_trip(const char *fmt)
{
	char path[512];
	struct iolab_err err;
	snprintf(path, sizeof(path), "%s/rt.%s", th_dir, fmt);
	export(path, fmt);
	if (slurp(path, fmt, 0, &g2, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(g2.n, g.n);
	assert_int_equal(g2.h.ntargets, g.h.ntargets);
	for (unsigned i = 0; i < g.h.ntargets; i++)
		assert_string_equal(g2.h.target[i].name, g.h.target[i].name);
	for (unsigned i = 0; i < g.n; i++)
		if (memcmp(&g.rec[i], &g2.rec[i], sizeof(g.rec[i])))
			fail_msg("%s: record %u differs after the round trip", fmt, i);
}

static void test_round_trips(void **state)
{
	(void)state;
	text_trace("rt1.trace", "disksim", "0.000000 0 1000 8 1\n1.5 2 0 16 0\n2.000001 0 7 1 0x11\n");
	round_trip("disksim");
	char path[512];
	struct iolab_err err;
	th_data_path(path, sizeof(path), "mqsim/tpcc-excerpt.trace");
	assert_int_equal(slurp(path, "mqsim", 0, &g, &err), 0);
	round_trip("mqsim");
	text_trace("rt3.log", "fio-iolog", fio_v3);
	round_trip("fio-iolog");
	/* a trace with a trim has no DiskSim form: refused, naming the record and field */
	struct iolab_trace_writer *w;
	FILE *f = fopen("/dev/null", "w");
	assert_non_null(f);
	assert_int_equal(iolab_trace_create(f, iolab_trace_format_find("disksim"), &g.h, &w, &err), 0);
	assert_int_equal(iolab_trace_write(w, &g.rec[0], &err), -EINVAL);
	assert_non_null(strstr(err.msg, "field 'op'"));
	iolab_trace_finish(w, &err);
	fclose(f);
}

/* `iolab trace convert` between foreign formats: MQSim's excerpt (five devices) to DiskSim and
 * back to MQSim gives the excerpt's lines again. */
static void test_cli_convert(void **state)
{
	(void)state;
	char in[512], ds[512], mq[512];
	th_data_path(in, sizeof(in), "mqsim/tpcc-excerpt.trace");
	snprintf(ds, sizeof(ds), "%s/tpcc.disksim", th_dir);
	snprintf(mq, sizeof(mq), "%s/tpcc.mqsim", th_dir);
	struct th_out o = th_iolab("trace", "convert", in, "--format", "mqsim", "--to", "disksim",
				   "-o", ds, NULL);
	if (o.status)
		fail_msg("convert: %s", o.err);
	th_out_free(&o);
	o = th_iolab("trace", "convert", ds, "--format", "disksim", "--to", "mqsim", "-o", mq, NULL);
	if (o.status)
		fail_msg("convert: %s", o.err);
	th_out_free(&o);
	assert_int_equal(th_sh("cmp -s '%s' '%s'", in, mq), 0);
	o = th_iolab("trace", "convert", in, "--format", "mqsim", "--to", "disksim", "-o", ds, NULL);
	TH_EXPECT_EXIT(o, 2, ds); /* an existing output needs --force */
}

/* Streams nlines lines of format fmt (made by gen) through a pipe into a child that reads them as
 * "-" and must find want records; returns the child's peak RSS in KiB. */
static long stream_rss(const char *fmt, void (*gen)(FILE *, unsigned long), unsigned long nlines,
		       unsigned long want)
{
	int fd[2];
	assert_int_equal(pipe(fd), 0);
	fflush(NULL);
	pid_t w = fork();
	assert_true(w >= 0);
	if (w == 0) {
		close(fd[0]);
		FILE *f = fdopen(fd[1], "w");
		gen(f, nlines);
		_exit(fclose(f) ? 1 : 0);
	}
	pid_t r = fork();
	assert_true(r >= 0);
	if (r == 0) {
		close(fd[1]);
		dup2(fd[0], 0);
		close(fd[0]);
		struct iolab_trace_reader *rd;
		struct iolab_err err;
		if (iolab_trace_open("-", iolab_trace_format_find(fmt), 0, &rd, &err)) {
			fprintf(stderr, "%s\n", err.msg);
			_exit(3);
		}
		struct iolab_trace_rec rec;
		unsigned long n = 0;
		int rc;
		while ((rc = iolab_trace_next(rd, &rec, &err)) == 1)
			n++;
		if (rc < 0)
			fprintf(stderr, "%s\n", err.msg);
		iolab_trace_close(rd);
		if (n != want)
			fprintf(stderr, "%s: %lu records, expected %lu\n", fmt, n, want);
		_exit(rc == 0 && n == want ? 0 : 4);
	}
	close(fd[0]);
	close(fd[1]);
	int st;
	struct rusage ru;
	assert_int_equal(wait4(r, &st, 0, &ru), r);
	int wst;
	assert_int_equal(waitpid(w, &wst, 0), w);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	printf("%s: %lu lines read with a peak RSS of %ld KiB\n", fmt, nlines, ru.ru_maxrss);
	return ru.ru_maxrss;
}

static void gen_msr(FILE *f, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		fprintf(f, "%llu,web,%lu,%s,%lu,4096,%lu\n", 128166372003061629ull + i * 100, i % 3,
			i & 1 ? "Write" : "Read", (i * 7919 % 1000000) * 4096, 100 + i % 50);
}

/* Q and C events with 32 requests in flight. */
static void gen_blkparse(FILE *f, unsigned long n)
{
	for (unsigned long k = 0; k < n / 2; k++) {
		fprintf(f, "  8,0 0 %lu %lu.%09lu 1 Q W %lu + 8 [w]\n", 2 * k, k / 100000,
			(k % 100000) * 10000, k * 8);
		if (k >= 32) {
			unsigned long c = k - 32;
			fprintf(f, "  8,0 0 %lu %lu.%09lu 0 C W %lu + 8 [0]\n", 2 * k + 1, k / 100000,
				(k % 100000) * 10000 + 5000, c * 8);
		}
	}
}

/* Several million lines in bounded memory (trace.h: readers stream). */
static void test_bounded_memory(void **state)
{
	(void)state;
	long kib = stream_rss("msr", gen_msr, 3000000, 3000000);
	assert_true(kib < 64 * 1024);
	kib = stream_rss("blkparse", gen_blkparse, 4000000, 2000000);
	assert_true(kib < 64 * 1024);
}

/* fio 3.33 replays an exported v3 log: the same number of I/Os, the file named by the target. */
static void test_fio_replays_export(void **state)
{
	(void)state;
	if (system("fio --version >/dev/null 2>&1") != 0)
		skip();
	char img[512], log[512], cmd[1600];
	snprintf(img, sizeof(img), "%s/replay.img", th_dir);
	snprintf(log, sizeof(log), "%s/replay.iolog", th_dir);
	th_make_file(img, 1 << 20);
	memset(&g, 0, sizeof(g));
	g.h.ntargets = 1;
	assert_true(strlen(img) < sizeof(g.h.target[0].name));
	memcpy(g.h.target[0].name, img, strlen(img) + 1);
	g.n = 40;
	unsigned reads = 0, writes = 0;
	for (unsigned i = 0; i < g.n; i++) {
		struct iolab_trace_rec *r = &g.rec[i];
		r->issue_ns = i * 1000000ull; /* 1 ms apart */
		r->done_ns = NO;
		r->op = i % 3 == 0 ? IOLAB_TRACE_WRITE : IOLAB_TRACE_READ;
		r->offset = (i * 37 % 256) * 4096ull;
		r->len = 4096;
		if (r->op == IOLAB_TRACE_READ)
			reads++;
		else
			writes++;
	}
	export(log, "fio-iolog");
	snprintf(cmd, sizeof(cmd), "fio --name=replay --read_iolog=%s --ioengine=psync "
		 "--filename=%s 2>&1", log, img);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	char line[1024];
	unsigned r = 0, w = 0, t = 0, x = 0;
	bool found = false;
	while (fgets(line, sizeof(line), p)) {
		const char *at = strstr(line, "issued rwts: total=");
		if (at && sscanf(at, "issued rwts: total=%u,%u,%u,%u", &r, &w, &t, &x) == 4)
			found = true;
	}
	assert_int_equal(pclose(p), 0);
	assert_true(found);
	printf("fio replayed %u reads and %u writes (exported %u and %u)\n", r, w, reads, writes);
	assert_int_equal(r, reads);
	assert_int_equal(w, writes);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_msr),
		cmocka_unit_test(test_alibaba),
		cmocka_unit_test(test_tencent),
		cmocka_unit_test(test_spc),
		cmocka_unit_test(test_mqsim),
		cmocka_unit_test(test_disksim),
		cmocka_unit_test(test_validate),
		cmocka_unit_test(test_fio),
		cmocka_unit_test(test_blkparse),
		cmocka_unit_test(test_skip_bad),
		cmocka_unit_test(test_round_trips),
		cmocka_unit_test(test_cli_convert),
		cmocka_unit_test(test_bounded_memory),
		cmocka_unit_test(test_fio_replays_export),
	};
	return cmocka_run_group_tests(tests, th_dir_setup, th_dir_teardown);
}
