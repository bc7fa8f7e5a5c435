/* options.c: the one table of run options. The command line (--name value) and job files
 * (name = value) both go through iolab_config_set, so they accept exactly the same things and
 * report errors the same way. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "iolab/disk_model.h"
#include "iolab/host_queue.h"
#include "iolab/run.h"
#include "iolab/subsys.h"
#include "sim/parts/raid_levels.h"

void iolab_config_init(struct iolab_config *c)
{
	memset(c, 0, sizeof(*c));
	c->engine = &iolab_engine_io_uring;
	c->direct = true;
	c->invalidate = -1;
	c->time_ns = 10000000000ull;
	c->seed = 1;
	c->repeat = 1;
	c->sim.drive_cache = -1;
	c->sim.ctl.battery = true;
}

bool iolab_config_invalidates(const struct iolab_config *c)
{
	if (c->engine->flags & (IOLAB_ENGINE_NO_IO | IOLAB_ENGINE_VIRTUAL))
		return false;
	return c->invalidate < 0 ? !c->direct : c->invalidate;
}

typedef int (*setter_fn)(struct iolab_config *c, const char *field, const char *v, struct iolab_err *err);

/* Splits v into items that point into buf (a local of the caller). */
#define set_list(field, v, items, err) \
	iolab_split_list(field, v, buf, sizeof(buf), items, IOLAB_LIST_MAX, err)

static int set_target(struct iolab_config *c, const char *f, const char *v, struct iolab_err *err)
{
	char buf[4096], *items[IOLAB_LIST_MAX];
	int n = set_list(f, v, items, err);
	if (n < 0)
		return n;
	for (int i = 0; i < n; i++) {
		if (c->ntargets == IOLAB_TARGETS_MAX)
			return iolab_errf(err, EINVAL, "%s: more than %d targets", f, IOLAB_TARGETS_MAX);
		if (strlen(items[i]) >= sizeof(c->target[0]))
			return iolab_errf(err, EINVAL, "%s: path too long", f);
		strcpy(c->target[c->ntargets++], items[i]);
	}
	return 0;
}

static int set_size(struct iolab_config *c, const char *f, const char *v, struct iolab_err *err)
{
	int rc = iolab_parse_size(f, v, &c->size, err);
	if (!rc && !c->size)
		return iolab_errf(err, EINVAL, "%s: must be more than 0", f);
	return rc;
}

static int set_offset(struct iolab_config *c, const char *f, const char *v, struct iolab_err *err)
{
	return iolab_parse_size(f, v, &c->offset, err);
}

static int set_length(struct iolab_config *c, const char *f, const char *v, struct iolab_err *err)
{
	int rc = iolab_parse_size(f, v, &c->length, err);
	if (!rc && !c->length)
		return iolab_errf(err, EINVAL, "%s: must be more than 0", f);
	return rc;
}

static int set_stroke(struct iolab_config *c, const char *f, const char *v, struct iolab_err *err)
{
	int rc = iolab_parse_pct(f, v, &c->stroke_pct, err);
	if (!rc && !c->stroke_pct)
		return iolab_errf(err, EINVAL, "%s: must be 1..100 %%", f);
	return rc;
}

static const struct iolab_spec *find_pattern(const struct iolab_config *c, const char *name)
{
	if (c->patterns)
		for (unsigned i = 0; i < c->patterns->n; i++)
			if (!strcmp(c->patterns->spec[i].name, name))
				return &c->patterns->spec[i];
	return iolab_pattern_find(name);
}

static int set_pattern(struct iolab_config *c, const char *f, const char *v, struct iolab_err *err)
{
	char buf[4096], *items[IOLAB_LIST_MAX];
	int n = set_list(f, v, items, err);
	if (n < 0)
		return n;
	if (n > IOLAB_PATTERNS_MAX)
		return iolab_errf(err, EINVAL, "%s: more than %d patterns", f, IOLAB_PATTERNS_MAX);
	for (int i = 0; i < n; i++) {
		const struct iolab_spec *s = find_pattern(c, items[i]);
		if (!s)
			return iolab_errf(err, EINVAL, "%s: unknown pattern '%s' (see 'iolab patterns')", f,
					  items[i]);
		c->pattern[i] = *s;
	}
	c->npattern = (unsigned)n;
	return 0;
}

static int set_uint_list(const char *f, const char *v, unsigned *out, unsigned *count, uint64_t min,
			 uint64_t max, struct iolab_err *err)
{
	char buf[4096], *items[IOLAB_LIST_MAX];
	int n = set_list(f, v, items, err);
	for (int i = 0; i < n; i++) {
		uint64_t x;
		if (iolab_parse_uint(f, items[i], min, max, &x, err))
			return -EINVAL;
		out[i] = (unsigned)x;
	}
	if (n >= 0)
		*count = (unsigned)n;
	return n < 0 ? n : 0;
}

