/* subsys_shape.c: the subsystem of one simulated point, from the command line's shorthands
 * (--model, or --array with --drive, --channel, --channels, --bus, --controllers and the
 * controller's options) or from a subsystem file with the point's sweep values applied.
 *
 * Shorthands build: K controllers (--controllers; one when any controller, channel or bus
 * option is given, none otherwise), each with a volume of the --array level over its share of
 * the drives (K must divide them); channels (--channels, at least one per controller) spread
 * over the controllers, and each controller's drives spread over its channels in turn; a
 * point-to-point link (SATA, SAS) gets one channel per drive; one bus (--bus) under every
 * controller. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "iolab/subsys.h"
#include "iolab/subsys_shape.h"
#include "sim/parts/raid_levels.h"

/* Names "base" when there is one, else "base1", "base2", ... */
static void name_of(char *out, const char *base, unsigned i, unsigned n)
{
	if (n == 1)
		snprintf(out, IOLAB_SUBSYS_NAME, "%s", base);
	else
		snprintf(out, IOLAB_SUBSYS_NAME, "%s%u", base, i + 1);
}

static int from_shorthand(const struct iolab_sim_shape *sh, struct iolab_subsys *s, struct iolab_err *err)
{
	unsigned n = sh->level ? sh->drives : 1;
	bool want_ctl = sh->controllers || sh->has_channel || sh->has_bus || sh->has_ctl;
	unsigned k = want_ctl ? (sh->controllers ? sh->controllers : 1) : 1;
	if (n > IOLAB_SUBSYS_DRIVES || k > IOLAB_SUBSYS_MAX)
		return iolab_errf(err, EINVAL, "--array: at most %u drives and %u controllers",
				  IOLAB_SUBSYS_DRIVES, IOLAB_SUBSYS_MAX);
	if (n % k)
		return iolab_errf(err, EINVAL, "--controllers %u: the %u drives do not divide among "
				  "them", k, n);
	unsigned per = n / k;
	if (sh->level && per < iolab_raid_info(sh->level)->min_members)
		return k > 1 ? iolab_errf(err, EINVAL, "--controllers %u: %u drives each are too few "
					  "for %s", k, per, iolab_raid_name(sh->level))
			     : iolab_errf(err, EINVAL, "--array %s:%u: too few drives for %s",
					  iolab_raid_name(sh->level), n, iolab_raid_name(sh->level));
	if (sh->level && per > IOLAB_SUBSYS_MAX)
		return iolab_errf(err, EINVAL, "--array: at most %u drives in one volume", IOLAB_SUBSYS_MAX);
	s->host = sh->host;
	s->host_stripe_bytes = sh->stripe;
	s->nmodel = 1;
	s->model[0] = *sh->model;
	if (sh->has_bus) {
		s->nbus = 1;
		snprintf(s->bus[0].name, IOLAB_SUBSYS_NAME, "bus");
		s->bus[0].up = -1;
		s->bus[0].type = sh->bus;
	}
	if (want_ctl) {
		s->nctl = k;
		for (unsigned i = 0; i < k; i++) {
			name_of(s->ctl[i].name, "controller", i, k);
			s->ctl[i].bus = sh->has_bus ? 0 : -1;
			s->ctl[i].p = sh->ctl;
		}
	}
	/* Channels: per controller, or one per drive on a point-to-point link. */
	unsigned cpk = 0;
	if (sh->has_channel || want_ctl) {
		bool p2p = sh->has_channel && sh->channel.kind == IOLAB_LINK_P2P;
		unsigned c = p2p ? n : sh->channels ? sh->channels : k;
		if (c % k || c < k || c > IOLAB_SUBSYS_MAX)
			return iolab_errf(err, EINVAL, "--channels %u: each of the %u controllers needs "
					  "as many (at most %u in all)", c, k, IOLAB_SUBSYS_MAX);
		if (sh->channels > n)
			return iolab_errf(err, EINVAL, "--channels %u: more channels than the %u drives "
					  "(a channel without a drive would carry nothing)", c, n);
		cpk = c / k;
	}
	if (sh->has_channel) {
		s->nchan = cpk * k;
		for (unsigned i = 0; i < s->nchan; i++) {
			name_of(s->chan[i].name, "channel", i, s->nchan);
			s->chan[i].controller = want_ctl ? (int)(i / cpk) : -1;
			s->chan[i].type = sh->channel;
		}
	} else if (want_ctl) {
		/* No channel modelled: a port (rate 0) ties each controller's drives to it. */
		s->nchan = k;
		for (unsigned i = 0; i < k; i++) {
			name_of(s->chan[i].name, "port", i, k);
			s->chan[i].controller = (int)i;
			s->chan[i].type = (struct iolab_link_type){.name = "port", .kind = IOLAB_LINK_P2P};
		}
		cpk = 1;
	}
	s->ndrive = n;
	for (unsigned i = 0; i < n; i++) {
		struct iolab_sub_drive *d = &s->drive[i];
		name_of(d->name, "drive", i, n);
		unsigned ctl = i / per, j = i % per;
		d->channel = s->nchan ? (int)(ctl * cpk + j % cpk) : -1;
		d->model = 0;
		d->write_cache = sh->drive_cache;
	}
	s->nvol = k;
	for (unsigned v = 0; v < k; v++) {
		struct iolab_sub_volume *vol = &s->vol[v];
		name_of(vol->name, "volume", v, k);
		vol->level = sh->level;
		vol->stripe_bytes = sh->stripe ? sh->stripe : 65536;
		vol->n = sh->level ? per : 1;
		for (unsigned i = 0; i < vol->n; i++)
			vol->drive[i] = v * per + i;
		vol->failed[0] = vol->failed[1] = -1;
		for (unsigned f = 0, nf = 0; f < 2; f++)
			if (sh->failed[f] >= 0 && (unsigned)sh->failed[f] / per == v) {
				vol->failed[nf++] = (int)((unsigned)sh->failed[f] % per);
				vol->rebuild_bytes_s = sh->rebuild_bytes_s;
			}
	}
	return 0;
}

