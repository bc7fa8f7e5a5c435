/* subsys_set.c: one key of one part (or of every part of a kind) of a subsystem description set
 * from its text, as a line of a subsystem file would set it (docs/subsystem-format.md): what
 * `--set PART.KEY=VALUE` does to each point's path. A drive also takes any drive-level field of
 * its model (docs/model-format.md), through the model file's own field parser.
 *
 * A stand-in that covers the keys a point can vary, written beside the shorthands; the kind
 * registry's table-driven setter takes its place. Keys that name another part (a channel's
 * controller, a drive's channel, a volume's drives) shape the path and are refused. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "iolab/host_queue.h"
#include "iolab/parse.h"
#include "iolab/subsys.h"

enum kind { K_HOST, K_BUS, K_CTL, K_CHAN, K_DRIVE, K_VOL, K_KINDS };
static const char *const kind_name[K_KINDS] = {"host", "bus", "controller", "channel", "drive",
					       "volume"};

/* Keys of each kind that name other parts or the path's shape: they cannot vary. */
static const char *const fixed_keys[K_KINDS][3] = {
	[K_BUS] = {"up"}, [K_CTL] = {"bus"}, [K_CHAN] = {"controller"}, [K_DRIVE] = {"channel"},
	[K_VOL] = {"drives", "level", "failed"},
};

static unsigned count_of(const struct iolab_subsys *s, enum kind k)
{
	const unsigned n[K_KINDS] = {1, s->nbus, s->nctl, s->nchan, s->ndrive, s->nvol};
	return n[k];
}

static const char *name_of(const struct iolab_subsys *s, enum kind k, unsigned i)
{
	switch (k) {
	case K_BUS: return s->bus[i].name;
	case K_CTL: return s->ctl[i].name;
	case K_CHAN: return s->chan[i].name;
	case K_DRIVE: return s->drive[i].name;
	case K_VOL: return s->vol[i].name;
	default: return "host";
	}
}

/* The drives set (want) that share a model with a drive that is not: a model field set on one
 * would change the other too. Returns such a drive's index, or -1. */
static int shares_model(const struct iolab_subsys *s, const bool *want)
{
	for (unsigned i = 0; i < s->ndrive; i++)
		for (unsigned j = 0; want[i] && j < s->ndrive; j++)
			if (!want[j] && s->drive[j].model == s->drive[i].model)
				return (int)i;
	return -1;
}

static int set_drives(struct iolab_subsys *s, const char *field, const bool *want, const char *key,
		      const char *value, struct iolab_err *err)
{
	if (!strcmp(key, "write-cache")) {
		bool on;
		int rc = iolab_parse_bool(field, value, &on, err);
		for (unsigned i = 0; !rc && i < s->ndrive; i++)
			if (want[i])
				s->drive[i].write_cache = on;
		return rc;
	}
	if (!strcmp(key, "model")) { /* opened once, for every drive set */
		if (s->nmodel == IOLAB_SUBSYS_MAX)
			return iolab_errf(err, EINVAL, "%s: more than %d models", field, IOLAB_SUBSYS_MAX);
		int rc = iolab_model_open(value, &s->model[s->nmodel], err);
		if (rc) {
			iolab_err_prefix(err, "%s", field);
			return rc;
		}
		for (unsigned i = 0; i < s->ndrive; i++)
			if (want[i])
				s->drive[i].model = s->nmodel;
		s->nmodel++;
		return 0;
	}
	int shared = shares_model(s, want);
	if (shared >= 0)
		return iolab_errf(err, EINVAL, "%s: drive %s shares its model with drives not set here; "
				  "set the kind (drive.%s) or give it a model line of its own", field,
				  s->drive[shared].name, key);
	bool done[IOLAB_SUBSYS_MAX] = {false};
	for (unsigned i = 0; i < s->ndrive; i++) { /* a field of the drive's model, once a model */
		unsigned m = s->drive[i].model;
		if (!want[i] || done[m])
			continue;
		done[m] = true;
		int rc = iolab_model_set(&s->model[m], key, value, err);
		if (rc == -EINVAL && strstr(err->msg, "unknown drive field"))
			return iolab_errf(err, ENOENT, "%s: a drive has no key '%s' (model, write-cache, or a "
					  "drive field of docs/model-format.md: rpm, cache_segments, ...)",
					  field, key);
		if (rc) {
			iolab_err_prefix(err, "%s", field);
			return rc;
		}
	}
	return 0;
}

