/* test_ssd_model.c: SSD models (ssd_model.h; docs/model-format.md, "SSD models"). The built-in
 * nvme-ssd, sata-ssd and mqsim-default load with the figures their comments derive; a model
 * written out reads back the same (field by field), as iolab_subsys_set relies on, and
 * iolab_subsys_set changes an SSD model's field in a subsystem; a minimal file takes the
 * documented defaults; impossible figures and misplaced fields are refused with one line naming
 * the file, line and field; MQSim's ssdconfig.xml (the shipped copy) imports to exactly the
 * figures of mqsim-default, and bad MQSim files are refused naming file, line and field; the
 * CLI: `model import-mqsim ssdconfig.xml` finds the shipped file, refuses to overwrite without
 * --force; `models` marks SSDs; `model show` prints the model file. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "helpers.h"
#include "iolab/disk_model.h"
#include "iolab/mqsim_import.h"
#include "iolab/ssd_model.h"
#include "iolab/subsys.h"

/* Every figure of the two models equal. */
static void same_ssd(const struct iolab_ssd_model *a, const struct iolab_ssd_model *b)
{
	assert_int_equal(a->iface, b->iface);
	assert_int_equal(a->queues, b->queues);
	assert_int_equal(a->queue_entries, b->queue_entries);
	assert_int_equal(a->iface_rate, b->iface_rate);
	assert_int_equal(a->command_ns, b->command_ns);
	assert_int_equal(a->cache_bytes, b->cache_bytes);
	assert_int_equal(a->cache_write_back, b->cache_write_back);
	assert_int_equal(a->cache_page_ns, b->cache_page_ns);
	assert_int_equal(a->read_ahead, b->read_ahead);
	assert_int_equal(a->channels, b->channels);
	assert_int_equal(a->chips_per_channel, b->chips_per_channel);
	assert_int_equal(a->dies_per_chip, b->dies_per_chip);
	assert_int_equal(a->planes_per_die, b->planes_per_die);
	assert_int_equal(a->blocks_per_plane, b->blocks_per_plane);
	assert_int_equal(a->pages_per_block, b->pages_per_block);
	assert_int_equal(a->page_bytes, b->page_bytes);
	assert_int_equal(a->cell, b->cell);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(a->read_ns[i], b->read_ns[i]);
		assert_int_equal(a->program_ns[i], b->program_ns[i]);
	}
	assert_int_equal(a->erase_ns, b->erase_ns);
	assert_int_equal(a->channel_rate, b->channel_rate);
	assert_int_equal(a->channel_command_ns, b->channel_command_ns);
	assert_int_equal(a->multiplane, b->multiplane);
	assert_int_equal(a->suspend_program, b->suspend_program);
	assert_int_equal(a->suspend_erase, b->suspend_erase);
	assert_int_equal(a->suspend_ns, b->suspend_ns);
	assert_true(a->overprovisioning == b->overprovisioning);
	assert_int_equal(a->allocation, b->allocation);
	assert_string_equal(a->allocation_order, b->allocation_order);
	assert_int_equal(a->gc_policy, b->gc_policy);
	assert_int_equal(a->rga_choices, b->rga_choices);
	assert_true(a->gc_threshold == b->gc_threshold);
	assert_true(a->gc_background == b->gc_background);
	assert_int_equal(a->gc_copyback, b->gc_copyback);
	assert_int_equal(a->ideal_mapping, b->ideal_mapping);
	assert_int_equal(a->cmt_bytes, b->cmt_bytes);
	assert_int_equal(a->cmt_entry_bytes, b->cmt_entry_bytes);
}

static void open_ok(const char *name, struct iolab_disk_model *m)
{
	struct iolab_err err = {{0}};
	if (iolab_model_open(name, m, &err))
		fail_msg("%s: %s", name, err.msg);
	assert_non_null(m->ssd);
}

/* The drive record's derived fields follow from the SSD's. */
static void derived_ok(const struct iolab_disk_model *m)
{
	const struct iolab_ssd_model *s = m->ssd;
	assert_int_equal(m->block_bytes, 512);
	assert_int_equal(m->blocks, iolab_ssd_logical_pages(s) * (s->page_bytes / 512));
	assert_int_equal(m->queue_depth, s->queues * s->queue_entries);
}

