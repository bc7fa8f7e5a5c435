/* subsys_check.c: iolab_subsys_check, the rules a whole subsystem description must keep
 * (docs/subsystem-format.md, "Rules"), whether it was read from a file (subsys_parse.c, which
 * passes the line of each part so that a finding names it) or built by hand. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "iolab/host_queue.h"
#include "iolab/sim_kinds.h"
#include "sim/description/subsys_extent.h"
#include "sim/description/subsys_where.h"
#include "sim/parts/raid_levels.h"

#define STRIPE_MAX (1ull << 30)

struct ctx {
	const struct iolab_subsys *s;
	const struct iolab_subsys_where *w;
	struct iolab_err *err;
};

/* "FILE:LINE: field 'FIELD': MSG" (parsed) or "KIND 'NAME': field 'FIELD': MSG" (by hand). */
__attribute__((format(printf, 6, 7)))
static int fail(const struct ctx *c, const char *kind, const char *name, unsigned line,
		const char *field, const char *fmt, ...)
{
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (c->w)
		return iolab_errf(c->err, EINVAL, "%s:%u: field '%s': %s", c->w->file, line, field, msg);
	return iolab_errf(c->err, EINVAL, "%s '%.31s': field '%s': %s", kind, name, field, msg);
}

static unsigned line_of(const unsigned *lines, unsigned i)
{
	return lines ? lines[i] : 0;
}

#define W(c, arr, i) line_of((c)->w ? (c)->w->arr : NULL, i)

static int check_counts(const struct ctx *c)
{
	const struct iolab_subsys *s = c->s;
	if (s->nbus > IOLAB_SUBSYS_MAX || s->nctl > IOLAB_SUBSYS_MAX || s->nchan > IOLAB_SUBSYS_MAX ||
	    s->nvol > IOLAB_SUBSYS_MAX || s->nmodel > IOLAB_SUBSYS_MAX || s->ndrive > IOLAB_SUBSYS_DRIVES)
		return iolab_errf(c->err, EINVAL, "%s: too many parts (at most %u buses, controllers, "
				  "channels, volumes and models each, and %u drives)",
				  c->w ? c->w->file : "subsystem", IOLAB_SUBSYS_MAX, IOLAB_SUBSYS_DRIVES);
	return 0;
}

/* One named part, for the check of names. */
struct named {
	const char *kind, *name;
	unsigned line;
};

static unsigned collect_names(const struct ctx *c, struct named *n)
{
	const struct iolab_subsys *s = c->s;
	unsigned k = 0;
	for (unsigned i = 0; i < s->nbus; i++)
		n[k++] = (struct named){"bus", s->bus[i].name, W(c, bus, i)};
	for (unsigned i = 0; i < s->nctl; i++)
		n[k++] = (struct named){"controller", s->ctl[i].name, W(c, ctl, i)};
	for (unsigned i = 0; i < s->nchan; i++)
		n[k++] = (struct named){"channel", s->chan[i].name, W(c, chan, i)};
	for (unsigned i = 0; i < s->ndrive; i++)
		n[k++] = (struct named){iolab_device_kind(s, &s->drive[i])->name, s->drive[i].name,
					W(c, drive, i)};
	for (unsigned i = 0; i < s->nvol; i++)
		n[k++] = (struct named){"volume", s->vol[i].name, W(c, vol, i)};
	return k;
}

/* Every part has a name, and no two parts (of any kinds) share one. */
static int check_names(const struct ctx *c)
{
	struct named n[4 * IOLAB_SUBSYS_MAX + IOLAB_SUBSYS_DRIVES];
	unsigned k = collect_names(c, n);
	for (unsigned i = 0; i < k; i++) {
		if (!memchr(n[i].name, 0, IOLAB_SUBSYS_NAME) || !n[i].name[0])
			return fail(c, n[i].kind, "", n[i].line, "name", "a %s needs a name of 1 to %d "
				    "characters", n[i].kind, IOLAB_SUBSYS_NAME - 1);
		for (unsigned j = 0; j < i; j++)
			if (!strcmp(n[i].name, n[j].name)) {
				unsigned a = n[j].line > n[i].line ? j : i, b = a == i ? j : i;
				return fail(c, n[a].kind, n[a].name, n[a].line, "name", "'%s' is already "
					    "the name of a %s", n[a].name, n[b].kind);
			}
	}
	return 0;
}

