/* test_subsys.c: the subsystem file and its interconnects (docs/subsystem-format.md). The
 * example of the format document (examples/subsystem.conf) reads into the expected
 * description; defaults and references written before their part; each model loaded once;
 * every rule of the document's "Rules" refused with one line naming file, line and field;
 * iolab_subsys_check of a description built by hand; the interconnect table against the rated
 * rates and kinds the document lists, and plain rates. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helpers.h"
#include "iolab/host_queue.h"
#include "iolab/subsys.h"

static struct iolab_subsys sub;


/* Writes text to DIR/name and loads it; returns the result and leaves the path in path. */
static int load_text(const char *name, const char *text, char *path, size_t n, struct iolab_err *err)
{
	snprintf(path, n, "%s/%s", th_dir, name);
	th_write_text(path, text);
	return iolab_subsys_load(path, &sub, err);
}

static void load_ok(const char *text)
{
	char path[512];
	struct iolab_err err = {{0}};
	int rc = load_text("ok.conf", text, path, sizeof(path), &err);
	if (rc) {
		print_error("refused: %s\n--- text ---\n%s", err.msg, text);
		fail();
	}
}

/* The text must be refused with one line "PATH:LINE: field 'FIELD': ..." holding needle
 * (line 0: "PATH: ..." with no line). */
static void expect_error_(int at, const char *text, unsigned line, const char *field, const char *needle)
{
	char path[512], want[700];
	struct iolab_err err = {{0}};
	int rc = load_text("bad.conf", text, path, sizeof(path), &err);
	if (line)
		snprintf(want, sizeof(want), "%s:%u: field '%s': ", path, line, field);
	else
		snprintf(want, sizeof(want), "%s: ", path);
	bool ok = rc == -EINVAL && !strncmp(err.msg, want, strlen(want)) && strstr(err.msg, needle) &&
		  !strchr(err.msg, '\n');
	if (!ok) {
		print_error("line %d: rc %d, message:\n  %s\nwanted it to start with\n  %s\nand hold '%s'"
			    "\n--- text ---\n%s", at, rc, err.msg, want, needle, text);
		if (!rc)
			iolab_subsys_free(&sub);
		fail();
	}
	/* nothing to free after a failure */
	assert_int_equal(sub.nmodel, 0);
}
#define expect_error(...) expect_error_(__LINE__, __VA_ARGS__)

/* The example in docs/subsystem-format.md, which tests/data holds as well. */
static void test_example(void **state)
{
	(void)state;
	char path[512];
	struct iolab_err err = {{0}};
	th_data_path(path, sizeof(path), "../../examples/subsystem.conf");
	if (iolab_subsys_load(path, &sub, &err)) {
		print_error("%s\n", err.msg);
		fail();
	}
	const struct iolab_subsys *s = &sub;
	assert_int_equal(s->host.sched, IOLAB_HOST_CSCAN);
	assert_int_equal(s->host.overhead_ns, 20000);
	assert_int_equal(s->host_stripe_bytes, 256 * 1024);

	assert_int_equal(s->nbus, 2);
	assert_string_equal(s->bus[0].name, "pci0");
	assert_int_equal(s->bus[0].up, -1);
	assert_string_equal(s->bus[0].type.name, "pci32-33");
	assert_int_equal(s->bus[0].type.kind, IOLAB_LINK_BUS);
	assert_true(s->bus[0].type.rated_mb_s == 133);
	assert_true(s->bus[0].type.efficiency == 0.75);
	assert_string_equal(s->bus[1].name, "pci1");
	assert_int_equal(s->bus[1].up, 0);
	assert_true(s->bus[1].type.rated_mb_s == 533);

	assert_int_equal(s->nctl, 1);
	const struct iolab_sub_controller *c = &s->ctl[0];
	assert_string_equal(c->name, "raid0");
	assert_int_equal(c->bus, 1);
	assert_int_equal(c->p.overhead_ns, 50000);
	assert_int_equal(c->p.cache_bytes, 64u << 20);
	assert_int_equal(c->p.write_policy, IOLAB_WP_BACK);
	assert_true(c->p.battery);
	assert_int_equal(c->p.read_ahead, IOLAB_RA_ADAPTIVE);
	assert_int_equal(c->p.read_ahead_bytes, 0);

	assert_int_equal(s->nchan, 2);
	for (unsigned i = 0; i < 2; i++) {
		assert_int_equal(s->chan[i].controller, 0);
		assert_string_equal(s->chan[i].type.name, "ultra160");
		assert_int_equal(s->chan[i].type.kind, IOLAB_LINK_SHARED);
		assert_int_equal(s->chan[i].type.max_devices, 16);
	}
	assert_string_equal(s->chan[1].name, "scsi1");

	static const char *const dname[] = {"a1", "a2", "a3", "a4", "b1", "b2", "b3", "b4", "spare"};
	assert_int_equal(s->ndrive, 9);
	for (unsigned i = 0; i < 9; i++) {
		assert_string_equal(s->drive[i].name, dname[i]);
		assert_int_equal(s->drive[i].channel, i < 4 ? 0 : 1);
		assert_int_equal(s->drive[i].model, 0);
		assert_int_equal(s->drive[i].write_cache, i >= 4 && i < 8 ? 0 : -1);
	}
	assert_int_equal(s->nmodel, 1); /* nine drives, one model loaded */
	assert_string_equal(s->model[0].name, "cheetah9LP");

	assert_int_equal(s->nvol, 2);
	for (unsigned v = 0; v < 2; v++) {
		assert_int_equal(s->vol[v].level, IOLAB_RAID5);
		assert_int_equal(s->vol[v].stripe_bytes, 65536);
		assert_int_equal(s->vol[v].n, 4);
		for (unsigned k = 0; k < 4; k++)
			assert_int_equal(s->vol[v].drive[k], 4 * v + k);
	}
	assert_int_equal(s->vol[0].failed[0], -1);
	assert_int_equal(s->vol[0].failed[1], -1);
	assert_int_equal(s->vol[0].rebuild_bytes_s, 0);
	assert_int_equal(s->vol[1].failed[0], 1); /* failed=2: the second drive, b2 */
	assert_int_equal(s->vol[1].failed[1], -1);
	assert_int_equal(s->vol[1].rebuild_bytes_s, 10u << 20);
	assert_int_equal(iolab_subsys_check(s, &err), 0);
	iolab_subsys_free(&sub);
	assert_int_equal(sub.nmodel, 0);
}

