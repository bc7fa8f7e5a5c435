/* test_model.c: drive models: the DiskSim importer (tests/data/disksim holds the Atlas 10K files
 * of the DiskSim 4.0 validation suite, under its COPYING), writing and reading back the model
 * format, the built-in models, the errors of bad model text (text fields, fields given twice,
 * numbers, figures that contradict each other: docs/model-format.md), and `iolab model` /
 * `iolab models`. */
#include <errno.h>
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
#include "iolab/disk_model.h"
#include "iolab/disksim_import.h"

static char tmpdir[256];

static int setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "%s", th_tmpdir());
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	if (*tmpdir)
		th_rmtree(tmpdir);
	return 0;
}

/* Path of NAME in tests/data/disksim. */
static void disksim_file(char *buf, size_t n, const char *name)
{
	char rel[256];
	snprintf(rel, sizeof(rel), "disksim/%s", name);
	th_data_path(buf, n, rel);
}

/* Copy of text with the first `from` replaced by `to` (which must be there). */
static char *replaced(const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);
	if (!at) {
		print_error("test bug: '%s' not in the text\n", from);
		fail();
	}
	size_t n = strlen(text) - strlen(from) + strlen(to);
	char *out = malloc(n + 1);
	assert_non_null(out);
	size_t head = (size_t)(at - text);
	memcpy(out, text, head);
	strcpy(out + head, to);
	strcat(out, at + strlen(from));
	return out;
}

static void assert_msg(const char *msg, const char *part)
{
	if (!strstr(msg, part)) {
		print_error("message '%s' should contain '%s'\n", msg, part);
		fail();
	}
}

static void import_atlas(struct iolab_disk_model *m)
{
	char path[1024];
	struct iolab_err err = {{0}};
	disksim_file(path, sizeof(path), "atlas10k.diskspecs");
	int rc = iolab_import_disksim(path, m, &err);
	if (rc) {
		print_error("import of %s failed: %s\n", path, err.msg);
		fail();
	}
}

static void test_import_atlas10k(void **state)
{
	(void)state;
	struct iolab_disk_model m;
	import_atlas(&m);
	assert_string_equal(m.name, "atlas10k");
	assert_true(!strncmp(m.about, "QUANTUM_TORNADO_validate: ", 26));
	assert_int_equal(m.surfaces, 6);
	assert_int_equal(m.cylinders, 10042);
	/* the zones' total, not the specification's Block count of 17,938,986: DiskSim 4.0's
	 * dm_layout_g1 replaces it (manual B.4.1 p73: "not used directly") */
	assert_int_equal(m.blocks, 17966953);
	assert_int_equal(m.block_bytes, 512);
	assert_true(m.cylinder_serpentine);
	assert_true(m.rpm == 10025);
	assert_int_equal(m.rev_ns, 5985037); /* 60e9 / 10025 */
	/* mechanics */
	assert_int_equal(m.seek_single_ns, 1245000);
	assert_int_equal(m.seek_full_ns, 10828000);
	assert_int_equal(m.write_settle_ns, 487000);
	assert_int_equal(m.head_switch_ns, 176000);
	assert_int_equal(m.nseek, 138);
	assert_int_equal(m.seek[0].dist, 1);
	assert_int_equal(m.seek[0].ns, 1245000);
	assert_int_equal(m.seek[1].dist, 2);
	assert_int_equal(m.seek[1].ns, 1157000);
	assert_int_equal(m.seek[137].dist, 10021);
	assert_int_equal(m.seek[137].ns, 10828000);
	for (unsigned i = 1; i < m.nseek; i++)
		assert_true(m.seek[i].dist > m.seek[i - 1].dist);
	/* zones */
	assert_int_equal(m.nzones, 24);
	const struct iolab_zone *z = &m.zone[0];
	assert_int_equal(z->first_cyl, 0);
	assert_int_equal(z->last_cyl, 432);
	assert_int_equal(z->spt, 334);
	assert_int_equal(z->track_skew, 63);
	assert_int_equal(z->cyl_skew, 113);
	assert_int_equal(z->sparing, IOLAB_SPARE_ZONE);
	assert_int_equal(z->spares, 89);
	assert_int_equal(z->nslips, 5);
	assert_int_equal(z->slips[0], 55017);
	assert_int_equal(z->slips[4], 483742);
	assert_int_equal(z->ndefects, 0);
	assert_int_equal(m.zone[23].first_cyl, 9625);
	assert_int_equal(m.zone[23].last_cyl, 10041);
	assert_int_equal(m.zone[23].spt, 229);
	assert_int_equal(m.zone[23].spares, 229);
	uint64_t held = 0;
	for (unsigned i = 0; i < m.nzones; i++)
		held += m.zone[i].nblocks;
	assert_true(held >= m.blocks);
	/* controller: ms in the .diskspecs, time scale 1, no per-request overhead */
	assert_int_equal(m.bus_ns_per_block, 99000);
	assert_int_equal(m.ovh_read_hit[0], 184000);
	assert_int_equal(m.ovh_read_hit[1], 184000);
	assert_int_equal(m.ovh_read_miss[0], 0);
	assert_int_equal(m.ovh_read_miss[1], 0);
	assert_int_equal(m.ovh_write_hit[0], 186000);
	assert_int_equal(m.ovh_write_hit[1], 189000);
	assert_int_equal(m.ovh_write_miss[0], 344920);
	assert_int_equal(m.ovh_write_miss[1], 496730);
	/* cache and queue */
	assert_int_equal(m.segments, 10);
	assert_int_equal(m.segment_blocks, 374);
	assert_false(m.separate_write_segment);
	assert_int_equal(m.readahead_blocks, 354);
	assert_true(m.readahead_track);      /* Buffer continuous read = 4 */
	assert_false(m.readahead_over_request);
	assert_true(m.zero_latency_read);    /* Immediate buffer read = 1 */
	assert_true(m.zero_latency_write);   /* Immediate buffer write = 1 */
	assert_true(m.read_free_blocks);     /* Read any free blocks = 1 */
	assert_true(m.write_back);           /* Fast write level = 2 */
	assert_int_equal(m.write_segments, 1);
	assert_true(m.read_hits_on_write_data);
	assert_int_equal(m.queue_depth, 1);
	assert_int_equal(m.sched, IOLAB_SCHED_FCFS);
	iolab_model_free(&m);
}

