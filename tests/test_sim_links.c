/* test_sim_links.c: channels and buses of a simulated path (comp_link.c, comp_crossing.c,
 * comp_drive.c's data phase) with known answers, through the command line. Drives behind one
 * channel deliver at most the channel's rate and the channel is the bottleneck; a 32-bit 33 MHz
 * PCI bus (rated 133 MB/s) caps sequential reads near 100 MB/s however many drives are behind
 * it; parallel ATA master and slave do not overlap commands, SCSI drives on one channel do; a
 * drive-count sweep rises for random reads until the channel saturates. */
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

/* Runs `iolab sim` with the NULL-terminated options plus --quiet --json and returns its
 * points (the caller decrefs *root). */
static json_t *run_sim(json_t **root, const char *tag, const char *const *opt)
{
	char json[PATH_MAX];
	snprintf(json, sizeof(json), "%s/%s.json", th_dir, tag);
	char cmd[4096];
	int n = snprintf(cmd, sizeof(cmd), "$B sim --quiet --json %s", json);
	for (unsigned i = 0; opt[i]; i++)
		n += snprintf(cmd + n, sizeof(cmd) - (size_t)n, " %s", opt[i]);
	assert_int_equal(th_sh("%s >/dev/null", cmd), 0);
	*root = th_load_json(json);
	assert_non_null(*root);
	return json_object_get(*root, "points");
}

static double num(json_t *o, const char *k)
{
	return json_number_value(json_object_get(o, k));
}

/* The component of a point by name. */
static json_t *comp(json_t *point, const char *name)
{
	json_t *c = json_object_get(point, "components");
	for (size_t i = 0; i < json_array_size(c); i++)
		if (!strcmp(json_string_value(json_object_get(json_array_get(c, i), "name")), name))
			return json_array_get(c, i);
	fail_msg("no component %s", name);
	return NULL;
}

/* Six Barracudas (media about 10-11 MB/s each, about 60 MB/s together) reading sequentially
 * behind one Wide Ultra SCSI channel, rated 40 MB/s: the volume delivers no more than that,
 * the channel is busy nearly all the time, and it is named the bottleneck. */
static void test_channel_ceiling(void **state)
{
	(void)state;
	json_t *root;
	json_t *p = json_array_get(run_sim(&root, "chan", (const char *[]){"--array", "raid0:6",
		"--drive", "barracuda", "--channel", "wide-ultra-scsi", "--pattern", "seq-read",
		"--bs", "64k", "--qd", "16", "--time", "10", NULL}), 0);
	double mbs = num(p, "mb_per_s");
	json_t *ch = comp(p, "channel");
	print_message("6 barracuda on wide-ultra-scsi, seq-read 64k QD 16: %.1f MB/s, channel %.1f%% "
		      "busy (rated %.0f MB/s)\n", mbs, 100 * num(ch, "utilization"), num(ch, "rated_mb_s"));
	assert_true(mbs <= 40.0 && mbs > 25.0);
	assert_true(num(ch, "utilization") > 0.95);
	assert_true(num(ch, "rated_mb_s") == 40.0);
	assert_string_equal(json_string_value(json_object_get(p, "bottleneck")), "channel");
	assert_string_equal(json_string_value(json_object_get(ch, "kind")), "channel");
	json_decref(root);
}

/* Sequential reads of 8 and of 16 Atlas 10K drives on four Ultra160 channels behind one 32-bit
 * 33 MHz PCI bus: the channels could carry far more, the bus delivers about 100 MB/s of its
 * rated 133 in both cases, and the bus is the bottleneck. */
static void test_pci_ceiling(void **state)
{
	(void)state;
	json_t *root;
	json_t *pts = run_sim(&root, "pci", (const char *[]){"--array", "raid0:8,16", "--drive",
		"atlas10k", "--channel", "ultra160", "--channels", "4", "--bus", "pci32-33",
		"--pattern", "seq-read", "--bs", "64k", "--qd", "64", "--time", "5", NULL});
	for (size_t i = 0; i < 2; i++) {
		json_t *p = json_array_get(pts, i);
		double mbs = num(p, "mb_per_s");
		print_message("%s drives behind pci32-33: %.1f MB/s\n", i ? "16" : "8", mbs);
		assert_true(mbs > 90 && mbs <= 105);
		assert_string_equal(json_string_value(json_object_get(p, "bottleneck")), "bus");
		assert_true(num(comp(p, "bus"), "rated_mb_s") == 133.0);
	}
	json_decref(root);
}

/* Random reads on two drives of one channel: on parallel ATA the channel is held for a whole
 * command, so the pair does about what one drive does; on SCSI the drives disconnect while
 * they seek and the pair does about twice one drive. */
static void test_ata_versus_scsi(void **state)
{
	(void)state;
	double iops[3];
	const char *ch[3] = {NULL, "ata100", "wide-ultra-scsi"};
	for (int i = 0; i < 3; i++) {
		json_t *root;
		json_t *p = json_array_get(run_sim(&root, ch[i] ? ch[i] : "one", (const char *[]){
			"--array", i ? "raid0:2" : "raid0:1", "--drive", "atlas10k", "--channel",
			i ? ch[i] : "ultra160", "--pattern", "rand-read", "--bs", "4k", "--qd", "16",
			"--time", "20", NULL}), 0);
		iops[i] = num(p, "iops");
		json_decref(root);
	}
	print_message("atlas10k rand-read 4k QD 16: one drive %.1f, two on ata100 %.1f, two on "
		      "wide-ultra-scsi %.1f IOPS\n", iops[0], iops[1], iops[2]);
	assert_true(iops[1] < 1.15 * iops[0]);
	assert_true(iops[2] > 1.8 * iops[0]);
}

/* A drive-count sweep of random 64 KiB reads on one Fast SCSI channel (10 MB/s): throughput
 * rises with the drives until the channel saturates, then stays flat below its rate. */
static void test_count_sweep_saturates(void **state)
{
	(void)state;
	json_t *root;
	json_t *pts = run_sim(&root, "sweep", (const char *[]){"--array", "raid0:1,2,4,8", "--drive",
		"atlas10k", "--channel", "fast-scsi", "--pattern", "rand-read", "--bs", "64k",
		"--qd", "32", "--time", "20", NULL});
	double m[4];
	for (size_t i = 0; i < 4; i++)
		m[i] = num(json_array_get(pts, i), "mb_per_s");
	print_message("rand-read 64k on fast-scsi, 1/2/4/8 drives: %.2f %.2f %.2f %.2f MB/s\n", m[0],
		      m[1], m[2], m[3]);
	assert_true(m[1] > 1.5 * m[0]);
	assert_true(m[3] <= 10.0 && m[3] < 1.1 * m[2]);
	assert_string_equal(json_string_value(json_object_get(json_array_get(pts, 3), "bottleneck")),
			    "channel");
	json_decref(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_channel_ceiling),
		cmocka_unit_test(test_pci_ceiling),
		cmocka_unit_test(test_ata_versus_scsi),
		cmocka_unit_test(test_count_sweep_saturates),
	};
	return cmocka_run_group_tests(tests, th_dir_setup, th_dir_teardown);
}
