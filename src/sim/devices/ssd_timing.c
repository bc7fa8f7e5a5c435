/* ssd_timing.c: the time of the simulated SSD's work, by reservation (ssd_dev.h). A die does one
 * thing at a time: a page read (tR of the page's cell position, then the data over its flash
 * channel), a page program (the data over the channel, then tPROG), or GC's moves and erases;
 * a channel moves one transfer at a time (its command cycles, then the bytes at its rate). The
 * resources are placed in the order the host's commands arrive, each from the time its input is
 * ready and its resource is free, as MQSim's transaction scheduler serves a chip's queues
 * (Tavakkol et al., FAST 2018, section 4) without an event per flash transaction.
 *
 * - Multi-plane (model `multiplane`): a read or program of the same page index on another plane
 *   of the die joins the die's last operation if that has not started before the new one's input
 *   is ready (ONFI 4.0 section 5.11, multi-plane operations; MQSim TSU_Base.cpp batches the
 *   same way): one tR or tPROG for both.
 * - Foreground GC (the work ssd_ftl_write reports) is placed on the die from now, before the
 *   write's program: each moved page a read and a program (tR and tPROG of the cell positions'
 *   mean) with two transfers over the channel between them unless the model moves pages inside
 *   the die (copyback), then tBERS per erased block. Waiting behind it is the "gc" phase.
 * - Background GC (gc_background > 0): when a die is about to be used and has been idle, GC
 *   collects on its planes while a whole victim's worst case (every page moved) fits between
 *   the die's (and its channel's) last reservation and now, so that it delays no one.
 * - A read of the page the die read last (and nothing since) takes its data from the die's page
 *   register: no tR of its own, only the transfer (ONFI's Change Read Column moves another part
 *   of the page in the register; it stays there until the die's next array operation).
 * - Suspension (suspend_program, suspend_erase): a read ready while the die's last operation,
 *   a program or an erase, runs, starts after suspend_ns and pushes that operation's end back by
 *   suspend_ns + tR. The command that waits for the suspended program is not delayed further.
 * - A cached mapping table (ideal_mapping false): a read whose entry is not in it first reads
 *   the translation page (a page read, its die the translation page number modulo the dies),
 *   of which one 512-byte sector, the entries, crosses the channel; the entry then is. A miss
 *   on a translation page whose read is still in flight waits for that read instead of
 *   issuing another, as MQSim's mapping unit merges them (Address_Mapping_Unit_Page_Level.cpp:
 *   a translation read is a sector-sized read transaction, and a request whose translation
 *   page is already being read joins that read's waiting list). A write's new entry goes into
 *   it at no flash cost (dirty entries' write back is not modelled). */
#include "sim/devices/ssd_dev.h"

static uint64_t max64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

uint64_t ssd_xfer_ns(uint64_t bytes, uint64_t rate)
{
	return rate ? (bytes * 1000000000ull + rate / 2) / rate : 0;
}

/* The wait of a die's user from `from` to `to`: GC's share of it (its last GC reservation)
 * is the "gc" phase, the rest "wait". */
static void put_wait(const struct ssd_die *d, uint64_t from, uint64_t to, uint64_t *ph)
{
	uint64_t a = max64(from, d->gc_start), b = to < d->gc_end ? to : d->gc_end;
	uint64_t gc = b > a ? b - a : 0;
	ph[PH_GC] += gc;
	ph[PH_WAIT] += to - from - gc;
}

static struct ssd_channel *channel_of(struct ssd *s, unsigned die)
{
	return &s->chan[die / s->dies_per_channel];
}

/* bytes over die's channel, ready at t: returns when the transfer ends. */
static uint64_t channel_move(struct ssd *s, uint64_t now, unsigned die, uint64_t bytes, uint64_t t)
{
	struct ssd_channel *c = channel_of(s, die);
	uint64_t x = s->m.channel_command_ns + ssd_xfer_ns(bytes, s->m.channel_rate);
	c->busy_ns += (double)x;
	c->ios++;
	c->bytes += bytes;
	return ssd_calendar_place(&c->cal, now, t, x) + x;
}

/* len ns of die d's time from start reserved: counted in its busy time, kept in its calendar
 * so that a report clips what lies ahead of the clock (dev_ssd_report.c). A die's reservations
 * follow each other (each from the die's free time), so this only appends. */
static void die_busy(struct ssd_die *d, uint64_t now, uint64_t start, uint64_t len)
{
	d->busy_ns += (double)len;
	ssd_calendar_place(&d->cal, now, start, len);
}

/* Starts a read or program (op) of page index page on the planes in bit at d, as soon as d is
 * free from t on, for len ns; returns its start. */