static void test_builtins(void **state)
{
	(void)state;
	struct iolab_disk_model m;
	/* MQSim's default: 67,108,864 physical pages, (unsigned)(P x 0.93) logical
	 * (Address_Mapping_Unit_Base.cpp:25) */
	open_ok("mqsim-default", &m);
	derived_ok(&m);
	assert_string_equal(m.name, "mqsim-default");
	assert_int_equal(iolab_ssd_physical_pages(m.ssd), 67108864);
	assert_int_equal(iolab_ssd_logical_pages(m.ssd), 62411243);
	assert_int_equal(m.ssd->read_ns[0], 75000);
	assert_int_equal(m.ssd->program_ns[2], 750000);
	assert_int_equal(m.ssd->erase_ns, 3800000);
	assert_int_equal(m.ssd->channel_rate, 333000000);
	assert_int_equal(m.ssd->gc_policy, IOLAB_GC_RGA);
	assert_int_equal(m.ssd->rga_choices, 11);
	assert_int_equal(m.ssd->cmt_entry_bytes, 9);
	assert_int_equal(m.ssd->cache_page_ns, 40986);
	assert_false(m.ssd->ideal_mapping);
	iolab_model_free(&m);

	/* the 970 EVO Plus 1 TB: 1,000,204,886,016 bytes of user capacity or a little more; the
	 * read ceiling of its comments (32 dies / 50 us = 640K IOPS) and the program ceiling
	 * (32 x 2 x 16 KiB / 318 us = 3.3 GB/s) */
	open_ok("nvme-ssd", &m);
	derived_ok(&m);
	assert_true(m.blocks * 512 >= 1000204886016ull && m.blocks * 512 < 1001000000000ull);
	const struct iolab_ssd_model *s = m.ssd;
	unsigned dies = s->channels * s->chips_per_channel * s->dies_per_chip;
	assert_int_equal(dies, 32);
	assert_int_equal(s->page_bytes, 16384);
	assert_true(s->pages_per_block >= 256);
	assert_true(fabs(dies / (s->read_ns[0] / 1e9) - 640000) < 1);
	assert_true(fabs(dies * s->planes_per_die * 16384.0 / (s->program_ns[0] / 1e9) / 1e6 - 3297) < 1);
	assert_int_equal(s->iface, IOLAB_SSD_NVME);
	iolab_model_free(&m);

	/* the 860 EVO 500 GB: a SATA NCQ of 32; a QD 1 4 KiB read (command, tR, channel, link) at
	 * the datasheet's 10K IOPS; the controller's one command at a time at its 98K random
	 * reads; 4 KiB random writes, a page program each, at its 90K */
	open_ok("sata-ssd", &m);
	derived_ok(&m);
	s = m.ssd;
	assert_int_equal(s->iface, IOLAB_SSD_SATA);
	assert_int_equal(m.queue_depth, 32);
	assert_true(m.blocks * 512 >= 500107862016ull && m.blocks * 512 < 500200000000ull);
	double qd1 = (s->command_ns + s->read_ns[0] + s->channel_command_ns) / 1e9 +
		     4096.0 / s->channel_rate + 4096.0 / s->iface_rate;
	assert_true(fabs(1 / qd1 - 10030) < 50);
	assert_true(fabs(1e9 / s->command_ns - 98000) < 100);
	dies = s->channels * s->chips_per_channel * s->dies_per_chip;
	assert_true(fabs(dies / (s->program_ns[0] / 1e9) - 89900) < 100);
	iolab_model_free(&m);
}

/* m written out and read back. */
static void reread(const struct iolab_disk_model *m, struct iolab_disk_model *back)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_int_equal(iolab_model_write(m, f), 0);
	fclose(f);
	struct iolab_err err = {{0}};
	if (iolab_model_parse("back.model", text, back, &err))
		fail_msg("%s\n%s", err.msg, text);
	free(text);
}

