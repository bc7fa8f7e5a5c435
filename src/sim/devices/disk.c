/* disk.c: the mechanical drive model in virtual time.
 *
 * The drive's controller serves one command at a time; up to queue_depth more wait in arrival
 * order (one more is refused with QUEUE FULL, -EBUSY, and the host holds it), and the scheduler
 * picks the next among those that have arrived (FCFS, SSTF, C-LOOK or SPTF). Serving a command
 * computes its whole time line at once (no event queue is needed for a single drive), in this
 * order:
 *
 *   command overhead (by command type, hit or miss, and the previous command's type)
 *   -> wait for the arm (a running write flush, or the sector a prefetch is in)
 *   -> per block: reposition (seek, or switch to another head or, on the same track, between
 *      reading and writing: the longer; writes add settle) and wait for
 *      the sector to come round (exact angle from absolute time, skews, slips) -> one sector time
 *      (with zero-latency access, per track: land once, then each wanted sector the first time
 *      it passes under the head, see "zero-latency access" below)
 *   -> the interface moves each block as soon as it is in the buffer and the previous one has
 *      gone (bus_us_per_block each), so the command ends with its last block's transfer.
 *
 * The cache is a set of segments replaced least-recently-used. After a read the drive keeps
 * reading ahead in the background (to readahead_blocks past the request, or to the end of the
 * track and one more when reading sequentially) until a new command stops it at the end of the
 * sector in progress; that work is evaluated lazily when the next command arrives. A segment is
 * a ring of segment_blocks: while the read is still being sent to the host, the read-ahead may
 * only overwrite blocks the host has already taken, so it stays within a segment of the host's
 * position and never drops the data of that read or the first block after it. A request
 * wholly in a segment is a hit: overhead plus interface time; partly in it, the rest comes from
 * the media (or from the read-ahead still running). With write-back, a write completes when its
 * data is in the buffer; the arm writes it afterwards, and sectors whose data has not arrived yet
 * are passed by for a revolution. Reads of data that a flush is writing wait for the flush.
 * These behaviours follow the DiskSim 4.0 disk model that the DIXtrac-extracted parameters
 * were made for; times are doubles in ns inside a command and integers between commands.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "iolab/disk_sim.h"
#include "sim/devices/layout.h"
#include "sim/devices/disk_xfer.h"
#include "sim/devices/readahead.h"

struct segment {
	uint64_t start, end; /* cached blocks [start, end) */
	uint64_t lo;         /* a write from here to end invalidates it: the first block the read
				that filled it asked for (or, on a drive without read hits on write
				data, read for free before it), even once read-ahead has wrapped over
				it (the segment's descriptor keeps its starting address) */
	bool used, from_write, write_only;
	uint64_t stamp;      /* last use, for LRU */
};

struct iolab_disk {
	const struct iolab_disk_model *m;
	struct iolab_disk_stats st;
	struct iolab_disk_req **q; /* accepted and waiting, in arrival order */
	unsigned nq, qcap;         /* qcap: the model's queue_depth */
	double free_at;            /* the controller finishes the command in service */
	uint64_t *seek_memo;       /* seek time by cylinder distance, 0 until first needed (the
				      measured curve is a binary search; a drive seeks the same
				      distances again and again) */
	bool last_write;
	/* arm */
	uint32_t cyl, head;
	bool wrote;                /* its last media access was a write (the head's write element
				      is on the track) */
	uint64_t cont_lbn;         /* the block that would follow the last one read or written */
	double cont_t;             /* ... at this time, without repositioning (cont_lbn 0: none) */
	double arm_free;           /* foreground media work (read or flush) ends */
	double *flush_end;         /* flushes in progress or queued: their ends (serve_write) */
	unsigned nflush, max_dirty; /* at most max_dirty of them */
	/* cache */
	unsigned nseg;
	struct segment *seg;
	uint64_t stamp;
	/* read-ahead running in the background */
	bool pf_on;
	unsigned pf_seg;
	uint64_t pf_next, pf_limit;
	double pf_t;               /* the arm is free to go for pf_next */
	struct iolab_phys pf_p;    /* place of the last block the read-ahead looked up */
	bool pf_p_valid;
	/* the read whose data the read-ahead's segment holds for the host (see slot_free) */
	uint64_t hold_lo, hold_end; /* its blocks */
	double hold_done;           /* its last block has gone to the host */
	uint64_t pf_floor;          /* the read-ahead reads up to here before the arm serves
				       another command (readahead_min_blocks) */
	uint64_t wr_end;            /* the block after the last write (0: none) */
	bool wr_back;               /* ... which completed before its flush */
};

struct iolab_disk *iolab_disk_new(const struct iolab_disk_model *m)
{
	struct iolab_disk *d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->m = m;
	d->nseg = m->segments + (m->separate_write_segment ? 1 : 0);
	d->seg = calloc(d->nseg ? d->nseg : 1, sizeof(*d->seg));
	d->qcap = m->queue_depth ? m->queue_depth : 1;
	d->q = calloc(d->qcap, sizeof(*d->q));
	d->max_dirty = m->write_segments ? m->write_segments : 1;
	d->flush_end = calloc(d->max_dirty, sizeof(*d->flush_end));
	d->seek_memo = calloc(m->cylinders ? m->cylinders : 1, sizeof(*d->seek_memo));
	if (!d->seg || !d->q || !d->flush_end || !d->seek_memo) {
		iolab_disk_free(d);
		return NULL;
	}
	if (m->separate_write_segment && d->nseg)
		d->seg[d->nseg - 1].write_only = true;
	return d;
}

void iolab_disk_free(struct iolab_disk *d)
{
	if (!d)
		return;
	free(d->seg);
	free(d->q);
	free(d->flush_end);
	free(d->seek_memo);
	free(d);
}

unsigned iolab_disk_outstanding(const struct iolab_disk *d)
{
	return d->nq; /* served requests are returned at once */
}

