/* test_sim_physics.c: physics checks on the simulated drive (disk.c, layout.c) through the library
 * API, on the built-in atlas10k model (a DIXtrac-extracted Quantum Atlas 10K: 10025 rpm, 6
 * surfaces, 10042 cylinders, 24 zones from 334 down to 229 sectors per track, a measured seek
 * curve). Each check drives iolab_disk_submit/next by hand with fixed seeds, so the figures are
 * deterministic; the tolerances below are set from the statistics of the sample (or from what the
 * model leaves out of a closed formula) and each one says why. The whole file runs in well under
 * a second in the Release build.
 *
 *  - rotational latency of random reads is uniform over a revolution: mean rev/2, spread rev/sqrt(12);
 *  - the seek time of random reads is the model's seek curve at the distances the requests make;
 *  - sequential reads stream at the zone's media rate less the track and cylinder skews (outer
 *    zone faster than inner), and without read-ahead each back-to-back command loses a turn;
 *  - SPTF with 32 queued commands beats FCFS; only a queuing drive gains from host queue depth;
 *  - write-back makes small random writes much faster than write-through;
 *  - a read that follows a read of the preceding blocks is a cache hit (overhead + interface);
 *  - back-to-back sequential 64 KiB reads are served from the read-ahead: the segment never
 *    drops data the next read needs while the host is still taking the previous one, and a
 *    read-ahead that waited for room leaves the arm to the next command at once;
 *  - the scheduler only picks among commands that have arrived.
 */
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

#include "iolab/disk_model.h"
#include "iolab/disk_sim.h"
#include "iolab/prng.h"

#define MODEL "atlas10k"

static void open_model(struct iolab_disk_model *m)
{
	struct iolab_err err;
	if (iolab_model_open(MODEL, m, &err)) {
		print_error("iolab_model_open(%s): %s\n", MODEL, err.msg);
		fail();
	}
}

static struct iolab_disk *new_disk(const struct iolab_disk_model *m)
{
	struct iolab_disk *d = iolab_disk_new(m);
	assert_non_null(d);
	return d;
}

/* One command at QD 1, arriving at `at`; returns its completion time. */
static uint64_t serve1(struct iolab_disk *d, uint64_t lbn, uint32_t blocks, bool write, uint64_t at)
{
	struct iolab_disk_req r = {.lbn = lbn, .blocks = blocks, .write = write, .t_arrive = at};
	assert_int_equal(iolab_disk_submit(d, &r), 0);
	struct iolab_disk_req *got = iolab_disk_next(d);
	assert_ptr_equal(got, &r);
	assert_true(r.t_done >= r.t_arrive);
	assert_int_equal(iolab_disk_outstanding(d), 0);
	return r.t_done;
}

/* The zone that holds lbn. */
static const struct iolab_zone *zone_of(const struct iolab_disk_model *m, uint64_t lbn)
{
	unsigned z = 0;
	while (z + 1 < m->nzones && m->zone[z + 1].first_lbn <= lbn)
		z++;
	return &m->zone[z];
}

/* Cylinder and surface of lbn, computed independently of layout.c from the zone table alone:
 * blocks fill a zone cylinder by cylinder, track by track, after the empty front sectors; the
 * slipped sectors (a handful per zone) are ignored, so a block after a slip may be placed one
 * sector early (a different cylinder or surface only for the few blocks within a slip count of a
 * track end). */
static void approx_place(const struct iolab_disk_model *m, uint64_t lbn, uint32_t *cyl, uint32_t *head)
{
	const struct iolab_zone *z = zone_of(m, lbn);
	uint64_t spc = (uint64_t)z->spt * m->surfaces;
	uint64_t x = lbn - z->first_lbn + z->front_empty;
	if (z->sparing == IOLAB_SPARE_RANGE) {
		uint64_t per = spc * z->range - z->spares;
		x = x / per * spc * z->range + x % per;
	}
	uint64_t c = x / spc;
	uint32_t t = (uint32_t)((x % spc) / z->spt);
	*cyl = z->first_cyl + (uint32_t)c;
	*head = m->cylinder_serpentine && (c & 1) ? m->surfaces - 1 - t : t;
}

/* ---- random reads at QD 1: rotation and seek ---------------------------------------------- */

#define NRAND 20000

struct rand_run {
	double rot_sum, rot_sq, rot_max, rot_min;
	double seek_sim, seek_expected; /* totals, ns */
	unsigned seek_off;              /* requests whose seek differs from the expected one */
	uint64_t reads;
};

