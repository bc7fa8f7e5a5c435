/* test_subsys_set.c: iolab_subsys_set, one key of a subsystem set from outside. On the example
 * of docs/subsystem-format.md (examples/subsystem.conf): a part by name, every part
 * of a kind, the host, a fixed device's key; a drive field of the model file format in a copy
 * of the drive's models (derived again; the other drives keep theirs; the copy of an unchanged
 * value writes out the same model); and each refusal as one line, the description unchanged:
 * an unknown part or key, a value the key does not take, a value outside its range, a key that
 * names other parts or shapes the path, a model field out of range or of the layout, a setting
 * the whole description's checks refuse. Messages start "PART.KEY: ". */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helpers.h"
#include "iolab/subsys.h"

static struct iolab_subsys sub;

static int load_example(void **state)
{
	(void)state;
	char path[512];
	struct iolab_err err = {{0}};
	th_data_path(path, sizeof(path), "../../examples/subsystem.conf");
	if (iolab_subsys_load(path, &sub, &err)) {
		print_error("%s\n", err.msg);
		return -1;
	}
	return 0;
}

static int free_example(void **state)
{
	(void)state;
	iolab_subsys_free(&sub);
	return 0;
}

static void set_ok(const char *part, const char *key, const char *value)
{
	struct iolab_err err = {{0}};
	if (iolab_subsys_set(&sub, part, key, value, &err))
		fail_msg("set %s.%s=%s refused: %s", part, key, value, err.msg);
}

/* The set is refused with a message holding want, and the description is as it was. */
static void set_refused(const char *part, const char *key, const char *value, const char *want)
{
	struct iolab_err err = {{0}};
	struct iolab_subsys *before = malloc(sizeof(*before));
	assert_non_null(before);
	memcpy(before, &sub, sizeof(sub));
	assert_int_equal(iolab_subsys_set(&sub, part, key, value, &err), -EINVAL);
	if (!strstr(err.msg, want) || strchr(err.msg, '\n'))
		fail_msg("set %s.%s=%s: got '%s', want one line holding '%s'", part, key, value, err.msg,
			 want);
	assert_memory_equal(before, &sub, sizeof(sub));
	free(before);
}

static void test_part_kind_and_host(void **state)
{
	(void)state;
	set_ok("raid0", "cache", "128M");
	assert_int_equal(sub.ctl[0].p.cache_bytes, 128u << 20);
	set_ok("raid0", "read-ahead", "always");
	assert_int_equal(sub.ctl[0].p.read_ahead, IOLAB_RA_ALWAYS);
	set_ok("drive", "write-cache", "off");
	for (unsigned i = 0; i < sub.ndrive; i++)
		assert_int_equal(sub.drive[i].write_cache, 0);
	set_ok("host", "overhead", "5us");
	assert_int_equal(sub.host.overhead_ns, 5000);
	set_ok("channel", "type", "ultra320");
	assert_string_equal(sub.chan[1].type.name, "ultra320");
	set_ok("vb", "stripe", "128k");
	assert_int_equal(sub.vol[1].stripe_bytes, 128u << 10);
	assert_int_equal(sub.vol[0].stripe_bytes, 64u << 10);
}

static void test_model_field_in_a_copy(void **state)
{
	(void)state;
	unsigned n = sub.nmodel, m0 = sub.drive[0].model;
	double rpm = sub.model[m0].rpm;
	set_ok("a1", "rpm", "15000");
	assert_int_equal(sub.nmodel, n + 1);
	const struct iolab_disk_model *m = &sub.model[sub.drive[0].model];
	assert_float_equal(m->rpm, 15000, 0);
	assert_int_equal(m->rev_ns, 4000000); /* derived again: 60 s / 15000 */
	assert_float_equal(sub.model[sub.drive[1].model].rpm, rpm, 0); /* a2 keeps its own */
	/* The same value again writes out the same model: the copy loses nothing. */
	char same[40];
	snprintf(same, sizeof(same), "%.17g", rpm);
	set_ok("a2", "rpm", same);
	char *a = NULL, *b = NULL;
	size_t la = 0, lb = 0;
	FILE *fa = open_memstream(&a, &la), *fb = open_memstream(&b, &lb);
	iolab_model_write(&sub.model[m0], fa);
	iolab_model_write(&sub.model[sub.drive[1].model], fb);
	fclose(fa);
	fclose(fb);
	assert_string_equal(a, b);
	free(a);
	free(b);
	/* A model set on every drive is opened once. */
	unsigned before = sub.nmodel;
	set_ok("drive", "model", "atlas10k");
	assert_int_equal(sub.nmodel, before + 1);
	for (unsigned i = 0; i < sub.ndrive; i++)
		assert_int_equal(sub.drive[i].model, before);
	set_ok("drive", "cache_segments", "4");
	for (unsigned i = 0; i < sub.ndrive; i++)
		assert_int_equal(sub.model[sub.drive[i].model].segments, 4);
}