static void same_model(const struct iolab_disk_model *a, const struct iolab_disk_model *b)
{
	assert_string_equal(a->name, b->name);
	assert_string_equal(a->about, b->about);
	assert_int_equal(a->surfaces, b->surfaces);
	assert_int_equal(a->cylinders, b->cylinders);
	assert_int_equal(a->block_bytes, b->block_bytes);
	assert_int_equal(a->blocks, b->blocks);
	assert_int_equal(a->cylinder_serpentine, b->cylinder_serpentine);
	assert_true(a->rpm == b->rpm);
	assert_int_equal(a->rev_ns, b->rev_ns);
	assert_int_equal(a->seek_single_ns, b->seek_single_ns);
	assert_int_equal(a->seek_avg_ns, b->seek_avg_ns);
	assert_int_equal(a->seek_full_ns, b->seek_full_ns);
	assert_int_equal(a->write_settle_ns, b->write_settle_ns);
	assert_int_equal(a->head_switch_ns, b->head_switch_ns);
	assert_int_equal(a->rw_switch_ns, b->rw_switch_ns);
	assert_int_equal(a->rw_switch_given, b->rw_switch_given);
	assert_int_equal(a->nseek, b->nseek);
	for (unsigned i = 0; i < a->nseek; i++) {
		assert_int_equal(a->seek[i].dist, b->seek[i].dist);
		assert_int_equal(a->seek[i].ns, b->seek[i].ns);
	}
	assert_int_equal(a->bus_ns_per_block, b->bus_ns_per_block);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(a->ovh_read_hit[i], b->ovh_read_hit[i]);
		assert_int_equal(a->ovh_read_miss[i], b->ovh_read_miss[i]);
		assert_int_equal(a->ovh_write_hit[i], b->ovh_write_hit[i]);
		assert_int_equal(a->ovh_write_miss[i], b->ovh_write_miss[i]);
	}
	assert_int_equal(a->segments, b->segments);
	assert_int_equal(a->segment_blocks, b->segment_blocks);
	assert_int_equal(a->separate_write_segment, b->separate_write_segment);
	assert_int_equal(a->readahead_blocks, b->readahead_blocks);
	assert_int_equal(a->readahead_track, b->readahead_track);
	assert_int_equal(a->readahead_over_request, b->readahead_over_request);
	assert_int_equal(a->zero_latency_read, b->zero_latency_read);
	assert_int_equal(a->zero_latency_write, b->zero_latency_write);
	assert_int_equal(a->read_free_blocks, b->read_free_blocks);
	assert_int_equal(a->write_back, b->write_back);
	assert_int_equal(a->write_segments, b->write_segments);
	assert_int_equal(a->read_hits_on_write_data, b->read_hits_on_write_data);
	assert_int_equal(a->queue_depth, b->queue_depth);
	assert_int_equal(a->sched, b->sched);
	assert_int_equal(a->nzones, b->nzones);
	for (unsigned i = 0; i < a->nzones; i++) {
		const struct iolab_zone *x = &a->zone[i], *y = &b->zone[i];
		assert_int_equal(x->first_cyl, y->first_cyl);
		assert_int_equal(x->last_cyl, y->last_cyl);
		assert_int_equal(x->spt, y->spt);
		assert_int_equal(x->track_skew, y->track_skew);
		assert_int_equal(x->cyl_skew, y->cyl_skew);
		assert_int_equal(x->first_offset, y->first_offset);
		assert_int_equal(x->front_empty, y->front_empty);
		assert_int_equal(x->sparing, y->sparing);
		assert_int_equal(x->spares, y->spares);
		assert_int_equal(x->range, y->range);
		assert_int_equal(x->nslips, y->nslips);
		for (unsigned j = 0; j < x->nslips; j++)
			assert_int_equal(x->slips[j], y->slips[j]);
		assert_int_equal(x->ndefects, y->ndefects);
		for (unsigned j = 0; j < x->ndefects; j++)
			assert_int_equal(x->defects[j], y->defects[j]);
		assert_int_equal(x->first_lbn, y->first_lbn);
		assert_int_equal(x->nblocks, y->nblocks);
	}
}