static int set_ctl(struct iolab_ctl_params *p, const char *field, const char *key, const char *value,
		   struct iolab_err *err)
{
	if (!strcmp(key, "cache"))
		return iolab_parse_size(field, value, &p->cache_bytes, err);
	if (!strcmp(key, "write-policy"))
		return iolab_write_policy_parse(field, value, &p->write_policy, err);
	if (!strcmp(key, "read-ahead"))
		return iolab_read_ahead_parse(field, value, &p->read_ahead, err);
	if (!strcmp(key, "battery"))
		return iolab_parse_bool(field, value, &p->battery, err);
	if (!strcmp(key, "overhead"))
		return iolab_parse_duration(field, value, &p->overhead_ns, err);
	if (!strcmp(key, "read-ahead-size")) {
		int rc = iolab_parse_size(field, value, &p->read_ahead_bytes, err);
		if (!rc && !p->read_ahead_bytes)
			return iolab_errf(err, EINVAL, "%s: must be more than 0", field);
		return rc;
	}
	return iolab_errf(err, ENOENT, "%s: a controller has no key '%s' (cache, write-policy, "
			  "read-ahead, read-ahead-size, battery, overhead)", field, key);
}

static int set_stripe(const char *field, const char *value, uint64_t *out, struct iolab_err *err)
{
	uint64_t b;
	int rc = iolab_parse_size(field, value, &b, err);
	if (!rc && (!b || b % 512 || b > (1u << 30)))
		return iolab_errf(err, EINVAL, "%s: '%s' must be a multiple of 512 bytes up to 1 GiB",
				  field, value);
	if (!rc)
		*out = b;
	return rc;
}

/* Sets key on the parts of kind k marked in want. */
static int set_parts(struct iolab_subsys *s, enum kind k, const bool *want, const char *field,
		     const char *key, const char *value, struct iolab_err *err)
{
	for (unsigned i = 0; i < 3 && fixed_keys[k][i]; i++)
		if (!strcmp(key, fixed_keys[k][i]))
			return iolab_errf(err, EINVAL, "%s: a %s's '%s' shapes the path (it names other "
					  "parts): it cannot be set per point; change the subsystem file",
					  field, kind_name[k], key);
	if (k == K_DRIVE)
		return set_drives(s, field, want, key, value, err);
	if (k == K_HOST) {
		if (!strcmp(key, "scheduler")) {
			enum iolab_host_sched h;
			int rc = iolab_host_sched_parse(field, value, &h, err);
			if (!rc)
				s->host.sched = h;
			return rc;
		}
		if (!strcmp(key, "overhead"))
			return iolab_parse_duration(field, value, &s->host.overhead_ns, err);
		if (!strcmp(key, "stripe"))
			return set_stripe(field, value, &s->host_stripe_bytes, err);
		return iolab_errf(err, ENOENT, "%s: the host has no key '%s' (scheduler, overhead, stripe)",
				  field, key);
	}
	unsigned n = count_of(s, k);
	for (unsigned i = 0; i < n; i++) {
		if (!want[i])
			continue;
		int rc;
		if (k == K_CTL)
			rc = set_ctl(&s->ctl[i].p, field, key, value, err);
		else if ((k == K_BUS || k == K_CHAN) && !strcmp(key, "type"))
			rc = iolab_link_parse(field, value, k == K_BUS,
					      k == K_BUS ? &s->bus[i].type : &s->chan[i].type, err);
		else if (k == K_VOL && !strcmp(key, "stripe"))
			rc = set_stripe(field, value, &s->vol[i].stripe_bytes, err);
		else if (k == K_VOL && !strcmp(key, "rebuild-rate"))
			rc = iolab_parse_size(field, value, &s->vol[i].rebuild_bytes_s, err);
		else
			rc = iolab_errf(err, ENOENT, "%s: a %s has no key '%s' that can be set (%s)", field,
					kind_name[k], key, k == K_VOL ? "stripe, rebuild-rate" : "type");
		if (rc)
			return rc;
	}
	return 0;
}

int iolab_subsys_set(struct iolab_subsys *s, const char *part, const char *key, const char *value,
		     struct iolab_err *err)
{
	char field[2 * IOLAB_SUBSYS_NAME + 64];
	snprintf(field, sizeof(field), "%s.%s", part, key);
	bool want[IOLAB_SUBSYS_DRIVES] = {false};
	for (unsigned k = 0; k < K_KINDS; k++) {
		unsigned n = count_of(s, (enum kind)k), hits = 0;
		bool kind = !strcmp(part, kind_name[k]);
		for (unsigned i = 0; i < n; i++)
			hits += want[i] = kind || (k != K_HOST && !strcmp(part, name_of(s, (enum kind)k, i)));
		if (kind && !n)
			return iolab_errf(err, ENOENT, "%s: the simulated path has no %s", field, part);
		if (hits)
			return set_parts(s, (enum kind)k, want, field, key, value, err);
	}
	return iolab_errf(err, ENOENT, "%s: no part or kind '%s' in the simulated path (kinds: host, "
			  "bus, controller, channel, drive, volume; or a part's name)", field, part);
}