/* The first code block of docs/subsystem-format.md is examples/subsystem.conf. */
static void test_doc_example_is_the_data_file(void **state)
{
	(void)state;
	const char *src = getenv("IOLAB_SRC");
	if (!src)
		skip();
	char doc_path[512], data_path[512];
	snprintf(doc_path, sizeof(doc_path), "%s/docs/subsystem-format.md", src);
	th_data_path(data_path, sizeof(data_path), "../../examples/subsystem.conf");
	char *doc = th_read_file(doc_path, NULL), *data = th_read_file(data_path, NULL);
	char *start = strstr(doc, "```\n");
	assert_non_null(start);
	start += 4;
	char *end = strstr(start, "```\n");
	assert_non_null(end);
	*end = 0;
	assert_string_equal(start, data);
	free(doc);
	free(data);
}

static void test_defaults(void **state)
{
	(void)state;
	load_ok("drive d model=atlas10k\nvolume v level=none drives=d\n");
	assert_int_equal(sub.host.sched, IOLAB_HOST_NONE);
	assert_int_equal(sub.host.overhead_ns, 0);
	assert_int_equal(sub.host_stripe_bytes, 0);
	assert_int_equal(sub.nbus + sub.nctl + sub.nchan, 0);
	assert_int_equal(sub.drive[0].channel, -1);
	assert_int_equal(sub.drive[0].write_cache, -1);
	assert_int_equal(sub.vol[0].level, IOLAB_RAID_NONE);
	assert_int_equal(sub.vol[0].stripe_bytes, 64 * 1024);
	assert_int_equal(sub.vol[0].failed[0], -1);
	assert_int_equal(sub.vol[0].failed[1], -1);
	assert_int_equal(sub.vol[0].rebuild_bytes_s, 0);
	iolab_subsys_free(&sub);

	load_ok("controller c overhead=0\nchannel ch controller=c type=sata2\ndrive d channel=ch "
		"model=atlas10k write-cache=on\nvolume v level=none drives=d\n");
	const struct iolab_sub_controller *c = &sub.ctl[0];
	assert_int_equal(c->bus, -1);
	assert_int_equal(c->p.overhead_ns, 0);
	assert_int_equal(c->p.cache_bytes, 0);
	assert_int_equal(c->p.write_policy, IOLAB_WP_THROUGH);
	assert_true(c->p.battery);
	assert_int_equal(c->p.read_ahead, IOLAB_RA_NONE);
	assert_int_equal(sub.drive[0].write_cache, 1);
	iolab_subsys_free(&sub);
}

/* A part may be named before its line; tabs, comments, blank lines and CRLF line ends. */
static void test_forward_references(void **state)
{
	(void)state;
	load_ok("# volumes first\r\n"
		"volume v level=raid1 drives=d2,d1   # comment\r\n"
		"\r\n"
		"drive d1\tchannel=ch model=atlas10k\r\n"
		"drive d2 channel=ch model=atlas10k\r\n"
		"channel ch type=ultra320 controller=c\r\n"
		"controller c bus=b2\r\n"
		"bus b2 type=pcie2x4 up=b1\r\n"
		"bus b1 type=pcie3x8\r\n");
	assert_int_equal(sub.vol[0].drive[0], 1);
	assert_int_equal(sub.vol[0].drive[1], 0);
	assert_int_equal(sub.drive[0].channel, 0);
	assert_int_equal(sub.chan[0].controller, 0);
	assert_int_equal(sub.ctl[0].bus, 0);
	assert_int_equal(sub.bus[0].up, 1);
	assert_int_equal(sub.bus[1].up, -1);
	iolab_subsys_free(&sub);
}

/* Each distinct model once: built-in names and a model file (relative to the current
 * directory, or a path); a volume of different models is allowed. */