/* NRAND single-block reads of uniformly random blocks, each issued after a think time uniform in
 * [0, 20 ms) after the previous completion, on a drive without cache (so every read goes to the
 * media and nothing is read ahead). The think time is not a multiple of anything the drive
 * does, so the angle the head lands at is uniformly random. */
static void random_reads(struct rand_run *out)
{
	struct iolab_disk_model m;
	open_model(&m);
	m.segments = 0;
	m.zero_latency_read = false;
	m.read_free_blocks = false;
	struct iolab_disk *d = new_disk(&m);
	struct iolab_prng rng;
	iolab_prng_seed(&rng, 42);
	memset(out, 0, sizeof(*out));
	out->rot_min = INFINITY;
	uint32_t cyl = 0, head = 0; /* the drive starts at cylinder 0, surface 0 */
	uint64_t now = 0;
	for (unsigned i = 0; i < NRAND; i++) {
		uint64_t lbn = iolab_prng_below(&rng, m.blocks);
		const struct iolab_disk_stats *st = iolab_disk_stats(d);
		double rot0 = st->rotate_ns, seek0 = st->seek_ns;
		now = serve1(d, lbn, 1, false, now);
		double rot = st->rotate_ns - rot0, seek = st->seek_ns - seek0;
		out->rot_sum += rot;
		out->rot_sq += rot * rot;
		out->rot_max = fmax(out->rot_max, rot);
		out->rot_min = fmin(out->rot_min, rot);

		uint32_t c, h;
		approx_place(&m, lbn, &c, &h);
		uint32_t dist = c > cyl ? c - cyl : cyl - c;
		/* The model positions with max(seek, head switch): the head switch matters only on the
		 * same cylinder here, since the shortest seek (1.245 ms) is longer than the switch. */
		double want = (double)iolab_model_seek_ns(&m, dist, false);
		if (h != head && (double)m.head_switch_ns > want)
			want = (double)m.head_switch_ns;
		out->seek_expected += want;
		out->seek_sim += seek;
		if (fabs(seek - want) > 1.0)
			out->seek_off++;
		cyl = c;
		head = h;
		now += iolab_prng_below(&rng, 20000000);
	}
	out->reads = iolab_disk_stats(d)->reads;
	out->rot_sum = iolab_disk_stats(d)->rotate_ns; /* the counter itself: rotational latency as the drive charges it */
	iolab_disk_free(d);
	iolab_model_free(&m);
}

static void test_rotational_latency(void **state)
{
	(void)state;
	struct iolab_disk_model m;
	open_model(&m);
	double rev = (double)m.rev_ns;
	iolab_model_free(&m);
	assert_int_equal((long)llround(rev), (long)llround(60e9 / 10025)); /* 5.985 ms */

	struct rand_run r;
	random_reads(&r);
	assert_int_equal(r.reads, NRAND);
	double mean = r.rot_sum / (double)r.reads;
	double sd = sqrt(r.rot_sq / (double)r.reads - mean * mean);
	print_message("rotational latency: mean %.1f us (rev/2 %.1f us), sd %.1f us (rev/sqrt(12) %.1f us), "
		      "range %.1f..%.1f us\n", mean / 1e3, rev / 2e3, sd / 1e3, rev / sqrt(12) / 1e3,
		      r.rot_min / 1e3, r.rot_max / 1e3);
	/* Uniform on [0, rev): the mean of 20000 samples has a standard error of
	 * rev/sqrt(12)/sqrt(20000) = 0.2% of rev, i.e. 0.41% of rev/2: 2% is about 5 standard
	 * errors: a correct model fails it with a probability of about 1e-6 per seed, while a bias
	 * of more than ~2% of rev/2 (60 us, 3.3 sectors) is caught. */
	assert_true(fabs(mean - rev / 2) < 0.02 * rev / 2);
	/* The spread of a uniform latency is rev/sqrt(12); the sample standard deviation of 20000
	 * uniform values has a relative standard error of about sqrt(0.8/20000)/2 = 0.32%: 3% is
	 * ~9 of them. A model that waited a fixed time, or a whole turn now and then, fails it. */
	assert_true(fabs(sd - rev / sqrt(12)) < 0.03 * rev / sqrt(12));
	/* Never a full revolution or more: a sector comes round within one turn. */
	assert_true(r.rot_min >= 0);
	assert_true(r.rot_max < rev);
}

