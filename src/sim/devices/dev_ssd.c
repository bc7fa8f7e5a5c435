/* dev_ssd.c: the `ssd` device kind: a flash SSD of an SSD model (ssd_model.h; a model file
 * starting `device = ssd`) as a component of the simulated path: its component ops, its keys
 * and its registry entry (the line in components.c). A `drive` line whose model is an SSD is
 * handed to this kind (comp_drive.c, iolab_device_kind).
 *
 * A command is placed on the device's resources when it arrives (ssd_timing.c says how), and
 * its one event is its completion:
 * - the controller's time per command (command_ns), one command at a time in arrival order (so
 *   1 / command_ns is the most commands a second it takes), then
 * - a read: each of its flash pages from the DRAM cache if it holds the page (a hit), else
 *   from flash (the mapping table first when it is cached and misses); the command's data is
 *   ready when its last page is, and then crosses the host interface;
 * - a write: its data crosses the host interface; with a write-back cache it completes once
 *   its pages are in DRAM (cache_page_ns each), each page's flush to flash placed at once in
 *   the background; the cache holds at most cache_bytes of pages whose flush has not ended, so
 *   a page that finds every slot taken waits for the first of their flushes to end; without a
 *   cache (or write-through) it completes when its programs end;
 * - a trim (NVMe Dataset Management, deallocate; ATA DATA SET MANAGEMENT TRIM): the mapping of
 *   every whole flash page inside its range is dropped (ssd_ftl_trim: those pages are no longer
 *   valid, so GC does not copy them); a partial page stays mapped, as the FTL maps whole pages.
 *   It costs the controller's command_ns only, and moves no data.
 * The host interface is the device's own link (iface_rate, one transfer at a time) or, on a
 * modelled channel, that channel (comp_link.c), which places transfers in the order they are
 * asked for: a read's data is put on it by an event when it is ready, the one case of two
 * events for a command. The device holds queues x queue_entries
 * commands (NVMe submission queues, SATA's NCQ); beyond them the host holds the rest. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "iolab/disk_model.h"
#include "iolab/sim_kinds.h"
#include "iolab/subsys.h"
#include "sim/devices/ssd_dev.h"
#include "sim/formats/ssd_model_file.h"

enum { EV_END, EV_DATA };
#define SECTOR 512u

static bool ssd_full(const struct iolab_comp *c)
{
	const struct ssd *s = c->priv;
	return s->inflight >= s->cap;
}

/* A command record (1-based), or 0 when memory ran out. */
static uint32_t cmd_get(struct ssd *s)
{
	if (!s->cmd_free) {
		uint32_t n = s->ncmd ? 2 * s->ncmd : 64;
		struct ssd_cmd *grown = realloc(s->cmd, n * sizeof(*grown));
		if (!grown)
			return 0;
		s->cmd = grown;
		for (uint32_t i = s->ncmd; i < n; i++)
			s->cmd[i].next_free = i + 1 < n ? i + 2 : 0;
		s->cmd_free = s->ncmd + 1;
		s->ncmd = n;
	}
	uint32_t k = s->cmd_free;
	s->cmd_free = s->cmd[k - 1].next_free;
	return k;
}

/* Pages through the DRAM, from t or when it is free: returns when they are in. */
static uint64_t dram(struct ssd *s, uint64_t t, uint64_t pages)
{
	s->dram_free = (t > s->dram_free ? t : s->dram_free) + pages * s->m.cache_page_ns;
	return s->dram_free;
}

/* The write-back cache's slot that frees first (the heap's top) now holds a flush ending at end,
 * of which gc_ns was GC's: the heap is mended downwards. */
static void slot_refill(struct ssd *s, uint64_t end, uint64_t gc_ns)
{
	struct ssd_flush *h = s->slot, x = {end, gc_ns};
	uint32_t i = 0, n = s->nslot;
	for (;;) {
		uint32_t k = 2 * i + 1;
		if (k >= n)
			break;
		if (k + 1 < n && h[k + 1].end < h[k].end)
			k++;
		if (h[k].end >= x.end)
			break;
		h[i] = h[k];
		i = k;
	}
	h[i] = x;
}

