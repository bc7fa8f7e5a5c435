/* test_sim_sweeps.c: every setting of the simulated path can be swept: --set PART.KEY=V[,V]
 * (any number), and lists for the shorthands --drive, --channel, --controllers, --read-ahead.
 * Each point of a sweep runs what a run of its values alone runs (virtual time: the figures are
 * exact and repeat), the points name their values (table column, JSON points[].settings, CSV
 * column), job files say the same (drive =, set =), and iolab compare matches points on them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "helpers.h"

/* The points of a run's JSON at path (the document is kept in *doc, for json_decref). */
static json_t *points_of(const char *path, json_t **doc)
{
	*doc = th_load_json(path);
	assert_non_null(*doc);
	json_t *pts = json_object_get(*doc, "points");
	assert_true(json_is_array(pts));
	return pts;
}

static const char *setting(json_t *p, const char *name)
{
	json_t *v = json_object_get(json_object_get(p, "settings"), name);
	assert_true(json_is_string(v));
	return json_string_value(v);
}

static double iops(json_t *p)
{
	return json_number_value(json_object_get(p, "iops"));
}

/* iolab sim with the common workload and args (NULL-terminated, at most 11), JSON into json. */
static void sim(const char *json, const char *const *args)
{
	const char *a[32] = {"sim", "--pattern", "seq-read", "--bs", "64k", "--time", "1", "--no-db",
			     "--quiet", "--force", "--json", json};
	unsigned n = 12;
	while (*args)
		a[n++] = *args++;
	struct th_out o = th_iolab(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10],
				   a[11], a[12], a[13], a[14], a[15], a[16], a[17], a[18], a[19], a[20],
				   a[21], a[22], NULL);
	if (o.status)
		print_error("%s", o.err);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
}

/* --drive a,b x --set controller.read-ahead=none,always: four points, the drive outermost,
 * each the same as the run of its values alone; read-ahead matters on a sequential stream. */
static void test_drive_and_read_ahead_sweep(void **state)
{
	(void)state;
	char json[300], one[300];
	snprintf(json, sizeof(json), "%s/sweep.json", th_dir);
	snprintf(one, sizeof(one), "%s/one.json", th_dir);
	sim(json, (const char *[]){"--array", "raid0:4", "--drive", "barracuda,cheetah9LP", "--cache",
				   "64m", "--set", "controller.read-ahead=none,always", "--qd", "1",
				   NULL});
	json_t *doc, *pts = points_of(json, &doc);
	assert_int_equal(json_array_size(pts), 4);
	static const char *const drive[] = {"barracuda", "barracuda", "cheetah9LP", "cheetah9LP"};
	static const char *const ra[] = {"none", "always", "none", "always"};
	for (size_t i = 0; i < 4; i++) {
		json_t *p = json_array_get(pts, i);
		assert_string_equal(setting(p, "drive.model"), drive[i]);
		assert_string_equal(setting(p, "controller.read-ahead"), ra[i]);
		assert_string_equal(json_string_value(json_object_get(p, "model")), drive[i]);
		json_t *odoc;
		sim(one, (const char *[]){"--array", "raid0:4", "--drive", drive[i], "--cache", "64m",
					  "--read-ahead", ra[i], "--qd", "1", NULL});
		json_t *alone = json_array_get(points_of(one, &odoc), 0);
		assert_true(iops(p) == iops(alone));
		assert_null(json_object_get(alone, "settings")); /* nothing swept there */
		json_decref(odoc);
	}
	assert_true(iops(json_array_get(pts, 1)) > 1.5 * iops(json_array_get(pts, 0)));
	assert_true(iops(json_array_get(pts, 2)) != iops(json_array_get(pts, 0)));
	json_t *cfg = json_array_get(json_object_get(json_object_get(doc, "config"), "runs"), 0);
	json_t *set = json_object_get(cfg, "settings");
	assert_int_equal(json_array_size(set), 2);
	assert_string_equal(json_string_value(json_object_get(json_array_get(set, 1), "name")),
			    "controller.read-ahead");
	json_decref(doc);
}