const struct iolab_disk_stats *iolab_disk_stats(const struct iolab_disk *d)
{
	return &d->st;
}

bool iolab_disk_full(const struct iolab_disk *d)
{
	return d->nq == d->qcap;
}

int iolab_disk_submit(struct iolab_disk *d, struct iolab_disk_req *r)
{
	if (d->nq == d->qcap)
		return -EBUSY; /* QUEUE FULL: the host holds r until a command has been served */
	d->q[d->nq++] = r;
	return 0;
}

/* ---- the arm --------------------------------------------------------------------------- */

/* The head is on p's track with the element this access uses: no repositioning. */
static bool on_track(const struct iolab_disk *d, const struct iolab_phys *p, bool write)
{
	return p->cyl == d->cyl && p->head == d->head && write == d->wrote;
}

static void arm_at(struct iolab_disk *d, const struct iolab_phys *p, bool write)
{
	d->cyl = p->cyl;
	d->head = p->head;
	d->wrote = write;
}

/* Time to move the arm from where it is to p: the seek, or the switch to another head or to the
 * head's other element (rw_switch_ns), the longer; writes settle. */
static double move_ns(const struct iolab_disk *d, const struct iolab_phys *p, bool write)
{
	uint32_t dist = p->cyl > d->cyl ? p->cyl - d->cyl : d->cyl - p->cyl;
	double t = 0;
	if (dist) { /* both cylinders are below m->cylinders, so dist is too */
		if (!d->seek_memo[dist])
			d->seek_memo[dist] = iolab_model_seek_ns(d->m, dist, false);
		t = (double)d->seek_memo[dist];
	}
	else if (d->m->seek_type == IOLAB_SEEK_CONSTANT) /* also for 0 cylinders (see reach_bg) */
		t = (double)iolab_model_seek_ns(d->m, 0, false);
	double sw = p->head != d->head ? (double)d->m->head_switch_ns : 0;
	if (write != d->wrote && (double)d->m->rw_switch_ns > sw)
		sw = (double)d->m->rw_switch_ns;
	if (sw > t)
		t = sw;
	if (t > 0 && write) /* a negative settle (manual B.4.3) shortens it, never below 0 */
		t = fmax(0, t + (double)d->m->write_settle_ns);
	return t;
}

/* Wait from time t until sector p starts under the head. */
static double rotate_ns(const struct iolab_disk *d, const struct iolab_phys *p, double t)
{
	double rev = (double)d->m->rev_ns, q = t / rev;
	double w = p->angle - (q - floor(q));
	if (w < 0)
		w += 1;
	if (w > 1 - 1e-6) /* the sector is just starting */
		w = 0;
	return w * rev;
}

/* Positioning by the access-time type (DiskSim 4.0 manual B.4.3 p77, "Access time type") for
 * block p from time t, when it does not follow on from the block before (cont). Sets *mv (seek)
 * and returns the rotational wait: constant: the constant access time instead of both;
 * averageRotation: half a revolution (DiskSim's dm_latency_g1_average), a block that follows on
 * the same track none; trackSwitchPlusRotation: the sector's real angle. */
static double position_ns(const struct iolab_disk *d, const struct iolab_phys *p, double t, bool write,
			  bool cont, double *mv)
{
	bool same = on_track(d, p, write);
	if (d->m->access == IOLAB_ACCESS_CONSTANT) { /* per request: no mechanics at all */
		*mv = 0;
		return cont ? 0 : (double)d->m->access_const_ns;
	}
	/* A constant seek time is charged for every positioning, even to the same track. */
	*mv = same && (cont || d->m->seek_type != IOLAB_SEEK_CONSTANT) ? 0 : move_ns(d, p, write);
	if (d->m->access == IOLAB_ACCESS_AVG_ROTATION)
		return cont && same ? 0 : (double)d->m->rev_ns / 2;
	return rotate_ns(d, p, t + *mv);
}

/* Moves the arm to block p and waits for its sector; returns when the sector starts. The
 * time is charged to the command unless it is background work. */
static double reach_bg(struct iolab_disk *d, const struct iolab_phys *p, double t, bool write,
		       bool background)
{
	bool cont = d->cont_lbn && p->lbn == d->cont_lbn && fabs(t - d->cont_t) < 0.5;
	double mv;
	double w = position_ns(d, p, t, write, cont, &mv);
	t += mv;
	d->cont_lbn = p->lbn + 1;
	d->cont_t = t + w + p->sector_ns;
	if (!background) {
		d->st.seeks += p->cyl != d->cyl;
		d->st.seek_ns += mv;
		d->st.rotate_ns += w;
	}
	arm_at(d, p, write);
	return t + w;
}

static double reach(struct iolab_disk *d, const struct iolab_phys *p, double t, bool write)
{
	return reach_bg(d, p, t, write, false);
}

static void map(const struct iolab_disk *d, uint64_t lbn, struct iolab_phys *p)
{
	if (iolab_layout_map(d->m, lbn, p))
		iolab_layout_map(d->m, d->m->blocks - 1, p); /* the caller checked bounds */
}

/* Place of block lbn + k of a transfer: looked up for k = 0, stepped on from block k - 1 (in
 * p) after that. */
static void place(const struct iolab_disk *d, uint64_t lbn, uint32_t k, struct iolab_phys *p)
{
	if (k == 0 || iolab_layout_next(d->m, p))
		map(d, lbn + k, p);
}

/* Place of the read-ahead's next block, stepping from the last one looked up. */
static void pf_place(struct iolab_disk *d, struct iolab_phys *p)
{
	if (d->pf_p_valid && d->pf_p.lbn == d->pf_next) {
		*p = d->pf_p;
		return;
	}
	if (d->pf_p_valid && d->pf_p.lbn + 1 == d->pf_next) {
		*p = d->pf_p;
		if (iolab_layout_next(d->m, p))
			map(d, d->pf_next, p);
	} else {
		map(d, d->pf_next, p);
	}
	d->pf_p = *p;
	d->pf_p_valid = true;
}