static void test_fixed_device_key(void **state)
{
	(void)state;
	struct iolab_subsys s;
	struct iolab_err err = {{0}};
	assert_int_equal(iolab_subsys_parse("f.conf", "fixed f1 size=1g time=1ms rate=100M\n"
					    "fixed f2 size=1g time=1ms rate=100M\n"
					    "volume v level=raid1 drives=f1,f2\n", &s, &err), 0);
	assert_int_equal(iolab_subsys_set(&s, "fixed", "time", "50us", &err), 0);
	assert_int_equal(s.drive[0].param[1], 50000);
	assert_int_equal(s.drive[1].param[1], 50000);
	assert_int_equal(iolab_subsys_set(&s, "f1", "queue", "2000", &err), -EINVAL);
	assert_non_null(strstr(err.msg, "f1.queue: field 'queue': "));
	assert_non_null(strstr(err.msg, "2000"));
	assert_int_equal(iolab_subsys_set(&s, "f1", "rpm", "7200", &err), -EINVAL);
	assert_string_equal(err.msg, "f1.rpm: a fixed has no key 'rpm' (channel, size, time, rate, "
			    "queue)");
	iolab_subsys_free(&s);
}

static void test_refusals(void **state)
{
	(void)state;
	set_refused("ctl9", "cache", "1M", "ctl9.cache: no part or kind 'ctl9' in the simulated path "
		    "(kinds: host, bus, controller, channel, drive, volume, fixed, ssd; or a part's name)");
	set_refused("fixed", "time", "1ms", "fixed.time: the simulated path has no fixed");
	set_refused("raid0", "size", "1M", "raid0.size: a controller has no key 'size' (bus, overhead, "
		    "cache, write-policy, battery, read-ahead, read-ahead-size)");
	set_refused("host", "cache", "1M", "host.cache: a host has no key 'cache' (scheduler, overhead, "
		    "stripe)");
	set_refused("a1", "spin", "1", "a1.spin: a drive has no key 'spin' (model, channel, "
		    "write-cache, or a drive field of its model: docs/model-format.md)");
	set_refused("raid0", "cache", "6x", "raid0.cache: field 'cache': ");
	set_refused("host", "stripe", "2g", "host.stripe: field 'stripe': '2g' is outside 512 to 1g");
	set_refused("a1", "channel", "scsi1", "a1.channel: a drive's 'channel' names other parts or "
		    "shapes the path: it cannot be set per point");
	set_refused("va", "drives", "a1,a2,a3", "va.drives: a volume's 'drives' names other parts or "
		    "shapes the path");
	set_refused("volume", "level", "raid0", "volume.level: a volume's 'level' names other parts or "
		    "shapes the path");
	set_refused("a1", "rpm", "0", "a1.rpm: model ");
	set_refused("drive", "rpm", "99", "drive.rpm: drive 'a1': model cheetah9LP: field 'rpm': '99' is "
		    "out of range");
	set_refused("drive", "cylinders", "5", "drive.cylinders: the drive's layout cannot change");
	set_refused("raid0", "cache", "0", "raid0.cache: field 'write-policy': write-back needs a cache "
		    "(cache=SIZE)");
	/* five drives on scsi1: a SATA link takes one (the whole description's check) */
	set_refused("scsi1", "type", "sata1", "scsi1.type: drive 'b2': field 'channel': channel 'scsi1' "
		    "(sata1) takes at most 1 drives");
	set_refused("a1", "model", "no-such-model", "a1.model: field 'model': unknown model "
		    "'no-such-model'");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_part_kind_and_host, load_example, free_example),
		cmocka_unit_test_setup_teardown(test_model_field_in_a_copy, load_example, free_example),
		cmocka_unit_test(test_fixed_device_key),
		cmocka_unit_test_setup_teardown(test_refusals, load_example, free_example),
	};
	return cmocka_run_group_tests(tests, th_dir_setup, th_dir_teardown);
}