/* --qd (a closed loop) given after --clients elsewhere (a job file, then the command line)
 * replaces them and their think time, as --time replaces --bytes. With --rate it is the cap.
 * A think time without clients stays, so that run_check_load refuses it whatever the order
 * (--think 5ms --qd 4 is not a closed loop of --qd with a think time: iolab has none). */
static int set_qd(struct iolab_config *c, const char *f, const char *v, struct iolab_err *err)
{
	int rc = set_uint_list(f, v, c->qd, &c->nqd, 1, 4096, err);
	if (!rc && c->nclients) {
		c->nclients = 0;
		c->think_set = false;
		c->think_ns = 0;
	}
	return rc;
}

static int set_clients(struct iolab_config *c, const char *f, const char *v, struct iolab_err *err)
{
	int rc = set_uint_list(f, v, c->clients, &c->nclients, 1, 4096, err);
	if (!rc)
		c->nqd = 0;
	return rc;
}

/* Strips a "name:" prefix of one of two distributions from *v: 0 for the first (or none),
 * 1 for the second, -EINVAL for another name. */
static int dist_prefix(const char *f, const char **v, const char *a, const char *b, struct iolab_err *err)
{
	const char *colon = strchr(*v, ':');
	if (!colon)
		return 0;
	size_t n = (size_t)(colon - *v);
	int which = n == strlen(a) && !strncmp(*v, a, n) ? 0 : n == strlen(b) && !strncmp(*v, b, n) ? 1 : -1;
	if (which < 0)
		return iolab_errf(err, EINVAL, "%s: '%.*s' is not %s or %s (%s:VALUE)", f, (int)n, *v, a, b, b);
	*v = colon + 1;
	return which;
}

/* [fixed:|exp:]TIME: each client's wait after a completion, fixed or exponential of mean TIME. */
static int set_think(struct iolab_config *c, const char *f, const char *v, struct iolab_err *err)
{
	int d = dist_prefix(f, &v, "fixed", "exp", err);
	if (d < 0)
		return d;
	int rc = iolab_parse_duration(f, v, &c->think_ns, err);
	if (!rc) {
		c->think_exp = d == 1;
		c->think_set = true;
	}
	return rc;
}

/* [fixed:|poisson:]IOPS[,IOPS]: open-loop arrivals per second, evenly spaced or Poisson. */
static int set_rate(struct iolab_config *c, const char *f, const char *v, struct iolab_err *err)
{
	int d = dist_prefix(f, &v, "fixed", "poisson", err);
	if (d < 0)
		return d;
	char buf[4096], *items[IOLAB_LIST_MAX];
	int n = set_list(f, v, items, err);
	for (int i = 0; i < n; i++) {
		if (iolab_parse_double(f, items[i], -1e300, 1e300, &c->rate[i], err))
			return -EINVAL;
		if (c->rate[i] <= 0 || c->rate[i] > 1e9)
			return iolab_errf(err, EINVAL, "%s: '%s' must be more than 0 and at most 1e9 requests "
					  "per second", f, items[i]);
	}
	if (n < 0)
		return n;
	c->nrate = (unsigned)n;
	c->poisson = d == 1;
	return 0;
}

static int set_workers(struct iolab_config *c, const char *f, const char *v, struct iolab_err *err)
{
	return set_uint_list(f, v, c->workers, &c->nworkers, 1, 256, err);
}

const char *iolab_worker_region_name(unsigned r)
{
	return r == IOLAB_WREGION_SPLIT ? "split" : "shared";
}

static int set_worker_region(struct iolab_config *c, const char *f, const char *v,
			     struct iolab_err *err)
{
	for (unsigned r = IOLAB_WREGION_SHARED; r <= IOLAB_WREGION_SPLIT; r++)
		if (!strcmp(v, iolab_worker_region_name(r))) {
			c->worker_region = r;
			return 0;
		}
	return iolab_errf(err, EINVAL, "%s: '%s' is not shared or split", f, v);
}

static int set_fresh_state(struct iolab_config *c, const char *f, const char *v, struct iolab_err *err)
{
	return iolab_parse_bool(f, v, &c->fresh_state, err);
}

static int set_read(struct iolab_config *c, const char *f, const char *v, struct iolab_err *err)
{
	char buf[4096], *items[IOLAB_LIST_MAX];
	int n = set_list(f, v, items, err);
	for (int i = 0; i < n; i++)
		if (iolab_parse_pct(f, items[i], &c->read[i], err))
			return -EINVAL;
	if (n >= 0)
		c->nread = (unsigned)n;
	return n < 0 ? n : 0;
}

static int set_bs(struct iolab_config *c, const char *f, const char *v, struct iolab_err *err)
{
	char buf[4096], *items[IOLAB_LIST_MAX];
	int n = set_list(f, v, items, err);
	for (int i = 0; i < n; i++) {
		if (iolab_parse_size(f, items[i], &c->bs[i], err))
			return -EINVAL;
		if (!c->bs[i] || c->bs[i] > (1u << 30))
			return iolab_errf(err, EINVAL, "%s: '%s' must be 1 byte..1 GiB", f, items[i]);
	}
	if (n >= 0)
		c->nbs = (unsigned)n;
	return n < 0 ? n : 0;
}