static void test_round_trip(void **state)
{
	(void)state;
	static const char *const names[] = {"nvme-ssd", "sata-ssd", "mqsim-default"};
	for (unsigned i = 0; i < 3; i++) {
		struct iolab_disk_model m, back;
		open_ok(names[i], &m);
		reread(&m, &back);
		assert_non_null(back.ssd);
		assert_string_equal(back.name, m.name);
		assert_string_equal(back.about, m.about);
		assert_int_equal(back.blocks, m.blocks);
		assert_int_equal(back.queue_depth, m.queue_depth);
		same_ssd(m.ssd, back.ssd);
		iolab_model_free(&back);
		iolab_model_free(&m);
	}
	/* figures that are written only when they differ, fractions, a dynamic allocation */
	struct iolab_disk_model m, back;
	struct iolab_err err = {{0}};
	static const char text[] =
		"device = ssd\nname = odd\nchannels = 2\nchips_per_channel = 1\ndies_per_chip = 3\n"
		"planes_per_die = 1\nblocks_per_plane = 300\npages_per_block = 256\npage_bytes = 4096\n"
		"cell = tlc\nread_us = 20.5\nread_msb_us = 61.125\nprogram_us = 200\n"
		"program_csb_us = 400.001\nerase_ms = 2.000001\nchannel_mt_s = 200\n"
		"channel_width_bytes = 2\noverprovisioning = 12.5%\ngc_threshold = 1%\n"
		"gc_background = 0.05\nallocation = dynamic\ngc_policy = cost-benefit\n"
		"cache_bytes = 1000000\ninterface = sata\ncommand_us = 0.001\n"
		"ideal_mapping = no\ncmt_bytes = 4096\n";
	assert_int_equal(iolab_model_parse("odd.model", text, &m, &err), 0);
	assert_true(m.ssd->overprovisioning == 0.125);
	assert_true(m.ssd->gc_threshold == 0.01);
	assert_int_equal(m.ssd->read_ns[1], 20500);
	assert_int_equal(m.ssd->read_ns[2], 61125);
	assert_int_equal(m.ssd->program_ns[1], 400001);
	assert_int_equal(m.ssd->program_ns[2], 200000);
	assert_int_equal(m.ssd->erase_ns, 2000001);
	assert_int_equal(m.ssd->channel_rate, 400000000);
	assert_int_equal(m.ssd->allocation, IOLAB_ALLOC_DYNAMIC);
	assert_int_equal(m.ssd->command_ns, 1);
	reread(&m, &back);
	same_ssd(m.ssd, back.ssd);
	iolab_model_free(&back);
	iolab_model_free(&m);
}

/* The smallest file: the documented defaults of everything else. */
static void test_defaults(void **state)
{
	(void)state;
	static const char text[] =
		"# a comment\n\ndevice = ssd  # the first field\nname = tiny\nchannels = 2\n"
		"chips_per_channel = 2\ndies_per_chip = 1\nplanes_per_die = 2\nblocks_per_plane = 128\n"
		"pages_per_block = 256\npage_bytes = 8192\nread_us = 50\nprogram_us = 500\n"
		"erase_ms = 3\nchannel_mb_s = 400\n";
	struct iolab_disk_model m;
	struct iolab_err err = {{0}};
	assert_int_equal(iolab_model_parse("tiny.model", text, &m, &err), 0);
	const struct iolab_ssd_model *s = m.ssd;
	assert_int_equal(s->iface, IOLAB_SSD_NVME);
	assert_int_equal(s->queues, 1);
	assert_int_equal(s->queue_entries, 1024);
	assert_int_equal(s->iface_rate, 4000000000ull);
	assert_int_equal(s->command_ns, 0);
	assert_int_equal(s->cache_bytes, 0);
	assert_int_equal(s->cell, IOLAB_CELL_SLC);
	assert_int_equal(s->read_ns[2], 50000);
	assert_true(s->multiplane);
	assert_true(s->overprovisioning == 0.07);
	assert_true(s->gc_threshold == 0.05);
	assert_int_equal(s->gc_policy, IOLAB_GC_GREEDY);
	assert_int_equal(s->rga_choices, 7); /* log2(128) */
	assert_string_equal(s->allocation_order, "CWDP");
	assert_true(s->ideal_mapping);
	assert_int_equal(s->channel_rate, 400000000);
	assert_string_equal(m.about, "");
	iolab_model_free(&m);
}

#define GOOD "device = ssd\nname = t\nchannels = 2\nchips_per_channel = 2\ndies_per_chip = 1\n" \
	"planes_per_die = 2\nblocks_per_plane = 128\npages_per_block = 256\npage_bytes = 8192\n" \
	"read_us = 50\nprogram_us = 500\nerase_ms = 3\nchannel_mb_s = 400\n"
/* GOOD has 13 lines; a case's own line is line 14 */

/* text is refused with "t.model:LINE: field 'FIELD': ...NEEDLE..." on one line. */
static void refused_(int at, const char *text, unsigned line, const char *field, const char *needle)
{
	struct iolab_disk_model m;
	struct iolab_err err = {{0}};
	char want[160];
	snprintf(want, sizeof(want), "t.model:%u: field '%s': ", line, field);
	int rc = iolab_model_parse("t.model", text, &m, &err);
	if (rc != -EINVAL || strncmp(err.msg, want, strlen(want)) || !strstr(err.msg, needle) ||
	    strchr(err.msg, '\n'))
		fail_msg("line %d: got %d '%s', want '%s...%s'", at, rc, err.msg, want, needle);
	assert_null(m.ssd);
}
#define refused(...) refused_(__LINE__, __VA_ARGS__)