static void test_seek_curve(void **state)
{
	(void)state;
	struct rand_run r;
	random_reads(&r);
	double sim = r.seek_sim / NRAND, want = r.seek_expected / NRAND;
	print_message("seek per request: simulated %.1f us, seek curve at the requests' distances %.1f us "
		      "(%+.3f%%); %u of %u requests differ by more than 1 ns\n", sim / 1e3, want / 1e3,
		      100 * (sim - want) / want, r.seek_off, NRAND);
	/* Sanity: a random seek on this drive is a few ms (the datasheet average is 5 ms). */
	assert_true(want > 3e6 && want < 8e6);
	/* The expected value is computed from the same seek function at the distances our
	 * independent zone-table mapping gives. It ignores slipped sectors (at most ~10 per zone,
	 * each shifting the later blocks of the zone by one sector), which moves a block to the
	 * neighbouring cylinder or surface only if it lies within that many sectors of a track end:
	 * ~1% of the requests at most. A one-cylinder error changes a long seek by ~1 us of ~5 ms,
	 * and a short one (or 0 vs 1 cylinders, 1.2 ms) only with a probability of ~1e-4, so the
	 * means agree to well under 0.5%; a 3% bound leaves room for that and for nothing like
	 * a wrong seek curve, a missing head switch or settle on reads (settle 0.49 ms = 10%). */
	assert_true(fabs(sim - want) < 0.03 * want);
	/* Per request: the seek charged is the curve's value, but for those few slipped blocks. */
	assert_true(r.seek_off < NRAND / 50);
}

/* ---- sequential reads: the media rate ------------------------------------------------------- */

#define SEQ_BS 256
#define SEQ_N 400 /* 102400 blocks: ~51 cylinders of the outer zone, ~75 of the inner one */

/* Bytes per second of SEQ_N back-to-back SEQ_BS-block reads at QD 1 from start: from the first
 * command's completion to the last one's (the first one's seek and rotation are left out). */
static double seq_rate(const struct iolab_disk_model *m, uint64_t start)
{
	struct iolab_disk *d = new_disk(m);
	uint64_t t0 = serve1(d, start, SEQ_BS, false, 0), now = t0;
	for (unsigned i = 1; i < SEQ_N; i++)
		now = serve1(d, start + (uint64_t)i * SEQ_BS, SEQ_BS, false, now);
	iolab_disk_free(d);
	return (double)(SEQ_N - 1) * SEQ_BS * m->block_bytes / ((double)(now - t0) / 1e9);
}

/* The zone's raw media rate: one track per revolution. */
static double media_rate(const struct iolab_disk_model *m, const struct iolab_zone *z)
{
	return (double)z->spt * m->block_bytes / ((double)m->rev_ns / 1e9);
}

/* The rate when streaming across tracks: each of the surfaces-1 track switches of a cylinder costs
 * track_skew sectors and the cylinder switch cyl_skew sectors, as long as the skew covers the head
 * switch and the single-cylinder seek (checked), which is what skews are for. */
static double streaming_rate(const struct iolab_disk_model *m, const struct iolab_zone *z)
{
	double sector = (double)m->rev_ns / z->spt;
	assert_true(z->track_skew * sector >= (double)m->head_switch_ns);
	assert_true(z->cyl_skew * sector >= (double)iolab_model_seek_ns(m, 1, false));
	double spc = (double)z->spt * m->surfaces;
	return media_rate(m, z) * spc / (spc + (m->surfaces - 1) * z->track_skew + z->cyl_skew);
}