static int check_link(const struct ctx *c, const char *kind, const char *name, unsigned line,
		      const struct iolab_link_type *t, bool bus)
{
	if (!bus && t->rated_mb_s == 0 && t->kind == IOLAB_LINK_P2P)
		return 0; /* a port, not modelled (subsys.h): the command line's shorthands */
	if (!(t->rated_mb_s > 0) || !isfinite(t->rated_mb_s))
		return fail(c, kind, name, line, "type", "the rated rate must be more than 0");
	if (!(t->efficiency > 0 && t->efficiency <= 1))
		return fail(c, kind, name, line, "type", "the efficiency must be more than 0 and at "
			    "most 1");
	if (t->kind > IOLAB_LINK_P2P || (t->kind == IOLAB_LINK_BUS) != bus)
		return fail(c, kind, name, line, "type", "'%.31s' is %s", t->name,
			    bus ? "a drive channel, not an I/O bus" : "an I/O bus, not a drive channel");
	return 0;
}

static int check_host(const struct ctx *c)
{
	const struct iolab_subsys *s = c->s;
	if (s->host.sched >= IOLAB_HOST_NSCHED)
		return fail(c, "host", "", c->w ? c->w->host : 0, "scheduler", "%u is not a scheduler",
			    s->host.sched);
	uint64_t b = s->host_stripe_bytes;
	if (b && (b % 512 || b > STRIPE_MAX))
		return fail(c, "host", "", c->w ? c->w->host : 0, "stripe", "%llu bytes is not a "
			    "multiple of 512 up to 1 GiB", (unsigned long long)b);
	return 0;
}

/* The bus a bus is bridged to, followed from i: returns true if the chain comes back to i. */
static bool in_cycle(const struct iolab_subsys *s, unsigned i)
{
	int at = s->bus[i].up;
	for (unsigned k = 0; k < s->nbus && at >= 0; k++, at = s->bus[at].up)
		if ((unsigned)at == i)
			return true;
	return false;
}

/* Reports the cycle through bus i, from its member written last. */
static int report_cycle(const struct ctx *c, unsigned i)
{
	const struct iolab_subsys *s = c->s;
	unsigned from = i;
	for (int at = s->bus[i].up; (unsigned)at != i; at = s->bus[at].up)
		if (W(c, bus, (unsigned)at) > W(c, bus, from))
			from = (unsigned)at;
	char path[300];
	size_t n = (size_t)snprintf(path, sizeof(path), "%s", s->bus[from].name);
	int at = s->bus[from].up;
	for (unsigned k = 0; k <= s->nbus && n < sizeof(path); k++, at = s->bus[at].up) {
		n += (size_t)snprintf(path + n, sizeof(path) - n, " -> %s", s->bus[at].name);
		if ((unsigned)at == from)
			break;
	}
	return fail(c, "bus", s->bus[from].name, W(c, bus, from), "up", "bridged in a cycle: %s",
		    path);
}

static int check_buses(const struct ctx *c)
{
	const struct iolab_subsys *s = c->s;
	for (unsigned i = 0; i < s->nbus; i++) {
		const struct iolab_sub_bus *b = &s->bus[i];
		if (b->up < -1 || b->up >= (int)s->nbus)
			return fail(c, "bus", b->name, W(c, bus, i), "up", "bus index %d is out of range",
				    b->up);
		int rc = check_link(c, "bus", b->name, W(c, bus, i), &b->type, true);
		if (rc)
			return rc;
	}
	for (unsigned i = 0; i < s->nbus; i++)
		if (in_cycle(s, i))
			return report_cycle(c, i);
	return 0;
}