/* r's bytes in logical page lpa. */
static uint64_t page_bytes_of(const struct ssd *s, const struct iolab_sreq *r, uint64_t lpa)
{
	uint64_t lo = lpa * s->sectors_per_page, hi = lo + s->sectors_per_page;
	uint64_t a = r->d.lbn > lo ? r->d.lbn : lo, e = r->d.lbn + r->d.blocks;
	return ((e < hi ? e : hi) - a) * SECTOR;
}

static uint64_t do_read(struct ssd *s, uint64_t now, const struct iolab_sreq *r, uint64_t t,
			struct ssd_cmd *cmd)
{
	uint64_t first = r->d.lbn / s->sectors_per_page;
	uint64_t last = (r->d.lbn + r->d.blocks - 1) / s->sectors_per_page;
	uint64_t ready = t, crit[PH_COUNT] = {0};
	bool all_hit = true;
	for (uint64_t lpa = first; lpa <= last; lpa++) {
		uint64_t ph[PH_COUNT] = {0}, got, page = lpa % s->logical_pages;
		if (s->cache.cap && ssd_lru_touch(&s->cache, page)) {
			got = dram(s, t, 1);
			ph[PH_CACHE] = got - t;
		} else {
			all_hit = false;
			got = ssd_read_page(s, now, page, page_bytes_of(s, r, lpa), t, ph);
		}
		if (got > ready || lpa == first) { /* the page the command waits for */
			ready = got;
			memcpy(crit, ph, sizeof(crit));
		}
	}
	for (int i = 0; i < PH_COUNT; i++)
		cmd->ph[i] += crit[i];
	cmd->hit = all_hit;
	if (s->link) /* placed on the channel when the data is ready (EV_DATA) */
		return ready;
	return ssd_iface_transfer(s, now, (uint64_t)r->d.blocks * SECTOR, ready, cmd->ph);
}

static uint64_t do_write(struct ssd *s, uint64_t now, const struct iolab_sreq *r, uint64_t t,
			 struct ssd_cmd *cmd)
{
	uint64_t first = r->d.lbn / s->sectors_per_page;
	uint64_t last = (r->d.lbn + r->d.blocks - 1) / s->sectors_per_page;
	uint64_t in = ssd_iface_transfer(s, now, (uint64_t)r->d.blocks * SECTOR, t, cmd->ph);
	if (s->write_back) {
		uint64_t ready = in, gc = 0;
		for (uint64_t lpa = first; lpa <= last; lpa++) {
			uint64_t page = lpa % s->logical_pages, flush[PH_COUNT] = {0};
			const struct ssd_flush *top = &s->slot[0]; /* the flush that ends first */
			if (top->end > ready) { /* the cache is full: that flush's end frees a slot */
				uint64_t wait = top->end - ready;
				gc += wait < top->gc_ns ? wait : top->gc_ns;
				ready = top->end;
			}
			ready = dram(s, ready, 1);
			uint64_t end = ssd_program_page(s, now, page, ready, flush);
			slot_refill(s, end, flush[PH_GC]);
			ssd_lru_put(&s->cache, page);
		}
		cmd->ph[PH_CACHE] += ready - in - gc;
		cmd->ph[PH_GC] += gc;
		return ready;
	}
	uint64_t done = in, crit[PH_COUNT] = {0};
	for (uint64_t lpa = first; lpa <= last; lpa++) {
		uint64_t ph[PH_COUNT] = {0}, page = lpa % s->logical_pages;
		uint64_t got = ssd_program_page(s, now, page, in, ph);
		if (s->cache.cap) /* write-through: the cache keeps a copy */
			ssd_lru_put(&s->cache, page);
		if (got > done || lpa == first) {
			done = got;
			memcpy(crit, ph, sizeof(crit));
		}
	}
	for (int i = 0; i < PH_COUNT; i++)
		cmd->ph[i] += crit[i];
	return done;
}

/* A trim: whole pages of r's range unmapped. */
static void do_trim(struct ssd *s, const struct iolab_sreq *r)
{
	uint64_t spp = s->sectors_per_page;
	uint64_t first = (r->d.lbn + spp - 1) / spp, end = (r->d.lbn + r->d.blocks) / spp;
	for (uint64_t lpa = first; lpa < end; lpa++)
		ssd_ftl_trim(s->ftl, lpa % s->logical_pages);
}

