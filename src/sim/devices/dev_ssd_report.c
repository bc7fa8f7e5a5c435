/* dev_ssd_report.c: what a simulated SSD (dev_ssd.c) did: its report, its parts' reports (a
 * flash channel each, a die each) and the phases of its commands.
 *
 * The device's busy_ns is that of the busier of its controller (command_ns a command) and its
 * host interface (the time its own link moved data; on a modelled channel, the time the data
 * would have taken at the device's own rate, the channel reporting its own). The dies and
 * channels report theirs, so the busiest part of an SSD limited by its flash is a die or a
 * channel, and one limited by its controller or interface is the device.
 *
 * Work is reserved when a command arrives, some of it ahead of the clock (a flush of the write
 * cache, a queue of reads on a die): a busy time reported is the part of it inside the run's
 * span, up to the clock now (the reservations' calendars say what lies beyond); the rest counts
 * in a later report, once the clock has passed it. */
#include <stdio.h>
#include <string.h>

#include "sim/devices/ssd_dev.h"


const char *const ssd_phase_name[PH_COUNT] = {"queue", "interface", "cache", "map", "wait", "gc",
					       "channel", "flash"};

/* Of busy ns reserved on a resource, those before now (its calendar holds what lies after). */
static double clipped(double busy, const struct ssd_calendar *cal, uint64_t now)
{
	double ahead = (double)ssd_calendar_after(cal, now);
	return busy > ahead ? busy - ahead : 0;
}

void ssd_report(const struct iolab_comp *c, struct iolab_comp_report *out)
{
	const struct ssd *s = c->priv;
	*out = s->rep;
	snprintf(out->kind, sizeof(out->kind), "%s", "ssd");
	uint64_t now = c->sim->now;
	/* the controller's reservations follow each other from its last idle time, before now */
	double ctl = s->ctl_busy_ns - (s->ctl_free > now ? (double)(s->ctl_free - now) : 0);
	double iface = s->link ? s->iface_busy_ns : clipped(s->iface_busy_ns, &s->iface, now);
	ctl = ctl > 0 ? ctl : 0;
	out->busy_ns = ctl > iface ? ctl : iface;
	out->flash_given = true;
	struct iolab_flash_report *f = &out->flash;
	memset(f, 0, sizeof(*f));
	f->host_pages_written = s->host_pages_written;
	f->host_pages_read = s->host_pages_read;
	f->map_reads = s->map_reads;
	for (unsigned i = 0; i < s->ndie; i++) {
		const struct ssd_die *d = &s->die[i];
		f->flash_reads += d->reads;
		f->flash_programs += d->programs;
		f->erases += d->erases;
		f->flash_ns += d->flash_ns;
		f->gc_ns += d->gc_ns;
	}
	struct ssd_ftl_stats st;
	ssd_ftl_stats(s->ftl, &st);
	f->gc_pages = st.gc_pages;
	f->trimmed_pages = st.trims;
	f->erase_min = st.erase_min;
	f->erase_max = st.erase_max;
	f->erase_mean = st.erase_mean;
	f->free_min = st.free_min;
}

unsigned ssd_parts(const struct iolab_comp *c, struct iolab_comp_report *out, unsigned max)
{
	const struct ssd *s = c->priv;
	uint64_t now = c->sim->now;
	unsigned k = 0;
	for (unsigned i = 0; i < s->nchan; i++, k++) {
		if (k >= max)
			continue;
		const struct ssd_channel *ch = &s->chan[i];
		out[k] = (struct iolab_comp_report){.ios = ch->ios, .bytes = ch->bytes,
						    .busy_ns = clipped(ch->busy_ns, &ch->cal, now),
						    .rated_mb_s = (double)s->m.channel_rate / 1e6};
		snprintf(out[k].name, sizeof(out[k].name), "ch%u", i);
		snprintf(out[k].kind, sizeof(out[k].kind), "%s", "flash-channel");
	}
	for (unsigned i = 0; i < s->ndie; i++, k++) {
		if (k >= max)
			continue;
		const struct ssd_die *d = &s->die[i];
		out[k] = (struct iolab_comp_report){.ios = d->ops,
						    .busy_ns = clipped(d->busy_ns, &d->cal, now),
						    .flash_given = true};
		out[k].flash.flash_reads = d->reads;
		out[k].flash.flash_programs = d->programs;
		out[k].flash.erases = d->erases;
		out[k].flash.flash_ns = d->flash_ns;
		out[k].flash.gc_ns = d->gc_ns;
		snprintf(out[k].name, sizeof(out[k].name), "die%u", i);
		snprintf(out[k].kind, sizeof(out[k].kind), "%s", "flash-die");
	}
	return k;
}

/* Each phase a total over the commands it finished. */
void ssd_breakdown(const struct iolab_comp *c, struct iolab_breakdown *b)
{
	const struct ssd *s = c->priv;
	for (int i = 0; i < PH_COUNT; i++)
		iolab_breakdown_put(b, ssd_phase_name[i], (double)s->ph_total[i]);
	b->ios += s->rep.ios;
	b->reads += s->reads;
	b->read_hits += s->read_hits;
}