static void test_refusals(void **state)
{
	(void)state;
	refused(GOOD "dies_per_chip = 0\n", 14, "dies_per_chip", "already given on line 5");
	refused("device = ssd\nname = t\nchannels = 2\nchips_per_channel = 2\ndies_per_chip = 0\n"
		"planes_per_die = 2\nblocks_per_plane = 64\npages_per_block = 256\npage_bytes = 8192\n"
		"read_us = 50\nprogram_us = 500\nerase_ms = 3\nchannel_mb_s = 400\n", 5,
		"dies_per_chip", "is 0");
	refused("device = ssd\nname = t\nchannels = 2\nchips_per_channel = 2\ndies_per_chip = 1\n"
		"planes_per_die = 2\nblocks_per_plane = 64\npages_per_block = 256\npage_bytes = 1000\n"
		"read_us = 50\nprogram_us = 500\nerase_ms = 3\nchannel_mb_s = 400\n", 9,
		"page_bytes", "not a multiple of 512");
	refused("device = ssd\nname = t\nchannels = 2\nchips_per_channel = 2\ndies_per_chip = 1\n"
		"planes_per_die = 2\nblocks_per_plane = 64\npages_per_block = 0\npage_bytes = 8192\n"
		"read_us = 50\nprogram_us = 500\nerase_ms = 3\nchannel_mb_s = 400\n", 8,
		"pages_per_block", "is 0");
	refused(GOOD "overprovisioning = 100%\n", 14, "overprovisioning", "not in [0, 1)");
	refused(GOOD "overprovisioning = 1.5\n", 14, "overprovisioning", "out of range");
	refused(GOOD "overprovisioning = 2%\n", 14, "overprovisioning", "GC reserve of 6");
	refused(GOOD "gc_threshold = 0.99\n", 7, "blocks_per_plane", "the two open blocks and one of data");
	/* what the simulator's FTL could not hold is refused here, with the file and line: the
	 * reserve, two open blocks and one of data a plane (above: reserve 126 of 128); a plane's
	 * logical pages within its blocks less the reserve and the open blocks (5.9 % of 128
	 * blocks: 7.6 spare, more than the reserve of 6 and one, fewer than it and two) */
	refused(GOOD "overprovisioning = 5.9%\n", 14, "overprovisioning", "more than the 30719 its FTL holds");
	refused(GOOD "queue_entries = 0\n", 14, "queue_entries", "is 0");
	refused(GOOD "interface = sata\nqueue_entries = 64\n", 15, "queue_entries", "SATA NCQ");
	refused(GOOD "interface = usb\n", 14, "interface", "not nvme or sata");
	refused(GOOD "read_msb_us = 0\n", 14, "read_msb_us", "is 0");
	refused(GOOD "interface_mb_s = 0\n", 14, "interface_mb_s", "is 0");
	refused(GOOD "rpm = 7200\n", 14, "rpm", "a drive field");
	refused(GOOD "colour = blue\n", 14, "colour", "unknown field of an SSD model");
	refused(GOOD "allocation = CWDX\n", 14, "allocation", "permutation of CWDP");
	refused(GOOD "gc_policy = lru\n", 14, "gc_policy", "greedy, fifo");
	refused(GOOD "channel_mt_s = 200\n", 14, "channel_mt_s", "not with 'channel_mb_s' (line 13)");
	refused(GOOD "gc_background = 0.01\n", 14, "gc_background", "between gc_threshold");
	refused(GOOD "ideal_mapping = no\ncmt_bytes = 4\ncmt_entry_bytes = 8\n", 15, "cmt_bytes",
		"holds not one");
	refused(GOOD "read_us = 5\n", 14, "read_us", "already given on line 10");
	refused(GOOD "multiplane = maybe\n", 14, "multiplane", "not yes or no");
	refused("device = ssd\nname = t\n", 1, "channels", "missing");
	refused("name = t\ndevice = ssd\n", 2, "device", "must be the first field");
	refused("device = tape\nname = t\n", 1, "device", "not disk or ssd");
	refused("device = ssd\ndevice = ssd\n", 2, "device", "already given on line 1");

	/* a drive model takes `device = disk` first, and refuses an SSD field */
	struct iolab_disk_model m;
	struct iolab_err err = {{0}};
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_int_equal(iolab_model_open("atlas10k", &m, &err), 0);
	fprintf(f, "device = disk\n");
	assert_int_equal(iolab_model_write(&m, f), 0);
	iolab_model_free(&m);
	fclose(f);
	struct iolab_disk_model d;
	assert_int_equal(iolab_model_parse("d.model", text, &d, &err), 0);
	assert_null(d.ssd);
	assert_true(d.rev_ns > 0);
	iolab_model_free(&d);
	char *bad = malloc(len + 32);
	assert_non_null(bad);
	snprintf(bad, len + 32, "device = disk\nchannels = 8\n%s", text + strlen("device = disk\n"));
	assert_int_equal(iolab_model_parse("d.model", bad, &d, &err), -EINVAL);
	assert_string_equal(err.msg, "d.model:2: field 'channels': an SSD field in a drive model (an "
			    "SSD model starts with 'device = ssd')");
	free(bad);
	free(text);

	/* the check by itself */
	struct iolab_ssd_model s;
	open_ok("mqsim-default", &m);
	s = *m.ssd;
	s.channels = 0;
	assert_int_equal(iolab_ssd_model_check(&s, &err), -EINVAL);
	assert_string_equal(err.msg, "field 'channels': is 0: a flash array needs at least one");
	s = *m.ssd;
	s.overprovisioning = 1;
	assert_int_equal(iolab_ssd_model_check(&s, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "field 'overprovisioning': 1 is not in [0, 1)"));
	assert_int_equal(iolab_ssd_model_check(m.ssd, &err), 0);
	iolab_model_free(&m);
}