static void test_write_read_back(void **state)
{
	(void)state;
	struct iolab_disk_model m, back;
	struct iolab_err err = {{0}};
	import_atlas(&m);
	char path[512];
	snprintf(path, sizeof(path), "%s/atlas10k.model", tmpdir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(iolab_model_write(&m, f), 0);
	assert_int_equal(fclose(f), 0);
	int rc = iolab_model_load(path, &back, &err);
	if (rc) {
		print_error("reading back %s: %s\n", path, err.msg);
		fail();
	}
	same_model(&m, &back);
	iolab_model_free(&back);
	/* iolab_model_open takes a path too */
	assert_int_equal(iolab_model_open(path, &back, &err), 0);
	same_model(&m, &back);
	iolab_model_free(&back);
	iolab_model_free(&m);
}

static void test_builtin_models(void **state)
{
	(void)state;
	unsigned n = iolab_model_builtin_count();
	bool atlas = false, sata = false, sas = false;
	assert_true(n >= 8);
	for (unsigned i = 0; i < n; i++) {
		const char *name = iolab_model_builtin_name(i);
		struct iolab_disk_model m;
		struct iolab_err err = {{0}};
		assert_non_null(name);
		int rc = iolab_model_open(name, &m, &err);
		if (rc) {
			print_error("built-in model %s: %s\n", name, err.msg);
			fail();
		}
		assert_string_equal(m.name, name);
		assert_true(strlen(m.about) > 10);
		if (m.ssd) { /* the SSD models: test_ssd_model.c */
			iolab_model_free(&m);
			continue;
		}
		assert_true(m.rev_ns > 0);
		assert_true(iolab_model_seek_ns(&m, m.cylinders - 1, false) > iolab_model_seek_ns(&m, 1, false));
		atlas |= !strcmp(name, "atlas10k");
		sata |= !strcmp(name, "sata7200");
		sas |= !strcmp(name, "sas15k");
		iolab_model_free(&m);
	}
	assert_true(atlas && sata && sas);
	assert_null(iolab_model_builtin_name(n));

	/* the built-in atlas10k is what the importer makes of the DiskSim files */
	struct iolab_disk_model a, b;
	struct iolab_err err = {{0}};
	import_atlas(&a);
	assert_int_equal(iolab_model_open("atlas10k", &b, &err), 0);
	same_model(&a, &b);
	iolab_model_free(&a);
	iolab_model_free(&b);

	assert_int_equal(iolab_model_open("no-such-drive", &b, &err), -ENOENT);
	assert_msg(err.msg, "unknown model 'no-such-drive'");
}

/* A valid model without a seek table; the cases below break one thing each. */
static const char good_model[] =
	"name = t\n"                    /* 1 */
	"about = test drive\n"
	"surfaces = 2\n"
	"cylinders = 1000\n"
	"blocks = 1800000\n"            /* 5 */
	"rpm = 7200\n"
	"seek_single_ms = 1\n"
	"seek_average_ms = 8\n"
	"seek_full_ms = 15\n"
	"queue_depth = 4\n"             /* 10 */
	"scheduler = sptf\n"
	"[zone]\n"
	"cylinders = 0 499\n"
	"sectors_per_track = 1000\n"
	"sparing = none\n"              /* 15 */
	"[zone]\n"
	"cylinders = 500 999\n"
	"sectors_per_track = 800\n"
	"sparing = none\n";

/* Parses text, which must fail; the message must contain each of the NULL-terminated parts. */
static void bad_model(const char *text, ...)
{
	struct iolab_disk_model m;
	struct iolab_err err = {{0}};
	int rc = iolab_model_parse("bad.model", text, &m, &err);
	if (rc == 0) {
		print_error("should be rejected:\n%s\n", text);
		iolab_model_free(&m);
		fail();
	}
	assert_int_equal(rc, -EINVAL);
	assert_true(!strncmp(err.msg, "bad.model", 9)); /* names the file */
	assert_null(strchr(err.msg, '\n'));             /* one line */
	va_list ap;
	va_start(ap, text);
	for (const char *p = va_arg(ap, const char *); p; p = va_arg(ap, const char *))
		assert_msg(err.msg, p);
	va_end(ap);
}

static void test_good_model(void **state)
{
	(void)state;
	struct iolab_disk_model m;
	struct iolab_err err = {{0}};
	int rc = iolab_model_parse("good.model", good_model, &m, &err);
	if (rc) {
		print_error("%s\n", err.msg);
		fail();
	}
	assert_int_equal(m.nzones, 2);
	assert_int_equal(m.zone[1].first_lbn, 1000000);
	assert_int_equal(m.sched, IOLAB_SCHED_SPTF);
	/* the fitted seek curve meets the datasheet figures */
	assert_int_equal(iolab_model_seek_ns(&m, 0, false), 0);
	assert_true(llabs((long long)iolab_model_seek_ns(&m, 1, false) - 1000000) < 10000);
	assert_true(llabs((long long)iolab_model_seek_ns(&m, 999, false) - 15000000) < 10000);
	iolab_model_free(&m);
}

static void test_bad_models(void **state)
{
	(void)state;
	char *t;
	/* line errors name the line and the field */
	t = replaced(good_model, "rpm = 7200", "rpm = 0");
	bad_model(t, "bad.model:6:", "field 'rpm'", "out of range", NULL);
	free(t);
	t = replaced(good_model, "rpm = 7200", "rpm = fast");
	bad_model(t, "bad.model:6:", "field 'rpm'", "not a number", NULL);
	free(t);
	t = replaced(good_model, "queue_depth = 4", "colour = red");
	bad_model(t, "bad.model:10:", "field 'colour'", "unknown field", NULL);
	free(t);
	t = replaced(good_model, "sparing = none\n[zone]", "sparing = none\nspeed = 3\n[zone]");
	bad_model(t, "bad.model:16:", "field 'speed'", "unknown zone field", NULL);
	free(t);
	t = replaced(good_model, "scheduler = sptf", "scheduler = elevator");
	bad_model(t, "bad.model:11:", "field 'scheduler'", NULL);
	free(t);
	t = replaced(good_model, "sectors_per_track = 800", "sectors_per_track = 80.5");
	bad_model(t, "bad.model:18:", "field 'sectors_per_track'", "whole number", NULL);
	free(t);
	t = replaced(good_model, "[zone]", "[zones]");
	bad_model(t, "bad.model:12:", "unknown section", NULL);
	free(t);
	t = replaced(good_model, "about = test drive", "about test drive");
	bad_model(t, "bad.model:2:", "expected 'field = value'", NULL);
	free(t);
	/* seek table: distances must increase */
	t = replaced(good_model, "[zone]", "[seek]\n1 1.0\n5 2.0\n5 2.5\n[zone]");
	bad_model(t, "bad.model:15:", "field 'distance'", "not larger", NULL);
	free(t);
	t = replaced(good_model, "[zone]", "[seek]\n1 1.0\n10\n[zone]");
	bad_model(t, "bad.model:14:", "field 'seek'", NULL);
	free(t);
	/* missing required fields (no line to name: the field) */
	t = replaced(good_model, "rpm = 7200\n", "");
	bad_model(t, "field 'rpm'", "required", NULL);
	free(t);
	t = replaced(good_model, "surfaces = 2\n", "");
	bad_model(t, "field 'surfaces'", "required", NULL);
	free(t);
	t = replaced(good_model, "sectors_per_track = 800\n", "");
	bad_model(t, "zone 2", "field 'sectors_per_track'", NULL);
	free(t);
	/* no seek table and no seek figures: an empty [seek] section does not count as a table */
	t = replaced(good_model, "seek_single_ms = 1\nseek_average_ms = 8\nseek_full_ms = 15\n", "");
	bad_model(t, "seek_single_ms", NULL);
	free(t);
	t = replaced(good_model, "seek_single_ms = 1\nseek_average_ms = 8\nseek_full_ms = 15\n",
		     "[seek]\n# nothing measured\n");
	bad_model(t, "seek", NULL);
	free(t);
	/* zones: in order, not overlapping, within the cylinders, holding the blocks */
	t = replaced(good_model, "cylinders = 500 999", "cylinders = 400 999");
	bad_model(t, "zone 2", "field 'cylinders'", NULL);
	free(t);
	t = replaced(good_model, "cylinders = 500 999", "cylinders = 500 1000");
	bad_model(t, "zone 2", "field 'cylinders'", NULL);
	free(t);
	t = replaced(good_model, "cylinders = 0 499", "cylinders = 499 0");
	bad_model(t, "zone 1", "field 'cylinders'", NULL);
	free(t);
	t = replaced(good_model, "blocks = 1800000", "blocks = 1800001");
	bad_model(t, "field 'blocks'", NULL);
	free(t);
	/* no zone at all */
	t = replaced(good_model, "[zone]\ncylinders = 0 499\nsectors_per_track = 1000\nsparing = none\n"
				 "[zone]\ncylinders = 500 999\nsectors_per_track = 800\nsparing = none\n", "");
	bad_model(t, "zone", NULL);
	free(t);
}

/* Zones may leave cylinders between them without a zone: DIXtrac-extracted layouts do (the
 * DiskSim 4.0 Barracuda's zones 1 and 2 are cylinders 0..1127 and 1129..2352, models/barracuda.model)
 * and DiskSim's diskmodel manual (dm_get_track_boundaries) speaks of unmapped cylinders. The next
 * zone's blocks start on its own first cylinder. */
static void test_zones_may_leave_gaps(void **state)
{
	(void)state;
	char *t = replaced(good_model, "cylinders = 500 999", "cylinders = 600 999");
	char *u = replaced(t, "blocks = 1800000", "blocks = 1000");
	struct iolab_disk_model m;
	struct iolab_err err = {{0}};
	int rc = iolab_model_parse("gap.model", u, &m, &err);
	free(t);
	free(u);
	if (rc) {
		print_error("%s\n", err.msg);
		fail();
	}
	assert_int_equal(m.zone[1].first_lbn, 1000000);
	assert_int_equal(m.zone[1].nblocks, 400 * 800 * 2);
	iolab_model_free(&m);
}

/* Text fields are clean text: UTF-8 as Unicode defines it (no stray or overlong bytes, no
 * surrogates), no control characters, within the lengths docs/model-format.md gives (name
 * 1..63 bytes, about up to 255): JSON (RFC 8259) carries only valid Unicode text. */
static void test_text_fields(void **state)
{
	(void)state;
	static const struct {
		const char *name, *about, *why;
	} bad[] = {
		{"t\xff", NULL, "not valid UTF-8 (byte 2)"},
		{"d\xc3", NULL, "not valid UTF-8"},                 /* truncated sequence */
		{"\xc0\xaf", NULL, "not valid UTF-8 (byte 1)"},     /* overlong '/' */
		{"\xed\xa0\x80x", NULL, "not valid UTF-8"},          /* surrogate U+D800 */
		{"\xf4\x90\x80\x80", NULL, "not valid UTF-8"},       /* above U+10FFFF */
		{"a\x01" "b", NULL, "control character (byte 2)"},
		{"a\tb", NULL, "control character"},
		{"a\x7f", NULL, "control character"},
		{"a\xc2\x85" "b", NULL, "control character"},        /* U+0085, a C1 control */
		{NULL, "caf\xe9", "not valid UTF-8 (byte 4)"},      /* Latin-1, not UTF-8 */
		{NULL, "x\x1b[31m", "control character"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char line[128];
		char *t;
		if (bad[i].name) {
			snprintf(line, sizeof(line), "name = %s", bad[i].name);
			t = replaced(good_model, "name = t", line);
			bad_model(t, "bad.model:1: field 'name': ", bad[i].why, NULL);
		} else {
			snprintf(line, sizeof(line), "about = %s", bad[i].about);
			t = replaced(good_model, "about = test drive", line);
			bad_model(t, "bad.model:2: field 'about': ", bad[i].why, NULL);
		}
		free(t);
	}
	/* lengths: 63 and 255 bytes are the most */
	char name[80] = "name = ", about[300] = "about = ";
	memset(name + 7, 'n', 64);
	memset(about + 8, 'a', 256);
	char *t = replaced(good_model, "name = t", name);
	bad_model(t, "bad.model:1: field 'name': ", "longer than 63 bytes", NULL);
	free(t);
	t = replaced(good_model, "about = test drive", about);
	bad_model(t, "bad.model:2: field 'about': ", "longer than 255 bytes", NULL);
	free(t);
	t = replaced(good_model, "name = t", "name = ");
	bad_model(t, "bad.model:1: field 'name': ", "empty", NULL);
	free(t);
	name[7 + 63] = 0;
	about[8 + 255] = 0;
	char *u = replaced(good_model, "name = t", name);
	t = replaced(u, "about = test drive", about);
	free(u);
	struct iolab_disk_model m;
	struct iolab_err err = {{0}};
	assert_int_equal(iolab_model_parse("long.model", t, &m, &err), 0);
	assert_int_equal(strlen(m.name), 63);
	assert_int_equal(strlen(m.about), 255);
	iolab_model_free(&m);
	free(t);
	/* UTF-8 letters are text */
	t = replaced(good_model, "name = t", "name = Festplatte-\xc3\xbc\xe2\x82\xac\xf0\x9f\x92\xbe");
	assert_int_equal(iolab_model_parse("utf8.model", t, &m, &err), 0);
	assert_string_equal(m.name, "Festplatte-\xc3\xbc\xe2\x82\xac\xf0\x9f\x92\xbe");
	iolab_model_free(&m);
	free(t);
}

/* A field given twice is an error naming both lines (which one would win is a guess); slips
 * and defects may take several lines (the writer puts ten a line). Every field the writer
 * writes is covered. */
static void test_duplicate_fields(void **state)
{
	(void)state;
	char *t = replaced(good_model, "rpm = 7200\n", "rpm = 7200\nrpm = 10000\n");
	bad_model(t, "bad.model:7: field 'rpm': already given on line 6", NULL);
	free(t);
	t = replaced(good_model, "sectors_per_track = 800\n", "sectors_per_track = 800\nsectors_per_track = 800\n");
	bad_model(t, "bad.model:19: field 'sectors_per_track': already given on line 18", NULL);
	free(t);
	/* the same field in two zones is fine, and slips may repeat */
	char *u = replaced(good_model, "blocks = 1800000", "blocks = 1000");
	t = replaced(u, "sparing = none\n[zone]", "sparing = zone 3\nslips = 10 20\nslips = 30\n[zone]");
	free(u);
	struct iolab_disk_model m;
	struct iolab_err err = {{0}};
	if (iolab_model_parse("ok.model", t, &m, &err)) {
		print_error("%s\n", err.msg);
		fail();
	}
	assert_int_equal(m.zone[0].nslips, 3);
	iolab_model_free(&m);
	free(t);

	/* every `field = value` line of a written model, given twice, is refused */
	import_atlas(&m);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_int_equal(iolab_model_write(&m, f), 0);
	assert_int_equal(fclose(f), 0);
	iolab_model_free(&m);
	unsigned tried = 0;
	for (const char *at = text; *at;) {
		const char *nl = strchr(at, '\n');
		size_t n = nl ? (size_t)(nl - at) + 1 : strlen(at);
		char line[256];
		if (n < sizeof(line) && memchr(at, '=', n) && strncmp(at, "slips", 5) &&
		    strncmp(at, "defects", 7)) {
			memcpy(line, at, n);
			line[n] = 0;
			char twice[512];
			snprintf(twice, sizeof(twice), "%s%s", line, line);
			char *d = replaced(text, line, twice);
			*strchr(line, ' ') = 0;
			char want[320];
			snprintf(want, sizeof(want), "field '%s': already given on line", line);
			bad_model(d, want, NULL);
			free(d);
			tried++;
		}
		at += n;
	}
	assert_true(tried > 40);
	free(text);
}

/* Figures that cannot all be true are refused, naming the field. */
static void test_contradictions(void **state)
{
	(void)state;
	char *t, *u;
	/* blocks = 1000: room for the blocks a case's spares and slips take away */
	char *base = replaced(good_model, "blocks = 1800000", "blocks = 1000");
	/* datasheet seeks: the average over random cylinder pairs lies between the single-cylinder
	 * and the full-stroke time (Ruemmler and Wilkes 1994's curve rises with distance) */
	t = replaced(base, "seek_average_ms = 8", "seek_average_ms = 20");
	bad_model(t, "bad.model:8: field 'seek_average_ms'", "above seek_full_ms", NULL);
	free(t);
	t = replaced(base, "seek_average_ms = 8", "seek_average_ms = 0.5");
	bad_model(t, "bad.model:8: field 'seek_average_ms'", "below seek_single_ms", NULL);
	free(t);
	t = replaced(base, "seek_single_ms = 1", "seek_single_ms = 16");
	bad_model(t, "bad.model:7: field 'seek_single_ms'", "longer than seek_full_ms", NULL);
	free(t);
	/* with a measured curve too, and a measured seek cannot be longer than the drive */
	t = replaced(base, "seek_single_ms = 1", "seek_single_ms = 16");
	u = replaced(t, "[zone]", "[seek]\n1 1.0\n999 15.0\n[zone]");
	bad_model(u, "bad.model:7: field 'seek_single_ms'", NULL);
	free(t);
	free(u);
	t = replaced(base, "[zone]", "[seek]\n1 1.0\n1000 15.0\n[zone]");
	bad_model(t, "bad.model:14: field 'distance'", "beyond the last cylinder", NULL);
	free(t);
	/* slips and defects: physical sector offsets within the zone (zone 1: 500 cylinders x 2
	 * surfaces x 1000 sectors = sectors 0..999999) */
	t = replaced(base, "sparing = none\n[zone]", "sparing = none\nslips = 5 1000000\n[zone]");
	bad_model(t, "bad.model:12: zone 1: field 'slips'", "1000000 is outside the zone", NULL);
	free(t);
	t = replaced(base, "sparing = none\n[zone]", "sparing = none\ndefects = 1000000 5\n[zone]");
	bad_model(t, "bad.model:12: zone 1: field 'defects'", "outside the zone", NULL);
	free(t);
	t = replaced(base, "sparing = none\n[zone]", "sparing = none\nfront_empty_sectors = 100\n"
		     "slips = 50\n[zone]");
	bad_model(t, "zone 1: field 'slips'", "front_empty_sectors", NULL);
	free(t);
	/* a slip uses a spare: no more slips than spares in the zone, or in a sparing range */
	t = replaced(base, "sparing = none\n[zone]", "sparing = zone 2\nslips = 1 2 3\n[zone]");
	bad_model(t, "zone 1: field 'slips'", "3 slipped sectors, more than the zone's 2 spare", NULL);
	free(t);
	t = replaced(base, "sparing = none\n[zone]", "sparing = range 1 10\nslips = 1 19999\n[zone]");
	bad_model(t, "zone 1: field 'slips'", "range of cylinders 0..9", NULL);
	free(t);
	/* spares that fill the zone, or a whole sparing range (this divided by zero in the mapping) */
	t = replaced(base, "sparing = none\n[zone]", "sparing = zone 1000000\n[zone]");
	bad_model(t, "bad.model:12: zone 1: field 'sparing'", "no room for blocks", NULL);
	free(t);
	t = replaced(base, "sparing = none\n[zone]", "sparing = range 2000000 1000\n[zone]");
	bad_model(t, "bad.model:12: zone 1: field 'sparing'", "no room for blocks", NULL);
	free(t);
	t = replaced(base, "sparing = none\n[zone]", "front_empty_sectors = 1000000\nsparing = none\n[zone]");
	bad_model(t, "zone 1: field 'front_empty_sectors'", NULL);
	free(t);
	/* a last, partial sparing range with more sectors than a range has room for blocks: its
	 * blocks would land on the next zone's cylinders (zone 1 is 500 cylinders: 166 ranges of 3
	 * cylinders, 6000 sectors with 3000 spares each, then 2 cylinders, 4000 sectors) */
	t = replaced(base, "sparing = none\n[zone]", "sparing = range 3000 3\n[zone]");
	bad_model(t, "zone 1: field 'sparing'", "falls past its last cylinder", NULL);
	free(t);
	free(base);
}

/* One rule for numbers in every data file (iolab_parse_decimal): decimal with an optional sign
 * and exponent; no hexadecimal, inf, nan, empty value, or a value too small for a double. */
static const char *const bad_numbers[] = {"0x1p3", "0x10", "inf", "nan", "-nan", "1e999", "1e-400",
					  "1.5x", "1,5", "1e", ".", "\xef\xbc\x91" /* fullwidth 1 */};

static void test_numbers(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(bad_numbers) / sizeof(bad_numbers[0]); i++) {
		char line[64];
		snprintf(line, sizeof(line), "write_settle_ms = %s", bad_numbers[i]);
		char *t = replaced(good_model, "queue_depth = 4", line);
		bad_model(t, "bad.model:10: field 'write_settle_ms'", NULL);
		free(t);
	}
	char *t = replaced(good_model, "queue_depth = 4", "write_settle_ms =");
	bad_model(t, "bad.model:10: field 'write_settle_ms'", "not a number", NULL);
	free(t);
	/* exponents and signs read the same everywhere */
	t = replaced(good_model, "queue_depth = 4", "write_settle_ms = 2.5e-1\nhead_switch_ms = +0.5");
	struct iolab_disk_model m;
	struct iolab_err err = {{0}};
	assert_int_equal(iolab_model_parse("ok.model", t, &m, &err), 0);
	assert_int_equal(m.write_settle_ns, 250000);
	assert_int_equal(m.head_switch_ns, 500000);
	iolab_model_free(&m);
	free(t);
}

/* Imports a copy of the Atlas 10K files in which `file` has `from` replaced by `to`; the import
 * must fail with a message holding each NULL-terminated part. */
static void bad_import(const char *file, const char *from, const char *to, ...)
{
	static const char *const files[] = {"atlas10k.diskspecs", "atlas10k.model", "atlas10k.seek"};
	char dir[512];
	static unsigned seq;
	snprintf(dir, sizeof(dir), "%s/imp%u", tmpdir, seq++);
	assert_int_equal(mkdir(dir, 0755), 0);
	for (unsigned i = 0; i < 3; i++) {
		char src[1024], dst[1024];
		disksim_file(src, sizeof(src), files[i]);
		snprintf(dst, sizeof(dst), "%s/%s", dir, files[i]);
		char *text = th_read_file(src, NULL);
		if (!strcmp(files[i], file)) {
			char *t = replaced(text, from, to);
			free(text);
			text = t;
		}
		th_write_text(dst, text);
		free(text);
	}
	char spec[1024];
	snprintf(spec, sizeof(spec), "%s/atlas10k.diskspecs", dir);
	struct iolab_disk_model m;
	struct iolab_err err = {{0}};
	int rc = iolab_import_disksim(spec, &m, &err);
	if (rc == 0) {
		print_error("import should fail: %s: '%s' -> '%s'\n", file, from, to);
		iolab_model_free(&m);
		fail();
	}
	assert_null(strchr(err.msg, '\n'));
	va_list ap;
	va_start(ap, to);
	for (const char *p = va_arg(ap, const char *); p; p = va_arg(ap, const char *))
		assert_msg(err.msg, p);
	va_end(ap);
}

static void test_import_errors(void **state)
{
	(void)state;
	bad_import("atlas10k.diskspecs", "Scheduling policy = 1,", "Scheduling policy = 2,",
		   "atlas10k.diskspecs:20: field 'Scheduling policy'", "scheduling policy 2 not supported", NULL);
	bad_import("atlas10k.diskspecs", "Max queue length = 1,", "Max queue length = lots,",
		   "atlas10k.diskspecs:18: field 'Max queue length'", "not a number", NULL);
	bad_import("atlas10k.diskspecs", "Bulk sector transfer time = 0.099000,", "",
		   "field 'Bulk sector transfer time'", "missing", NULL);
	bad_import("atlas10k.diskspecs", "Model = source atlas10k.model,", "Model = source nothere.model,",
		   "atlas10k.diskspecs:2: field 'Model'", "nothere.model", NULL);
	bad_import("atlas10k.diskspecs", "Max queue length = 1,", "Max queue length = 1",
		   "atlas10k.diskspecs:19:", "expected ','", NULL);
	bad_import("atlas10k.diskspecs", "Print stats = 1,", "Print stats = 1,\n  Print stats = 0,",
		   "field 'Print stats'", "given twice", NULL);
	bad_import("atlas10k.diskspecs", "} # end of", "# end of", "no closing '}'", NULL);
	bad_import("atlas10k.model", "Sparing scheme used = 9,", "Sparing scheme used = 11,",
		   "atlas10k.model:24: field 'Sparing scheme used'", "not one of DiskSim's 0..10", NULL);
	bad_import("atlas10k.model", "Sparing scheme used = 9,", "Sparing scheme used = 7,",
		   "field 'Number of spares'", "must be 0", NULL);
	bad_import("atlas10k.model", "Seek type = extracted,", "Seek type = bezier,",
		   "atlas10k.model:8: field 'Seek type'", "not a DiskSim seek type", NULL);
	bad_import("atlas10k.model", "LBN-to-PBN mapping scheme = 1,", "LBN-to-PBN mapping scheme = 3,",
		   "field 'LBN-to-PBN mapping scheme'", NULL);
	bad_import("atlas10k.model", "Number of cylinders = 10042,", "Number of cylinders = -3,",
		   "atlas10k.model:3: field 'Number of cylinders'", "out of range", NULL);
	bad_import("atlas10k.model", "Blocks per track = 334,", "Blocks per track = [ 334 ],",
		   "field 'Blocks per track'", "must be a number", NULL);
	bad_import("atlas10k.model", "[ 55017, 358148,", "[ 55017, x358148,",
		   "field 'slips'", "item 2", NULL);
	bad_import("atlas10k.model", "Full seek curve = atlas10k.seek,", "Full seek curve = none.seek,",
		   "field 'Full seek curve'", "none.seek", NULL);
	bad_import("atlas10k.seek", "Seek distances measured: 138", "Seek distances measured: 139",
		   "atlas10k.seek:", "139 declared", NULL);
	bad_import("atlas10k.seek", "3,\t1.16300", "2,\t1.16300",
		   "atlas10k.seek:4: field 'distance'", "not larger", NULL);
	bad_import("atlas10k.seek", "Seek distances measured: 138", "Seek distances: 138",
		   "atlas10k.seek:1: field 'Seek distances measured'", NULL);
	/* (a Block count above the zones' total is no error: DiskSim replaces it by the total,
	 * test_import_atlas10k) */
}

/* Copies the Atlas 10K DiskSim files into a new directory, the .diskspecs under the name
 * `spec` with its `from` replaced by `to` (from may be NULL); writes the .diskspecs path. */
static void atlas_copy(char *spec, size_t n, const char *spec_name, const char *from, const char *to)
{
	static const char *const files[] = {"atlas10k.diskspecs", "atlas10k.model", "atlas10k.seek"};
	static unsigned seq;
	char dir[512];
	snprintf(dir, sizeof(dir), "%s/copy%u", tmpdir, seq++);
	assert_int_equal(mkdir(dir, 0755), 0);
	for (unsigned i = 0; i < 3; i++) {
		char src[1024], dst[1024];
		disksim_file(src, sizeof(src), files[i]);
		snprintf(dst, sizeof(dst), "%s/%s", dir, i ? files[i] : spec_name);
		char *text = th_read_file(src, NULL);
		if (!i && from) {
			char *t = replaced(text, from, to);
			free(text);
			text = t;
		}
		th_write_text(dst, text);
		free(text);
	}
	snprintf(spec, n, "%s/%s", dir, spec_name);
}

/* DiskSim's zero-latency reads (Immediate buffer read, manual §3.4.5 p24) and its "Read any free
 * blocks" (p19: sectors before the request that pass under the head are cached) are two
 * features: each sets its own field. */
static void test_import_free_blocks(void **state)
{
	(void)state;
	static const struct {
		const char *from, *to;
		bool zl, free;
	} cases[] = {
		{"Immediate buffer read = 1", "Immediate buffer read = 0", false, true},
		{"Read any free blocks = 1", "Read any free blocks = 0", true, false},
	};
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char spec[1024];
		atlas_copy(spec, sizeof(spec), "atlas10k.diskspecs", cases[i].from, cases[i].to);
		struct iolab_disk_model m;
		struct iolab_err err = {{0}};
		if (iolab_import_disksim(spec, &m, &err)) {
			print_error("%s\n", err.msg);
			fail();
		}
		assert_int_equal(m.zero_latency_read, cases[i].zl);
		assert_int_equal(m.read_free_blocks, cases[i].free);
		assert_true(m.zero_latency_write); /* Immediate buffer write = 1 */
		iolab_model_free(&m);
	}
}