/* ---- read-ahead -------------------------------------------------------------------------- */

/* Last block + 1 of the track that holds lbn. */
static uint64_t track_end(const struct iolab_disk *d, uint64_t lbn, uint64_t *first, uint32_t *spt)
{
	struct iolab_phys p, q;
	map(d, lbn, &p);
	*spt = d->m->zone[p.zone].spt;
	uint64_t lo = lbn > p.sector ? lbn - p.sector : 0, hi = lbn + (*spt - p.sector);
	while (lo < lbn) { /* first block on the track: slips can only move it later */
		map(d, lo, &q);
		if (q.cyl == p.cyl && q.track == p.track)
			break;
		lo++;
	}
	*first = lo;
	if (hi > d->m->blocks)
		hi = d->m->blocks;
	while (hi > lbn + 1) {
		map(d, hi - 1, &q);
		if (q.cyl == p.cyl && q.track == p.track)
			break;
		hi--;
	}
	return hi;
}

static uint64_t readahead_limit(const struct iolab_disk *d, uint64_t lbn, uint32_t n, uint64_t seg_start)
{
	const struct iolab_disk_model *m = d->m;
	uint64_t limit;
	if (m->readahead) /* DiskSim's prefetch modes (readahead.c) */
		return iolab_readahead_limit(m, lbn, n, seg_start);
	if (m->readahead_track) {
		uint64_t first;
		uint32_t spt;
		/* the track of the block after the request (DiskSim's prefetch scheme 4) */
		uint64_t next = lbn + n < m->blocks ? lbn + n : lbn + n - 1;
		limit = track_end(d, next, &first, &spt);
		if (seg_start < first)
			limit += spt;
	} else {
		limit = lbn + n + m->readahead_blocks;
	}
	return limit < m->blocks ? limit : m->blocks;
}

static void seg_extend(struct iolab_disk *d, struct segment *s, uint64_t end)
{
	s->end = end;
	if (s->end - s->start > d->m->segment_blocks)
		s->start = s->end - d->m->segment_blocks;
}

/* The read-ahead's segment is a ring of segment_blocks: block b goes into the slot of block
 * b - segment_blocks, and a block may be pushed out only once it has gone to the host (DiskSim's
 * manual, "Number of buffer segments"). While the hold read is being sent, the read-ahead thus
 * stays less than segment_blocks ahead of the first block the host has not been sent, and never
 * overwrites a block of that read, nor the next one after it, before the read has completed.
 * Returns when block b's slot is free: at once if it held data from before the hold read; when
 * the host has been sent that block, if it is one of the hold read's (they leave one bus time
 * apart, the last at hold_done, so block x has gone by hold_done - (hold_end - 1 - x) bus
 * times); at hold_done if it is read-ahead data beyond the read. With a separate sector buffer
 * (sector_buffer) the sector may be read into it first: its read may start a sector time
 * (sector_ns) before the slot is free. Returns when the read of block b may start. */
static double slot_free(const struct iolab_disk *d, uint64_t b, double sector_ns)
{
	uint64_t seg = d->m->segment_blocks;
	if (b < d->hold_lo + seg)
		return -INFINITY;
	double early = d->m->sector_buffer ? sector_ns : 0;
	if (b - seg >= d->hold_end)
		return d->hold_done - early;
	return d->hold_done - (double)(d->hold_end - 1 - (b - seg)) * (double)d->m->bus_ns_per_block -
	       early;
}

/* How many of the blocks b, b + 1, ... (at most run), the first starting at `start` (when its
 * slot is free) and the others back to back, find their slots free. */
static uint64_t slot_run(const struct iolab_disk *d, uint64_t b, double start, double sector_ns,
			 uint64_t run)
{
	uint64_t seg = d->m->segment_blocks;
	if (b >= d->hold_end + seg)
		return run; /* every slot from here on was free at hold_done, before start */
	uint64_t j0 = b < d->hold_lo + seg ? d->hold_lo + seg - b : 0; /* first slot of the hold read */
	uint64_t j1 = d->hold_end + seg - b;                            /* first slot after it */
	if (j0 >= run)
		return run;
	double bulk = (double)d->m->bus_ns_per_block;
	double slack = start + (double)j0 * sector_ns - slot_free(d, b + j0, sector_ns);
	if (slack < 0)
		return j0 > 0 ? j0 : 1; /* (the first block's slot is free by construction) */
	if (bulk <= sector_ns)
		return run; /* the host frees the slots faster than the media fills them */
	double last = (double)j0 + floor(slack / (bulk - sector_ns)); /* last one in time */
	if (last + 1 >= (double)j1)
		return run; /* all the hold read's slots, and the later ones free at hold_done */
	return (uint64_t)last + 1 < run ? (uint64_t)last + 1 : run;
}

/* Reads ahead every block whose sector ends by `until`. */
static void pf_credit(struct iolab_disk *d, double until)
{
	while (d->pf_on && d->pf_next < d->pf_limit) {
		struct iolab_phys p;
		pf_place(d, &p);
		uint32_t cyl = d->cyl, head = d->head;
		bool wrote = d->wrote;
		double room = slot_free(d, d->pf_next, p.sector_ns);
		double start = reach_bg(d, &p, room > d->pf_t ? room : d->pf_t, false, true);
		if (start + p.sector_ns > until) {
			d->cyl = cyl;
			d->head = head;
			d->wrote = wrote;
			return;
		}
		/* The following sectors of this track come back to back: take as many at once as
		 * have passed by `until`. */
		const struct iolab_zone *z = &d->m->zone[p.zone];
		uint64_t run = p.run_end - p.lbn;
		if (d->pf_limit - d->pf_next < run)
			run = d->pf_limit - d->pf_next;
		run = slot_run(d, d->pf_next, start, p.sector_ns, run);
		uint64_t k = (uint64_t)((until - start) / p.sector_ns);
		if (k > run)
			k = run;
		if (k < 1) /* the first sector has passed (checked above), whatever the rounding */
			k = 1;
		d->pf_t = start + (double)k * p.sector_ns;
		d->pf_next += k;
		p.lbn += k - 1;
		p.pbn += k - 1;
		p.sector += (uint32_t)(k - 1);
		p.angle += (double)(k - 1) / z->spt;
		if (p.angle >= 1)
			p.angle -= 1;
		d->pf_p = p;
		seg_extend(d, &d->seg[d->pf_seg], d->pf_next);
	}
	d->pf_on = false;
}

