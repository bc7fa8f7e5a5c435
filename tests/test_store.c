/* test_store.c: the results store (docs/results-db.md) through the binary ($IOLAB_BIN): two
 * labelled sims are listed, `db show` prints the table the run printed and `db export --json`
 * the very document the run's --json wrote, `db delete` removes a run and refuses an unknown id
 * or a label naming several runs; a store whose schema version (PRAGMA user_version, header
 * offset 60 in SQLite's file format, https://www.sqlite.org/fileformat.html) is newer than the
 * build's, a file that is not a database, and another program's database are refused with one
 * line, exit 2 and their bytes unchanged; two processes saving at once both land (WAL mode,
 * https://www.sqlite.org/wal.html); the default store is $XDG_DATA_HOME/iolab/results.db and
 * --no-db saves nothing; a replay keeps its whole command line; an interrupted run keeps the
 * points it measured. */
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "helpers.h"



static void in_dir(char *buf, size_t n, const char *name)
{
	snprintf(buf, n, "%s/%s", th_dir, name);
}

/* The first column of the first row of sql, run on the store at db. */
static int64_t query_int(const char *db, const char *sql)
{
	sqlite3 *h;
	assert_int_equal(sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	sqlite3_stmt *q;
	assert_int_equal(sqlite3_prepare_v2(h, sql, -1, &q, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(q), SQLITE_ROW);
	int64_t v = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	sqlite3_close(h);
	return v;
}

/* Number of runs in the store at path. */
static int count_runs(const char *path)
{
	return (int)query_int(path, "SELECT count(*) FROM runs");
}

static void test_save_list_show_export_delete(void **state)
{
	(void)state;
	char db[512], ja[512], jb[512], ex[512];
	in_dir(db, sizeof(db), "a.db");
	in_dir(ja, sizeof(ja), "a.json");
	in_dir(jb, sizeof(jb), "b.json");
	in_dir(ex, sizeof(ex), "export.json");
	struct th_out a = th_iolab("sim", "--model", "atlas10k", "--time", "1", "--qd", "1,4", "--db", db,
				   "--label", "first", "--json", ja, "--quiet", NULL);
	assert_int_equal(a.status, 0);
	struct th_out b = th_iolab("sim", "--model", "barracuda", "--time", "1", "--db", db, "--label",
				   "second", "--json", jb, "--quiet", NULL);
	assert_int_equal(b.status, 0);

	struct th_out o = th_iolab("db", "list", "--db", db, NULL);
	assert_int_equal(o.status, 0);
	assert_int_equal(th_count_lines(o.out), 3); /* header and two runs */
	assert_non_null(strstr(o.out, "first"));
	assert_non_null(strstr(o.out, "second"));
	assert_non_null(strstr(o.out, "atlas10k"));
	assert_non_null(strstr(o.out, "barracuda"));
	assert_non_null(strstr(o.out, "--label first"));
	th_out_free(&o);

	o = th_iolab("db", "show", "first", "--db", db, NULL);
	assert_int_equal(o.status, 0);
	assert_string_equal(o.out, a.out);
	th_out_free(&o);
	o = th_iolab("db", "show", "2", "--db", db, NULL);
	assert_string_equal(o.out, b.out);
	th_out_free(&o);

	char *want = th_read_file(ja, NULL);
	o = th_iolab("db", "export", "first", "--json", "-", "--db", db, NULL);
	assert_int_equal(o.status, 0);
	assert_string_equal(o.out, want);
	th_out_free(&o);
	o = th_iolab("db", "export", "1", "--db", db, "--json", ex, NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	char *got = th_read_file(ex, NULL);
	assert_string_equal(got, want);
	free(got);
	free(want);

	o = th_iolab("db", "delete", "99", "--db", db, NULL);
	TH_EXPECT_EXIT(o, 2, "no run with id or label '99'");
	assert_int_equal(count_runs(db), 2);
	o = th_iolab("db", "delete", "first", "--db", db, NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	assert_int_equal(count_runs(db), 1);
	o = th_iolab("db", "show", "first", "--db", db, NULL);
	TH_EXPECT_EXIT(o, 2, "first");
	o = th_iolab("db", "list", "--db", db, NULL);
	assert_null(strstr(o.out, "first"));
	assert_non_null(strstr(o.out, "second"));
	th_out_free(&o);
	th_out_free(&a);
	th_out_free(&b);
}

static void test_label_of_several_runs(void **state)
{
	(void)state;
	char db[512];
	in_dir(db, sizeof(db), "twice.db");
	for (int i = 0; i < 2; i++) {
		struct th_out o = th_iolab("sim", "--model", "atlas10k", "--time", "0.5", "--db", db,
					   "--label", "same", "--quiet", NULL);
		assert_int_equal(o.status, 0);
		th_out_free(&o);
	}
	struct th_out o = th_iolab("db", "delete", "same", "--db", db, NULL);
	TH_EXPECT_EXIT(o, 2, "names 2 runs", "1, 2");
	assert_int_equal(count_runs(db), 2);
}

/* Runs a sim into db, which must be refused with one line holding needle and left unchanged. */
static void expect_refused(const char *db, const char *needle)
{
	size_t n0, n1;
	char *before = th_read_file(db, &n0);
	struct th_out o = th_iolab("sim", "--model", "atlas10k", "--time", "0.5", "--db", db, "--quiet", NULL);
	TH_EXPECT_EXIT(o, 2, needle);
	o = th_iolab("db", "list", "--db", db, NULL);
	TH_EXPECT_EXIT(o, 2, needle);
	char *after = th_read_file(db, &n1);
	assert_int_equal(n0, n1);
	assert_memory_equal(before, after, n0);
	char wal[600];
	snprintf(wal, sizeof(wal), "%s-wal", db);
	assert_false(th_exists(wal));
	free(before);
	free(after);
}

static void test_newer_schema_refused(void **state)
{
	(void)state;
	char db[512];
	in_dir(db, sizeof(db), "newer.db");
	struct th_out o = th_iolab("sim", "--model", "atlas10k", "--time", "0.5", "--db", db, "--quiet", NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	sqlite3 *h;
	assert_int_equal(sqlite3_open(db, &h), SQLITE_OK);
	assert_int_equal(sqlite3_exec(h, "PRAGMA journal_mode=DELETE; PRAGMA user_version=99", NULL, NULL,
				      NULL), SQLITE_OK);
	sqlite3_close(h);
	expect_refused(db, "schema version 99 is newer");
}

static void test_not_a_database_refused(void **state)
{
	(void)state;
	char db[512];
	in_dir(db, sizeof(db), "corrupt.db");
	FILE *f = fopen(db, "wb");
	assert_non_null(f);
	for (int i = 0; i < 4096; i++)
		fputc((i * 131 + 7) & 0xff, f);
	fclose(f);
	expect_refused(db, "not an iolab results database");

	/* another program's SQLite database (user_version 0, tables of its own) */
	in_dir(db, sizeof(db), "other.db");
	sqlite3 *h;
	assert_int_equal(sqlite3_open(db, &h), SQLITE_OK);
	assert_int_equal(sqlite3_exec(h, "CREATE TABLE t (x)", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(h);
	expect_refused(db, "another program");
}

static pid_t start_sim(const char *db, const char *label)
{
	const char *bin = getenv("IOLAB_BIN");
	if (!bin)
		bin = "build/iolab";
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);
		dup2(fd, 1);
		execl(bin, bin, "sim", "--model", "atlas10k", "--time", "2", "--qd", "1,2,4,8", "--db", db,
		      "--label", label, "--quiet", (char *)NULL);
		_exit(127);
	}
	return pid;
}

static void test_two_processes_save_at_once(void **state)
{
	(void)state;
	char db[512];
	in_dir(db, sizeof(db), "shared.db");
	for (int round = 0; round < 3; round++) {
		pid_t p1 = start_sim(db, "p1"), p2 = start_sim(db, "p2");
		int s1, s2;
		assert_int_equal(waitpid(p1, &s1, 0), p1);
		assert_int_equal(waitpid(p2, &s2, 0), p2);
		assert_true(WIFEXITED(s1) && WEXITSTATUS(s1) == 0);
		assert_true(WIFEXITED(s2) && WEXITSTATUS(s2) == 0);
	}
	assert_int_equal(count_runs(db), 6);
	struct th_out o = th_iolab("db", "list", "--db", db, NULL);
	assert_int_equal(o.status, 0);
	assert_int_equal(th_count_lines(o.out), 7);
	th_out_free(&o);
}

static void test_default_store_and_no_db(void **state)
{
	(void)state;
	char db[512];
	const char *home = getenv("XDG_DATA_HOME"); /* helpers.c points it into /var/tmp */
	assert_non_null(home);
	snprintf(db, sizeof(db), "%s/iolab/results.db", home);
	struct th_out o = th_iolab("sim", "--model", "atlas10k", "--time", "0.5", "--label", "dflt",
				   "--quiet", NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	assert_true(th_exists(db));
	int n = count_runs(db);
	o = th_iolab("sim", "--model", "atlas10k", "--time", "0.5", "--no-db", "--quiet", NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	assert_int_equal(count_runs(db), n);
	o = th_iolab("db", "show", "dflt", NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	o = th_iolab("sim", "--model", "atlas10k", "--no-db", "--label", "x", NULL);
	TH_EXPECT_EXIT(o, 2, "--no-db");
	o = th_iolab("db", "list", "--db", "/nonexistent/x.db", NULL);
	TH_EXPECT_EXIT(o, 2, "/nonexistent/x.db");
}

/* A replay is saved as kind replay with its whole command line, its own options included
 * (tests/data/mqsim: an excerpt of MQSim's TPC-C trace, under its LICENSE). */
static void test_replay_saved_whole(void **state)
{
	(void)state;
	char db[512], trace[512];
	in_dir(db, sizeof(db), "replay.db");
	th_data_path(trace, sizeof(trace), "mqsim/tpcc-excerpt.trace");
	struct th_out o = th_iolab("replay", trace, "--format", "mqsim", "--wrap", "--model", "atlas10k",
				   "--db", db, "--label", "rp", "--quiet", NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	o = th_iolab("db", "list", "--db", db, NULL);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, " replay "));
	assert_non_null(strstr(o.out, "--format mqsim --wrap --model atlas10k"));
	th_out_free(&o);
}

/* SIGINT in the middle of a five-point run (1 s each): the points done and the partial one are
 * saved (at least two, fewer than five, however slow the build is to start). */
static void test_interrupted_run_saves_its_points(void **state)
{
	(void)state;
	char db[512];
	in_dir(db, sizeof(db), "intr.db");
	const char *bin = getenv("IOLAB_BIN");
	if (!bin)
		bin = "build/iolab";
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);
		dup2(fd, 1);
		dup2(fd, 2);
		execl(bin, bin, "run", "--engine", "null", "--time", "1", "--qd", "1,2,4,8,16", "--db", db,
		      "--label", "cut", (char *)NULL);
		_exit(127);
	}
	struct timespec t = {2, 500 * 1000 * 1000};
	nanosleep(&t, NULL);
	assert_int_equal(kill(pid, SIGINT), 0);
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 130);
	sqlite3 *h;
	assert_int_equal(sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	sqlite3_stmt *q;
	assert_int_equal(sqlite3_prepare_v2(h, "SELECT r.interrupted, count(p.idx) FROM runs r JOIN "
					    "points p ON p.run_id = r.id WHERE r.label = 'cut'", -1, &q,
					    NULL), SQLITE_OK);
	int row = sqlite3_step(q);
	int interrupted = sqlite3_column_int(q, 0), points = sqlite3_column_int(q, 1);
	sqlite3_finalize(q);
	sqlite3_close(h);
	assert_int_equal(row, SQLITE_ROW);
	assert_int_equal(interrupted, 1);
	assert_in_range(points, 2, 4);
}

/* The schema version 1 wrote (iolab 76c6e9c, docs/results-db.md of then), with one run in it. */
static const char v1_store[] =
	"CREATE TABLE runs (id INTEGER PRIMARY KEY AUTOINCREMENT, time TEXT NOT NULL, label TEXT,"
	" command TEXT NOT NULL, host TEXT NOT NULL, kind TEXT NOT NULL CHECK (kind IN"
	" ('run','sim','replay')), target TEXT NOT NULL, config TEXT NOT NULL, json TEXT NOT NULL,"
	" table_text TEXT NOT NULL, interrupted INTEGER NOT NULL);"
	"CREATE INDEX runs_label ON runs(label); CREATE INDEX runs_time ON runs(time);"
	"CREATE INDEX runs_kind ON runs(kind);"
	"CREATE TABLE points (run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" idx INTEGER NOT NULL, pattern TEXT, qd INTEGER, bs INTEGER, iops REAL, mb_per_s REAL,"
	" lat_mean_us REAL, json TEXT NOT NULL, PRIMARY KEY (run_id, idx));"
	"CREATE INDEX points_shape ON points(pattern, qd, bs);"
	"CREATE TABLE warnings (run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" point_idx INTEGER NOT NULL, text TEXT NOT NULL);"
	"CREATE INDEX warnings_run ON warnings(run_id);"
	"INSERT INTO runs VALUES (1, '2026-11-30T10:00:00Z', 'old', 'iolab sim --model atlas10k',"
	" 'h', 'sim', 'atlas10k', '{}', '{\"iolab\": \"0.1\", \"points\": []}', 'the old table', 0);"
	"PRAGMA user_version=1;";


/* A version-1 store is brought to version 2 when it is first read, its run kept; runs saved
 * after carry their price, capacity and disks. */
static void test_migration_from_version_1(void **state)
{
	(void)state;
	char db[512];
	in_dir(db, sizeof(db), "v1.db");
	sqlite3 *h;
	assert_int_equal(sqlite3_open(db, &h), SQLITE_OK);
	assert_int_equal(sqlite3_exec(h, v1_store, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(h);
	assert_int_equal(query_int(db, "PRAGMA user_version"), 1);

	struct th_out o = th_iolab("db", "show", "old", "--db", db, NULL);
	assert_int_equal(o.status, 0);
	assert_string_equal(o.out, "the old table");
	th_out_free(&o);
	assert_int_equal(query_int(db, "PRAGMA user_version"), 2);
	assert_int_equal(query_int(db, "SELECT count(*) FROM runs WHERE price_usd IS NULL"), 1);

	o = th_iolab("sim", "--model", "atlas10k", "--time", "0.5", "--price", "450", "--db", db,
		     "--label", "new", "--quiet", NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	assert_int_equal(count_runs(db), 2);
	assert_int_equal(query_int(db, "SELECT price_usd FROM runs WHERE label = 'new'"), 450);
	/* the Atlas 10K model's capacity from its zones: 17,966,953 sectors of 512 bytes (DiskSim
	 * 4.0 replaces a dm_layout_g1 disk's Block count, 17,938,986, by the zones' total) */
	assert_int_equal(query_int(db, "SELECT capacity_bytes FROM runs WHERE label = 'new'"),
			 9199079936);
	o = th_iolab("db", "list", "--db", db, NULL);
	assert_int_equal(th_count_lines(o.out), 3);
	th_out_free(&o);
}

/* A run on a loop device saves the disk's identity (sysfs) and the histogram's buckets, whose
 * counts add up to the I/Os, and warns that a loop without direct I/O measures the page cache
 * (loop/dio, Documentation/ABI/testing/sysfs-block-loop in the kernel sources). */
static void test_device_identity_and_histogram_saved(void **state)
{
	(void)state;
	char db[512], file[512], dev[64];
	in_dir(db, sizeof(db), "dev.db");
	in_dir(file, sizeof(file), "loop.img");
	assert_int_equal(th_sh("truncate -s 64M %s", file), 0);
	if (!th_loop_attach(file, false, dev, sizeof(dev))) {
		print_message("SKIPPED: no loop device on this machine\n");
		skip();
	}
	struct th_out o = th_iolab("run", dev, "--force", "--pattern", "rand-read", "--bs", "4k",
				   "--time", "0.5", "--db", db, "--label", "loop", "--quiet", NULL);
	th_loop_detach(dev);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	assert_int_equal(query_int(db, "SELECT capacity_bytes FROM runs"), 64 << 20);
	assert_int_equal(query_int(db, "SELECT size_bytes FROM devices"), 64 << 20);
	assert_int_equal(query_int(db, "SELECT count(*) FROM devices WHERE disk LIKE 'loop%'"), 1);
	assert_int_equal(query_int(db, "SELECT count(*) FROM devices WHERE scheduler IS NOT NULL "
				   "AND rotational IS NOT NULL"), 1);
	/* attached without --direct-io: the loop reads its file through the page cache, said */
	assert_int_equal(query_int(db, "SELECT count(*) FROM warnings WHERE text LIKE "
				   "'%loop device reading%through the page cache%'"), 1);
	int64_t ios = query_int(db, "SELECT json_extract(json, '$.read.ios') FROM points");
	int64_t sum = query_int(db, "SELECT sum(json_extract(b.value, '$[2]')) FROM points, "
				"json_each(json_extract(points.json, '$.lat_hist.read')) b");
	assert_true(ios > 0);
	assert_int_equal(sum, ios);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_save_list_show_export_delete),
		cmocka_unit_test(test_label_of_several_runs),
		cmocka_unit_test(test_newer_schema_refused),
		cmocka_unit_test(test_not_a_database_refused),
		cmocka_unit_test(test_two_processes_save_at_once),
		cmocka_unit_test(test_default_store_and_no_db),
		cmocka_unit_test(test_replay_saved_whole),
		cmocka_unit_test(test_interrupted_run_saves_its_points),
		cmocka_unit_test(test_migration_from_version_1),
		cmocka_unit_test(test_device_identity_and_histogram_saved),
	};
	return cmocka_run_group_tests(tests, th_dir_setup, th_dir_teardown);
}