static int set_trim_bs(struct iolab_config *c, const char *f, const char *v, struct iolab_err *err)
{
	if (iolab_parse_size(f, v, &c->trim_bs, err))
		return -EINVAL;
	if (!c->trim_bs || c->trim_bs > (1u << 30))
		return iolab_errf(err, EINVAL, "%s: '%s' must be 1 byte..1 GiB", f, v);
	return 0;
}

static int set_engine(struct iolab_config *c, const char *f, const char *v, struct iolab_err *err)
{
	const struct iolab_engine_ops *e = iolab_engine_find(v);
	if (!e) {
		char names[256] = "";
		for (unsigned i = 0; i < iolab_engine_count(); i++) {
			strcat(names, i ? ", " : "");
			strcat(names, iolab_engine_at(i)->name);
		}
		return iolab_errf(err, EINVAL, "%s: unknown engine '%s' (one of %s)", f, v, names);
	}
	int rc = iolab_engine_check(e, err);
	if (rc)
		return rc;
	/* A virtual-time engine runs a model, which only 'iolab sim' (and 'iolab replay' with
	 * --model, --array or --config) gives it: there is no target for it here. */
	if (e->flags & IOLAB_ENGINE_VIRTUAL)
		return iolab_errf(err, EINVAL, "%s: '%s' is the simulator: it needs a drive model, so "
				  "run 'iolab sim --model NAME' (or --array/--config; 'iolab replay' "
				  "takes the same)", f, v);
	c->engine = e;
	return 0;
}

static int set_direct(struct iolab_config *c, const char *f, const char *v, struct iolab_err *err)
{
	return iolab_parse_bool(f, v, &c->direct, err);
}

static int set_split(struct iolab_config *c, const char *f, const char *v, struct iolab_err *err)
{
	return iolab_parse_bool(f, v, &c->split, err);
}

static int set_buffered(struct iolab_config *c, const char *f, const char *v, struct iolab_err *err)
{
	bool b;
	int rc = iolab_parse_bool(f, v, &b, err);
	if (!rc)
		c->direct = !b;
	return rc;
}

static int set_invalidate(struct iolab_config *c, const char *f, const char *v, struct iolab_err *err)
{
	bool b;
	int rc = iolab_parse_bool(f, v, &b, err);
	if (!rc)
		c->invalidate = b;
	return rc;
}

static int set_no_invalidate(struct iolab_config *c, const char *f, const char *v, struct iolab_err *err)
{
	bool b;
	int rc = iolab_parse_bool(f, v, &b, err);
	if (!rc)
		c->invalidate = !b;
	return rc;
}

static int set_ramp(struct iolab_config *c, const char *f, const char *v, struct iolab_err *err)
{
	return iolab_parse_duration(f, v, &c->ramp_ns, err);
}

static int set_time(struct iolab_config *c, const char *f, const char *v, struct iolab_err *err)
{
	int rc = iolab_parse_duration(f, v, &c->time_ns, err);
	if (!rc && c->time_ns < 1000000)
		return iolab_errf(err, EINVAL, "%s: '%s' is shorter than 1 ms", f, v);
	if (!rc)
		c->bytes = 0;
	return rc;
}

static int set_bytes(struct iolab_config *c, const char *f, const char *v, struct iolab_err *err)
{
	int rc = iolab_parse_size(f, v, &c->bytes, err);
	if (!rc && !c->bytes)
		return iolab_errf(err, EINVAL, "%s: must be more than 0", f);
	if (!rc)
		c->time_ns = 0;
	return rc;
}

static int set_seed(struct iolab_config *c, const char *f, const char *v, struct iolab_err *err)
{
	return iolab_parse_uint(f, v, 0, UINT64_MAX, &c->seed, err);
}

static int set_dist(struct iolab_config *c, const char *f, const char *v, struct iolab_err *err)
{
	return iolab_dist_parse(f, v, &c->dist, err);
}

static int set_repeat(struct iolab_config *c, const char *f, const char *v, struct iolab_err *err)
{
	uint64_t n;
	int rc = iolab_parse_uint(f, v, 1, IOLAB_REPEAT_MAX, &n, err);
	if (!rc)
		c->repeat = (unsigned)n;
	return rc;
}

const char *iolab_ss_metric_name(unsigned m)
{
	static const char *const name[] = {"none", "iops", "mb", "lat"};
	return m < 4 ? name[m] : "?";
}

static int set_steady(struct iolab_config *c, const char *f, const char *v, struct iolab_err *err)
{
	for (unsigned m = IOLAB_SS_IOPS; m <= IOLAB_SS_LAT; m++)
		if (!strcmp(v, iolab_ss_metric_name(m))) {
			c->steady = m;
			return 0;
		}
	return iolab_errf(err, EINVAL, "%s: '%s' is not iops, mb or lat", f, v);
}