/* Lets the read-ahead run to its limit (or the end of the disk). */
static void pf_finish(struct iolab_disk *d)
{
	pf_credit(d, d->pf_t + (double)(d->pf_limit - d->pf_next + 2) * 10 *
		  ((double)d->m->rev_ns + 1e9)); /* time enough for any seek and rotation */
}

/* Stops the read-ahead at t: returns when the arm is free (the end of the seek or sector in
 * progress, or t if it had already finished). */
static double pf_stop(struct iolab_disk *d, double t)
{
	if (!d->pf_on)
		return t > d->pf_t ? t : d->pf_t;
	if (d->pf_next < d->pf_floor) {
		/* The minimum read-ahead is read before anything else (DiskSim Minimum
		 * read-ahead, manual 3.4.5 p19). */
		uint64_t limit = d->pf_limit;
		d->pf_limit = d->pf_floor < limit ? d->pf_floor : limit;
		pf_finish(d);
		d->pf_limit = limit;
		d->pf_floor = 0;
		if (d->pf_t >= t) {
			d->pf_on = false;
			return d->pf_t;
		}
		d->pf_on = d->pf_next < limit;
		if (!d->pf_on)
			return t;
	}
	pf_credit(d, t);
	if (!d->pf_on)
		return t > d->pf_t ? t : d->pf_t;
	struct iolab_phys p;
	pf_place(d, &p);
	double room = slot_free(d, d->pf_next, p.sector_ns), from = room > d->pf_t ? room : d->pf_t;
	double mv = move_ns(d, &p, false), seek_end = from + mv;
	arm_at(d, &p, false);
	d->pf_on = false;
	if (t < seek_end)
		return seek_end;
	double start = seek_end + rotate_ns(d, &p, seek_end);
	if (t < start && room > d->pf_t)
		return t; /* it waited for room in the segment, and now only for the sector: idle */
	if (t < start)
		return start;
	if (d->m->prefetch_stop_in_sector)
		return t; /* aborted in the sector (DiskSim Stop prefetch in sector, p20) */
	/* The sector in progress is read to its end, and kept. */
	d->pf_t = start + p.sector_ns;
	d->pf_next++;
	seg_extend(d, &d->seg[d->pf_seg], d->pf_next);
	return d->pf_t;
}

/* The read [lbn, end), whose last block goes to the host at `done`, takes the read-ahead's
 * segment: until then the segment keeps what the host has not been sent (slot_free). */
static void hold_read(struct iolab_disk *d, uint64_t lbn, uint64_t end, double done)
{
	d->hold_lo = lbn;
	d->hold_end = end;
	d->hold_done = done;
}

/* ---- cache ------------------------------------------------------------------------------- */

static struct segment *find_hit(struct iolab_disk *d, uint64_t lbn)
{
	for (unsigned i = 0; i < d->nseg; i++) {
		struct segment *s = &d->seg[i];
		if (s->used && !s->write_only && lbn >= s->start && lbn < s->end &&
		    (!s->from_write || d->m->read_hits_on_write_data))
			return s;
	}
	return NULL;
}

/* A segment for new data: an empty one, else the least recently used one that is not reading
 * ahead, else the one reading ahead (whose read-ahead stops). */
static struct segment *take_segment(struct iolab_disk *d, bool write)
{
	struct segment *best = NULL;
	for (unsigned i = 0; i < d->nseg; i++) {
		struct segment *s = &d->seg[i];
		if (s->write_only != (write && d->m->separate_write_segment))
			continue;
		if (d->pf_on && i == d->pf_seg)
			continue;
		if (!s->used)
			return s;
		if (!best || s->stamp < best->stamp)
			best = s;
	}
	if (!best && d->pf_on && !(write && d->m->separate_write_segment))
		best = &d->seg[d->pf_seg];
	return best;
}

static void touch(struct iolab_disk *d, struct segment *s)
{
	s->stamp = ++d->stamp;
}

/* ---- serving commands ------------------------------------------------------------------- */

/* Blocks of the first block's track that pass under the head between landing at time `land`
 * and the start of that block's sector, ending just before it: a drive that reads any free
 * blocks keeps them. */
static uint32_t passed_before(const struct iolab_disk *d, const struct iolab_phys *p, double land,
			      uint64_t lbn)
{
	const struct iolab_zone *z = &d->m->zone[p->zone];
	double rev = (double)d->m->rev_ns;
	double q = land / rev;
	double head = (q - floor(q)) * z->spt;              /* in sectors from angle 0 */
	double target = p->angle * z->spt;
	double ahead = target - head;                       /* sectors until the target starts */
	if (ahead < 0)
		ahead += z->spt;
	uint32_t k = (uint32_t)floor(ahead);               /* whole sectors that pass first */
	if (k > p->sector)                                  /* no further back than the track start */
		k = p->sector;
	return k < lbn ? k : (uint32_t)lbn;
}