static uint64_t die_start(struct ssd_die *d, uint64_t now, uint8_t op, uint32_t page, uint32_t bit,
			  uint64_t t, uint64_t len)
{
	uint64_t start = max64(t, d->free);
	d->free = start + len;
	d->last_op = op;
	d->last_page = page;
	d->last_planes = bit;
	d->last_start = start;
	die_busy(d, now, start, len);
	d->flash_ns += (double)len;
	d->ops++;
	return start;
}

/* GC's work gc on a plane of die di, from `from` (or when the die is free): returns its end. */
static uint64_t gc_reserve(struct ssd *s, uint64_t now, unsigned di, const struct ssd_gc_work *gc,
			   uint64_t from)
{
	struct ssd_die *d = &s->die[di];
	uint64_t start = max64(from, d->free), moved = gc->moved, erased = gc->erased;
	uint64_t work = moved * (s->gc_read_ns + s->gc_program_ns) + erased * s->m.erase_ns;
	uint64_t end = start + work;
	if (moved && !s->m.gc_copyback) {
		struct ssd_channel *c = channel_of(s, di);
		uint64_t x = 2 * moved * s->page_xfer_ns;
		uint64_t moved_end = ssd_calendar_place(&c->cal, now, start + s->gc_read_ns, x) + x;
		c->busy_ns += (double)x;
		c->ios += 2 * moved;
		c->bytes += 2 * moved * s->m.page_bytes;
		end = max64(start + work + x, moved_end + s->gc_program_ns + erased * s->m.erase_ns);
	}
	d->free = end;
	d->gc_start = start;
	d->gc_end = end;
	d->last_op = erased ? OP_ERASE : OP_PROGRAM;
	d->last_start = start;
	d->last_page = UINT32_MAX; /* nothing joins it */
	d->last_planes = 0;
	die_busy(d, now, start, end - start);
	d->flash_ns += (double)work;
	d->gc_ns += (double)work;
	d->reads += moved;
	d->programs += moved;
	d->erases += erased;
	d->ops += 2 * moved + erased;
	return end;
}

/* Background GC on die di's planes in its idle time before now. */
static void background_gc(struct ssd *s, unsigned di, uint64_t now)
{
	struct ssd_die *d = &s->die[di];
	if (!s->bg_below || d->free >= now)
		return;
	bool over_channel = !s->m.gc_copyback;
	uint64_t t = d->free;
	if (over_channel)
		t = max64(t, channel_of(s, di)->cal.last_end);
	uint64_t worst = (uint64_t)s->m.pages_per_block * (s->gc_read_ns + s->gc_program_ns +
		(over_channel ? 2 * s->page_xfer_ns : 0)) + s->m.erase_ns;
	uint32_t first = di * s->m.planes_per_die;
	for (uint32_t p = first; p < first + s->m.planes_per_die; p++)
		while (t + worst <= now && ssd_ftl_free_blocks(s->ftl, p) < s->bg_below) {
			struct ssd_gc_work gc = {0};
			if (!ssd_ftl_collect(s->ftl, p, s->bg_below, &gc))
				break;
			t = gc_reserve(s, now, di, &gc, t);
		}
}

static bool suspends(const struct ssd *s, const struct ssd_die *d)
{
	return (d->last_op == OP_PROGRAM && s->m.suspend_program) ||
	       (d->last_op == OP_ERASE && s->m.suspend_erase);
}

/* A page read of page index `page` on plane (logical page lpa; UINT64_MAX: a translation
 * page), bytes of it to the controller, ready at t. */
static uint64_t die_read(struct ssd *s, uint64_t now, uint32_t plane, uint32_t page, uint64_t lpa,
			 uint64_t bytes, uint64_t t, uint64_t *ph)
{
	unsigned di = plane / s->m.planes_per_die;
	uint32_t bit = 1u << (plane % s->m.planes_per_die);
	background_gc(s, di, now);
	struct ssd_die *d = &s->die[di];
	uint64_t tr = s->m.read_ns[page % s->ncell], rs, re;
	bool array_read = true;
	if (d->last_op == OP_READ && lpa != UINT64_MAX && d->last_lpa == lpa) {
		/* the die's last read was of this page: its data is in the page register */
		rs = re = max64(t, d->free);
		put_wait(d, t, rs, ph);
		array_read = false;
	} else if (s->m.multiplane && d->last_op == OP_READ && d->last_page == page &&
		   !(d->last_planes & bit) && d->last_start >= t) {
		rs = d->last_start;
		re = d->free;
		d->last_planes |= bit;
		d->last_lpa = lpa;
		put_wait(d, t, rs, ph);
	} else if (suspends(s, d) && d->last_start <= t && t < d->free) {
		rs = t + s->m.suspend_ns;
		re = rs + tr;
		die_busy(d, now, d->free, s->m.suspend_ns + tr); /* the suspended op ends later */
		d->free += s->m.suspend_ns + tr;
		d->flash_ns += (double)tr;
		d->ops++;
		ph[PH_WAIT] += s->m.suspend_ns;
	} else {
		rs = die_start(d, now, OP_READ, page, bit, t, tr);
		re = rs + tr;
		put_wait(d, t, rs, ph);
		d->last_lpa = lpa;
	}
	d->reads += array_read;
	ph[PH_FLASH] += re - rs;
	uint64_t end = channel_move(s, now, di, bytes, re);
	ph[PH_CHANNEL] += end - re;
	return end;
}