static void test_sequential_media_rate(void **state)
{
	(void)state;
	struct iolab_disk_model m;
	open_model(&m);
	m.bus_ns_per_block = 1000; /* 512 MB/s: the interface never holds the media back */
	const struct iolab_zone *outer = &m.zone[0], *inner = &m.zone[m.nzones - 1];
	uint64_t in_start = inner->first_lbn + 1000;
	assert_true(outer->nblocks >= (uint64_t)SEQ_N * SEQ_BS);
	assert_true(in_start + (uint64_t)SEQ_N * SEQ_BS <= inner->first_lbn + inner->nblocks);
	assert_true(in_start + (uint64_t)SEQ_N * SEQ_BS <= m.blocks);

	/* With the cache (read-ahead to the end of the track, one more track when sequential), the
	 * drive reads on while the host takes the data and issues the next command, so back-to-back
	 * commands stream. Each command arrives 1 us after the read-ahead started on its first
	 * block; a drive that lets it join the read-ahead streams. (The imported model says
	 * read_joins_readahead = no: test_read_during_readahead checks that case.) */
	m.read_joins_readahead = true;
	double out_r = seq_rate(&m, 0), in_r = seq_rate(&m, in_start);
	double out_raw = media_rate(&m, outer), in_raw = media_rate(&m, inner);
	double out_s = streaming_rate(&m, outer), in_s = streaming_rate(&m, inner);
	print_message("read-ahead on: outer %.2f MB/s (raw %.2f, with skews %.2f), inner %.2f MB/s "
		      "(raw %.2f, with skews %.2f)\n", out_r / 1e6, out_raw / 1e6, out_s / 1e6,
		      in_r / 1e6, in_raw / 1e6, in_s / 1e6);
	/* The skews of this drive are long (63 sectors = 1.13 ms for a 0.18 ms head switch; the
	 * cylinder skew 113 sectors): 17.6% of the raw rate goes in switches, more than the
	 * ~10% typical of drives with shorter skews. Against the skew-corrected rate the rest is: the partial cylinders at both ends of
	 * the ~51 (75) cylinders read (<= 1/50 of a cylinder's switches, 0.4%), a few slipped
	 * sectors (one sector each), and the interface time of the last block of each command
	 * (1 us per 4.5 ms): 3% covers them with room and catches a lost revolution anywhere in
	 * ~20 commands. */
	assert_true(fabs(out_r - out_s) < 0.03 * out_s);
	assert_true(fabs(in_r - in_s) < 0.03 * in_s);
	assert_true(out_r > 0.80 * out_raw && out_r <= out_raw);
	assert_true(in_r > 0.80 * in_raw && in_r <= in_raw);
	assert_true(out_r > 1.3 * in_r); /* 334 vs 229 sectors per track: 1.46x */

	/* Without a cache nothing is read ahead: each command finds its first sector gone by the
	 * time it takes to transfer the previous command's last block (1 us), so it waits almost a
	 * full revolution, then streams its 256 blocks. Expected: 256 blocks per (rev + their
	 * streaming time). The same 3% as above, for the same reasons. */
	m.segments = 0;
	m.zero_latency_read = true; /* as the Atlas 10K is specified: its first track is read in the
				       revolution the in-order drive spends waiting (DiskSim manual
				       §B.3.3), so it can only be faster */
	double out_zl = seq_rate(&m, 0), in_zl = seq_rate(&m, in_start);
	m.zero_latency_read = false; /* the in-order drive this expectation is for */
	double out_nc = seq_rate(&m, 0), in_nc = seq_rate(&m, in_start);
	double bytes = (double)SEQ_BS * m.block_bytes, rev_s = (double)m.rev_ns / 1e9;
	double out_nc_want = bytes / (rev_s + bytes / out_s), in_nc_want = bytes / (rev_s + bytes / in_s);
	print_message("cache off: outer %.2f MB/s (expected %.2f), inner %.2f MB/s (expected %.2f)\n",
		      out_nc / 1e6, out_nc_want / 1e6, in_nc / 1e6, in_nc_want / 1e6);
	assert_true(fabs(out_nc - out_nc_want) < 0.03 * out_nc_want);
	assert_true(fabs(in_nc - in_nc_want) < 0.03 * in_nc_want);
	assert_true(out_nc > in_nc);
	print_message("cache off, zero-latency reads: outer %.2f MB/s, inner %.2f MB/s\n",
		      out_zl / 1e6, in_zl / 1e6);
	assert_true(out_zl >= out_nc && in_zl >= in_nc);
	iolab_model_free(&m);
}

/* ---- command queuing ------------------------------------------------------------------------ */

#define NQ 20000

/* The host's side of the drive's queue: requests the drive refused (QUEUE FULL), oldest first. */
struct host_queue {
	struct iolab_disk_req **r;
	unsigned n;
};

/* Hands r to the drive, or holds it behind those already held. */
static void host_submit(struct iolab_disk *d, struct host_queue *h, struct iolab_disk_req *r)
{
	if (!h->n) {
		int rc = iolab_disk_submit(d, r);
		if (rc != -EBUSY) {
			assert_int_equal(rc, 0);
			return;
		}
	}
	h->r[h->n++] = r;
}