static int check_controllers(const struct ctx *c)
{
	const struct iolab_subsys *s = c->s;
	unsigned on[IOLAB_SUBSYS_MAX] = {0};
	for (unsigned i = 0; i < s->nctl; i++) {
		const struct iolab_sub_controller *k = &s->ctl[i];
		unsigned line = W(c, ctl, i);
		if (k->bus < -1 || k->bus >= (int)s->nbus)
			return fail(c, "controller", k->name, line, "bus", "bus index %d is out of range",
				    k->bus);
		if (k->p.write_policy > IOLAB_WP_BACK)
			return fail(c, "controller", k->name, line, "write-policy", "%u is not a write "
				    "policy", k->p.write_policy);
		if (k->p.read_ahead > IOLAB_RA_ADAPTIVE)
			return fail(c, "controller", k->name, line, "read-ahead", "%u is not a "
				    "read-ahead mode", k->p.read_ahead);
		if (k->bus < 0)
			continue;
		const struct iolab_sub_bus *b = &s->bus[k->bus];
		if (b->type.max_devices && ++on[k->bus] > b->type.max_devices)
			return fail(c, "controller", k->name, line, "bus", "bus '%s' (%s) takes at most "
				    "%u controllers; '%s' is one more", b->name, b->type.name,
				    b->type.max_devices, k->name);
	}
	return 0;
}

static int check_channels(const struct ctx *c)
{
	const struct iolab_subsys *s = c->s;
	for (unsigned i = 0; i < s->nchan; i++) {
		const struct iolab_sub_channel *h = &s->chan[i];
		if (h->controller < -1 || h->controller >= (int)s->nctl)
			return fail(c, "channel", h->name, W(c, chan, i), "controller", "controller index "
				    "%d is out of range", h->controller);
		int rc = check_link(c, "channel", h->name, W(c, chan, i), &h->type, false);
		if (rc)
			return rc;
	}
	return 0;
}

static int check_drives(const struct ctx *c)
{
	const struct iolab_subsys *s = c->s;
	unsigned on[IOLAB_SUBSYS_MAX] = {0};
	for (unsigned i = 0; i < s->ndrive; i++) {
		const struct iolab_sub_drive *d = &s->drive[i];
		unsigned line = W(c, drive, i);
		if (d->channel < -1 || d->channel >= (int)s->nchan)
			return fail(c, "drive", d->name, line, "channel", "channel index %d is out of "
				    "range", d->channel);
		const struct iolab_kind *k = iolab_device_kind(s, d);
		if (k->device->check && k->device->check(s, d, c->err)) {
			if (c->w)
				iolab_err_prefix(c->err, "%s:%u", c->w->file, line);
			else
				iolab_err_prefix(c->err, "%s '%.31s'", k->name, d->name);
			return -EINVAL;
		}
		if (d->channel < 0)
			continue;
		const struct iolab_sub_channel *h = &s->chan[d->channel];
		if (h->type.max_devices && ++on[d->channel] > h->type.max_devices)
			return fail(c, "drive", d->name, line, "channel", "channel '%s' (%s) takes at "
				    "most %u drives; '%s' is one more", h->name, h->type.name,
				    h->type.max_devices, d->name);
	}
	return 0;
}

/* The level, its drive count (raid_levels.c) and its stripe unit. */
static int check_level(const struct ctx *c, unsigned i)
{
	const struct iolab_sub_volume *v = &c->s->vol[i];
	unsigned line = W(c, vol, i);
	char why[200];
	if (!iolab_raid_info(v->level))
		return fail(c, "volume", v->name, line, "level", "%u is not a level", v->level);
	if (v->n < 1 || v->n > IOLAB_SUBSYS_MAX)
		return fail(c, "volume", v->name, line, "drives", "a volume has 1 to %d drives, not %u",
			    IOLAB_SUBSYS_MAX, v->n);
	if (iolab_raid_check_members(v->level, v->n, why, sizeof(why)))
		return fail(c, "volume", v->name, line, "drives", "%s", why);
	if (v->stripe_bytes < 512 || v->stripe_bytes % 512 || v->stripe_bytes > STRIPE_MAX)
		return fail(c, "volume", v->name, line, "stripe", "%llu bytes is not a multiple of "
			    "512 up to 1 GiB", (unsigned long long)v->stripe_bytes);
	return 0;
}

/* The failed drives: ones the level survives (raid_levels.c); a rebuild needs one. */
static int check_failed(const struct ctx *c, unsigned i)
{
	const struct iolab_sub_volume *v = &c->s->vol[i];
	unsigned line = W(c, vol, i);
	char why[200];
	if (v->failed[0] == -1 && v->failed[1] == -1 && v->rebuild_bytes_s)
		return fail(c, "volume", v->name, line, "rebuild-rate", "there is no failed drive to "
			    "rebuild (failed=N)");
	if (iolab_raid_check_failed(v->level, v->n, v->failed, why, sizeof(why)))
		return fail(c, "volume", v->name, line, "failed", "%s", why);
	return 0;
}