/* A subsystem whose drive is an SSD: one of its model's fields set from outside, as
 * `--set drive.overprovisioning=12.5%` does. */
static void test_subsys_set(void **state)
{
	(void)state;
	struct iolab_subsys sub;
	struct iolab_err err = {{0}};
	assert_int_equal(iolab_subsys_parse("s.conf", "drive d1 model=nvme-ssd\nvolume v level=none "
					    "drives=d1\n", &sub, &err), 0);
	const struct iolab_ssd_model *was = sub.model[sub.drive[0].model].ssd;
	assert_non_null(was);
	uint64_t blocks = sub.model[sub.drive[0].model].blocks;
	if (iolab_subsys_set(&sub, "d1", "overprovisioning", "12.5%", &err))
		fail_msg("%s", err.msg);
	const struct iolab_disk_model *m = &sub.model[sub.drive[0].model];
	assert_non_null(m->ssd);
	assert_true(m->ssd->overprovisioning == 0.125);
	assert_true(m->blocks < blocks); /* fewer logical pages */
	assert_string_equal(m->name, "nvme-ssd");
	same_ssd(was, was); /* the original is kept for the other parts */
	struct iolab_ssd_model want = *was;
	want.overprovisioning = 0.125;
	same_ssd(&want, m->ssd);
	/* every drive-like device, by the kind's name, as --set drive.FIELD names them */
	if (iolab_subsys_set(&sub, "drive", "overprovisioning", "28%", &err))
		fail_msg("%s", err.msg);
	assert_true(sub.model[sub.drive[0].model].ssd->overprovisioning == 0.28);
	/* a geometry field may change too: the model is derived again */
	if (iolab_subsys_set(&sub, "d1", "blocks_per_plane", "1024", &err))
		fail_msg("%s", err.msg);
	m = &sub.model[sub.drive[0].model];
	assert_int_equal(m->ssd->blocks_per_plane, 1024);
	/* refusals name the model and field, one line, no line number of the text written */
	assert_int_equal(iolab_subsys_set(&sub, "d1", "overprovisioning", "100%", &err), -EINVAL);
	assert_string_equal(err.msg, "d1.overprovisioning: model nvme-ssd: field 'overprovisioning': "
			    "1 is not in [0, 1) (0 % to below 100 % of the physical pages are spare)");
	assert_int_equal(iolab_subsys_set(&sub, "d1", "rpm", "7200", &err), -EINVAL);
	assert_non_null(strstr(err.msg, "d1.rpm: "));
	iolab_subsys_free(&sub);
}

static void note_count(const char *file, unsigned line, const char *field, const char *what,
		       void *ctx)
{
	(void)file;
	(void)what;
	unsigned *n = ctx;
	n[0]++;
	if (!strcmp(field, "Page_Metadat_Capacity") && line > 0)
		n[1]++;
}