/* A drive model's field: rpm 7200, 10000, 15000 on random reads: rotation shortens, IOPS rise. */
static void test_drive_rpm_sweep(void **state)
{
	(void)state;
	struct th_out o = th_iolab("sim", "--model", "atlas10k", "--set", "drive.rpm=7200,10000,15000",
				   "--pattern", "rand-read", "--bs", "4k", "--qd", "1", "--time", "2",
				   "--no-db", "--json", "-", NULL);
	assert_int_equal(o.status, 0);
	json_error_t e;
	json_t *doc = json_loads(o.out, 0, &e);
	assert_non_null(doc);
	json_t *pts = json_object_get(doc, "points");
	assert_int_equal(json_array_size(pts), 3);
	static const char *const rpm[] = {"7200", "10000", "15000"};
	for (size_t i = 0; i < 3; i++)
		assert_string_equal(setting(json_array_get(pts, i), "drive.rpm"), rpm[i]);
	assert_true(iops(json_array_get(pts, 0)) < iops(json_array_get(pts, 1)));
	assert_true(iops(json_array_get(pts, 1)) < iops(json_array_get(pts, 2)));
	json_decref(doc);
	th_out_free(&o);
}

/* --read-ahead, --channel and --controllers take lists; the table gets a column for each swept
 * setting and the CSV too. */
static void test_shorthand_lists_and_columns(void **state)
{
	(void)state;
	struct th_out o = th_iolab("sim", "--array", "raid5:3,6", "--drive", "sas15k", "--channel",
				   "ultra160,ultra320", "--pattern", "seq-read", "--bs", "64k", "--qd",
				   "16", "--time", "1", "--no-db", "--quiet", NULL);
	assert_int_equal(o.status, 0);
	assert_int_equal(th_count_lines(o.out) >= 5, 1);
	assert_non_null(strstr(o.out, "channel.type"));
	const char *row = strstr(o.out, "\n  4 ");
	assert_non_null(row);
	assert_non_null(strstr(row, "ultra320"));
	th_out_free(&o);
	o = th_iolab("sim", "--array", "raid0:4", "--drive", "atlas10k", "--controllers", "1,2",
		     "--read-ahead", "none,adaptive,always", "--cache", "16m", "--pattern", "seq-read",
		     "--bs", "64k", "--qd", "1", "--time", "1", "--no-db", "--quiet", "--csv", "-", NULL);
	assert_int_equal(o.status, 0);
	assert_int_equal(th_count_lines(o.out), 7); /* header and 2 x 3 points */
	const char *cols = ",controllers,controller.read-ahead\n", *at = strstr(o.out, cols);
	assert_non_null(at); /* the last columns of the header */
	assert_true(at + strlen(cols) == strchr(o.out, '\n') + 1);
	assert_non_null(strstr(o.out, ",2,adaptive\n"));
	th_out_free(&o);
}

/* A job file says it per section: drive =, set = (any number), list shorthands. */
static void test_job_file_keys(void **state)
{
	(void)state;
	char job[300], json[300];
	snprintf(job, sizeof(job), "%s/sweep.job", th_dir);
	snprintf(json, sizeof(json), "%s/job.json", th_dir);
	th_write_text(job, "[global]\npattern = rand-read\nbs = 4k\ntime = 1\n"
			   "[run slow]\narray = raid0:2\ndrive = barracuda\nset = drive.rpm=5400,7200\n"
			   "set = host.scheduler=cscan\n"
			   "[run two]\narray = raid1:2\ndrive = atlas10k,cheetah9LP\n");
	struct th_out o = th_iolab("sim", "--job", job, "--no-db", "--quiet", "--json", json, NULL);
	if (o.status)
		print_error("%s", o.err);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	json_t *doc, *pts = points_of(json, &doc);
	assert_int_equal(json_array_size(pts), 4);
	assert_string_equal(setting(json_array_get(pts, 1), "drive.rpm"), "7200");
	assert_string_equal(setting(json_array_get(pts, 1), "host.scheduler"), "cscan");
	assert_string_equal(json_string_value(json_object_get(json_array_get(pts, 1), "host_scheduler")),
			    "cscan");
	assert_string_equal(setting(json_array_get(pts, 3), "drive.model"), "cheetah9LP");
	assert_null(json_object_get(json_object_get(json_array_get(pts, 3), "settings"), "drive.rpm"));
	json_decref(doc);
}