/* ---- zero-latency access ------------------------------------------------------------------
 * DiskSim 4.0 manual §3.4.5 p24 (Immediate buffer read / write: sectors move between media and
 * buffer "in the order that they pass under the read/write head rather than in strictly
 * ascending logical block order") and §B.3.3 pp70-72 (the zero-latency access: seek, initial
 * rotational latency, transfer, additional rotational latency, transfer; dm_latency works on
 * the part of a request on one track). A request is taken track by track. On each track the
 * arm lands once (seek or head switch, writes settle); then every wanted sector of that track
 * is transferred the first time it passes whole under the head (and, for a write, its data is
 * in the buffer). Landing inside the wanted span, the head starts at the next sector boundary,
 * reads to the end of the span, passes the unwanted sectors and reads the span's start: the
 * track's part ends one revolution after the initial latency. Landing outside it, this is the
 * in-order access: wait for the first wanted sector, then read them in turn. The arm leaves a
 * track for the next when the last of its sectors is done. */

struct zl_track {
	bool on;          /* a track is being worked */
	uint32_t cyl, head;
	double land, end; /* the arm landed on it; its last sector so far ends */
	double xfer;      /* sector times transferred on it */
};

/* The track's rotational latency (initial and additional) goes to the counters. */
static void zl_close(struct iolab_disk *d, struct zl_track *z)
{
	if (z->on)
		d->st.rotate_ns += z->end - z->land - z->xfer;
	z->on = false;
}

/* Block p, whose sector may be transferred from `ready` on, with the arm free at t if it is not
 * already on p's track: returns when its sector ends. */
static double zl_sector(struct iolab_disk *d, struct zl_track *z, const struct iolab_phys *p,
			double t, double ready, bool write)
{
	if (!z->on || p->cyl != z->cyl || p->head != z->head) {
		double from = z->on ? z->end : t;
		zl_close(d, z);
		double mv = on_track(d, p, write) ? 0 : move_ns(d, p, write);
		d->st.seeks += p->cyl != d->cyl;
		d->st.seek_ns += mv;
		arm_at(d, p, write);
		*z = (struct zl_track){.on = true, .cyl = p->cyl, .head = p->head, .land = from + mv,
				       .end = from + mv};
	}
	double at = ready > z->land ? ready : z->land;
	double end = at + rotate_ns(d, p, at) + p->sector_ns;
	z->xfer += p->sector_ns;
	if (end > z->end)
		z->end = end;
	return end;
}

/* media_read with zero-latency reads: the host still gets the blocks in order, each once it
 * is in the buffer. */
static double media_read_zl(struct iolab_disk *d, uint64_t lbn, uint32_t n, double t,
			    struct iolab_xfer *x, uint32_t *pre)
{
	struct zl_track z = {0};
	struct iolab_phys p;
	for (uint32_t k = 0; k < n; k++) {
		place(d, lbn, k, &p);
		double end = zl_sector(d, &z, &p, t, 0, false);
		if (k == 0 && d->m->read_free_blocks)
			*pre = passed_before(d, &p, z.land, lbn);
		d->st.media_ns += p.sector_ns;
		iolab_xfer_block(x, end);
	}
	zl_close(d, &z);
	return z.end;
}

/* Reads blocks [lbn, lbn + n) with the arm free at t, handing each to the interface (x) as it
 * is buffered; returns the media end. *pre gets the blocks before lbn read for free while
 * waiting for the first one (read_free_blocks). */
static double media_read(struct iolab_disk *d, uint64_t lbn, uint32_t n, double t,
			 struct iolab_xfer *x, uint32_t *pre)
{
	*pre = 0;
	/* zero latency needs the rotational position: not with constant or average access times */
	bool mech = d->m->access == IOLAB_ACCESS_MECHANICS;
	if (d->m->zero_latency_read && mech && n)
		return media_read_zl(d, lbn, n, t, x, pre);
	struct iolab_phys p;
	for (uint32_t k = 0; k < n; k++) {
		place(d, lbn, k, &p);
		if (k == 0 && d->m->read_free_blocks && mech) {
			double land = t + move_ns(d, &p, false);
			t = reach(d, &p, t, false);
			*pre = passed_before(d, &p, land, lbn);
			t += p.sector_ns;
		} else {
			t = reach(d, &p, t, false) + p.sector_ns;
		}
		d->st.media_ns += p.sector_ns;
		iolab_xfer_block(x, t);
	}
	return t;
}

/* Blocks of the running read-ahead: continues it to cover [lbn, lbn + n), handing them to the
 * interface (x). */
static void pf_follow(struct iolab_disk *d, uint64_t lbn, uint32_t n, struct iolab_xfer *x)
{
	while (d->pf_next < lbn + n) {
		struct iolab_phys p;
		pf_place(d, &p);
		double end = reach(d, &p, d->pf_t, false) + p.sector_ns;
		d->st.media_ns += p.sector_ns;
		d->pf_t = end;
		if (d->pf_next >= lbn)
			iolab_xfer_block(x, end);
		d->pf_next++;
		seg_extend(d, &d->seg[d->pf_seg], d->pf_next);
	}
}

/* Flushes in progress at t. */
static unsigned flushing(struct iolab_disk *d, double t)
{
	unsigned k = 0;
	for (unsigned i = 0; i < d->nflush; i++)
		if (d->flush_end[i] > t)
			d->flush_end[k++] = d->flush_end[i];
	d->nflush = k;
	return k;
}

/* The read-ahead starts into segment s at block `next`, the arm free for it at t. */
static void start_readahead(struct iolab_disk *d, struct segment *s, uint64_t next, double t,
			    uint64_t limit)
{
	d->pf_on = true;
	d->pf_seg = (unsigned)(s - d->seg);
	d->pf_next = next;
	d->pf_t = t;
	d->pf_limit = limit;
	d->pf_floor = iolab_readahead_floor(d->m, next, limit);
}

/* A read ending at `end` served from the running read-ahead takes it on to `limit`, and its
 * Minimum read-ahead counts from `end` as after a read from the media (manual 3.4.5 p19). */