static int ssd_submit(struct iolab_comp *c, struct iolab_sreq *r)
{
	struct ssd *s = c->priv;
	if (s->inflight >= s->cap)
		return -EBUSY;
	uint32_t k = cmd_get(s);
	if (!k)
		return -ENOMEM;
	uint64_t now = c->sim->now;
	r->d.t_arrive = now > r->d.t_arrive ? now : r->d.t_arrive;
	struct ssd_cmd *cmd = &s->cmd[k - 1];
	memset(cmd->ph, 0, sizeof(cmd->ph));
	cmd->r = r;
	cmd->hit = false;
	uint64_t start = now > s->ctl_free ? now : s->ctl_free; /* the controller takes commands in turn */
	uint64_t t = s->ctl_free = start + s->m.command_ns;
	s->ctl_busy_ns += (double)s->m.command_ns;
	cmd->ph[PH_QUEUE] = start - now;
	cmd->ph[PH_INTERFACE] = s->m.command_ns;
	if (!r->d.blocks || r->d.trim) {
		if (r->d.trim)
			do_trim(s, r);
		r->d.t_done = t;
	} else if (r->d.write)
		r->d.t_done = do_write(s, now, r, t, cmd);
	else
		r->d.t_done = do_read(s, now, r, t, cmd);
	s->inflight++;
	iolab_sim_at(c, r->d.t_done, s->link && !r->d.write && !r->d.trim ? EV_DATA : EV_END,
		     (void *)(uintptr_t)k);
	if (s->nomem && !c->sim->error)
		c->sim->error = -ENOMEM;
	return 0;
}

static void ssd_event(struct iolab_comp *c, unsigned what, void *arg)
{
	struct ssd *s = c->priv;
	uint32_t k = (uint32_t)(uintptr_t)arg;
	struct ssd_cmd *cmd = &s->cmd[k - 1];
	struct iolab_sreq *r = cmd->r;
	if (what == EV_DATA) { /* a read's data is ready: over the modelled channel */
		r->d.t_done = ssd_iface_transfer(s, c->sim->now, (uint64_t)r->d.blocks * SECTOR,
						 c->sim->now, cmd->ph);
		iolab_sim_at(c, r->d.t_done, EV_END, arg);
		return;
	}
	for (int i = 0; i < PH_COUNT; i++)
		s->ph_total[i] += cmd->ph[i];
	s->rep.ios++;
	s->rep.bytes += r->d.trim ? 0 : (uint64_t)r->d.blocks * SECTOR;
	s->rep.resident_ns += (double)(r->d.t_done - r->d.t_arrive);
	if (!r->d.write && !r->d.trim) {
		s->reads++;
		s->read_hits += cmd->hit;
	}
	cmd->next_free = s->cmd_free;
	s->cmd_free = k;
	s->inflight--;
	iolab_sim_done(c->sim, r);
}

/* --precondition: the FTL in the steady state of a drive written whole and then at random; the
 * cache empty; the resources' times as they are. */
static int ssd_precondition(struct iolab_comp *c)
{
	struct ssd *s = c->priv;
	int rc = ssd_ftl_precondition(s->ftl, SSD_FILL_STEADY);
	if (s->cache.cap)
		ssd_lru_clear(&s->cache);
	if (s->slot)
		memset(s->slot, 0, s->nslot * sizeof(*s->slot));
	return rc;
}

static void ssd_cleanup(struct iolab_comp *c)
{
	struct ssd *s = c->priv;
	if (s) {
		ssd_ftl_free(s->ftl);
		ssd_lru_free(&s->cache);
		ssd_lru_free(&s->cmt);
		free(s->cmt_seen);
		free(s->tpage_ready);
		free(s->slot);
		for (unsigned i = 0; s->die && i < s->ndie; i++)
			ssd_calendar_free(&s->die[i].cal);
		free(s->die);
		for (unsigned i = 0; s->chan && i < s->nchan; i++)
			ssd_calendar_free(&s->chan[i].cal);
		free(s->chan);
		ssd_calendar_free(&s->iface);
		free(s->cmd);
	}
	free(s);
}

const struct iolab_comp_ops iolab_comp_ssd = {
	.kind = "ssd",
	.version = IOLAB_COMP_OPS_VERSION,
	.submit = ssd_submit,
	.full = ssd_full,
	.event = ssd_event,
	.cleanup = ssd_cleanup,
	.report = ssd_report,
	.breakdown = ssd_breakdown,
	.parts = ssd_parts,
	.precondition = ssd_precondition,
};