static int set_precondition(struct iolab_config *c, const char *f, const char *v, struct iolab_err *err)
{
	return iolab_parse_bool(f, v, &c->precondition, err);
}

static int set_on_error(struct iolab_config *c, const char *f, const char *v, struct iolab_err *err)
{
	if (!strcmp(v, "stop") || !strcmp(v, "continue")) {
		c->on_error_continue = !strcmp(v, "continue");
		return 0;
	}
	return iolab_errf(err, EINVAL, "%s: '%s' is not 'stop' or 'continue'", f, v);
}

static int set_fault(struct iolab_config *c, const char *f, const char *v, struct iolab_err *err)
{
	char buf[4096], *items[IOLAB_LIST_MAX];
	int n = set_list(f, v, items, err);
	for (int i = 0; i < n; i++) {
		if (c->faults.n == IOLAB_FAULTS_MAX)
			return iolab_errf(err, EINVAL, "%s: more than %d rules", f, IOLAB_FAULTS_MAX);
		int rc = iolab_fault_parse(f, items[i], &c->faults.rule[c->faults.n], err);
		if (rc)
			return rc;
		c->faults.n++;
	}
	return n < 0 ? n : 0;
}

static int set_mem_limit(struct iolab_config *c, const char *f, const char *v, struct iolab_err *err)
{
	int rc = iolab_parse_size(f, v, &c->mem_limit, err);
	if (!rc && !c->mem_limit)
		return iolab_errf(err, EINVAL, "%s: must be more than 0", f);
	return rc;
}

static int set_host_sched(struct iolab_config *c, const char *f, const char *v, struct iolab_err *err)
{
	char buf[4096], *items[IOLAB_LIST_MAX];
	int n = set_list(f, v, items, err);
	for (int i = 0; i < n; i++) {
		enum iolab_host_sched h;
		if (iolab_host_sched_parse(f, items[i], &h, err))
			return -EINVAL;
		c->sim.host_sched[i] = (unsigned char)h;
	}
	if (n >= 0)
		c->sim.nhost = (unsigned)n;
	return n < 0 ? n : 0;
}

static int set_host_overhead(struct iolab_config *c, const char *f, const char *v,
			     struct iolab_err *err)
{
	return iolab_parse_duration(f, v, &c->sim.host_overhead_ns, err);
}

/* "LEVEL:N[,N]": the level and drive counts, each one the level can have (raid_levels.c). */
static int set_array(struct iolab_config *c, const char *f, const char *v, struct iolab_err *err)
{
	const char *colon = strchr(v, ':');
	const struct iolab_raid_info *r = colon ? iolab_raid_find(v, (size_t)(colon - v)) : NULL;
	if (!r || r->level == IOLAB_RAID_NONE)
		return iolab_errf(err, EINVAL, "%s: '%s' is not LEVEL:N[,N] with LEVEL raid0, raid1, "
				  "raid10, raid4, raid5 or raid6 (raid0:4, raid5:5, raid0:1,2,4,8)", f, v);
	int rc = set_uint_list(f, colon + 1, c->sim.array_drives, &c->sim.narray, 1, r->max_members, err);
	char why[200];
	for (unsigned i = 0; !rc && i < c->sim.narray; i++)
		if (iolab_raid_check_members(r->level, c->sim.array_drives[i], why, sizeof(why)))
			return iolab_errf(err, EINVAL, "%s %s: %s", f, v, why);
	if (!rc)
		c->sim.array_level = r->level;
	return rc;
}

static int set_stripe(struct iolab_config *c, const char *f, const char *v, struct iolab_err *err)
{
	char buf[4096], *items[IOLAB_LIST_MAX];
	int n = set_list(f, v, items, err);
	for (int i = 0; i < n; i++) {
		if (iolab_parse_size(f, items[i], &c->sim.stripe[i], err))
			return -EINVAL;
		if (!c->sim.stripe[i] || c->sim.stripe[i] % 512 || c->sim.stripe[i] > (1u << 30))
			return iolab_errf(err, EINVAL, "%s: '%s' must be a multiple of 512 bytes up to 1 GiB",
					  f, items[i]);
	}
	if (n >= 0)
		c->sim.nstripe = (unsigned)n;
	return n < 0 ? n : 0;
}

/* "N" or "N+M": one or two failed drives, 1-based, different. */
static int set_failed(struct iolab_config *c, const char *f, const char *v, struct iolab_err *err)
{
	char a[32];
	const char *plus = strchr(v, '+');
	size_t len = plus ? (size_t)(plus - v) : strlen(v);
	if (strchr(v, ',') || len >= sizeof(a) || (plus && strchr(plus + 1, '+')))
		return iolab_errf(err, EINVAL, "%s: '%s' is not N or N+M (one or two failed drives, "
				  "1-based)", f, v);
	memcpy(a, v, len);
	a[len] = 0;
	uint64_t n[2] = {0, 0};
	int rc = iolab_parse_uint(f, a, 1, 64, &n[0], err);
	if (!rc && plus)
		rc = iolab_parse_uint(f, plus + 1, 1, 64, &n[1], err);
	if (!rc && n[0] == n[1])
		return iolab_errf(err, EINVAL, "%s: '%s' names drive %u twice", f, v, (unsigned)n[0]);
	if (!rc) {
		c->sim.failed[0] = (unsigned)n[0];
		c->sim.failed[1] = (unsigned)n[1];
	}
	return rc;
}