/* A subsystem file's description with the point's sweep values in place of its own. */
static void from_file(const struct iolab_sim_shape *sh, struct iolab_subsys *s)
{
	*s = *sh->file;
	if (sh->set_host_sched)
		s->host.sched = sh->host.sched;
	if (sh->host.overhead_ns)
		s->host.overhead_ns = sh->host.overhead_ns;
	for (unsigned i = 0; i < s->nvol; i++)
		if (sh->stripe)
			s->vol[i].stripe_bytes = sh->stripe;
	for (unsigned i = 0; i < s->nctl; i++) {
		if (sh->set_cache)
			s->ctl[i].p.cache_bytes = sh->ctl.cache_bytes;
		if (sh->set_write_policy)
			s->ctl[i].p.write_policy = sh->ctl.write_policy;
		if (sh->ctl_given & IOLAB_CTL_GIVEN_OVERHEAD)
			s->ctl[i].p.overhead_ns = sh->ctl.overhead_ns;
		if (sh->ctl_given & IOLAB_CTL_GIVEN_BATTERY)
			s->ctl[i].p.battery = sh->ctl.battery;
		if (sh->ctl_given & IOLAB_CTL_GIVEN_READ_AHEAD)
			s->ctl[i].p.read_ahead = sh->ctl.read_ahead;
	}
	for (unsigned i = 0; i < s->ndrive; i++)
		if (sh->drive_cache >= 0)
			s->drive[i].write_cache = sh->drive_cache;
}

int iolab_subsys_shape(const struct iolab_sim_shape *sh, struct iolab_subsys *s, struct iolab_err *err)
{
	memset(s, 0, sizeof(*s));
	if (sh->file) {
		from_file(sh, s);
		return iolab_subsys_check(s, err);
	}
	int rc = from_shorthand(sh, s, err);
	return rc ? rc : iolab_subsys_check(s, err);
}