/* The importer makes clean text of the file's stem (the name) and of DiskSim's name for the
 * drive (the about line), whatever bytes they hold, and the model it writes reads back. */
static void test_import_text(void **state)
{
	(void)state;
	char spec[1024];
	atlas_copy(spec, sizeof(spec), "b\xc3\xa4" "d\xff\x01name.v2.diskspecs",
		   "disksim_disk QUANTUM_TORNADO_validate", "disksim_disk Q\xff\xc3\xa4\x1b_validate");
	struct iolab_disk_model m, back;
	struct iolab_err err = {{0}};
	int rc = iolab_import_disksim(spec, &m, &err);
	if (rc) {
		print_error("%s\n", err.msg);
		fail();
	}
	assert_string_equal(m.name, "b__d__name.v2");
	assert_true(!strncmp(m.about, "Q_\xc3\xa4__validate: ", 16));
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_int_equal(iolab_model_write(&m, f), 0);
	assert_int_equal(fclose(f), 0);
	if (iolab_model_parse("imported.model", text, &back, &err)) {
		print_error("%s\n", err.msg);
		fail();
	}
	assert_string_equal(back.about, m.about);
	iolab_model_free(&back);
	iolab_model_free(&m);
	free(text);

	/* a long stem is cut to the longest name */
	char stem[128];
	memset(stem, 'x', 100);
	strcpy(stem + 100, ".diskspecs");
	atlas_copy(spec, sizeof(spec), stem, NULL, NULL);
	assert_int_equal(iolab_import_disksim(spec, &m, &err), 0);
	assert_int_equal(strlen(m.name), 63);
	iolab_model_free(&m);
}