/* The shipped ssdconfig.xml is mqsim-default, field by field. */
static void test_import_mqsim(void **state)
{
	(void)state;
	char path[512];
	th_data_path(path, sizeof(path), "../../examples/ssdconfig.xml");
	struct iolab_disk_model a, b;
	struct iolab_err err = {{0}};
	unsigned notes[2] = {0, 0};
	if (iolab_import_mqsim(path, &a, note_count, notes, &err))
		fail_msg("%s", err.msg);
	assert_string_equal(a.name, "ssdconfig");
	assert_true(notes[0] >= 15);
	assert_int_equal(notes[1], 1);
	open_ok("mqsim-default", &b);
	same_ssd(a.ssd, b.ssd);
	assert_int_equal(a.blocks, b.blocks);
	assert_int_equal(a.queue_depth, b.queue_depth);
	/* and through the model file format */
	struct iolab_disk_model back;
	reread(&a, &back);
	same_ssd(back.ssd, b.ssd);
	iolab_model_free(&back);
	iolab_model_free(&a);
	iolab_model_free(&b);
}

#define XML_HEAD "<?xml version=\"1.0\"?>\n<Execution_Parameter_Set>\n<Device_Parameter_Set>\n"
#define XML_TAIL "</Device_Parameter_Set>\n</Execution_Parameter_Set>\n"

static void xml_refused_(int at, const char *text, const char *want)
{
	struct iolab_disk_model m;
	struct iolab_err err = {{0}};
	int rc = iolab_import_mqsim_text("x.xml", text, &m, NULL, NULL, &err);
	if (rc != -EINVAL || strncmp(err.msg, want, strlen(want)) || strchr(err.msg, '\n'))
		fail_msg("line %d: got %d '%s', want '%s...'", at, rc, err.msg, want);
	assert_null(m.ssd);
}
#define xml_refused(...) xml_refused_(__LINE__, __VA_ARGS__)

