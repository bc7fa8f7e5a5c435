/* test_sim_kinds.c: the registry of part kinds (sim_kinds.h) and the `fixed` device.
 *
 * Every kind's entry is whole (ops that pass the component check, a key table with unique keys,
 * references to kinds that exist, device hooks for device kinds); the key table of
 * docs/subsystem-format.md is the one the registry writes; a new kind needs two files (its own
 * and the registry's line); `iolab sim kinds` lists each kind. A fixed device serves QD 1 4 KiB
 * reads at 1 / (time + 4096 / rate), on a slower channel at the channel's rate, and stands in
 * for drives in volumes (large paths reported whole: test_sim_large.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "helpers.h"
#include "iolab/sim_kinds.h"
#include "iolab/sim_system.h"
#include "iolab/subsys.h"

static void test_registry_entries_are_whole(void **state)
{
	(void)state;
	unsigned n = 0;
	for (const struct iolab_kind *k; (k = iolab_kind_at(n)); n++) {
		struct iolab_err err = {0};
		assert_non_null(k->name);
		assert_non_null(k->about);
		assert_ptr_equal(iolab_kind_find(k->name), k);
		assert_true(k->nparams > 0 && k->nparams <= IOLAB_KIND_KEYS_MAX);
		assert_int_equal(iolab_comp_check(k->ops, &err), 0);
		assert_true((k->cls == IOLAB_KC_DEVICE) == (k->device != NULL));
		if (k->device) {
			assert_non_null(k->device->geometry);
			assert_non_null(k->device->build);
			assert_non_null(k->ops->breakdown);
		}
		for (unsigned j = 0; j < k->nparams; j++) {
			const struct iolab_param *p = &k->params[j];
			assert_ptr_equal(iolab_kind_param(k, p->key), p); /* unique */
			assert_non_null(p->doc);
			assert_non_null(p->def_doc);
			if (p->type == IOLAB_PT_REF) {
				assert_non_null(iolab_kind_find(p->ref));
				assert_true(p->fixed); /* a reference cannot vary */
			}
			if (p->type == IOLAB_PT_CHOICE)
				assert_non_null(p->choice);
			assert_true(p->min <= p->max);
		}
	}
	assert_int_equal(n, 8);
}

static void test_doc_table_is_the_registry(void **state)
{
	(void)state;
	char path[512], *table = NULL;
	size_t len = 0;
	const char *src = getenv("IOLAB_SRC");
	snprintf(path, sizeof(path), "%s/docs/subsystem-format.md", src ? src : "..");
	char *doc = th_read_file(path, NULL);
	FILE *f = open_memstream(&table, &len);
	assert_non_null(f);
	iolab_kinds_write_markdown(f);
	fclose(f);
	if (!strstr(doc, table))
		fail_msg("docs/subsystem-format.md's key table is not the registry's; it is:\n%s", table);
	free(table);
	free(doc);
}

/* Only the kind's own file and the registry's list name a kind's symbols. */
static void test_new_kind_is_two_files(void **state)
{
	(void)state;
	const char *src = getenv("IOLAB_SRC");
	int rc = th_sh("cd '%s' && got=$(grep -rlE 'iolab_(comp|kind)_fixed' src include | sort | "
		       "tr '\\n' ' ') && test \"$got\" = 'src/sim/core/components.c "
		       "src/sim/devices/dev_fixed.c ' || { echo \"files naming the fixed kind: $got\"; "
		       "exit 1; }", src ? src : "..");
	assert_int_equal(rc, 0);
}

static void test_kinds_command(void **state)
{
	(void)state;
	struct th_out o = th_iolab("sim", "kinds", "fixed", NULL);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "fixed NAME: "));
	assert_non_null(strstr(o.out, "  rate             rate          yes yes   1 to 1t/s"));
	assert_non_null(strstr(o.out, "  channel          a channel         no "));
	th_out_free(&o);
	o = th_iolab("sim", "kinds", NULL);
	assert_int_equal(o.status, 0);
	for (unsigned i = 0; iolab_kind_at(i); i++) {
		char head[64];
		snprintf(head, sizeof(head), "%s%s: ", iolab_kind_at(i)->name,
			 iolab_kind_at(i)->cls == IOLAB_KC_HOST ? "" : " NAME");
		assert_non_null(strstr(o.out, head));
	}
	th_out_free(&o);
	/* The table's breakdown has the fixed device's columns. */
	char conf[300];
	snprintf(conf, sizeof(conf), "%s/table.conf", th_dir);
	th_write_text(conf, "fixed f1 size=1g time=100us rate=200M\nvolume v level=none drives=f1\n");
	o = th_iolab("sim", "--config", conf, "--qd", "1", "--time", "1", "--no-db", "--quiet", NULL);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "\n  #      host     queue   service   hits%\n  1    0.0 us    0.0 us "
				     " 119.5 us     0.0\n"));
	th_out_free(&o);
	o = th_iolab("sim", "kinds", "disk", NULL);
	TH_EXPECT_EXIT(o, 2, "sim kinds: 'disk' is not a kind (host, bus, controller, channel, drive, "
		       "volume, fixed, ssd)");
}

/* Runs `sim --config` of text at QD qd (random reads of bs, 2 s) and returns point 1's JSON. */
static json_t *run_config(const char *name, const char *text, const char *bs, const char *qd)
{
	char conf[300], json[300];
	snprintf(conf, sizeof(conf), "%s/%s.conf", th_dir, name);
	snprintf(json, sizeof(json), "%s/%s.json", th_dir, name);
	th_write_text(conf, text);
	struct th_out o = th_iolab("sim", "--config", conf, "--pattern", "rand-read", "--bs", bs,
				   "--qd", qd, "--time", "2", "--json", json, "--no-db", "--quiet", NULL);
	if (o.status)
		fail_msg("sim --config %s: %s", name, o.err);
	th_out_free(&o);
	json_t *j = th_load_json(json);
	assert_non_null(j);
	json_t *p = json_incref(json_array_get(json_object_get(j, "points"), 0));
	json_decref(j);
	return p;
}