/* The controller a drive hangs from (-1: none). */
static int controller_of(const struct iolab_subsys *s, unsigned d)
{
	int ch = s->drive[d].channel;
	return ch < 0 ? -1 : s->chan[ch].controller;
}

static const char *ctl_name(const struct iolab_subsys *s, int k)
{
	return k < 0 ? "no controller" : s->ctl[k].name;
}

/* Members: drives that exist, each once in the volume, on one controller, of one block size.
 * (A drive may be in several volumes: check_extents.) */
static int check_members(const struct ctx *c, unsigned i, int *owner)
{
	const struct iolab_subsys *s = c->s;
	const struct iolab_sub_volume *v = &s->vol[i];
	unsigned line = W(c, vol, i);
	for (unsigned k = 0; k < v->n; k++) {
		unsigned d = v->drive[k];
		if (d >= s->ndrive)
			return fail(c, "volume", v->name, line, "drives", "drive index %u is out of range",
				    d);
		if (owner[d] == (int)i)
			return fail(c, "volume", v->name, line, "drives", "'%s' is listed twice",
				    s->drive[d].name);
		owner[d] = (int)i;
		unsigned d0 = v->drive[0];
		if (controller_of(s, d) != controller_of(s, d0))
			return fail(c, "volume", v->name, line, "drives", "'%s' is on %s%s%s and '%s' "
				    "on %s%s%s: a volume's drives hang from one controller",
				    s->drive[d0].name, controller_of(s, d0) < 0 ? "" : "controller '",
				    ctl_name(s, controller_of(s, d0)), controller_of(s, d0) < 0 ? "" : "'",
				    s->drive[d].name, controller_of(s, d) < 0 ? "" : "controller '",
				    ctl_name(s, controller_of(s, d)), controller_of(s, d) < 0 ? "" : "'");
		uint64_t blocks;
		uint32_t b0, b;
		iolab_subsys_device_geometry(s, d0, &blocks, &b0);
		iolab_subsys_device_geometry(s, d, &blocks, &b);
		if (b != b0)
			return fail(c, "volume", v->name, line, "drives", "'%s' has blocks of %u bytes and "
				    "'%s' of %u: a volume's drives have one block size",
				    s->drive[d0].name, b0, s->drive[d].name, b);
	}
	return 0;
}

/* Whether member k of v has failed. */
static bool failed_at(const struct iolab_sub_volume *v, unsigned k)
{
	return v->failed[0] == (int)k || v->failed[1] == (int)k;
}

/* Where volume i lies on its drives (subsys_extent.c): an offset in whole blocks, an extent
 * that fits on its smallest drive, and none that overlaps another volume's on a shared drive
 * (reported on the later volume's line); a shared drive failed in all its volumes or none. */