/* iolab compare matches points on a swept setting: a run that swept read-ahead over two drives
 * and one that swept it on one drive meet on read-ahead (--by), each of the first's drives in a
 * row; by default the drives the second swept key both runs, and the first has none of them. */
static void test_compare_matches_settings(void **state)
{
	(void)state;
	char db[300];
	snprintf(db, sizeof(db), "%s/r.db", th_dir);
	struct th_out o = th_iolab("sim", "--array", "raid0:2", "--drive", "atlas10k", "--cache", "16m",
				   "--read-ahead", "none,always", "--pattern", "seq-read", "--bs", "64k",
				   "--time", "1", "--db", db, "--label", "one", "--quiet", NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	o = th_iolab("sim", "--array", "raid0:2", "--drive", "atlas10k,sas15k", "--cache", "16m",
		     "--set", "controller.read-ahead=always,none", "--pattern", "seq-read", "--bs", "64k",
		     "--time", "1", "--db", db, "--label", "two", "--quiet", NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	o = th_iolab("compare", "one", "two", "--db", db, "--json", "-", NULL);
	assert_int_equal(o.status, 1);
	th_out_free(&o);
	o = th_iolab("compare", "one", "two", "--by", "set:controller.read-ahead", "--db", db, "--json", "-", NULL);
	assert_int_equal(o.status, 0);
	json_error_t e;
	json_t *doc = json_loads(o.out, 0, &e);
	assert_non_null(doc);
	json_t *rows = json_object_get(doc, "points");
	assert_int_equal(json_array_size(rows), 4);
	size_t i;
	json_t *row;
	unsigned always = 0;
	json_array_foreach(rows, i, row) {
		json_t *key = json_object_get(row, "key");
		const char *ra = json_string_value(json_object_get(key, "set:controller.read-ahead"));
		assert_non_null(ra);
		always += !strcmp(ra, "always");
		assert_non_null(strstr(json_string_value(json_object_get(row, "name")), ra));
	}
	assert_int_equal(always, 2);
	assert_int_equal(json_array_size(json_object_get(doc, "unmatched")), 0);
	json_decref(doc);
	th_out_free(&o);
	o = th_iolab("compare", "one", "two", "--by", "set:controller.read-ahead", "--db", db, "--csv", "-", NULL);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, ",set:controller.read-ahead,set:drive.model\n"));
	assert_non_null(strstr(o.out, ",always,sas15k\n"));
	th_out_free(&o);
}

static double lat_mean(json_t *p)
{
	return json_number_value(json_object_get(json_object_get(p, "lat_us"), "mean"));
}

/* With a subsystem file, --read-ahead replaces its controllers' read-ahead (it was ignored),
 * and its list sweeps as --set controller.read-ahead does. */