static int set_rebuild_rate(struct iolab_config *c, const char *f, const char *v,
			    struct iolab_err *err)
{
	int rc = iolab_parse_size(f, v, &c->sim.rebuild_rate, err);
	if (!rc && !c->sim.rebuild_rate)
		return iolab_errf(err, EINVAL, "%s: must be more than 0 bytes/s", f);
	return rc;
}

/* The simulated path's parts (subsys_shape.c builds them). A list of more than one value
 * sweeps the part (sim_options.h): the first value is the shorthand's, and each point sets its
 * own through the same setter. */
#define sweep_list(c, f, name, option, items, n, err) \
	iolab_sim_options_add_list(&(c)->sim, f, name, option, NULL, NULL, items, (unsigned)(n), err)

static int set_channel(struct iolab_config *c, const char *f, const char *v, struct iolab_err *err)
{
	char buf[4096], *items[IOLAB_LIST_MAX];
	int n = set_list(f, v, items, err);
	for (int i = n - 1; i >= 0; i--)
		if (iolab_link_parse(f, items[i], false, &c->sim.channel, err))
			return -EINVAL;
	c->sim.has_channel = n > 0;
	return n < 0 ? n : sweep_list(c, f, "channel.type", "channel", items, n, err);
}

/* --channels, --controllers: N[,N], 1..IOLAB_SUBSYS_MAX. */
static int set_count(const char *f, const char *v, unsigned *out, struct iolab_config *c,
		     struct iolab_err *err)
{
	char buf[4096], *items[IOLAB_LIST_MAX];
	int n = set_list(f, v, items, err);
	for (int i = n - 1; i >= 0; i--) {
		uint64_t x;
		if (iolab_parse_uint(f, items[i], 1, IOLAB_SUBSYS_MAX, &x, err))
			return *out = 0, -EINVAL;
		*out = (unsigned)x;
	}
	return n < 0 ? n : sweep_list(c, f, f, f, items, n, err);
}

static int set_channels(struct iolab_config *c, const char *f, const char *v, struct iolab_err *err)
{
	return set_count(f, v, &c->sim.channels, c, err);
}

static int set_bus(struct iolab_config *c, const char *f, const char *v, struct iolab_err *err)
{
	char buf[4096], *items[IOLAB_LIST_MAX];
	int n = set_list(f, v, items, err);
	for (int i = n - 1; i >= 0; i--)
		if (iolab_link_parse(f, items[i], true, &c->sim.bus, err))
			return -EINVAL;
	c->sim.has_bus = n > 0;
	return n < 0 ? n : sweep_list(c, f, "bus.type", "bus", items, n, err);
}

static int set_controllers(struct iolab_config *c, const char *f, const char *v, struct iolab_err *err)
{
	return set_count(f, v, &c->sim.controllers, c, err);
}

static int set_ctl_overhead(struct iolab_config *c, const char *f, const char *v, struct iolab_err *err)
{
	c->sim.has_ctl = true;
	c->sim.ctl_given |= IOLAB_CTL_GIVEN_OVERHEAD;
	return iolab_parse_duration(f, v, &c->sim.ctl.overhead_ns, err);
}

static int set_cache(struct iolab_config *c, const char *f, const char *v, struct iolab_err *err)
{
	char buf[4096], *items[IOLAB_LIST_MAX];
	int n = set_list(f, v, items, err);
	for (int i = 0; i < n; i++)
		if (iolab_parse_size(f, items[i], &c->sim.cache[i], err))
			return -EINVAL;
	if (n >= 0) {
		c->sim.ncache = (unsigned)n;
		c->sim.has_ctl = true;
	}
	return n < 0 ? n : 0;
}

static int set_write_policy(struct iolab_config *c, const char *f, const char *v, struct iolab_err *err)
{
	char buf[4096], *items[IOLAB_LIST_MAX];
	int n = set_list(f, v, items, err);
	for (int i = 0; i < n; i++) {
		unsigned wp;
		if (iolab_write_policy_parse(f, items[i], &wp, err))
			return -EINVAL;
		c->sim.write_policy[i] = (unsigned char)wp;
	}
	if (n >= 0) {
		c->sim.nwp = (unsigned)n;
		c->sim.has_ctl = true;
	}
	return n < 0 ? n : 0;
}

static int set_battery(struct iolab_config *c, const char *f, const char *v, struct iolab_err *err)
{
	c->sim.has_ctl = true;
	c->sim.ctl_given |= IOLAB_CTL_GIVEN_BATTERY;
	return iolab_parse_bool(f, v, &c->sim.ctl.battery, err);
}