static void test_models_once(void **state)
{
	(void)state;
	char path[512], text[2048];
	struct iolab_disk_model m;
	struct iolab_err err;
	assert_int_equal(iolab_model_open("barracuda", &m, &err), 0);
	snprintf(path, sizeof(path), "%s/my.model", th_dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(iolab_model_write(&m, f), 0);
	assert_int_equal(fclose(f), 0);
	iolab_model_free(&m);
	snprintf(text, sizeof(text), "drive d1 model=atlas10k\ndrive d2 model=%s\ndrive d3 model=atlas10k\n"
		 "drive d4 model=%s\nvolume v level=raid1 drives=d1,d2,d3,d4\n", path, path);
	load_ok(text);
	assert_int_equal(sub.nmodel, 2);
	assert_int_equal(sub.drive[0].model, 0);
	assert_int_equal(sub.drive[1].model, 1);
	assert_int_equal(sub.drive[2].model, 0);
	assert_int_equal(sub.drive[3].model, 1);
	assert_string_equal(sub.model[1].name, "barracuda");
	iolab_subsys_free(&sub);
}

/* Values that do not parse, and lines that are not "KIND NAME key=value". */
static void test_errors_values(void **state)
{
	(void)state;
	const char *vol = "volume v level=none drives=d\n";
	char t[1024];
#define WITH(line) (snprintf(t, sizeof(t), "%s%s", line, vol), t)
	expect_error(WITH("disk d model=atlas10k\n"), 1, "kind", "'disk' is not a kind");
	expect_error(WITH("drive d model=atlas10k speed=3\n"), 1, "speed",
		     "not a key of a drive (model, channel, write-cache)");
	expect_error(WITH("drive d model=atlas10k model=barracuda\n"), 1, "model", "given twice");
	expect_error(WITH("drive d model=\n"), 1, "model", "has no value");
	expect_error(WITH("drive d model=atlas10k fast\n"), 1, "fast", "expected key=value");
	expect_error(WITH("drive d model=atlas10k =3\n"), 1, "=", "expected key=value");
	expect_error(WITH("drive d channel=c\n"), 1, "model", "missing: a drive needs model=");
	expect_error("drive d model=atlas10k\nvolume v drives=d\n", 2, "level", "missing");
	expect_error("drive d model=atlas10k\nvolume v level=none\n", 2, "drives", "missing");
	expect_error(WITH("bus b\ndrive d model=atlas10k\n"), 1, "type", "missing");
	expect_error(WITH("bus type=pci32-33\ndrive d model=atlas10k\n"), 1, "name",
		     "a bus line is: bus NAME");
	expect_error(WITH("drive\n"), 1, "name", "a drive line is");
	expect_error(WITH("drive d/1 model=atlas10k\n"), 1, "name", "'d/1' is not a name");
	expect_error(WITH("drive d0123456789012345678901234567890 model=atlas10k\n"), 1, "name",
		     "is not a name");
	expect_error(WITH("host h scheduler=cscan\ndrive d model=atlas10k\n"), 1, "name",
		     "the host takes no name");
	expect_error(WITH("host\ndrive d model=atlas10k\nhost scheduler=none\n"), 3, "kind",
		     "the host is given twice (line 1)");
	expect_error(WITH("host scheduler=elevator\ndrive d model=atlas10k\n"), 1, "scheduler",
		     "'elevator' is not a host scheduler");
	expect_error(WITH("host overhead=20\ndrive d model=atlas10k\n"), 1, "overhead",
		     "'20' needs a unit");
	expect_error("drive d model=atlas10k\nvolume v level=none drives=d capacity=1G\n", 2,
		     "capacity", "not a key of a volume (level, drives, stripe, failed, rebuild-rate, "
		     "size, offset)");
	expect_error(WITH("host overhead=0.5\ndrive d model=atlas10k\n"), 1, "overhead",
		     "'0.5' needs a unit");
	expect_error(WITH("host overhead=fast\ndrive d model=atlas10k\n"), 1, "overhead",
		     "is not a duration");
	expect_error(WITH("controller c overhead=2s\ndrive d model=atlas10k\n"), 1, "overhead",
		     "more than 1 s");
	expect_error(WITH("host stripe=64q\ndrive d model=atlas10k\n"), 1, "stripe",
		     "unknown size suffix");
	expect_error(WITH("controller c cache=lots\ndrive d model=atlas10k\n"), 1, "cache",
		     "is not a size");
	expect_error(WITH("controller c write-policy=lazy\ndrive d model=atlas10k\n"), 1,
		     "write-policy", "'lazy' is not a write policy (write-through, write-back)");
	expect_error(WITH("controller c read-ahead=sometimes\ndrive d model=atlas10k\n"), 1,
		     "read-ahead", "is not a read-ahead mode (none, always, adaptive)");
	expect_error(WITH("controller c write-policy=write-back\ndrive d model=atlas10k\n"), 1,
		     "write-policy", "write-back needs a cache (cache=SIZE)");
	expect_error(WITH("controller c read-ahead=adaptive cache=0\ndrive d model=atlas10k\n"), 1,
		     "read-ahead", "adaptive read-ahead needs a cache");
	expect_error(WITH("controller c cache=1m read-ahead-size=0\ndrive d model=atlas10k\n"), 1,
		     "read-ahead-size", "must be more than 0 (read-ahead=none turns read-ahead off)");
	expect_error(WITH("host stripe=0\ndrive d model=atlas10k\n"), 1, "stripe",
		     "must be more than 0");
	expect_error(WITH("host stripe=1000\ndrive d model=atlas10k\n"), 1, "stripe",
		     "1000 bytes is not a multiple of 512");
	expect_error(WITH("controller c battery=maybe\ndrive d model=atlas10k\n"), 1, "battery",
		     "is not a yes/no value");
	expect_error(WITH("drive d model=atlas10k write-cache=auto\n"), 1, "write-cache",
		     "is not a yes/no value");
	expect_error(WITH("bus b type=4x\ndrive d model=atlas10k\n"), 1, "type",
		     "'4x' is neither an I/O bus (pci32-33,");
	expect_error(WITH("drive d model=atlas10k write-cache=\x1b[31mon\n"), 1, "text",
		     "field 4 of the line holds a control character (byte 13)");
	expect_error(WITH("drive d\xff model=atlas10k\n"), 1, "text",
		     "field 2 of the line is not valid UTF-8 (byte 2)");
	expect_error(WITH("bus b type=pci99\ndrive d model=atlas10k\n"), 1, "type",
		     "'pci99' is neither an I/O bus (pci32-33,");
	expect_error(WITH("bus b type=ultra160\ndrive d model=atlas10k\n"), 1, "type",
		     "'ultra160' is a drive channel, not an I/O bus");
	expect_error(WITH("channel c type=pci64-66\ndrive d model=atlas10k\n"), 1, "type",
		     "'pci64-66' is a host I/O bus, not a drive channel");
	expect_error(WITH("drive d model=nosuch\n"), 1, "model", "unknown model 'nosuch'");
	expect_error("drive d model=atlas10k\nvolume v level=raid3 drives=d\n", 2, "level",
		     "'raid3' is not a level (none, raid0, raid1, raid10, raid4, raid5, raid6)");
	expect_error("drive d model=atlas10k\nvolume v level=none drives=d,,e\n", 2, "drives",
		     "has an empty item");
	expect_error("drive d model=atlas10k\nvolume v level=none drives=d failed=x\n", 2, "failed",
		     "is not a whole number");
	expect_error("drive d model=atlas10k\nvolume v level=none drives=d failed=2+2\n", 2, "failed",
		     "names drive 2 twice");
	expect_error("drive d model=atlas10k\nvolume v level=none drives=d failed=1+2+3\n", 2,
		     "failed", "is not N or N+M");
	expect_error("drive d model=atlas10k\nvolume v level=none drives=d rebuild-rate=0\n", 2,
		     "rebuild-rate", "more than 0 bytes/s");
	expect_error("drive d model=atlas10k\nvolume v level=none drives=d stripe=-1\n", 2, "stripe",
		     "is not a size");
#undef WITH
	char *longline = malloc(5000);
	assert_non_null(longline);
	memset(longline, ' ', 4999);
	longline[4999] = 0;
	memcpy(longline, "# ", 2);
	char *text = malloc(6000);
	assert_non_null(text);
	snprintf(text, 6000, "drive d model=atlas10k\n%s\n%s", longline, vol);
	char path[512];
	struct iolab_err err;
	assert_int_equal(load_text("long.conf", text, path, sizeof(path), &err), -EINVAL);
	assert_non_null(strstr(err.msg, ":2: line is too long"));
	free(text);
	free(longline);
}

/* Names, references and the rules between lines: each on the line the docs say. */
static void test_errors_references(void **state)
{
	(void)state;
	expect_error("drive d model=atlas10k\nbus d type=pci32-33\nvolume v level=none drives=d\n", 2,
		     "name", "'d' is already the name of a drive (line 1)");
	expect_error("drive d model=atlas10k channel=ch9\nvolume v level=none drives=d\n", 1,
		     "channel", "no channel 'ch9' in the file");
	expect_error("drive d model=atlas10k channel=pci0\nbus pci0 type=pci32-33\n"
		     "volume v level=none drives=d\n", 1, "channel",
		     "'pci0' is a bus (line 2), not a channel");
	expect_error("volume v level=none drives=d,x\ndrive d model=atlas10k\n", 1, "drives",
		     "no drive 'x' in the file");
	expect_error("channel ch type=sata1 controller=d\ndrive d model=atlas10k channel=ch\n"
		     "volume v level=none drives=d\n", 1, "controller",
		     "'d' is a drive (line 2), not a controller");
	expect_error("controller c bus=v\ndrive d model=atlas10k\nvolume v level=none drives=d\n", 1,
		     "bus", "'v' is a volume (line 3), not a bus");
	expect_error("bus a type=pci32-33 up=b\nbus b type=pci32-33 up=a\ndrive d model=atlas10k\n"
		     "volume v level=none drives=d\n", 2, "up", "bridged in a cycle: b -> a -> b");
	expect_error("bus c type=pcie1x4 up=a\nbus a type=pci32-33 up=a\ndrive d model=atlas10k\n"
		     "volume v level=none drives=d\n", 2, "up", "bridged in a cycle: a -> a");
	expect_error("bus a type=pci32-33 up=c\nbus b type=pci32-33 up=a\nbus c type=pci32-33 up=b\n"
		     "drive d model=atlas10k\nvolume v level=none drives=d\n", 3, "up",
		     "bridged in a cycle: c -> b -> a -> c");
	expect_error("drive d1 model=atlas10k\ndrive d2 model=atlas10k\ndrive d3 model=atlas10k\n"
		     "volume v0 level=raid1 drives=d1,d2\nvolume v1 level=raid1 drives=d3,d2\n", 5,
		     "drives", "'d2' is taken to its end by volume 'v0': give 'v0' a size= to share "
		     "its drives");
	expect_error("drive d1 model=atlas10k\ndrive d2 model=atlas10k\n"
		     "volume v0 level=raid1 drives=d1,d2,d1\n", 3, "drives", "'d1' is listed twice");
	expect_error("drive d model=atlas10k\n", 0, "", "no volume");
	expect_error("# nothing\n", 0, "", "no volume");
}

/* Drive counts, stripe units, failed drives, controllers and channel limits. */
static void test_errors_rules(void **state)
{
	(void)state;
	char t[4096];
	/* Four drives d1..d4 on one controller, then one volume line. */
	const char *four = "drive d1 model=atlas10k\ndrive d2 model=atlas10k\ndrive d3 model=atlas10k\n"
			   "drive d4 model=atlas10k\ndrive d5 model=atlas10k\ndrive d6 model=atlas10k\n";
#define V(line) (snprintf(t, sizeof(t), "%s%s\n", four, line), t)
	expect_error(V("volume v level=none drives=d1,d2"), 7, "drives", "level none is one drive");
	expect_error(V("volume v level=raid1 drives=d1"), 7, "drives",
		     "raid1 needs at least 2 drives; 'v' has 1");
	expect_error(V("volume v level=raid10 drives=d1,d2"), 7, "drives",
		     "raid10 needs at least 4 drives");
	expect_error(V("volume v level=raid10 drives=d1,d2,d3,d4,d5"), 7, "drives",
		     "5 drives is not an even count");
	expect_error(V("volume v level=raid4 drives=d1,d2"), 7, "drives", "raid4 needs at least 3");
	expect_error(V("volume v level=raid5 drives=d1,d2"), 7, "drives", "raid5 needs at least 3");
	expect_error(V("volume v level=raid6 drives=d1,d2,d3"), 7, "drives", "raid6 needs at least 4");
	expect_error(V("volume v level=raid0 stripe=1000 drives=d1,d2"), 7, "stripe",
		     "1000 bytes is not a multiple of 512");
	expect_error(V("volume v level=raid0 stripe=0 drives=d1,d2"), 7, "stripe", "not a multiple");
	expect_error(V("volume v level=raid0 stripe=2G drives=d1,d2"), 7, "stripe", "up to 1 GiB");
	expect_error(V("volume v level=raid5 drives=d1,d2,d3 failed=4"), 7, "failed",
		     "drive 4 is out of range: the volume has 3 drives");
	expect_error(V("volume v level=raid5 drives=d1,d2,d3 failed=1+2"), 7, "failed",
		     "raid5 survives one failed drive, not two");
	expect_error(V("volume v level=raid1 drives=d1,d2,d3 failed=1+2"), 7, "failed",
		     "raid1 survives one failed drive, not two");
	expect_error(V("volume v level=raid4 drives=d1,d2,d3 failed=3+1"), 7, "failed",
		     "raid4 survives one");
	expect_error(V("volume v level=raid0 drives=d1,d2 failed=1"), 7, "failed",
		     "raid0 has no redundancy");
	expect_error(V("volume v level=none drives=d1 failed=1"), 7, "failed", "none has no redundancy");
	expect_error(V("volume v level=raid10 drives=d1,d2,d3,d4 failed=4+3"), 7, "failed",
		     "drives 3 and 4 are the two copies of a mirrored pair");
	expect_error(V("volume v level=raid6 drives=d1,d2,d3,d4 failed=1+5"), 7, "failed",
		     "drive 5 is out of range");
	expect_error(V("volume v level=raid5 drives=d1,d2,d3 rebuild-rate=10M"), 7, "rebuild-rate",
		     "no failed drive to rebuild");
#undef V
	/* Survivable failures are accepted. */
	snprintf(t, sizeof(t), "%svolume v level=raid10 drives=d1,d2,d3,d4 failed=1+3\n"
		 "volume w level=raid6 drives=d5,d6,x1,x2 failed=2+4 rebuild-rate=20MB/s\n"
		 "drive x1 model=atlas10k\ndrive x2 model=atlas10k\n", four);
	load_ok(t);
	assert_int_equal(sub.vol[0].failed[0], 0);
	assert_int_equal(sub.vol[0].failed[1], 2);
	assert_int_equal(sub.vol[1].failed[0], 1);
	assert_int_equal(sub.vol[1].failed[1], 3);
	assert_int_equal(sub.vol[1].rebuild_bytes_s, 20000000);
	iolab_subsys_free(&sub);

	/* A volume's drives hang from one controller. */
	const char *two = "controller c0\ncontroller c1\nchannel h0 controller=c0 type=wide-ultra-scsi\n"
			  "channel h1 controller=c1 type=wide-ultra-scsi\nchannel h2 type=sata1\n"
			  "drive d1 model=atlas10k channel=h0\ndrive d2 model=atlas10k channel=h0\n"
			  "drive d3 model=atlas10k channel=h1\ndrive d4 model=atlas10k channel=h2\n"
			  "drive d5 model=atlas10k\n";
	snprintf(t, sizeof(t), "%svolume v level=raid5 drives=d1,d2,d3\n", two);
	expect_error(t, 11, "drives", "'d1' is on controller 'c0' and 'd3' on controller 'c1'");
	snprintf(t, sizeof(t), "%svolume v level=raid1 drives=d1,d4\n", two);
	expect_error(t, 11, "drives", "'d1' is on controller 'c0' and 'd4' on no controller");
	snprintf(t, sizeof(t), "%svolume v level=raid1 drives=d4,d5\n", two); /* neither on one */
	load_ok(t);
	iolab_subsys_free(&sub);

	/* Channel limits: the drive one too many is the line named. */
	expect_error("channel s type=sata1\ndrive d1 model=atlas10k channel=s\n"
		     "drive d2 model=atlas10k channel=s\nvolume v level=raid1 drives=d1,d2\n", 3,
		     "channel", "channel 's' (sata1) takes at most 1 drives; 'd2' is one more");
	expect_error("channel a type=ata100\ndrive d1 model=atlas10k channel=a\n"
		     "drive d2 model=atlas10k channel=a\ndrive d3 model=atlas10k channel=a\n"
		     "volume v level=raid5 drives=d1,d2,d3\n", 4, "channel", "takes at most 2 drives");
	size_t n = (size_t)snprintf(t, sizeof(t), "channel f type=fast-scsi\n");
	for (unsigned i = 1; i <= 9; i++)
		n += (size_t)snprintf(t + n, sizeof(t) - n, "drive d%u model=atlas10k channel=f\n", i);
	snprintf(t + n, sizeof(t) - n, "volume v level=raid0 drives=d1\n");
	expect_error(t, 10, "channel", "channel 'f' (fast-scsi) takes at most 8 drives; 'd9'");
	n = (size_t)snprintf(t, sizeof(t), "channel w type=wide-ultra-scsi\n");
	for (unsigned i = 1; i <= 16; i++)
		n += (size_t)snprintf(t + n, sizeof(t) - n, "drive d%u model=atlas10k channel=w\n", i);
	snprintf(t + n, sizeof(t) - n, "volume v level=raid0 drives=d1,d16\n");
	load_ok(t); /* 16 drives on a wide bus */
	iolab_subsys_free(&sub);
}

/* A RAID 1 of two drives, a bus, a controller and a channel, none of them connected. */
static void build(struct iolab_subsys *s)
{
	memset(s, 0, sizeof(*s));
	assert_int_equal(iolab_link_parse("bus", "pci32-33", true, &s->bus[0].type, NULL), 0);
	snprintf(s->bus[0].name, IOLAB_SUBSYS_NAME, "pci0");
	s->bus[0].up = -1;
	s->nbus = 1;
	snprintf(s->ctl[0].name, IOLAB_SUBSYS_NAME, "c0");
	s->ctl[0].bus = -1;
	s->ctl[0].p.battery = true;
	s->nctl = 1;
	snprintf(s->chan[0].name, IOLAB_SUBSYS_NAME, "ch0");
	assert_int_equal(iolab_link_parse("chan", "ultra160", false, &s->chan[0].type, NULL), 0);
	s->chan[0].controller = -1;
	s->nchan = 1;
	for (unsigned i = 0; i < 2; i++) {
		snprintf(s->drive[i].name, IOLAB_SUBSYS_NAME, "d%u", i);
		s->drive[i].write_cache = -1;
		s->drive[i].channel = -1;
		s->vol[0].drive[i] = i;
	}
	s->ndrive = 2;
	s->nmodel = 1;
	s->model[0].block_bytes = 512;
	s->model[0].blocks = 1000000;
	snprintf(s->vol[0].name, IOLAB_SUBSYS_NAME, "v0");
	s->vol[0].level = IOLAB_RAID1;
	s->vol[0].n = 2;
	s->vol[0].stripe_bytes = 65536;
	s->vol[0].failed[0] = s->vol[0].failed[1] = -1;
	s->nvol = 1;
}

static void check_fails(int at, const struct iolab_subsys *s, const char *start)
{
	struct iolab_err err = {{0}};
	int rc = iolab_subsys_check(s, &err);
	if (rc != -EINVAL || strncmp(err.msg, start, strlen(start)) || strchr(err.msg, '\n')) {
		print_error("line %d: rc %d, '%s', wanted it to start with '%s'\n", at, rc, err.msg, start);
		fail();
	}
}
#define EXPECT_CHECK(start) (check_fails(__LINE__, &sub, start), build(&sub))

static void test_check_by_hand(void **state)
{
	(void)state;
	struct iolab_err err;
	build(&sub);
	assert_int_equal(iolab_subsys_check(&sub, &err), 0);
	sub.drive[0].channel = 0; /* placing the drives keeps it valid */
	sub.drive[1].channel = 0;
	sub.chan[0].controller = 0;
	sub.ctl[0].bus = 0;
	assert_int_equal(iolab_subsys_check(&sub, &err), 0);

	build(&sub);
	sub.bus[0].up = 1;
	EXPECT_CHECK("bus 'pci0': field 'up': bus index 1 is out of range");
	sub.bus[0].up = 0;
	EXPECT_CHECK("bus 'pci0': field 'up': bridged in a cycle: pci0 -> pci0");
	sub.ctl[0].bus = 3;
	EXPECT_CHECK("controller 'c0': field 'bus': bus index 3 is out of range");
	sub.ctl[0].p.write_policy = 7;
	EXPECT_CHECK("controller 'c0': field 'write-policy'");
	sub.ctl[0].p.read_ahead = 3;
	EXPECT_CHECK("controller 'c0': field 'read-ahead'");
	sub.chan[0].controller = -2;
	EXPECT_CHECK("channel 'ch0': field 'controller': controller index -2 is out of range");
	sub.chan[0].type.efficiency = 0;
	EXPECT_CHECK("channel 'ch0': field 'type': the efficiency must be more than 0");
	sub.chan[0].type.efficiency = 1.5;
	EXPECT_CHECK("channel 'ch0': field 'type': the efficiency");
	sub.bus[0].type.rated_mb_s = 0;
	EXPECT_CHECK("bus 'pci0': field 'type': the rated rate must be more than 0");
	sub.chan[0].type = sub.bus[0].type;
	EXPECT_CHECK("channel 'ch0': field 'type': 'pci32-33' is an I/O bus, not a drive channel");
	sub.drive[1].channel = 1;
	EXPECT_CHECK("drive 'd1': field 'channel': channel index 1 is out of range");
	sub.drive[0].model = 1;
	EXPECT_CHECK("drive 'd0': field 'model': model index 1 is out of range");
	sub.drive[0].write_cache = 2;
	EXPECT_CHECK("drive 'd0': field 'write-cache'");
	sub.drive[1].name[0] = 0;
	EXPECT_CHECK("drive '': field 'name': a drive needs a name");
	memset(sub.drive[1].name, 'x', IOLAB_SUBSYS_NAME); /* not terminated */
	EXPECT_CHECK("drive '': field 'name'");
	snprintf(sub.drive[1].name, IOLAB_SUBSYS_NAME, "ch0");
	EXPECT_CHECK("drive 'ch0': field 'name': 'ch0' is already the name of a channel");
	snprintf(sub.vol[0].name, IOLAB_SUBSYS_NAME, "d1");
	EXPECT_CHECK("volume 'd1': field 'name': 'd1' is already the name of a drive");
	sub.vol[0].n = 1; /* a mirror of one copy: the command line's baseline (raid1:1) */
	assert_int_equal(iolab_subsys_check(&sub, &err), 0);
	sub.vol[0].level = IOLAB_RAID5;
	EXPECT_CHECK("volume 'v0': field 'drives': raid5 needs at least 3 drives, not 1");
	sub.vol[0].level = 9;
	EXPECT_CHECK("volume 'v0': field 'level': 9 is not a level");
	sub.vol[0].n = 0;
	EXPECT_CHECK("volume 'v0': field 'drives': a volume has 1 to 64 drives, not 0");
	sub.vol[0].drive[1] = 2;
	EXPECT_CHECK("volume 'v0': field 'drives': drive index 2 is out of range");
	sub.vol[0].failed[1] = 1; /* failed[0] unset: one failed drive, the second */
	assert_int_equal(iolab_subsys_check(&sub, &err), 0);
	sub.vol[0].failed[0] = 5;
	EXPECT_CHECK("volume 'v0': field 'failed': drive 6 is out of range: the volume has 2 drives");
	sub.vol[0].failed[0] = 0;
	sub.vol[0].failed[1] = 0;
	EXPECT_CHECK("volume 'v0': field 'failed': names drive 1 twice");
	sub.vol[0].rebuild_bytes_s = 1000;
	EXPECT_CHECK("volume 'v0': field 'rebuild-rate': there is no failed drive");
	sub.vol[0].stripe_bytes = 513;
	EXPECT_CHECK("volume 'v0': field 'stripe': 513 bytes is not a multiple of 512");
	sub.nmodel = 2;
	sub.model[1].block_bytes = 4096;
	sub.drive[1].model = 1;
	EXPECT_CHECK("volume 'v0': field 'drives': 'd0' has blocks of 512 bytes and 'd1' of 4096");
	sub.drive[0].channel = 0;
	sub.chan[0].controller = 0;
	EXPECT_CHECK("volume 'v0': field 'drives': 'd0' is on controller 'c0' and 'd1' on no controller");
	sub.host.sched = IOLAB_HOST_NSCHED;
	EXPECT_CHECK("host '': field 'scheduler'");
	sub.host_stripe_bytes = 100;
	EXPECT_CHECK("host '': field 'stripe'");
	sub.nvol = 0;
	EXPECT_CHECK("subsystem: no volume");
	sub.ndrive = IOLAB_SUBSYS_DRIVES + 1;
	EXPECT_CHECK("subsystem: too many parts");
}

/* The table holds the interconnects docs/subsystem-format.md lists, with their rated rates
 * (10^6 bytes/s) and how devices share them. */
static void test_link_table(void **state)
{
	(void)state;
	static const struct {
		const char *name;
		double rated;
		enum iolab_link_kind kind;
		unsigned max;
	} want[] = {
		{"pci32-33", 133, IOLAB_LINK_BUS, 0}, {"pci64-33", 266, IOLAB_LINK_BUS, 0},
		{"pci64-66", 533, IOLAB_LINK_BUS, 0}, {"pcix-133", 1066, IOLAB_LINK_BUS, 0},
		{"pcie1x1", 250, IOLAB_LINK_BUS, 0}, {"pcie1x4", 1000, IOLAB_LINK_BUS, 0},
		{"pcie1x8", 2000, IOLAB_LINK_BUS, 0}, {"pcie2x4", 2000, IOLAB_LINK_BUS, 0},
		{"pcie2x8", 4000, IOLAB_LINK_BUS, 0}, {"pcie3x4", 3938, IOLAB_LINK_BUS, 0},
		{"pcie3x8", 7877, IOLAB_LINK_BUS, 0}, {"pcie3x16", 15754, IOLAB_LINK_BUS, 0},
		{"pcie4x4", 7877, IOLAB_LINK_BUS, 0}, {"pcie4x8", 15754, IOLAB_LINK_BUS, 0},
		{"pcie4x16", 31508, IOLAB_LINK_BUS, 0},
		{"fast-scsi", 10, IOLAB_LINK_SHARED, 8}, {"fast-wide-scsi", 20, IOLAB_LINK_SHARED, 16},
		{"ultra-scsi", 20, IOLAB_LINK_SHARED, 8}, {"wide-ultra-scsi", 40, IOLAB_LINK_SHARED, 16},
		{"ultra2-scsi", 80, IOLAB_LINK_SHARED, 16}, {"ultra160", 160, IOLAB_LINK_SHARED, 16},
		{"ultra320", 320, IOLAB_LINK_SHARED, 16}, {"ata33", 33.3, IOLAB_LINK_EXCLUSIVE, 2},
		{"ata66", 66.7, IOLAB_LINK_EXCLUSIVE, 2}, {"ata100", 100, IOLAB_LINK_EXCLUSIVE, 2},
		{"ata133", 133, IOLAB_LINK_EXCLUSIVE, 2}, {"sata1", 150, IOLAB_LINK_P2P, 1},
		{"sata2", 300, IOLAB_LINK_P2P, 1}, {"sata3", 600, IOLAB_LINK_P2P, 1},
		{"sas1", 300, IOLAB_LINK_P2P, 1}, {"sas2", 600, IOLAB_LINK_P2P, 1},
		{"sas3", 1200, IOLAB_LINK_P2P, 1}, {"fc1", 100, IOLAB_LINK_SHARED, 126},
		{"fc2", 200, IOLAB_LINK_SHARED, 126}, {"fc4", 400, IOLAB_LINK_SHARED, 126},
	};
	const unsigned n = sizeof(want) / sizeof(want[0]);
	unsigned count = 0;
	while (iolab_link_at(count))
		count++;
	assert_int_equal(count, n);
	for (unsigned i = 0; i < n; i++) {
		const struct iolab_link_type *t = iolab_link_at(i);
		assert_string_equal(t->name, want[i].name);
		assert_true(t->rated_mb_s == want[i].rated);
		assert_int_equal(t->kind, want[i].kind);
		assert_int_equal(t->max_devices, want[i].max);
		assert_true(t->efficiency > 0.5 && t->efficiency <= 1);
		assert_true(t->overhead_ns > 0 && t->overhead_ns <= 20000);
		struct iolab_link_type got;
		struct iolab_err err;
		assert_int_equal(iolab_link_parse("f", want[i].name, t->kind == IOLAB_LINK_BUS, &got,
						  &err), 0);
		assert_memory_equal(&got, t, sizeof(got));
	}
	/* Published protocol figures for three of them (links.c gives the sources): 32-bit 33 MHz
	 * PCI keeps about 100 of 133 MB/s; PCIe TLP overhead 0.8; Ultra320 packetized commands
	 * cost fewer microseconds than Ultra160's phases. */
	assert_true(fabs(133 * iolab_link_at(0)->efficiency - 100) < 1);
	assert_true(iolab_link_at(7)->efficiency == 0.8);
	assert_string_equal(iolab_link_at(21)->name, "ultra320");
	assert_true(iolab_link_at(21)->overhead_ns < iolab_link_at(20)->overhead_ns);
}

static void test_link_parse(void **state)
{
	(void)state;
	struct iolab_link_type t;
	struct iolab_err err;
	assert_int_equal(iolab_link_parse("f", "Wide-Ultra-SCSI", false, &t, &err), 0);
	assert_string_equal(t.name, "wide-ultra-scsi");
	assert_int_equal(t.max_devices, 16);

	assert_int_equal(iolab_link_parse("f", "40M", false, &t, &err), 0);
	assert_string_equal(t.name, "40M");
	assert_int_equal(t.kind, IOLAB_LINK_SHARED);
	assert_true(t.rated_mb_s == 40 * 1048576 / 1e6); /* k, m, g count in 1024s in iolab */
	assert_true(t.efficiency == 1);
	assert_int_equal(t.overhead_ns, 0);
	assert_int_equal(t.max_devices, 0);
	assert_int_equal(iolab_link_parse("f", "40MB/s", false, &t, &err), 0);
	assert_true(t.rated_mb_s == 40);
	assert_string_equal(t.name, "40MB/s");
	assert_int_equal(iolab_link_parse("f", "1.5G", true, &t, &err), 0);
	assert_int_equal(t.kind, IOLAB_LINK_BUS);
	assert_true(t.rated_mb_s == 1.5 * 1073741824 / 1e6);
	assert_int_equal(iolab_link_parse("f", "100MB/s", true, &t, &err), 0);
	assert_true(t.rated_mb_s == 100);
	/* a PCIe name with a hyphen between generation and width is the name in the table */
	static const char *const hyphen[][2] = {{"pcie3-x8", "pcie3x8"}, {"PCIe3-X4", "pcie3x4"},
						{"pcie4-x16", "pcie4x16"}, {"pcie1-x1", "pcie1x1"}};
	for (unsigned i = 0; i < sizeof(hyphen) / sizeof(hyphen[0]); i++) {
		assert_int_equal(iolab_link_parse("f", hyphen[i][0], true, &t, &err), 0);
		assert_string_equal(t.name, hyphen[i][1]);
	}

	static const struct {
		const char *text;
		bool bus;
		const char *msg;
	} bad[] = {
		{"fast", false, "f: 'fast' is neither a drive channel (fast-scsi, fast-wide-scsi,"},
		{"sata9", false, "nor a rate (40M, 40MB/s, 1.5G)"},
		{"pcie9", true, "f: 'pcie9' is neither an I/O bus (pci32-33,"},
		{"sas2", true, "f: 'sas2' is a drive channel, not an I/O bus"},
		{"pcix-133", false, "f: 'pcix-133' is a host I/O bus, not a drive channel"},
		{"", false, "is neither"},
		{"/s", false, "is neither"},
		{"40Q", false, "f: '40Q' is neither a drive channel"},
		{"0", false, "f: '0' is out of range"},
		{"999", false, "f: '999' is out of range"},
		{"20T", false, "is out of range"},
		{"4.5", false, "is neither"},
		{"100000000000000000000000000000000000", false, "is neither"},
		{"16000000000000000000", false, "is out of range"},
		{"16000000000T", false, "is neither"},
		{"1000000000000000000000000000000000000000000000000000000000000000000", false,
		 "is neither"},
		{"0000000000000000000000000000000000000040M", false, "is too long"},
		{"pcie3-x", true, "f: 'pcie3-x' is neither an I/O bus"},
		{"pcie-x8", true, "f: 'pcie-x8' is neither an I/O bus"},
		{"pcie3--x8", true, "f: 'pcie3--x8' is neither an I/O bus"},
		{"pcie3-x8a", true, "f: 'pcie3-x8a' is neither an I/O bus"},
		{"pcie3-x2", true, "f: 'pcie3-x2' is neither an I/O bus"},
		{"pcie3-x8", false, "f: 'pcie3-x8' is a host I/O bus, not a drive channel"},
	};
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&err, 0, sizeof(err));
		int rc = iolab_link_parse("f", bad[i].text, bad[i].bus, &t, &err);
		if (rc != -EINVAL || !strstr(err.msg, bad[i].msg)) {
			print_error("'%s': rc %d '%s', wanted '%s'\n", bad[i].text, rc, err.msg, bad[i].msg);
			fail();
		}
	}
}