static int check_extents(const struct ctx *c, unsigned i)
{
	const struct iolab_subsys *s = c->s;
	const struct iolab_sub_volume *v = &s->vol[i];
	unsigned line = W(c, vol, i);
	uint64_t dev_blocks;
	uint32_t dev_bb;
	iolab_subsys_device_geometry(s, v->drive[0], &dev_blocks, &dev_bb);
	uint64_t bb = dev_bb, off = iolab_subsys_member_offset(s, v);
	uint64_t blocks = iolab_subsys_member_blocks(s, v), drive = UINT64_MAX;
	unsigned small = v->drive[0];
	for (unsigned k = 0; k < v->n; k++) {
		iolab_subsys_device_geometry(s, v->drive[k], &dev_blocks, &dev_bb);
		if (dev_blocks < drive) {
			drive = dev_blocks;
			small = v->drive[k];
		}
	}
	if (!bb || v->offset_bytes % bb)
		return fail(c, "volume", v->name, line, "offset", "%llu bytes is not a whole number of "
			    "the drives' %llu-byte blocks", (unsigned long long)v->offset_bytes,
			    (unsigned long long)bb);
	if (v->size_pct > 100)
		return fail(c, "volume", v->name, line, "size", "%u%% is more than the whole drives",
			    v->size_pct);
	for (unsigned j = 0; j < i && !blocks; j++) { /* placed after one that took the rest */
		const struct iolab_sub_volume *w = &s->vol[j];
		unsigned d;
		if (iolab_subsys_share_drive(s, i, j, &d) && !w->size_bytes && !w->size_pct)
			return fail(c, "volume", v->name, line, "drives", "'%s' is taken to its end by "
				    "volume '%s': give '%s' a size= to share its drives",
				    s->drive[d].name, w->name, w->name);
	}
	if (!blocks || blocks > drive || off > drive - blocks)
		return fail(c, "volume", v->name, line, v->size_bytes || v->size_pct ? "size" : "offset",
			    "volume '%s' needs %llu bytes of each drive from byte %llu on, and drive "
			    "'%s' holds %llu%s", v->name, (unsigned long long)(blocks * bb),
			    (unsigned long long)(off * bb), s->drive[small].name,
			    (unsigned long long)(drive * bb), blocks ? "" : " (nothing is left for it)");
	for (unsigned j = 0; j < i; j++) { /* a failed drive has failed for every volume on it */
		const struct iolab_sub_volume *w = &s->vol[j];
		for (unsigned a = 0; a < v->n; a++)
			for (unsigned b = 0; b < w->n; b++)
				if (v->drive[a] == w->drive[b] && failed_at(v, a) != failed_at(w, b))
					return fail(c, "volume", v->name, line, "failed", "drive '%s' has "
						    "failed in volume '%s' and not in '%s': a drive fails for "
						    "every volume on it", s->drive[v->drive[a]].name,
						    failed_at(v, a) ? v->name : w->name,
						    failed_at(v, a) ? w->name : v->name);
	}
	for (unsigned j = 0; j < i; j++) {
		unsigned d;
		if (!iolab_subsys_overlap(s, i, j, &d))
			continue;
		const struct iolab_sub_volume *w = &s->vol[j];
		uint64_t wo = iolab_subsys_member_offset(s, w), wb = iolab_subsys_member_blocks(s, w);
		return fail(c, "volume", v->name, line, "offset", "volume '%s' overlaps volume '%s' on "
			    "drive '%s': '%s' holds bytes %llu to %llu of it, '%s' %llu to %llu",
			    v->name, w->name, s->drive[d].name, w->name, (unsigned long long)(wo * bb),
			    (unsigned long long)((wo + wb) * bb), v->name,
			    (unsigned long long)(off * bb), (unsigned long long)((off + blocks) * bb));
	}
	return 0;
}

static int check_volumes(const struct ctx *c)
{
	const struct iolab_subsys *s = c->s;
	int owner[IOLAB_SUBSYS_DRIVES];
	for (unsigned d = 0; d < IOLAB_SUBSYS_DRIVES; d++)
		owner[d] = -1;
	for (unsigned i = 0; i < s->nvol; i++) {
		int rc = check_level(c, i);
		if (!rc)
			rc = check_members(c, i, owner);
		if (!rc)
			rc = check_failed(c, i);
		if (!rc)
			rc = check_extents(c, i);
		if (rc)
			return rc;
	}
	if (!s->nvol)
		return iolab_errf(c->err, EINVAL, "%s: no volume (the host reads and writes volumes: "
				  "add a line 'volume NAME level=LEVEL drives=D1,...')",
				  c->w ? c->w->file : "subsystem");
	return 0;
}

int iolab_subsys_check_where(const struct iolab_subsys *s, const struct iolab_subsys_where *w,
			     struct iolab_err *err)
{
	const struct ctx c = {s, w, err};
	int rc = check_counts(&c);
	if (!rc)
		rc = check_names(&c);
	if (!rc)
		rc = check_host(&c);
	if (!rc)
		rc = check_buses(&c);
	if (!rc)
		rc = check_controllers(&c);
	if (!rc)
		rc = check_channels(&c);
	if (!rc)
		rc = check_drives(&c);
	if (!rc)
		rc = check_volumes(&c);
	return rc;
}

int iolab_subsys_check(const struct iolab_subsys *s, struct iolab_err *err)
{
	return iolab_subsys_check_where(s, NULL, err);
}