static int set_read_ahead(struct iolab_config *c, const char *f, const char *v, struct iolab_err *err)
{
	char buf[4096], *items[IOLAB_LIST_MAX];
	int n = set_list(f, v, items, err);
	c->sim.has_ctl = true;
	c->sim.ctl_given |= IOLAB_CTL_GIVEN_READ_AHEAD;
	for (int i = n - 1; i >= 0; i--)
		if (iolab_read_ahead_parse(f, items[i], &c->sim.ctl.read_ahead, err))
			return -EINVAL;
	return n < 0 ? n : sweep_list(c, f, "controller.read-ahead", "read-ahead", items, n, err);
}

/* --drive NAME[,NAME]: the drives of --array, each name opened once here to check it; a list
 * sweeps drive.model of the point's subsystem. */
static int set_drive(struct iolab_config *c, const char *f, const char *v, struct iolab_err *err)
{
	char buf[4096], *items[IOLAB_LIST_MAX];
	int n = set_list(f, v, items, err);
	for (int i = 0; i < n; i++) {
		struct iolab_disk_model m;
		if (strlen(items[i]) >= sizeof(c->sim.drive))
			return iolab_errf(err, EINVAL, "%s: '%s' is longer than %zu bytes", f, items[i],
					  sizeof(c->sim.drive) - 1);
		if (iolab_model_open(items[i], &m, err)) {
			iolab_err_prefix(err, "%s", f);
			return -EINVAL;
		}
		iolab_model_free(&m);
	}
	if (n < 0)
		return n;
	snprintf(c->sim.drive, sizeof(c->sim.drive), "%s", items[0]);
	return iolab_sim_options_add_list(&c->sim, f, "drive.model", NULL, "drive", "model", items,
					  (unsigned)n, err);
}

/* --set PART.KEY=V[,V]: any key of the simulated path's parts (sim_options.h); repeatable. */
static int set_set(struct iolab_config *c, const char *f, const char *v, struct iolab_err *err)
{
	return iolab_sim_options_add_set(&c->sim, f, v, err);
}

static int set_drive_cache(struct iolab_config *c, const char *f, const char *v, struct iolab_err *err)
{
	bool on;
	int rc = iolab_parse_bool(f, v, &on, err);
	c->sim.drive_cache = rc ? -1 : on;
	return rc;
}

static int set_force(struct iolab_config *c, const char *f, const char *v, struct iolab_err *err)
{
	return iolab_parse_bool(f, v, &c->force, err);
}

static int set_destroy(struct iolab_config *c, const char *f, const char *v, struct iolab_err *err)
{
	return iolab_parse_bool(f, v, &c->destroy_data, err);
}

static int set_verify(struct iolab_config *c, const char *f, const char *v, struct iolab_err *err)
{
	return iolab_verify_algo_parse(f, v, &c->verify, err);
}

static int set_verify_only(struct iolab_config *c, const char *f, const char *v, struct iolab_err *err)
{
	return iolab_parse_bool(f, v, &c->verify_only, err);
}

static int set_verify_journal(struct iolab_config *c, const char *f, const char *v, struct iolab_err *err)
{
	if (!*v || strlen(v) >= sizeof(c->verify_journal))
		return iolab_errf(err, EINVAL, "%s: '%s' is not a file name", f, v);
	strcpy(c->verify_journal, v);
	return 0;
}

/* random | zero | compressible:PCT */
static int set_buffer_pattern(struct iolab_config *c, const char *f, const char *v, struct iolab_err *err)
{
	const char *pre = "compressible:";
	c->buffer_compress_pct = 0;
	if (!strncmp(v, pre, strlen(pre))) {
		c->buffer_pattern = IOLAB_BUF_COMPRESSIBLE;
		return iolab_parse_pct(f, v + strlen(pre), &c->buffer_compress_pct, err);
	}
	for (unsigned p = IOLAB_BUF_RANDOM; p <= IOLAB_BUF_ZERO; p++)
		if (!strcmp(v, iolab_buffer_pattern_name(p))) {
			c->buffer_pattern = p;
			return 0;
		}
	return iolab_errf(err, EINVAL, "%s: '%s' is not random, zero or compressible:PCT", f, v);
}

struct option_entry {
	struct iolab_option o;
	setter_fn set;
};