static void test_config_read_ahead(void **state)
{
	(void)state;
	char conf[300], a[300], b[300], file[300];
	th_data_path(conf, sizeof(conf), "../../examples/subsystem.conf");
	snprintf(a, sizeof(a), "%s/ra-list.json", th_dir);
	snprintf(b, sizeof(b), "%s/ra-set.json", th_dir);
	snprintf(file, sizeof(file), "%s/ra-file.json", th_dir);
	sim(a, (const char *[]){"--config", conf, "--read-ahead", "none,always", "--qd", "4", NULL});
	sim(b, (const char *[]){"--config", conf, "--set", "controller.read-ahead=none,always", "--qd",
				"4", NULL});
	sim(file, (const char *[]){"--config", conf, "--qd", "4", NULL}); /* the file's: adaptive */
	json_t *da, *db, *df, *pa = points_of(a, &da), *pb = points_of(b, &db), *pf = points_of(file, &df);
	assert_int_equal(json_array_size(pa), 2);
	for (size_t i = 0; i < 2; i++)
		assert_true(lat_mean(json_array_get(pa, i)) == lat_mean(json_array_get(pb, i)));
	assert_true(lat_mean(json_array_get(pa, 0)) != lat_mean(json_array_get(pf, 0)));
	assert_true(lat_mean(json_array_get(pa, 0)) != lat_mean(json_array_get(pa, 1)));
	json_decref(da);
	json_decref(db);
	json_decref(df);
}

/* --controller-overhead and --battery replace a subsystem file's controllers' own, as --cache
 * and --read-ahead do (they were ignored with --config before). */
static void test_config_controller_options(void **state)
{
	(void)state;
	char conf[300], file[300], slow[300], nobat[300];
	th_data_path(conf, sizeof(conf), "../../examples/subsystem.conf"); /* 50us, write-back, battery */
	snprintf(file, sizeof(file), "%s/ctl-file.json", th_dir);
	snprintf(slow, sizeof(slow), "%s/ctl-slow.json", th_dir);
	snprintf(nobat, sizeof(nobat), "%s/ctl-nobat.json", th_dir);
	/* sequential 64 KiB writes (sim()'s pattern with --read 0) */
	sim(file, (const char *[]){"--config", conf, "--read", "0", "--qd", "4", NULL});
	sim(slow, (const char *[]){"--config", conf, "--controller-overhead", "2ms", "--read", "0",
				   "--qd", "4", NULL});
	sim(nobat, (const char *[]){"--config", conf, "--battery", "no", "--read", "0", "--qd", "4",
				    NULL});
	json_t *df, *ds, *dn;
	double f = lat_mean(json_array_get(points_of(file, &df), 0));
	double s = lat_mean(json_array_get(points_of(slow, &ds), 0));
	double n = lat_mean(json_array_get(points_of(nobat, &dn), 0));
	/* 2 ms a command instead of 50 us: every write waits for it */
	assert_true(s > f + 1900);
	/* without a battery write-back acts as write-through: writes wait for the drives */
	assert_true(n > 2 * f);
	json_decref(df);
	json_decref(ds);
	json_decref(dn);
}

/* A replay on a simulated path takes --set too. */
static void test_replay_takes_set(void **state)
{
	(void)state;
	char trace[300];
	th_data_path(trace, sizeof(trace), "mqsim/tpcc-excerpt.trace");
	struct th_out o = th_iolab("replay", trace, "--format", "mqsim", "--model", "atlas10k", "--wrap",
				   "--set", "drive.rpm=7200,15000", "--qd", "4", "--no-db", "--quiet",
				   "--csv", "-", NULL);
	assert_int_equal(o.status, 0);
	assert_int_equal(th_count_lines(o.out), 3);
	assert_non_null(strstr(o.out, ",drive.rpm\n"));
	assert_non_null(strstr(o.out, ",15000\n"));
	th_out_free(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_drive_and_read_ahead_sweep),
		cmocka_unit_test(test_drive_rpm_sweep),
		cmocka_unit_test(test_shorthand_lists_and_columns),
		cmocka_unit_test(test_job_file_keys),
		cmocka_unit_test(test_compare_matches_settings),
		cmocka_unit_test(test_config_read_ahead),
		cmocka_unit_test(test_config_controller_options),
		cmocka_unit_test(test_replay_takes_set),
	};
	return cmocka_run_group_tests(tests, th_dir_setup, th_dir_teardown);
}