/* Hands the held requests over, oldest first, as long as the drive takes them. */
static void host_refill(struct iolab_disk *d, struct host_queue *h)
{
	unsigned k = 0;
	while (k < h->n && !iolab_disk_submit(d, h->r[k]))
		k++;
	memmove(h->r, h->r + k, (h->n - k) * sizeof(*h->r));
	h->n -= k;
}

/* IOPS of NQ random 4 KiB reads with qd outstanding: qd issued at time 0, and each completion
 * replaced at once by a new request arriving at its completion time. The drive takes up to its
 * queue_depth; the host holds the others. */
static double closed_loop_iops(const struct iolab_disk_model *m, unsigned qd, uint64_t seed)
{
	struct iolab_disk *d = new_disk(m);
	struct iolab_disk_req *req = calloc(qd, sizeof(*req));
	struct host_queue h = {.r = calloc(qd, sizeof(*h.r))};
	assert_non_null(req);
	assert_non_null(h.r);
	struct iolab_prng rng;
	iolab_prng_seed(&rng, seed);
	uint64_t slots = m->blocks / 8, issued = 0, done = 0, last = 0;
	for (unsigned i = 0; i < qd; i++) {
		req[i] = (struct iolab_disk_req){.lbn = 8 * iolab_prng_below(&rng, slots), .blocks = 8};
		host_submit(d, &h, &req[i]);
		issued++;
	}
	struct iolab_disk_req *r;
	while ((r = iolab_disk_next(d))) {
		assert_true(r->t_done >= r->t_arrive);
		assert_true(r->t_done >= last);
		last = r->t_done;
		done++;
		host_refill(d, &h);
		if (issued < NQ) {
			*r = (struct iolab_disk_req){.lbn = 8 * iolab_prng_below(&rng, slots), .blocks = 8,
						     .t_arrive = last};
			host_submit(d, &h, r);
			issued++;
		}
		assert_true(iolab_disk_outstanding(d) <= m->queue_depth);
		assert_true(iolab_disk_outstanding(d) + h.n <= qd);
	}
	assert_int_equal(done, NQ);
	free(h.r);
	free(req);
	iolab_disk_free(d);
	return (double)done / ((double)last / 1e9);
}

static void test_queuing(void **state)
{
	(void)state;
	struct iolab_disk_model m;
	open_model(&m); /* as built: cache on, queue_depth 1, FCFS */
	assert_int_equal(m.queue_depth, 1);
	double plain1 = closed_loop_iops(&m, 1, 7), plain32 = closed_loop_iops(&m, 32, 7);
	m.queue_depth = 32;
	m.sched = IOLAB_SCHED_FCFS;
	double fcfs32 = closed_loop_iops(&m, 32, 7);
	m.sched = IOLAB_SCHED_SPTF;
	double sptf1 = closed_loop_iops(&m, 1, 7), sptf32 = closed_loop_iops(&m, 32, 7);
	print_message("random 4k reads, IOPS: no queuing QD1 %.1f QD32 %.1f; queue 32 FCFS QD32 %.1f; "
		      "SPTF QD1 %.1f QD32 %.1f\n", plain1, plain32, fcfs32, sptf1, sptf32);
	/* A random 4 KiB read takes ~5 ms seek + 3 ms rotation + 0.8 ms transfer: ~110 IOPS at
	 * QD 1. SPTF over 32 commands roughly halves the positioning time (published figures for
	 * such drives are 2-3x the QD 1 rate); FCFS over the same queue serves the same random
	 * sequence as QD 1. The margins are far from the expected values (each figure rests on
	 * 20000 requests, ~1% noise): */
	assert_true(plain1 > 80 && plain1 < 140);
	assert_true(sptf32 > 1.2 * fcfs32);          /* SPTF at least 20% above FCFS: far below the expected ~2x */
	assert_true(plain32 / plain1 < 1.1);         /* a drive without queuing gains nothing */
	assert_true(fabs(fcfs32 / plain1 - 1) < 0.1); /* nor does FCFS */
	assert_true(sptf32 / sptf1 > 1.3);           /* a queuing SPTF drive does */
	iolab_model_free(&m);
}

/* ---- write-back ----------------------------------------------------------------------------- */

/* Mean response of NW random 4 KiB writes at QD 1, each issued after a think time uniform in
 * [0, 20 ms) after the previous completion. */