static void extend_readahead(struct iolab_disk *d, uint64_t limit, uint64_t end)
{
	if (limit > d->pf_limit)
		d->pf_limit = limit;
	uint64_t floor = iolab_readahead_floor(d->m, end, d->pf_limit);
	if (floor > d->pf_floor)
		d->pf_floor = floor;
}

static double serve_read(struct iolab_disk *d, struct iolab_disk_req *r, double ta)
{
	const struct iolab_disk_model *m = d->m;
	int prev = d->last_write;
	uint64_t lbn = r->lbn, end = r->lbn + r->blocks;
	struct iolab_xfer x;
	if (d->pf_on)
		pf_credit(d, ta);
	struct segment *s = find_hit(d, lbn);
	double stop = ta; /* when the arm is free of the read-ahead */
	bool joins = d->pf_on && m->read_joins_readahead && lbn >= d->pf_next && lbn < d->pf_limit;
	if (!s && !joins) { /* stopping the read-ahead may finish the very block wanted */
		stop = pf_stop(d, ta);
		s = find_hit(d, lbn);
	}
	bool on_pf = s && d->pf_on && s == &d->seg[d->pf_seg];
	if (s) {
		/* Hit: the cached blocks go at once (after a running flush, which cannot stop). */
		double start = ta + (double)m->ovh_read_hit[prev];
		if (start < stop)
			start = stop;
		if (d->arm_free > ta && !on_pf && s->from_write)
			start = d->arm_free + (double)m->ovh_read_hit[prev];
		d->st.overhead_ns += (double)m->ovh_read_hit[prev];
		uint64_t have = s->end < end ? s->end : end;
		/* a partial hit's cached part waits for the water mark unless sent at once */
		bool at_once = have == end || !m->partial_hit_waits ||
			       have - lbn >= iolab_xfer_water_mark(m, r->blocks);
		iolab_xfer_start(&x, m, prev, r->blocks, start, at_once);
		iolab_xfer_blocks(&x, (uint32_t)(have - lbn), start);
		touch(d, s);
		if (have == end) {
			double bus = iolab_xfer_end(&x);
			d->st.read_hits++;
			if (on_pf) { /* the read-ahead goes on, as far as this request would take it */
				extend_readahead(d, readahead_limit(d, lbn, r->blocks, s->start), end);
				hold_read(d, lbn, end, bus);
			} else if (m->readahead_on_idle_hit && !d->pf_on && !s->from_write &&
				   d->arm_free <= start) {
				/* Read-ahead on idle hit (manual 3.4.5 p19): the idle media reads on
				 * from the end of the cached data. */
				start_readahead(d, s, s->end, start,
						readahead_limit(d, lbn, r->blocks, s->start));
				hold_read(d, lbn, end, bus);
			}
			return bus;
		}
		d->st.read_partial_hits++;
		if (on_pf) {
			extend_readahead(d, readahead_limit(d, lbn, r->blocks, s->start), end);
			pf_follow(d, have, (uint32_t)(end - have), &x);
			hold_read(d, lbn, end, iolab_xfer_end(&x));
			return iolab_xfer_end(&x);
		}
		/* The rest from the media, starting where the segment ends. */
		double arm = ta + (double)m->ovh_read_miss[prev];
		if (arm < d->arm_free)
			arm = d->arm_free;
		uint32_t pre;
		double mend = media_read(d, have, (uint32_t)(end - have), arm, &x, &pre);
		seg_extend(d, s, end);
		d->arm_free = mend;
		start_readahead(d, s, end, mend, readahead_limit(d, lbn, r->blocks, s->start));
		hold_read(d, lbn, end, iolab_xfer_end(&x));
		return iolab_xfer_end(&x);
	}
	if (joins) {
		/* The read-ahead is about to read these blocks: follow it instead of stopping it. */
		d->st.read_partial_hits++;
		d->st.overhead_ns += (double)m->ovh_read_hit[prev];
		iolab_xfer_start(&x, m, prev, r->blocks, ta + (double)m->ovh_read_hit[prev], false);
		struct segment *ps = &d->seg[d->pf_seg];
		extend_readahead(d, readahead_limit(d, lbn, r->blocks, ps->start), end);
		pf_follow(d, lbn, r->blocks, &x);
		hold_read(d, lbn, end, iolab_xfer_end(&x));
		touch(d, ps);
		return iolab_xfer_end(&x);
	}
	/* Miss: once the read-ahead has stopped, seek, rotate, read. */
	double arm = ta + (double)m->ovh_read_miss[prev] + (stop > ta ? stop - ta : 0);
	if (arm < d->arm_free)
		arm = d->arm_free;
	d->st.overhead_ns += (double)m->ovh_read_miss[prev];
	d->st.queue_ns += arm - ta - (double)m->ovh_read_miss[prev];
	iolab_xfer_start(&x, m, prev, r->blocks, ta + (double)m->ovh_read_miss[prev], false);
	uint32_t pre;
	double mend = media_read(d, lbn, r->blocks, arm, &x, &pre);
	double bus = iolab_xfer_end(&x);
	d->arm_free = mend;
	struct segment *ns = m->segments ? take_segment(d, false) : NULL;
	if (ns) {
		ns->used = true;
		ns->from_write = false;
		ns->start = lbn - pre;
		ns->lo = m->read_hits_on_write_data ? lbn : ns->start;
		seg_extend(d, ns, end);
		touch(d, ns);
		start_readahead(d, ns, end, mend, readahead_limit(d, lbn, r->blocks, lbn));
		hold_read(d, lbn, end, bus);
	}
	return bus;
}

/* Writes [lbn, lbn + n) with the arm free at t; block k's data arrives at data0 + (k+1)*bulk.
 * Returns the media end. */