static double num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	assert_true(json_is_number(v));
	return json_number_value(v);
}

/* QD 1 4 KiB reads on a device of time s a command and rate bytes/s: one at a time. */
static double want_iops(double time, double rate)
{
	return 1 / (time + 4096.0 / rate);
}

static void test_fixed_device_iops(void **state)
{
	(void)state;
	/* 100 us a command, 200 MiB/s: 100 + 4096 / 209715200 s = 119.53 us a read. */
	json_t *p = run_config("fixed", "fixed f1 size=10g time=100us rate=200M\n"
				 "volume v level=none drives=f1\n", "4k", "1");
	double want = want_iops(100e-6, 200.0 * 1048576);
	assert_float_equal(num(p, "iops"), want, want * 1e-3);
	json_t *f1 = json_array_get(json_object_get(p, "components"), 1);
	assert_string_equal(json_string_value(json_object_get(f1, "kind")), "fixed");
	assert_float_equal(num(f1, "utilization"), 1.0, 1e-6);
	/* Its breakdown: the phases it names, after the host's. */
	json_t *bd = json_object_get(p, "breakdown_us");
	const char *keys[] = {"host", "queue", "service", "read_hit_pct", "read_partial_hit_pct"};
	void *it = json_object_iter(bd);
	for (unsigned k = 0; k < 5; k++, it = json_object_iter_next(bd, it))
		assert_string_equal(json_object_iter_key(it), keys[k]);
	assert_null(it);
	assert_float_equal(num(bd, "service"), 1e6 / want_iops(100e-6, 200.0 * 1048576), 0.01);
	json_decref(p);
	/* On a 10 MiB/s channel the data moves at the channel's rate. */
	p = run_config("fixed-chan", "channel c type=10M\n"
			 "fixed f1 size=10g time=100us rate=200M channel=c\n"
			 "volume v level=none drives=f1\n", "4k", "1");
	want = want_iops(100e-6, 10.0 * 1048576);
	assert_float_equal(num(p, "iops"), want, want * 1e-3);
	json_decref(p);
}

/* Four fixed devices striped at 4 KiB: a 16 KiB read is a 4 KiB piece on each, served side by
 * side, so at QD 1 the volume serves 16 KiB reads at the rate one device serves 4 KiB ones. */
static void test_volume_over_fixed_devices(void **state)
{
	(void)state;
	json_t *p = run_config("fixed-raid0", "fixed f1 size=1g time=1ms rate=100M\n"
				 "fixed f2 size=1g time=1ms rate=100M\n"
				 "fixed f3 size=1g time=1ms rate=100M\n"
				 "fixed f4 size=1g time=1ms rate=100M\n"
				 "volume v level=raid0 stripe=4k drives=f1,f2,f3,f4\n", "16k", "1");
	double one = 1 / (1e-3 + 4096.0 / (100.0 * 1048576));
	assert_float_equal(num(p, "iops"), one, one * 1e-3);
	json_t *c = json_object_get(p, "components");
	assert_int_equal(json_array_size(c), 6); /* host, volume, four devices */
	for (unsigned i = 2; i < 6; i++)
		assert_float_equal(num(json_array_get(c, i), "utilization"), 1.0, 1e-3);
	json_decref(p);
}

static void test_fixed_refusals(void **state)
{
	(void)state;
	char conf[300];
	snprintf(conf, sizeof(conf), "%s/bad.conf", th_dir);
	th_write_text(conf, "fixed f1 time=1ms rate=100M\nvolume v level=none drives=f1\n");
	struct th_out o = th_iolab("sim", "--config", conf, "--qd", "1", "--time", "1", "--no-db", NULL);
	TH_EXPECT_EXIT(o, 2, "bad.conf:1: field 'size': missing: a fixed needs size=");
	th_write_text(conf, "fixed f1 size=1g rate=100M rpm=7200\n");
	o = th_iolab("sim", "--config", conf, "--qd", "1", "--time", "1", "--no-db", NULL);
	TH_EXPECT_EXIT(o, 2, "bad.conf:1: field 'rpm': not a key of a fixed (channel, size, time, rate, "
		       "queue)");
	th_write_text(conf, "channel c type=ata100\nfixed f1 size=1g rate=100M channel=c\n"
		      "volume v level=none drives=f1\n");
	o = th_iolab("sim", "--config", conf, "--qd", "1", "--time", "1", "--no-db", NULL);
	TH_EXPECT_EXIT(o, 2, "bad.conf:2: field 'channel': a fixed device does not hold a channel");
		th_write_text(conf, "fixed f1 size=1g rate=100M queue=0\n");
	o = th_iolab("sim", "--config", conf, "--qd", "1", "--time", "1", "--no-db", NULL);
	TH_EXPECT_EXIT(o, 2, "bad.conf:1: field 'queue'");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry_entries_are_whole),
		cmocka_unit_test(test_doc_table_is_the_registry),
		cmocka_unit_test(test_new_kind_is_two_files),
		cmocka_unit_test(test_kinds_command),
		cmocka_unit_test(test_fixed_device_iops),
		cmocka_unit_test(test_volume_over_fixed_devices),
		cmocka_unit_test(test_fixed_refusals),
	};
	return cmocka_run_group_tests(tests, th_dir_setup, th_dir_teardown);
}