/* The importer refuses what the model format refuses: contradicting figures, and numbers that
 * are not decimal (iolab_parse_decimal). */
static void test_import_checks(void **state)
{
	(void)state;
	/* zone 1 of the Atlas 10K: 433 cylinders x 6 surfaces x 334 sectors = 867822 sectors */
	bad_import("atlas10k.model", "[ 55017, 358148,", "[ 55017, 9358148,",
		   "atlas10k.model: zone 1: field 'slips'", "outside the zone", NULL);
	bad_import("atlas10k.model", "Full strobe seek time = 10.82800,", "Full strobe seek time = 1.0,",
		   "atlas10k.model: field 'seek_single_ms'", "longer than seek_full_ms", NULL);
	for (size_t i = 0; i < sizeof(bad_numbers) / sizeof(bad_numbers[0]); i++) {
		if (strchr(bad_numbers[i], ',') || !strcmp(bad_numbers[i], "0x10"))
			continue; /* a separator in DiskSim's syntax; a hexadecimal integer, which
				     DiskSim's libparam reads (manual §3 p6) */
		char to[64];
		snprintf(to, sizeof(to), "Bulk sector transfer time = %s,", bad_numbers[i]);
		bad_import("atlas10k.diskspecs", "Bulk sector transfer time = 0.099000,", to,
			   "field 'Bulk sector transfer time'", NULL);
	}
}