static void test_import_mqsim_bad(void **state)
{
	(void)state;
	/* a file of defaults only is MQSim's code defaults */
	struct iolab_disk_model m;
	struct iolab_err err = {{0}};
	unsigned notes[2] = {0, 0};
	assert_int_equal(iolab_import_mqsim_text("x.xml", XML_HEAD XML_TAIL, &m, note_count, notes,
						 &err), 0);
	assert_int_equal(m.ssd->channel_rate, 300000000);     /* Channel_Transfer_Rate 300 */
	assert_int_equal(m.ssd->iface_rate, 1600000000);      /* 4 x 0.4 GB/s */
	assert_int_equal(m.ssd->queue_entries, 1024);
	assert_int_equal(m.ssd->cache_bytes, 512u << 20);
	/* MQSim's DRAM time of a page within a row: 13 + 13 + (8192 / 4 / 2) x 1.25 ns */
	assert_int_equal(m.ssd->cache_page_ns, 1306);
	assert_true(notes[0] > 40);
	iolab_model_free(&m);
	/* a page of two rows: 13 + 13 + (4096 x 10 + 13) x 1 pair + 13 + 13 + 0 */
	assert_int_equal(iolab_import_mqsim_text("x.xml", XML_HEAD "<Data_Cache_DRAM_Data_Rate>100"
						 "</Data_Cache_DRAM_Data_Rate>\n<Data_Cache_DRAM_Data_Busrt_Size>1"
						 "</Data_Cache_DRAM_Data_Busrt_Size>\n<Flash_Parameter_Set>\n"
						 "<Page_Capacity>16384</Page_Capacity>\n</Flash_Parameter_Set>\n"
						 XML_TAIL, &m, NULL, NULL, &err), 0);
	assert_int_equal(m.ssd->cache_page_ns, 41025);
	iolab_model_free(&m);
	/* as MQSim (rapidxml, then XML_deserialize): attributes mean nothing; a switch is false only
	 * when it says false (any case), true otherwise, said in a note */
	notes[0] = 0;
	assert_int_equal(iolab_import_mqsim_text("x.xml", XML_HEAD "<Ideal_Mapping_Table unit='none'>"
						 "yes</Ideal_Mapping_Table>\n<Use_Copyback_for_GC a=\"1\" "
						 "b='2'>FALSE</Use_Copyback_for_GC>\n" XML_TAIL, &m, note_count,
						 notes, &err), 0);
	assert_true(m.ssd->ideal_mapping);
	assert_false(m.ssd->gc_copyback);
	unsigned defaults_only = notes[0];
	iolab_model_free(&m);
	notes[0] = 0;
	assert_int_equal(iolab_import_mqsim_text("x.xml", XML_HEAD "<Ideal_Mapping_Table>true"
						 "</Ideal_Mapping_Table>\n<Use_Copyback_for_GC>false"
						 "</Use_Copyback_for_GC>\n" XML_TAIL, &m, note_count, notes,
						 &err), 0);
	assert_int_equal(notes[0] + 1, defaults_only); /* the note on 'yes' */
	iolab_model_free(&m);

	xml_refused(XML_HEAD "<Flash_Channel_Counts>8</Flash_Channel_Counts>\n" XML_TAIL,
		    "x.xml:4: field 'Flash_Channel_Counts': not a parameter of MQSim's <Device_Parameter_Set>");
	xml_refused(XML_HEAD "<PCIe_Lane_Count>4</PCIe_Lane_Count>\n" XML_TAIL,
		    "x.xml:4: field 'PCIe_Lane_Count': belongs elsewhere");
	xml_refused(XML_HEAD "<HostInterface_Type>SATA</HostInterface_Type>\n"
		    "<IO_Queue_Depth>32</IO_Queue_Depth>\n" XML_TAIL,
		    "x.xml:2: field 'SATA_Processing_Delay': missing");
	xml_refused("<Execution_Parameter_Set>\n<Host_Parameter_Set>\n<SATA_Processing_Delay>400000"
		    "</SATA_Processing_Delay>\n</Host_Parameter_Set>\n<Device_Parameter_Set>\n"
		    "<HostInterface_Type>SATA</HostInterface_Type>\n" XML_TAIL,
		    "x.xml:1: field 'IO_Queue_Depth' (iolab's 'queue_entries'): 1024 is more than SATA");
	xml_refused(XML_HEAD "<Flash_Channel_Count>eight</Flash_Channel_Count>\n" XML_TAIL,
		    "x.xml:4: field 'Flash_Channel_Count': 'eight' is not a number");
	xml_refused(XML_HEAD "<Flash_Channel_Count>0</Flash_Channel_Count>\n" XML_TAIL,
		    "x.xml:4: field 'Flash_Channel_Count' (iolab's 'channels'): is 0");
	xml_refused(XML_HEAD "<Flash_Parameter_Set>\n<Page_Capacity>1000</Page_Capacity>\n"
		    "</Flash_Parameter_Set>\n" XML_TAIL,
		    "x.xml:5: field 'Page_Capacity' (iolab's 'page_bytes'): 1000 is not a multiple of 512");
	xml_refused(XML_HEAD "<Overprovisioning_Ratio>1.0</Overprovisioning_Ratio>\n" XML_TAIL,
		    "x.xml:4: field 'Overprovisioning_Ratio' (iolab's 'overprovisioning'): 1 is not in");
	xml_refused(XML_HEAD "<GC_Block_Selection_Policy>LRU</GC_Block_Selection_Policy>\n" XML_TAIL,
		    "x.xml:4: field 'GC_Block_Selection_Policy': 'LRU' is not one of GREEDY/RGA");
	xml_refused(XML_HEAD "<Plane_Allocation_Scheme>CWDD</Plane_Allocation_Scheme>\n" XML_TAIL,
		    "x.xml:4: field 'Plane_Allocation_Scheme': 'CWDD' is not a permutation of CWDP");
	xml_refused(XML_HEAD "<Address_Mapping>HYBRID</Address_Mapping>\n" XML_TAIL,
		    "x.xml:4: field 'Address_Mapping': 'HYBRID' iolab maps pages");
	xml_refused(XML_HEAD "<Seed>1</Seed>\n<Seed>2</Seed>\n" XML_TAIL,
		    "x.xml:5: field 'Seed': already given on line 4");
	xml_refused("<?xml version=\"1.0\"?>\n<Execution_Parameter_Set>\n<Host_Parameter_Set>\n"
		    "</Host_Parameter_Set>\n</Execution_Parameter_Set>\n",
		    "x.xml:2: element 'Device_Parameter_Set': missing");
	xml_refused("<Workload_Parameter_Set>\n</Workload_Parameter_Set>\n",
		    "x.xml:1: element 'Workload_Parameter_Set': not MQSim's <Execution_Parameter_Set>");
	xml_refused(XML_HEAD "<Seed>1</Seed>\n" "</Device_Parameter_Set>\n",
		    "x.xml:6: the file ends inside element 'Execution_Parameter_Set'");
	xml_refused(XML_HEAD "<Seed>1</Sed>\n" XML_TAIL, "x.xml:4: the end tag does not match element 'Seed'");
	xml_refused(XML_HEAD "<Seed unit>1</Seed>\n" XML_TAIL,
		    "x.xml:4: an attribute without =\"value\" in the start tag of element 'Seed'");
	xml_refused(XML_HEAD "<Seed unit=\"none>1</Seed>\n" XML_TAIL,
		    "x.xml:4: an attribute's value without its closing quote, in element 'Seed'");
	xml_refused(XML_HEAD "<Seed>1&amp;</Seed>\n" XML_TAIL, "x.xml:4: entity references");
	xml_refused(XML_HEAD "<Seed>1<Seed>2</Seed></Seed>\n" XML_TAIL,
		    "x.xml:4: text mixed with elements in element 'Seed'");
	xml_refused("", "x.xml:1: no element: the file is empty");
	xml_refused("<!-- only a comment", "x.xml:1: a comment that does not end");
	xml_refused(XML_HEAD XML_TAIL "<More/>\n", "x.xml:6: more after the root element");
}