static double media_write(struct iolab_disk *d, uint64_t lbn, uint32_t n, double t, double data0)
{
	double bulk = (double)d->m->bus_ns_per_block, rev = (double)d->m->rev_ns;
	if (d->m->zero_latency_write && d->m->access == IOLAB_ACCESS_MECHANICS && n) {
		/* a sector is written once it passes with its data */
		struct zl_track z = {0};
		struct iolab_phys p;
		for (uint32_t k = 0; k < n; k++) {
			place(d, lbn, k, &p);
			zl_sector(d, &z, &p, t, data0 + (double)(k + 1) * bulk, true);
			d->st.media_ns += p.sector_ns;
		}
		zl_close(d, &z);
		return z.end;
	}
	struct iolab_phys p;
	for (uint32_t k = 0; k < n; k++) {
		place(d, lbn, k, &p);
		t = reach(d, &p, t, true);
		double arrive = data0 + (double)(k + 1) * bulk;
		if (t < arrive) { /* pass the sector by until its data is there */
			double revs = ceil((arrive - t) / rev);
			t += revs * rev;
			d->cont_t += revs * rev; /* the next block still follows on */
			d->st.rotate_ns += revs * rev;
		}
		t += p.sector_ns;
		d->st.media_ns += p.sector_ns;
	}
	return t;
}

static double serve_write(struct iolab_disk *d, struct iolab_disk_req *r, double ta)
{
	const struct iolab_disk_model *m = d->m;
	int prev = d->last_write;
	double bulk = (double)m->bus_ns_per_block;
	uint64_t lbn = r->lbn, end = r->lbn + r->blocks;
	/* Fast write level 1 (DiskSim manual 3.4.5 p20): write-back only while each command is a
	 * write that appends to the previous one; any other write goes through to the media. */
	bool appends = prev && d->wr_end && lbn == d->wr_end;
	bool wb = m->write_back && (!m->write_back_sequential || appends);
	/* Combine seq writes (p20): an appending write whose predecessor is still being flushed
	 * joins its segment, and its flush follows on. */
	bool join = wb && m->combine_writes && appends && d->wr_back && d->arm_free > ta;
	struct segment *s = NULL; /* the segment an appending write joins */
	for (unsigned i = 0; join && i < d->nseg && !s; i++)
		if (d->seg[i].used && d->seg[i].from_write && d->seg[i].end == lbn)
			s = &d->seg[i];
	/* ... while the segment has room from its first block to this write's start
	 * (DiskSim 4.0 disksim_diskcache.c, write segment selection) */
	join = join && s && lbn - s->lo < m->segment_blocks;
	double ovh = (double)(wb ? m->ovh_write_hit[prev] : m->ovh_write_miss[prev]);
	/* Extra write disconnect (manual 3.4.5 p23): a write that does not continue the previous
	 * one lets go of the interface before its data, and comes back for it. */
	bool extra = m->extra_write_disconnect && !m->never_disconnect && !appends;
	if (extra)
		ovh = (double)m->extradisc_ns[0];
	d->st.overhead_ns += ovh;
	double stop;
	if (wb && m->write_keeps_readahead && d->pf_on &&
	    (end <= d->seg[d->pf_seg].start || lbn >= d->pf_limit)) {
		/* Write hit stop prefetch = 0 (p20): a write into the cache leaves the read-ahead
		 * to run to its end, and its flush follows. */
		pf_credit(d, ta);
		pf_finish(d);
		stop = d->pf_t > ta ? d->pf_t : ta;
	} else {
		stop = pf_stop(d, ta);
	}
	/* Cached copies of these blocks are dropped; the written data takes a segment. */
	for (unsigned i = 0; i < d->nseg; i++) {
		struct segment *c = &d->seg[i];
		if (c->used && c->lo < end && lbn < c->end)
			c->used = false;
	}
	double start = ta + ovh;
	unsigned joined = d->max_dirty; /* the flush this write joins */
	if (join) {
		flushing(d, ta);
		for (unsigned i = 0; i < d->nflush; i++)
			if (d->flush_end[i] == d->arm_free)
				joined = i;
	}
	if (wb && joined == d->max_dirty && flushing(d, ta) >= d->max_dirty) { /* wait for a segment to drain */
		double first = d->flush_end[0];
		for (unsigned i = 1; i < d->nflush; i++)
			if (d->flush_end[i] < first)
				first = d->flush_end[i];
		if (first > start) {
			d->st.write_waits++;
			d->st.queue_ns += first - start;
			start = first;
		}
	}
	if (extra && start < ta + ovh + (double)(m->extradisc_ns[1] + m->extradisc_ns[2] +
						  m->ovh_reselect[0]))
		start = ta + ovh + (double)(m->extradisc_ns[1] + m->extradisc_ns[2] +
					     m->ovh_reselect[0]); /* disconnect, delay, reselect */
	start += (double)m->ovh_data_prep; /* before the first data moves (manual 3.4.5 p22) */
	double data_end = start + (double)r->blocks * bulk;
	d->st.bus_ns += (double)r->blocks * bulk;
	double arm = ta + ovh + (stop > ta ? stop - ta : 0) +
		     (extra ? (double)m->extradisc_ns[4] : 0); /* Extradisc seek delta */
	if (!appends && arm < ta + ovh + (double)m->min_write_delay_ns)
		arm = ta + ovh + (double)m->min_write_delay_ns; /* Minimum seek delay (p24) */
	if (arm < d->arm_free)
		arm = d->arm_free;
	double seek_end = arm;
	if (!wb && m->write_disconnect_if_seeking && !m->never_disconnect) {
		struct iolab_phys p;
		map(d, lbn, &p);
		seek_end += move_ns(d, &p, true);
	}
	struct iolab_disk_stats saved = d->st;
	double mend = media_write(d, lbn, r->blocks, arm, start);
	if (wb)
		d->st = saved; /* the flush happens after the command has completed */
	d->arm_free = mend;
	d->wr_end = end;
	d->wr_back = wb;
	if (joined < d->max_dirty) { /* the joined flush and segment grow */
		d->flush_end[joined] = mend;
		seg_extend(d, s, end);
		touch(d, s);
		return data_end;
	}
	if (wb) {
		/* Keep this flush's end. The list never holds more than max_dirty: the flushes
		 * that have ended by `start` are dropped, and if max_dirty were still in progress
		 * at ta, the write waited above until the first of them ended, so at most
		 * max_dirty - 1 remain. (Dropping them at `start` rather than when the next write
		 * arrives changes nothing: that is later.) */
		flushing(d, start);
		d->flush_end[d->nflush++] = mend;
	}
	if ((s = m->segments ? take_segment(d, true) : NULL)) {
		s->used = true;
		s->from_write = true;
		s->start = lbn;
		s->lo = lbn;
		s->end = lbn;
		seg_extend(d, s, end);
		touch(d, s);
	}
	if (wb)
		return data_end;
	if (seek_end > data_end) {
		/* Disconnect write if seek (p20): the data is in and the arm still moving: the
		 * drive lets go of the interface and reselects to report completion. */
		double back = data_end + (double)(extra ? m->extradisc_ns[3] : m->ovh_write_disconnect);
		return (mend > back ? mend : back) + (double)m->ovh_reselect[extra ? 1 : 0];
	}
	return mend > data_end ? mend : data_end;
}