/* `iolab model show --json` and `iolab sim --json` of a model whose name is not UTF-8: the load
 * fails with the file, line and field, exit 2 (JSON cannot carry the name). */
static void test_cli_bad_text(void **state)
{
	(void)state;
	char path[512], json[512], where[600];
	snprintf(path, sizeof(path), "%s/latin1.model", tmpdir);
	snprintf(json, sizeof(json), "%s/latin1.json", tmpdir);
	char *t = replaced(good_model, "name = t", "name = caf\xe9");
	th_write_text(path, t);
	free(t);
	snprintf(where, sizeof(where), "%s:1: field 'name': is not valid UTF-8", path);
	struct th_out o = th_iolab("model", "show", path, "--json", NULL);
	assert_int_equal(o.status, 2);
	assert_msg(o.err, where);
	assert_int_equal(strlen(o.out), 0);
	th_out_free(&o);
	o = th_iolab("sim", "--model", path, "--pattern", "rand-read", "--time", "1", "--quiet",
		     "--json", json, NULL);
	assert_int_equal(o.status, 2);
	assert_msg(o.err, where);
	th_out_free(&o);
	struct stat st;
	assert_int_equal(stat(json, &st), -1);
}

static void test_cli(void **state)
{
	(void)state;
	char spec[1024], out[512];
	disksim_file(spec, sizeof(spec), "atlas10k.diskspecs");
	snprintf(out, sizeof(out), "%s/cli.model", tmpdir);

	struct th_out o = th_iolab("model", "import-disksim", spec, "-o", out, NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);
	struct iolab_disk_model m;
	struct iolab_err err = {{0}};
	assert_int_equal(iolab_model_load(out, &m, &err), 0);
	assert_int_equal(m.nzones, 24);
	iolab_model_free(&m);

	o = th_iolab("model", "import-disksim", spec, "-o", out, NULL); /* exists */
	assert_int_equal(o.status, 2);
	assert_msg(o.err, "exists");
	assert_msg(o.err, "--force");
	th_out_free(&o);
	o = th_iolab("model", "import-disksim", spec, "-o", out, "--force", NULL);
	assert_int_equal(o.status, 0);
	th_out_free(&o);

	o = th_iolab("model", "show", out, NULL);
	assert_int_equal(o.status, 0);
	assert_msg(o.out, "10025 rpm");
	assert_msg(o.out, "9.20 GB"); /* 17,966,953 blocks: the zones' total */
	assert_msg(o.out, "2.993 ms"); /* mean rotational latency */
	assert_msg(o.out, "28.57");    /* zone 1 media rate: 334 x 512 B / 5.985 ms */
	th_out_free(&o);
	o = th_iolab("model", "show", "sas15k", "--json", NULL);
	assert_int_equal(o.status, 0);
	assert_msg(o.out, "\"name\": \"sas15k\"");
	assert_msg(o.out, "\"seek_average_ms\"");
	th_out_free(&o);

	o = th_iolab("models", NULL);
	assert_int_equal(o.status, 0);
	assert_msg(o.out, "atlas10k");
	assert_msg(o.out, "sata7200");
	th_out_free(&o);
	o = th_iolab("model", "list", NULL);
	assert_int_equal(o.status, 0);
	assert_msg(o.out, "cheetah9LP");
	th_out_free(&o);

	o = th_iolab("model", "show", "nosuch", NULL);
	assert_int_equal(o.status, 2);
	assert_msg(o.err, "unknown model 'nosuch'");
	th_out_free(&o);
	o = th_iolab("model", "import-disksim", spec, NULL);
	assert_int_equal(o.status, 2);
	assert_msg(o.err, "-o");
	th_out_free(&o);
	const char *helps[][3] = {{"model", "--help", NULL}, {"model", "show", "--help"},
				  {"model", "import-disksim", "--help"}, {"models", "--help", NULL}};
	for (unsigned i = 0; i < 4; i++) {
		o = th_iolab(helps[i][0], helps[i][1], helps[i][2], NULL);
		assert_int_equal(o.status, 0);
		assert_msg(o.out, "usage: iolab model");
		th_out_free(&o);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_import_atlas10k),
		cmocka_unit_test(test_write_read_back),
		cmocka_unit_test(test_builtin_models),
		cmocka_unit_test(test_good_model),
		cmocka_unit_test(test_bad_models),
		cmocka_unit_test(test_zones_may_leave_gaps),
		cmocka_unit_test(test_text_fields),
		cmocka_unit_test(test_duplicate_fields),
		cmocka_unit_test(test_contradictions),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_import_errors),
		cmocka_unit_test(test_import_text),
		cmocka_unit_test(test_import_free_blocks),
		cmocka_unit_test(test_import_checks),
		cmocka_unit_test(test_cli),
		cmocka_unit_test(test_cli_bad_text),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