static void test_policy_names(void **state)
{
	(void)state;
	unsigned v;
	struct iolab_err err;
	for (unsigned p = IOLAB_WP_THROUGH; p <= IOLAB_WP_BACK; p++) {
		assert_int_equal(iolab_write_policy_parse("f", iolab_write_policy_name(p), &v, &err), 0);
		assert_int_equal(v, p);
	}
	for (unsigned r = IOLAB_RA_NONE; r <= IOLAB_RA_ADAPTIVE; r++) {
		assert_int_equal(iolab_read_ahead_parse("f", iolab_read_ahead_name(r), &v, &err), 0);
		assert_int_equal(v, r);
	}
	assert_string_equal(iolab_write_policy_name(IOLAB_WP_BACK), "write-back");
	assert_string_equal(iolab_read_ahead_name(IOLAB_RA_ADAPTIVE), "adaptive");
	assert_int_equal(iolab_write_policy_parse("f", "writeback", &v, &err), -EINVAL);
	assert_string_equal(err.msg, "f: 'writeback' is not a write policy (write-through, write-back)");
	assert_int_equal(iolab_read_ahead_parse("f", "", &v, &err), -EINVAL);
	assert_string_equal(iolab_raid_name(IOLAB_RAID10), "raid10");
	assert_string_equal(iolab_raid_name(IOLAB_RAID4), "raid4");
	assert_string_equal(iolab_raid_name(IOLAB_RAID6), "raid6");
	assert_string_equal(iolab_raid_name(IOLAB_RAID_NONE), "none");
}