static uint64_t mean3(const uint64_t *v, unsigned n)
{
	uint64_t sum = 0;
	for (unsigned i = 0; i < n; i++)
		sum += v[i];
	return (sum + n / 2) / n;
}

/* The FTL's parameters of model m. */
static void ftl_params_of(const struct iolab_ssd_model *m, struct ssd_ftl_params *fp)
{
	*fp = (struct ssd_ftl_params){
		.channels = m->channels, .chips = m->chips_per_channel, .dies = m->dies_per_chip,
		.planes = m->planes_per_die, .blocks_per_plane = m->blocks_per_plane,
		.pages_per_block = m->pages_per_block, .logical_pages = iolab_ssd_logical_pages(m),
		.gc_policy = m->gc_policy, .rga_choices = m->rga_choices,
		.gc_free_blocks = iolab_ssd_gc_reserve_blocks(m),
		.allocation = m->allocation, .seed = 0x55D, /* any fixed seed: runs repeat */
	};
	memcpy(fp->order, m->allocation_order, sizeof(fp->order));
}

/* Its FTL and its caches, from its model. */
static int ssd_setup(struct ssd *s, struct iolab_err *err)
{
	const struct iolab_ssd_model *m = &s->m;
	s->logical_pages = iolab_ssd_logical_pages(m);
	struct ssd_ftl_params fp;
	ftl_params_of(m, &fp);
	int rc = ssd_ftl_new(&s->ftl, &fp, err);
	if (rc)
		return rc;
	s->nchan = m->channels;
	s->dies_per_channel = m->chips_per_channel * m->dies_per_chip;
	s->ndie = s->nchan * s->dies_per_channel;
	s->die = calloc(s->ndie, sizeof(*s->die));
	s->chan = calloc(s->nchan, sizeof(*s->chan));
	if (!s->die || !s->chan)
		return -ENOMEM;
	s->iface.nomem = &s->nomem;
	for (unsigned i = 0; i < s->ndie; i++)
		s->die[i].cal.nomem = &s->nomem;
	for (unsigned i = 0; i < s->nchan; i++)
		s->chan[i].cal.nomem = &s->nomem;
	s->sectors_per_page = m->page_bytes / SECTOR;
	s->ncell = m->cell == IOLAB_CELL_TLC ? 3 : m->cell == IOLAB_CELL_MLC ? 2 : 1;
	s->cap = (uint64_t)m->queues * m->queue_entries;
	s->page_xfer_ns = m->channel_command_ns + ssd_xfer_ns(m->page_bytes, m->channel_rate);
	s->gc_read_ns = mean3(m->read_ns, s->ncell);
	s->gc_program_ns = mean3(m->program_ns, s->ncell);
	s->bg_below = (uint32_t)(m->gc_background * m->blocks_per_plane);
	uint64_t pages = m->cache_bytes / m->page_bytes;
	pages = pages < s->logical_pages ? pages : s->logical_pages;
	pages = pages < UINT32_MAX - 1 ? pages : UINT32_MAX - 1;
	if (pages && ssd_lru_init(&s->cache, (uint32_t)pages))
		return -ENOMEM;
	s->write_back = s->write_back && pages;
	if (s->write_back) {
		s->nslot = (uint32_t)pages;
		if (!(s->slot = calloc(pages, sizeof(*s->slot))))
			return -ENOMEM;
	}
	if (!m->ideal_mapping) {
		uint32_t eb = m->cmt_entry_bytes ? m->cmt_entry_bytes : 4;
		uint64_t entries = m->cmt_bytes / eb;
		s->entries_per_tpage = m->page_bytes / eb ? m->page_bytes / eb : 1;
		uint64_t tpages = (s->logical_pages + s->entries_per_tpage - 1) / s->entries_per_tpage;
		if (!(s->tpage_ready = calloc(tpages, sizeof(*s->tpage_ready))))
			return -ENOMEM;
		if (entries >= s->logical_pages) {
			s->cmt_all = true;
			if (!(s->cmt_seen = calloc((s->logical_pages + 7) / 8, 1)))
				return -ENOMEM;
		} else if (entries && ssd_lru_init(&s->cmt, (uint32_t)entries)) {
			return -ENOMEM;
		}
	}
	return 0;
}