static const struct option_entry table[] = {
	{{"target", "TARGET[,TARGET]", "file or block device (also given as arguments); iolab sim: a volume of the --config file by name (several: the load spread over them as over files)"}, set_target},
	{{"size", "SIZE", "create a scratch file of SIZE if the target does not exist"}, set_size},
	{{"offset", "SIZE", "start of the region used in each target"}, set_offset},
	{{"length", "SIZE", "length of the region (default: to the end)"}, set_length},
	{{"stroke", "PCT", "use only the first PCT % of each target (short-stroking)"}, set_stroke},
	{{"split", NULL, "under mpirun: each rank takes its own slice of the region (docs/scale-out.md)"},
	 set_split},
	{{"pattern", "NAME[,NAME]", "access pattern(s) (default rand-read; see 'iolab patterns')"}, set_pattern},
	{{"bs", "SIZE[,SIZE]", "transfer size(s), replacing the pattern's size mix"}, set_bs},
	{{"trim-bs", "SIZE", "trimwrite, randtrimwrite: trim SIZE at a time, then write it in --bs pieces (fio's third bs; default: each write's own blocks)"},
	 set_trim_bs},
	{{"qd", "N[,N]", "outstanding I/Os per worker (default 1; with --rate: the most, default 1024)"},
	 set_qd},
	{{"clients", "N[,N]", "closed-loop clients per worker, instead of --qd (each waits --think)"},
	 set_clients},
	{{"think", "[exp:]TIME", "a client's wait after each completion (default 0; exp: exponential); only with --clients"},
	 set_think},
	{{"rate", "[poisson:]IOPS[,IOPS]", "open loop: requests arrive at IOPS (all workers), evenly or Poisson"},
	 set_rate},
	{{"read", "PCT[,PCT]", "read percentage(s), replacing the pattern's"}, set_read},
	{{"workers", "N[,N]", "workers, each with its own queue, position and random stream (default 1; simulated: merged in virtual time)"},
	 set_workers},
	{{"worker-region", "shared|split", "the workers share the region (default) or each takes its own slice"},
	 set_worker_region},
	{{"engine", "NAME", "io_uring (default), libaio, psync or null"}, set_engine},
	{{"direct", NULL, "O_DIRECT with aligned buffers (the default)"}, set_direct},
	{{"buffered", NULL, "go through the page cache"}, set_buffered},
	{{"invalidate", NULL, "drop the targets' cached pages before each run (default if buffered)"},
	 set_invalidate},
	{{"no-invalidate", NULL, "keep them: a warm page cache becomes part of the figures"},
	 set_no_invalidate},
	{{"ramp", "TIME", "warm-up excluded from every figure (default 0)"}, set_ramp},
	{{"time", "TIME", "measured time per point (default 10s; 500ms, 2m also)"}, set_time},
	{{"bytes", "SIZE", "issue exactly SIZE bytes per point (after --ramp) instead of a time; copy: SIZE copied (read and written)"}, set_bytes},
	{{"seed", "N", "random seed (default 1): same seed, same requests"}, set_seed},
	{{"dist", "DIST", "random offsets: uniform, zipf:THETA, pareto:H, hotspot:P/R"}, set_dist},
	{{"repeat", "N", "run every point N times; report mean, stddev, min, max"}, set_repeat},
	{{"steady-state", "iops|mb|lat", "run each point in rounds of --time until the value is steady (SNIA PTS: 5-round window, 25 rounds at most)"},
	 set_steady},
	{{"fresh-state", NULL, "simulated: start every round, repeat and ramp from an empty system (default: they continue its state: caches, dirty data, positions, rebuild, time)"},
	 set_fresh_state},
	{{"precondition", NULL, "before the points, write the targets whole twice, sequentially, 128k "
			      "direct; a simulated SSD starts written whole and then at random"},
	 set_precondition},
	{{"on-error", "stop|continue", "what an I/O error does: stop the run (default), or count it and go on (exit 1 at the end)"},
	 set_on_error},
	{{"fault", "RULE[,RULE]", "inject faults on purpose: eio, short, enospc, delay=TIME, vanish[=eio], :read or :write, then @N, /N or %P (eio:read@1000, short-write%1; docs/faults.md); repeatable"},
	 set_fault},
	{{"host-scheduler", "NAME[,NAME]", "simulated drives: the host's queue: none (arrival order), cscan, deadline"},
	 set_host_sched},
	{{"array", "LEVEL:N[,N]", "simulated: a raid0, raid1, raid10, raid4, raid5 or raid6 volume of N drives of --drive (a list sweeps N)"},
	 set_array},
	{{"stripe", "SIZE[,SIZE]", "simulated: the volume's stripe unit (default 64k)"}, set_stripe},
	{{"failed", "N[+M]", "simulated: drive N (and M) of the volume failed: degraded mode (RAID 6: two; RAID 10: one per pair; others: one)"},
	 set_failed},
	{{"rebuild-rate", "RATE", "simulated: rebuild the failed drives onto replacements at RATE bytes/s (10M), beside the load"},
	 set_rebuild_rate},
	{{"host-overhead", "TIME", "simulated drives: the host's time per command (driver, adapter; default 0)"},
	 set_host_overhead},
	{{"channel", "TYPE[,TYPE]", "simulated: the drives' channel, a name or a rate (wide-ultra-scsi, ata100, sas2, ...; see docs/subsystem-format.md)"},
	 set_channel},
	{{"channels", "N[,N]", "simulated: spread the drives over N channels of --channel (default 1 per controller)"}, set_channels},
	{{"bus", "TYPE[,TYPE]", "simulated: the I/O bus under the controllers, a name or a rate (pci32-33, pcix-133, pcie2x8, ...)"}, set_bus},
	{{"controllers", "N[,N]", "simulated: N controllers, each with a volume of an equal share of the drives"},
	 set_controllers},
	{{"controller-overhead", "TIME", "simulated: the controller's time per command (default 0)"},
	 set_ctl_overhead},
	{{"cache", "SIZE[,SIZE]", "simulated: the controller's cache (default none)"}, set_cache},
	{{"write-policy", "POLICY[,POLICY]", "simulated: the controller's write-through (default) or write-back"},
	 set_write_policy},
	{{"battery", "yes|no", "simulated: the controller's cache has a battery (default yes; without, write-back acts as write-through)"},
	 set_battery},
	{{"read-ahead", "MODE[,MODE]", "simulated: the controller's read-ahead: none (default), always, adaptive"},
	 set_read_ahead},
	{{"drive", "NAME[,NAME]", "simulated: with --array, the model of every drive of the volume (a list sweeps it)"},
	 set_drive},
	{{"set", "PART.KEY=V[,V]", "simulated: set KEY of PART (a part's name, or a kind: controller, drive, ...) in every point, or sweep it (controller.read-ahead=none,adaptive; drive.rpm=7200,15000); repeatable"},
	 set_set},
	{{"drive-cache", "on|off", "simulated: the drives' own write cache (default: as the model)"},
	 set_drive_cache},
	{{"verify", "crc32c|xxh64", "stamp each written 4 KiB with a header and checksum; check every block read back that the run wrote"},
	 set_verify},
	{{"verify-only", NULL, "read the targets back once, in order, and check every block a --verify run wrote"},
	 set_verify_only},
	{{"verify-journal", "FILE", "--verify: record what each block holds, synced before each write; --verify-only: check against it"},
	 set_verify_journal},
	{{"buffer-pattern", "PATTERN", "what writes carry: random (default: unique, incompressible), zero, compressible:PCT"},
	 set_buffer_pattern},
	{{"mem-limit", "SIZE", "most memory a point may use: buffers, per-second series, simulated caches (default: half the RAM)"}, set_mem_limit},
	{{"force", NULL, "allow writing to an existing file or block device; replace outputs"}, set_force},
	{{"destroy-data", NULL, "allow writing over a partition table or file system"}, set_destroy},
};