/* With read-ahead over requested data, a segment does not keep what it has sent to the host:
 * its read-ahead may overwrite it, so the segment starts after the request. */
static void drop_delivered(struct iolab_disk *d, uint64_t lbn, uint64_t end)
{
	for (unsigned i = 0; i < d->nseg; i++) {
		struct segment *s = &d->seg[i];
		if (s->used && !s->from_write && s->start <= lbn && lbn < s->end)
			s->start = s->lo = end < s->end ? end : s->end;
	}
}

/* Index in the queue of the next command by the scheduler, among the first queue_depth. */
static unsigned pick(struct iolab_disk *d, double t)
{
	unsigned n = d->nq < d->m->queue_depth ? d->nq : d->m->queue_depth;
	while (n > 1 && (double)d->q[n - 1]->t_arrive > t) /* only commands that have arrived */
		n--;
	if (n <= 1 || d->m->sched == IOLAB_SCHED_FCFS)
		return 0;
	unsigned best = 0;
	double best_v = INFINITY;
	uint32_t best_cyl = UINT32_MAX;
	if (d->pf_on)
		pf_credit(d, t);
	for (unsigned i = 0; i < n; i++) {
		struct iolab_phys p;
		uint64_t lbn = d->q[i]->lbn;
		/* Reads the cache holds, or the read-ahead is about to read, need no positioning. */
		if (!d->q[i]->write && (find_hit(d, lbn) ||
		    (d->pf_on && d->m->read_joins_readahead && lbn >= d->pf_next && lbn < d->pf_limit)))
			return i;
		map(d, lbn, &p);
		double v;
		switch (d->m->sched) {
		case IOLAB_SCHED_SSTF:
			v = p.cyl > d->cyl ? p.cyl - d->cyl : d->cyl - p.cyl;
			break;
		case IOLAB_SCHED_CLOOK: /* nearest at or beyond the arm, else the lowest */
			v = p.cyl >= d->cyl ? (double)(p.cyl - d->cyl) : 1e12 + p.cyl;
			break;
		default: { /* SPTF: seek plus rotation from when the arm can start: after the
			  * command's overhead (serve_read, serve_write) and the media work in hand */
			const struct iolab_disk_model *m = d->m;
			int prev = d->last_write;
			double arm = t + (double)(d->q[i]->write ? m->ovh_write_miss[prev] : m->ovh_read_miss[prev]);
			if (arm < d->arm_free)
				arm = d->arm_free;
			double mv;
			v = position_ns(d, &p, arm, d->q[i]->write, false, &mv);
			v += mv;
			break;
		}
		}
		if (v < best_v || (v == best_v && p.cyl < best_cyl)) {
			best_v = v;
			best = i;
			best_cyl = p.cyl;
		}
	}
	return best;
}

void iolab_disk_hold(struct iolab_disk *d, uint64_t t)
{
	if ((double)t > d->free_at)
		d->free_at = (double)t;
}

struct iolab_disk_req *iolab_disk_next(struct iolab_disk *d)
{
	if (!d->nq)
		return NULL;
	struct iolab_disk_req *first = d->q[0];
	double t = (double)first->t_arrive > d->free_at ? (double)first->t_arrive : d->free_at;
	unsigned i = pick(d, t);
	struct iolab_disk_req *r = d->q[i];
	memmove(&d->q[i], &d->q[i + 1], (d->nq - i - 1) * sizeof(*d->q));
	d->nq--;
	if ((double)r->t_arrive > t)
		t = (double)r->t_arrive;
	d->st.queue_ns += t - (double)r->t_arrive;
	double done = r->write ? serve_write(d, r, t) : serve_read(d, r, t);
	/* Completion overhead (DiskSim manual 3.4.5 p17): before the completion message; the
	 * media work in the background goes on meanwhile. */
	done += (double)d->m->ovh_complete[r->write];
	d->st.overhead_ns += (double)d->m->ovh_complete[r->write];
	if (!r->write && d->m->readahead_over_request)
		drop_delivered(d, r->lbn, r->lbn + r->blocks);
	if (!r->write)
		d->st.bus_ns += (double)r->blocks * (double)d->m->bus_ns_per_block;
	r->write ? d->st.writes++ : d->st.reads++;
	d->last_write = r->write;
	d->free_at = done;
	r->t_done = (uint64_t)llround(done);
	if (r->t_done < r->t_arrive)
		r->t_done = r->t_arrive;
	return r;
}