/* The device d of s (a drive line handed over: its write-cache key applies). */
static int ssd_build(struct iolab_comp *c, struct iolab_sim *sim, const struct iolab_subsys *s,
		     const struct iolab_sub_drive *d, const struct iolab_link_type *t,
		     struct iolab_comp *link)
{
	(void)t;
	const struct iolab_disk_model *dm = &s->model[d->model];
	struct ssd *x = calloc(1, sizeof(*x));
	if (!x)
		return -ENOMEM;
	x->m = *dm->ssd;
	x->link = link;
	x->write_back = x->m.cache_write_back;
	if (d->kind != &iolab_kind_ssd && d->write_cache >= 0)
		x->write_back = d->write_cache;
	*c = (struct iolab_comp){.ops = &iolab_comp_ssd, .sim = sim, .priv = x};
	struct iolab_err err = {0};
	int rc = ssd_setup(x, &err);
	if (rc) {
		ssd_cleanup(c);
		c->priv = NULL;
		return rc == -ENOMEM ? rc : -EINVAL;
	}
	return 0;
}

static void ssd_geometry(const struct iolab_subsys *s, const struct iolab_sub_drive *d,
			 uint64_t *blocks, uint32_t *block_bytes)
{
	const struct iolab_ssd_model *m = s->model[d->model].ssd;
	*blocks = m ? iolab_ssd_logical_pages(m) * (m->page_bytes / SECTOR) : s->model[d->model].blocks;
	*block_bytes = SECTOR;
}

static int ssd_check(const struct iolab_subsys *s, const struct iolab_sub_drive *d,
		     struct iolab_err *err)
{
	if (d->model >= s->nmodel)
		return iolab_errf(err, EINVAL, "field 'model': model index %u is out of range", d->model);
	const struct iolab_disk_model *dm = &s->model[d->model];
	if (!dm->ssd)
		return iolab_errf(err, EINVAL, "field 'model': '%s' is a drive model, not an SSD",
				  dm->name);
	if (d->channel >= 0 && d->channel < (int)s->nchan &&
	    s->chan[d->channel].type.kind == IOLAB_LINK_EXCLUSIVE)
		return iolab_errf(err, EINVAL, "field 'channel': an SSD does not hold a channel from a "
				  "command's start to its end as parallel ATA needs: put it on a "
				  "shared or point-to-point channel");
	int rc = iolab_ssd_model_check(dm->ssd, err);
	if (rc)
		return rc;
	if (dm->ssd->page_bytes % SECTOR)
		return iolab_errf(err, EINVAL, "field 'page_bytes': the simulator takes whole sectors "
				  "of %u bytes, not %u", SECTOR, dm->ssd->page_bytes);
	if (dm->ssd->planes_per_die > 32)
		return iolab_errf(err, EINVAL, "field 'planes_per_die': the simulator takes at most 32, "
				  "not %u", dm->ssd->planes_per_die);
	struct ssd_ftl_params fp; /* what its FTL would refuse, refused here with the model's name */
	ftl_params_of(dm->ssd, &fp);
	return ssd_ftl_check(&fp, err);
}

static const struct iolab_device_ops ssd_device = {
	.geometry = ssd_geometry,
	.check = ssd_check,
	.build = ssd_build,
};

static const struct iolab_param ssd_params[] = {
	{.key = "model", .type = IOLAB_PT_MODEL, .off = offsetof(struct iolab_sub_drive, model),
	 .required = true, .def_doc = "",
	 .doc = "an SSD model: a built-in one (`iolab models`) or a model file starting "
		"`device = ssd` (docs/model-format.md)"},
	{.key = "channel", .type = IOLAB_PT_REF, .ref = "channel", .fixed = true,
	 .off = offsetof(struct iolab_sub_drive, channel), .def_doc = "none modelled",
	 .doc = "the channel it is on (its host interface's data crosses it)"},
};

const struct iolab_kind iolab_kind_ssd = {
	.name = "ssd", .cls = IOLAB_KC_DEVICE, .ops = &iolab_comp_ssd,
	.about = "a flash SSD of an SSD model: host interface, DRAM cache, FTL, dies and channels",
	.params = ssd_params, .nparams = sizeof(ssd_params) / sizeof(ssd_params[0]),
	.device = &ssd_device,
};
