/* test_sim_config.c: `iolab sim --config FILE` and the path shorthands through the command line.
 * The example subsystem file (examples/subsystem.conf, docs/subsystem-format.md) runs
 * and its report names every part of it; a controller with two volumes stripes them; closed-loop
 * clients with think time give a throughput that rises with the clients and flattens; open-loop
 * rates below capacity are met; bad files and bad shorthands are refused in one line, exit 2. */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "helpers.h"

static json_t *run_json(json_t **root, const char *tag, const char *opts)
{
	char json[PATH_MAX];
	snprintf(json, sizeof(json), "%s/%s.json", th_dir, tag);
	assert_int_equal(th_sh("$B sim --quiet --json %s %s >/dev/null", json, opts), 0);
	*root = th_load_json(json);
	assert_non_null(*root);
	return json_object_get(*root, "points");
}

static json_t *comp(json_t *point, const char *name)
{
	json_t *c = json_object_get(point, "components");
	for (size_t i = 0; i < json_array_size(c); i++)
		if (!strcmp(json_string_value(json_object_get(json_array_get(c, i), "name")), name))
			return json_array_get(c, i);
	return NULL;
}

static const char *kind_of(json_t *point, const char *name)
{
	json_t *c = comp(point, name);
	return c ? json_string_value(json_object_get(c, "kind")) : "(missing)";
}

/* The example file: two buses, a controller carrying two RAID 5 volumes (striped by it), two
 * channels, nine drives (one spare, unused), a rebuild of vb. Every part is reported with its
 * kind, the buses and channels with their rated rates, the spare does nothing, and the rebuild
 * is reported. */
static void test_example_file(void **state)
{
	(void)state;
	char conf[PATH_MAX], opts[PATH_MAX + 128];
	th_data_path(conf, sizeof(conf), "../../examples/subsystem.conf");
	snprintf(opts, sizeof(opts), "--config %s --pattern file-server --qd 16 --time 20", conf);
	json_t *root, *p = json_array_get(run_json(&root, "example", opts), 0);
	assert_string_equal(kind_of(p, "host"), "host");
	assert_string_equal(kind_of(p, "pci0"), "bus");
	assert_string_equal(kind_of(p, "pci1"), "bus");
	assert_string_equal(kind_of(p, "raid0"), "controller");
	assert_string_equal(kind_of(p, "raid0-stripe"), "volume");
	assert_string_equal(kind_of(p, "va"), "volume");
	assert_string_equal(kind_of(p, "vb"), "volume");
	assert_string_equal(kind_of(p, "scsi0"), "channel");
	assert_string_equal(kind_of(p, "b4"), "drive");
	assert_true(json_number_value(json_object_get(comp(p, "pci0"), "rated_mb_s")) == 133.0);
	assert_true(json_number_value(json_object_get(comp(p, "scsi1"), "rated_mb_s")) == 160.0);
	assert_int_equal(json_integer_value(json_object_get(comp(p, "spare"), "ios")), 0);
	/* Every host request crosses both buses (the controller sits behind the bridge). */
	json_int_t host = json_integer_value(json_object_get(comp(p, "host"), "ios"));
	assert_true(json_integer_value(json_object_get(comp(p, "pci0"), "ios")) >= host);
	assert_true(json_integer_value(json_object_get(comp(p, "pci1"), "ios")) >= host);
	/* Both volumes get work: the controller stripes over them. */
	assert_true(json_integer_value(json_object_get(comp(p, "va"), "ios")) > host / 4);
	assert_true(json_integer_value(json_object_get(comp(p, "vb"), "ios")) > host / 4);
	json_t *rb = json_object_get(p, "rebuild");
	assert_true(json_is_object(rb));
	assert_int_equal(json_integer_value(json_object_get(rb, "rate_bytes_s")), 10 * 1024 * 1024);
	assert_string_equal(json_string_value(json_object_get(p, "host_scheduler")), "cscan");
	json_decref(root);
}

/* subsystem.conf at the top of the repository (the documented example): clients with a 10 ms
 * think time. Throughput rises with the clients while the drives have idle time, and from 32 to
 * 64 clients it gains far less than from 4 to 8 (the drives saturate); latency rises. */