#define NW 5000
static double random_write_mean(const struct iolab_disk_model *m, unsigned *waits)
{
	struct iolab_disk *d = new_disk(m);
	struct iolab_prng rng;
	iolab_prng_seed(&rng, 99);
	uint64_t now = 0;
	double sum = 0;
	for (unsigned i = 0; i < NW; i++) {
		uint64_t done = serve1(d, 8 * iolab_prng_below(&rng, m->blocks / 8), 8, true, now);
		sum += (double)(done - now);
		now = done + iolab_prng_below(&rng, 20000000);
	}
	assert_int_equal(iolab_disk_stats(d)->writes, NW);
	*waits = (unsigned)iolab_disk_stats(d)->write_waits;
	iolab_disk_free(d);
	return sum / NW;
}

static void test_write_back(void **state)
{
	(void)state;
	struct iolab_disk_model m;
	open_model(&m);
	assert_true(m.write_back);
	unsigned wb_waits, wt_waits;
	double wb = random_write_mean(&m, &wb_waits);
	m.write_back = false;
	double wt = random_write_mean(&m, &wt_waits);
	print_message("random 4k writes at QD 1: write-back %.1f us (%u waited for a flush), "
		      "write-through %.1f us\n", wb / 1e3, wb_waits, wt / 1e3);
	/* Write-through pays seek + settle + rotation + media (~9 ms); write-back the overhead and
	 * the transfer (0.19 + 8 x 0.099 ms ~ 1 ms) unless the previous write is still being
	 * flushed (think time shorter than the flush: ~40% here). Expected ratio ~3-5x: 2x is a floor
	 * well below it. */
	assert_true(wb * 2 <= wt);
	assert_int_equal(wt_waits, 0);
	/* Nothing is faster than the overhead plus the interface. */
	assert_true(wb >= (double)(m.ovh_write_hit[1] + 8 * m.bus_ns_per_block) - 1);
	iolab_model_free(&m);
}

/* ---- cache hit on sequential reads ----------------------------------------------------------- */

static void test_sequential_cache_hit(void **state)
{
	(void)state;
	struct iolab_disk_model m;
	open_model(&m); /* cache as built: 10 segments, read-ahead to the end of the track */
	assert_true(m.segments > 0);
	struct iolab_disk *d = new_disk(&m);
	/* Block 3356 is sector 16 of the 11th track of zone 0 (no slip before block 55017):
	 * reading 8 blocks there leaves 310 blocks of the track to read ahead. */
	uint64_t lbn = 10 * 334 + 16, now = 0;
	now = serve1(d, lbn, 8, false, 0);
	const struct iolab_disk_stats *st = iolab_disk_stats(d);
	assert_int_equal(st->read_hits, 0);
	uint64_t miss_ns = now;
	for (unsigned k = 1; k <= 3; k++) {
		uint64_t at = now + 1000000; /* 1 ms think time */
		now = serve1(d, lbn + 8 * k, 8, false, at);
		uint64_t resp = now - at;
		uint64_t want = m.ovh_read_hit[0] + 8 * m.bus_ns_per_block;
		print_message("read %u: %llu ns (a hit costs %llu ns; the first read took %llu ns)\n", k,
			      (unsigned long long)resp, (unsigned long long)want,
			      (unsigned long long)miss_ns);
		/* A hit is the read-hit overhead plus 8 transfers, to the nanosecond (rounding). */
		assert_true(resp + 1 >= want && resp <= want + 1);
		assert_int_equal(st->read_hits, k);
	}
	assert_int_equal(st->reads, 4);
	iolab_disk_free(d);
	iolab_model_free(&m);
}

/* ---- sequential 64 KiB reads at QD 1: the read-ahead keeps what the next read needs ---------- */

#define SEQ64_N 2000 /* ~26 s of simulated time: ~7.5 cylinders of the outer zone */

/* Back-to-back 128-block reads at QD 1 from block 0 (each issued when the previous one
 * completes), on the model as built: 10 segments of 374 blocks, read-ahead to the end of the
 * track after the request (one more track when sequential), 99 us per block on the interface.
 * The interface is the bottleneck: a read takes 128 x 99 us = 12.7 ms to send, while the media
 * passes ~2 tracks (334 sectors per 5.985 ms turn). So the read-ahead fills its segment long
 * before the host has taken the read, and must then wait: a segment is a ring, and a block may
 * be pushed out only once it has gone to the host (DiskSim 4.0 manual, "Number of buffer
 * segments"). When the read completes, the segment holds its last blocks and up to 374 blocks
 * after it: the whole of the next read. Reading ahead past the segment instead drops the start of
 * the next read, which then misses or half-misses (before this rule: 59.7% full hits, 13.3%
 * misses, 75.3 IOPS). */