/* True if lpa's map entry is in the cached mapping table; it is afterwards. */
static bool cmt_hit(struct ssd *s, uint64_t lpa)
{
	if (s->cmt_all) {
		bool seen = s->cmt_seen[lpa >> 3] & (1u << (lpa & 7));
		s->cmt_seen[lpa >> 3] |= (uint8_t)(1u << (lpa & 7));
		return seen;
	}
	if (!s->cmt.cap)
		return false;
	if (ssd_lru_touch(&s->cmt, lpa))
		return true;
	ssd_lru_put(&s->cmt, lpa);
	return false;
}

uint64_t ssd_read_page(struct ssd *s, uint64_t now, uint64_t lpa, uint64_t bytes, uint64_t t,
		       uint64_t *ph)
{
	if (!s->m.ideal_mapping && !cmt_hit(s, lpa)) {
		uint64_t tpn = lpa / s->entries_per_tpage, got = s->tpage_ready[tpn];
		if (got <= t) { /* no read of it in flight: one of its own */
			uint64_t map[PH_COUNT] = {0};
			uint32_t plane = (uint32_t)(tpn % s->ndie) * s->m.planes_per_die;
			got = die_read(s, now, plane, 0, UINT64_MAX, SSD_MAP_READ_BYTES, t, map);
			s->tpage_ready[tpn] = got;
			s->map_reads++;
		}
		ph[PH_MAP] += got - t;
		t = got;
	}
	uint32_t page;
	bool mapped;
	uint32_t plane = ssd_ftl_read(s->ftl, lpa, &page, &mapped);
	s->host_pages_read++;
	return die_read(s, now, plane, page, lpa, bytes, t, ph);
}

/* Dynamic allocation: the next plane of the die free soonest. */
static uint32_t soonest_plane(struct ssd *s)
{
	unsigned best = 0;
	for (unsigned i = 1; i < s->ndie; i++)
		if (s->die[i].free < s->die[best].free)
			best = i;
	struct ssd_die *d = &s->die[best];
	uint32_t p = d->next_plane;
	d->next_plane = (p + 1) % s->m.planes_per_die;
	return best * s->m.planes_per_die + p;
}

uint64_t ssd_program_page(struct ssd *s, uint64_t now, uint64_t lpa, uint64_t t, uint64_t *ph)
{
	uint32_t want = s->m.allocation == IOLAB_ALLOC_DYNAMIC ? soonest_plane(s)
							       : ssd_ftl_static_plane(s->ftl, lpa);
	background_gc(s, want / s->m.planes_per_die, now);
	struct ssd_gc_work gc = {0};
	uint32_t page, plane = ssd_ftl_write(s->ftl, lpa, want, &page, &gc);
	unsigned di = plane / s->m.planes_per_die;
	uint32_t bit = 1u << (plane % s->m.planes_per_die);
	s->host_pages_written++;
	if (!s->m.ideal_mapping)
		(void)cmt_hit(s, lpa);
	if (gc.moved || gc.erased)
		gc_reserve(s, now, di, &gc, now);
	uint64_t in = channel_move(s, now, di, s->m.page_bytes, t);
	ph[PH_CHANNEL] += in - t;
	struct ssd_die *d = &s->die[di];
	uint64_t tp = s->m.program_ns[page % s->ncell], ps, pe;
	if (s->m.multiplane && d->last_op == OP_PROGRAM && d->last_page == page &&
	    !(d->last_planes & bit) && d->last_start >= in) {
		ps = d->last_start;
		pe = d->free;
		d->last_planes |= bit;
	} else {
		ps = die_start(d, now, OP_PROGRAM, page, bit, in, tp);
		pe = ps + tp;
	}
	put_wait(d, in, ps, ph);
	d->programs++;
	ph[PH_FLASH] += pe - ps;
	return pe;
}

uint64_t ssd_iface_transfer(struct ssd *s, uint64_t now, uint64_t bytes, uint64_t t, uint64_t *ph)
{
	uint64_t own = ssd_xfer_ns(bytes, s->m.iface_rate), end;
	s->iface_busy_ns += (double)own;
	if (s->link)
		end = iolab_comp_link_transfer(s->link, (double)t, (double)(t + own), bytes);
	else
		end = ssd_calendar_place(&s->iface, now, t, own) + own;
	ph[PH_INTERFACE] += own;
	ph[PH_QUEUE] += end - t - own;
	return end;
}