/* Options that cannot be given together in one place (the command line, one job-file section):
 * one would silently cancel the other. */
static const char *const exclusive[][2] = {
	{"time", "bytes"},
	{"steady-state", "repeat"},
	{"direct", "buffered"},
	{"invalidate", "no-invalidate"},
	{"qd", "clients"},
	{"verify", "verify-only"},
};

/* Options only a measurement of real targets uses; a simulation refuses them. */
static const char *const targets_only[] = {
	"size", "engine", "direct", "buffered", "invalidate", "no-invalidate", "destroy-data",
	"split", "fault", "verify", "verify-only", "verify-journal", "buffer-pattern",
};

const char *iolab_option_excludes(const char *name)
{
	for (unsigned i = 0; i < sizeof(exclusive) / sizeof(exclusive[0]); i++)
		for (unsigned k = 0; k < 2; k++)
			if (!strcmp(exclusive[i][k], name))
				return exclusive[i][1 - k];
	return NULL;
}

bool iolab_option_simulated(const char *name)
{
	for (unsigned i = 0; i < sizeof(targets_only) / sizeof(targets_only[0]); i++)
		if (!strcmp(targets_only[i], name))
			return false;
	return true;
}

/* Options only a simulated drive uses; a measurement of real targets refuses them. */
static const char *const simulated_only[] = {
	"host-scheduler", "host-overhead", "array", "stripe", "failed", "rebuild-rate", "channel", "channels", "bus",
	"controllers", "controller-overhead", "cache", "write-policy", "battery", "read-ahead",
	"drive-cache", "drive", "set", "fresh-state",
};

bool iolab_option_real(const char *name)
{
	for (unsigned i = 0; i < sizeof(simulated_only) / sizeof(simulated_only[0]); i++)
		if (!strcmp(simulated_only[i], name))
			return false;
	return true;
}

bool iolab_option_repeatable(const char *name)
{
	return !strcmp(name, "target") || !strcmp(name, "fault") || !strcmp(name, "set");
}

unsigned iolab_option_count(void)
{
	return sizeof(table) / sizeof(table[0]);
}

const struct iolab_option *iolab_option_at(unsigned i)
{
	return i < iolab_option_count() ? &table[i].o : NULL;
}

int iolab_config_set(struct iolab_config *c, const char *name, const char *value, struct iolab_err *err)
{
	for (unsigned i = 0; i < iolab_option_count(); i++) {
		const struct option_entry *e = &table[i];
		if (strcmp(e->o.name, name))
			continue;
		if (!value && e->o.arg)
			return iolab_errf(err, EINVAL, "%s: needs a value (%s)", name, e->o.arg);
		return e->set(c, name, value ? value : "true", err);
	}
	return iolab_errf(err, ENOENT, "unknown option '%s'", name);
}