/* The commands, run in an empty directory: import-mqsim finds the shipped ssdconfig.xml. */
static void test_cli(void **state)
{
	(void)state;
	char was[512], out[600];
	assert_non_null(getcwd(was, sizeof(was)));
	const char *dir = th_tmpdir();
	assert_int_equal(chdir(dir), 0);
	struct th_out o = th_iolab("model", "import-mqsim", "ssdconfig.xml", "-o", "mq.model", NULL);
	if (o.status)
		fail_msg("import-mqsim: %d: %s", o.status, o.err);
	assert_non_null(strstr(o.err, "Page_Metadat_Capacity: accepted, no effect"));
	assert_non_null(strstr(o.err, "wrote mq.model: SSD model 'ssdconfig'"));
	th_out_free(&o);
	struct iolab_disk_model a, b;
	struct iolab_err err = {{0}};
	snprintf(out, sizeof(out), "%s/mq.model", dir);
	if (iolab_model_load(out, &a, &err))
		fail_msg("%s", err.msg);
	open_ok("mqsim-default", &b);
	same_ssd(a.ssd, b.ssd);
	iolab_model_free(&a);
	iolab_model_free(&b);
	o = th_iolab("model", "import-mqsim", "ssdconfig.xml", "-o", "mq.model", NULL);
	TH_EXPECT_EXIT(o, 2, "mq.model", "--force");
	o = th_iolab("model", "import-mqsim", "ssdconfig.xml", "-o", "mq.model", "--force", NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	FILE *f = fopen("bad.xml", "w");
	assert_non_null(f);
	fputs(XML_HEAD "<Flash_Channel_Counts>8</Flash_Channel_Counts>\n" XML_TAIL, f);
	fclose(f);
	o = th_iolab("model", "import-mqsim", "bad.xml", "-o", "bad.model", NULL);
	TH_EXPECT_EXIT(o, 2, "bad.xml:4: field 'Flash_Channel_Counts': not a parameter");

	/* a file of that name in the current directory is read instead of the shipped one */
	f = fopen("ssdconfig.xml", "w");
	assert_non_null(f);
	fputs(XML_HEAD "<Flash_Channel_Count>4</Flash_Channel_Count>\n" XML_TAIL, f);
	fclose(f);
	o = th_iolab("model", "import-mqsim", "ssdconfig.xml", "-o", "own.model", NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	snprintf(out, sizeof(out), "%s/own.model", dir);
	if (iolab_model_load(out, &a, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(a.ssd->channels, 4);
	iolab_model_free(&a);

	o = th_iolab("models", NULL);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "nvme-ssd     SSD: Samsung 970 EVO Plus"));
	assert_non_null(strstr(o.out, "atlas10k     QUANTUM"));
	th_out_free(&o);
	o = th_iolab("model", "show", "nvme-ssd", NULL);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "\ndevice = ssd\nname = nvme-ssd\n"));
	assert_non_null(strstr(o.out, "1000.23 GB"));
	th_out_free(&o);
	o = th_iolab("model", "show", "sata-ssd", "--json", NULL);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "\"device\": \"ssd\""));
	th_out_free(&o);
	assert_int_equal(chdir(was), 0);
	th_rmtree(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_builtins),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_subsys_set),
		cmocka_unit_test(test_import_mqsim),
		cmocka_unit_test(test_import_mqsim_bad),
		cmocka_unit_test(test_cli),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