static void test_sequential_64k_readahead(void **state)
{
	(void)state;
	struct iolab_disk_model m;
	open_model(&m);
	assert_int_equal(m.segment_blocks, 374);
	struct iolab_disk *d = new_disk(&m);
	uint64_t hit_ns = m.ovh_read_hit[0] + 128 * m.bus_ns_per_block; /* 12.856 ms */
	uint64_t t0 = serve1(d, 0, 128, false, 0), now = t0, slow = 0, worst = 0;
	for (unsigned i = 1; i < SEQ64_N; i++) {
		uint64_t at = now;
		now = serve1(d, (uint64_t)i * 128, 128, false, at);
		worst = now - at > worst ? now - at : worst;
		slow += now - at > hit_ns + 1;
	}
	const struct iolab_disk_stats *st = iolab_disk_stats(d);
	uint64_t misses = st->reads - st->read_hits - st->read_partial_hits;
	double iops = (SEQ64_N - 1) / ((double)(now - t0) / 1e9); /* from the first completion */
	print_message("sequential 64k reads at QD 1: %.2f IOPS (all hits: %.2f), full hits %.1f%%, "
		      "partial %.1f%%, misses %llu; slowest %.3f ms, %llu slower than a hit\n", iops,
		      1e9 / (double)hit_ns, 100.0 * (double)st->read_hits / SEQ64_N,
		      100.0 * (double)st->read_partial_hits / SEQ64_N, (unsigned long long)misses,
		      (double)worst / 1e6, (unsigned long long)slow);
	/* Only the first read goes to the media. */
	assert_int_equal(misses, 1);
	/* No read after it waits for the media: each costs the hit overhead and its 128 transfers
	 * (a partial hit's rest is read while its first blocks are being sent, 5x faster than the
	 * interface takes them). */
	assert_int_equal(slow, 0);
	/* Mostly full hits. The remaining reads are partial hits where the track rule (DiskSim's
	 * prefetch scheme 4: to the end of the track after the request, one more track only when the
	 * segment started before it) stops the read-ahead short of the next read's end; DiskSim 4.0
	 * on the same specification, with the same rule, reports 88% full hits and 77.5 IOPS
	 * (docs/validation.md). 85% leaves room for where the two simulators start the segment,
	 * and fails a model that drops the next read's blocks (59.7% before). */
	assert_true((double)st->read_hits >= 0.85 * SEQ64_N);
	iolab_disk_free(d);
	iolab_model_free(&m);
}

/* ---- a read-ahead that waited for room does not hold the arm ----------------------------------- */

/* Four sequential 64 KiB reads fill the segment: the read-ahead has to wait for the host to take
 * the data before it can read on (test_sequential_64k_readahead). Once the last read has gone,
 * it may go on, and first waits for its next sector to come round. A read elsewhere arriving
 * then finds the arm idle: it waits at most for a sector in progress (17.9 us in zone 0), not for
 * the read-ahead's sector to come round (up to a turn, 6 ms). Think times 0 to 5 ms. */
static void test_readahead_room_wait_frees_arm(void **state)
{
	(void)state;
	static const uint64_t thinks_us[] = {0, 1, 20, 100, 500, 1000, 2000, 3000, 5000};
	unsigned bad = 0;
	for (unsigned k = 0; k < sizeof(thinks_us) / sizeof(thinks_us[0]); k++) {
		struct iolab_disk_model m;
		open_model(&m);
		struct iolab_disk *d = new_disk(&m);
		uint64_t now = 0;
		for (unsigned i = 0; i < 4; i++)
			now = serve1(d, 128 * i, 128, false, now);
		double q0 = iolab_disk_stats(d)->queue_ns;
		serve1(d, m.blocks / 2, 8, false, now + thinks_us[k] * 1000);
		double waited = iolab_disk_stats(d)->queue_ns - q0;
		double sector = (double)m.rev_ns / m.zone[0].spt;
		print_message("think %llu us: the read waited %.1f us for the arm\n",
			      (unsigned long long)thinks_us[k], waited / 1e3);
		if (waited > sector + 1)
			bad++;
		iolab_disk_free(d);
		iolab_model_free(&m);
	}
	assert_int_equal(bad, 0);
}