/* Files that are not regular files are refused, as every text input is. */
static void test_load_refusals(void **state)
{
	(void)state;
	struct iolab_err err;
	assert_int_equal(iolab_subsys_load(th_dir, &sub, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "is a directory, not a regular file (a subsystem file"));
	char path[512];
	snprintf(path, sizeof(path), "%s/missing.conf", th_dir);
	assert_true(iolab_subsys_load(path, &sub, &err) < 0);
	assert_non_null(strstr(err.msg, "missing.conf"));
	/* a byte-order mark is skipped */
	load_ok("\xef\xbb\xbf" "drive d model=atlas10k\nvolume v level=none drives=d\n");
	iolab_subsys_free(&sub);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_example),
		cmocka_unit_test(test_doc_example_is_the_data_file),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_forward_references),
		cmocka_unit_test(test_models_once),
		cmocka_unit_test(test_errors_values),
		cmocka_unit_test(test_errors_references),
		cmocka_unit_test(test_errors_rules),
		cmocka_unit_test(test_check_by_hand),
		cmocka_unit_test(test_link_table),
		cmocka_unit_test(test_link_parse),
		cmocka_unit_test(test_policy_names),
		cmocka_unit_test(test_load_refusals),
	};
	return cmocka_run_group_tests(tests, th_dir_setup, th_dir_teardown);
}