static void test_clients_curve(void **state)
{
	(void)state;
	char conf[PATH_MAX], opts[PATH_MAX + 128];
	th_data_path(conf, sizeof(conf), "../../subsystem.conf");
	snprintf(opts, sizeof(opts), "--config %s --clients 4,8,32,64 --think 10ms "
		 "--pattern file-server --time 30", conf);
	json_t *root, *pts = run_json(&root, "clients", opts);
	double iops[4], lat[4];
	for (size_t i = 0; i < 4; i++) {
		json_t *p = json_array_get(pts, i);
		iops[i] = json_number_value(json_object_get(p, "iops"));
		lat[i] = json_number_value(json_object_get(json_object_get(p, "lat_us"), "mean"));
	}
	print_message("subsystem.conf, file-server, think 10 ms: 4/8/32/64 clients %.0f %.0f %.0f "
		      "%.0f IOPS, mean %.0f %.0f %.0f %.0f us\n", iops[0], iops[1], iops[2], iops[3],
		      lat[0], lat[1], lat[2], lat[3]);
	assert_true(iops[1] > 1.7 * iops[0]);
	assert_true(iops[3] < 1.3 * iops[2]);
	assert_true(lat[3] > 2 * lat[1]);
	json_decref(root);
}

/* Open loop on the same subsystem: rates well below its capacity are met. */
static void test_rates_met(void **state)
{
	(void)state;
	char conf[PATH_MAX], opts[PATH_MAX + 128];
	th_data_path(conf, sizeof(conf), "../../subsystem.conf");
	snprintf(opts, sizeof(opts), "--config %s --rate 50,200 --pattern database --time 30", conf);
	json_t *root, *pts = run_json(&root, "rate", opts);
	for (size_t i = 0; i < 2; i++) {
		json_t *p = json_array_get(pts, i);
		double want = json_number_value(json_object_get(p, "target_iops"));
		double got = json_number_value(json_object_get(p, "iops"));
		assert_true(got > 0.97 * want && got < 1.03 * want);
	}
	json_decref(root);
}

/* --controllers 2 over 8 drives: two controllers, each with a RAID 5 of 4, the host striping. */
static void test_two_controllers(void **state)
{
	(void)state;
	json_t *root, *p = json_array_get(run_json(&root, "twoctl", "--array raid5:8 --drive atlas10k "
		"--controllers 2 --channel ultra160 --channels 4 --pattern rand-read --bs 4k --qd 32 "
		"--time 10"), 0);
	assert_string_equal(kind_of(p, "controller1"), "controller");
	assert_string_equal(kind_of(p, "controller2"), "controller");
	assert_string_equal(kind_of(p, "volume2"), "volume");
	assert_string_equal(kind_of(p, "host-stripe"), "volume");
	assert_string_equal(kind_of(p, "channel4"), "channel");
	assert_true(json_integer_value(json_object_get(comp(p, "drive8"), "ios")) > 0);
	json_decref(root);
}

/* Bad input: one line on stderr naming the file and line, or the option, and exit 2. */
static void test_refusals(void **state)
{
	(void)state;
	char bad[PATH_MAX];
	snprintf(bad, sizeof(bad), "%s/bad.conf", th_dir);
	FILE *f = fopen(bad, "w");
	assert_non_null(f);
	fputs("bus pci0 type=pci32-33\nvolume v level=raid5 drives=d1,d2\ndrive d1 model=atlas10k\n"
	      "drive d2 model=atlas10k\n", f);
	fclose(f);
	struct th_out o = th_iolab("sim", "--config", bad, "--time", "1", NULL);
	TH_EXPECT_EXIT(o, 2, "bad.conf:2:", "raid5");
	char good[PATH_MAX];
	th_data_path(good, sizeof(good), "../../examples/subsystem.conf");
	o = th_iolab("sim", "--config", good, "--array", "raid0:2", "--time", "1", NULL);
	TH_EXPECT_EXIT(o, 2, "--array", "subsystem.conf");
	o = th_iolab("sim", "--array", "raid0:4", "--drive", "atlas10k", "--channel", "warp", NULL);
	TH_EXPECT_EXIT(o, 2, "--channel", "warp");
	o = th_iolab("sim", "--array", "raid5:8", "--drive", "atlas10k", "--controllers", "3", NULL);
	TH_EXPECT_EXIT(o, 2, "--controllers 3");
	/* Parallel ATA takes two drives on a channel. */
	o = th_iolab("sim", "--array", "raid0:3", "--drive", "atlas10k", "--channel", "ata100",
		     "--time", "1", NULL);
	TH_EXPECT_EXIT(o, 2, "ata100", "at most 2");
	o = th_iolab("sim", "--array", "raid0:2", "--drive", "atlas10k", "--controllers", "2",
		     "--channel", "ultra160", "--channels", "3", "--time", "1", NULL);
	TH_EXPECT_EXIT(o, 2, "--channels 3");
	o = th_iolab("sim", "--model", "atlas10k", "--write-policy", "write-sideways", NULL);
	TH_EXPECT_EXIT(o, 2, "--write-policy", "write-sideways");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_example_file),
		cmocka_unit_test(test_clients_curve),
		cmocka_unit_test(test_rates_met),
		cmocka_unit_test(test_two_controllers),
		cmocka_unit_test(test_refusals),
	};
	return cmocka_run_group_tests(tests, th_dir_setup, th_dir_teardown);
}