/* ---- a read that arrives while the read-ahead is reading its first block ---------------------- */

/* After a 256-block read from block 0, the read-ahead goes on reading block 256, 257, ... (the
 * track holds 334). A read of 256..263 that arrives while block 256 is under the head needs
 * nothing but the next 8 sectors (~0.14 ms): whether the drive follows the read-ahead
 * (read_joins_readahead) or stops it, the sector in progress is read to its end, so the data
 * is there and no revolution (6 ms) need be lost. Think times: 5 us (inside block 256's
 * sector, which lasts 17.9 us), 30 us (after it) and 100 us. */
static void test_read_during_readahead(void **state)
{
	(void)state;
	static const uint64_t thinks[] = {5000, 30000, 100000};
	unsigned bad = 0; /* counted, so that a failure frees everything before it is reported */
	for (int joins = 1; joins >= 0; joins--) {
		for (unsigned k = 0; k < 3; k++) {
			struct iolab_disk_model m;
			open_model(&m);
			m.bus_ns_per_block = 1000;
			m.read_joins_readahead = joins;
			struct iolab_disk *d = new_disk(&m);
			uint64_t t = serve1(d, 0, 256, false, 0) + thinks[k];
			uint64_t resp = serve1(d, 256, 8, false, t) - t;
			print_message("read_joins_readahead %s, think %llu us: %.1f us\n", joins ? "yes" : "no",
				      (unsigned long long)thinks[k] / 1000, resp / 1e3);
			/* 8 sectors (143 us) + overhead (0.18 ms for a hit) + the transfer, ~0.35 ms:
			 * a quarter of a turn (1.5 ms) is far above that and far below a lost turn. */
			if (resp >= m.rev_ns / 4)
				bad++;
			iolab_disk_free(d);
			iolab_model_free(&m);
		}
	}
	assert_int_equal(bad, 0);
}

/* ---- the scheduler considers only commands that have arrived ------------------------------- */

/* iolab_disk_submit takes requests ahead of their arrival time (disk_sim.h: "at its t_arrive"),
 * e.g. an open-loop trace replay. A command that has not arrived cannot be picked: the drive must
 * serve the one that is waiting instead of idling until the other one arrives. */
static void test_scheduler_waits_for_arrival(void **state)
{
	(void)state;
	static const enum iolab_sched scheds[] = {IOLAB_SCHED_SSTF, IOLAB_SCHED_CLOOK, IOLAB_SCHED_SPTF};
	static const char *names[] = {"sstf", "clook", "sptf"};
	unsigned bad = 0;
	for (unsigned s = 0; s < 3; s++) {
		struct iolab_disk_model m;
		open_model(&m);
		m.segments = 0;
		m.queue_depth = 32;
		m.sched = scheds[s];
		struct iolab_disk *d = new_disk(&m);
		/* a: at the far end, waiting at time 0; b: next to the arm (cylinder 0), arriving 1 s later */
		struct iolab_disk_req a = {.lbn = m.blocks - 64, .blocks = 8, .t_arrive = 0};
		struct iolab_disk_req b = {.lbn = 8, .blocks = 8, .t_arrive = 1000000000};
		assert_int_equal(iolab_disk_submit(d, &a), 0);
		assert_int_equal(iolab_disk_submit(d, &b), 0);
		struct iolab_disk_req *first = iolab_disk_next(d);
		struct iolab_disk_req *second = iolab_disk_next(d);
		print_message("%s: first served %s, done at %.3f ms; a done at %.3f ms\n", names[s],
			      first == &a ? "a" : "b", first->t_done / 1e6, a.t_done / 1e6);
		/* a: a full stroke and a turn, ~17 ms, not 1 s */
		if (first != &a || second != &b || a.t_done >= 50000000 || b.t_done <= b.t_arrive)
			bad++;
		iolab_disk_free(d);
		iolab_model_free(&m);
	}
	assert_int_equal(bad, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rotational_latency),
		cmocka_unit_test(test_seek_curve),
		cmocka_unit_test(test_sequential_media_rate),
		cmocka_unit_test(test_queuing),
		cmocka_unit_test(test_write_back),
		cmocka_unit_test(test_sequential_cache_hit),
		cmocka_unit_test(test_sequential_64k_readahead),
		cmocka_unit_test(test_readahead_room_wait_frees_arm),
		cmocka_unit_test(test_read_during_readahead),
		cmocka_unit_test(test_scheduler_waits_for_arrival),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
