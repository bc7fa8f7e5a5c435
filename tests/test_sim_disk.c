/* test_sim_disk.c: the simulated drive's limits as the layer above sees them (disk.c,
 * engine_sim.c), on the built-in atlas10k model:
 *
 *  - the drive takes at most queue_depth waiting commands; one more gets QUEUE FULL (-EBUSY), is
 *    not taken, and is taken once a command has been served;
 *  - the sim engine's host (comp_host.c, policy none) holds what the drive refuses and hands it
 *    over in arrival order, so a host queue deeper than the drive's changes nothing for an FCFS
 *    drive;
 *  - write-back keeps track of every flush in progress however many write segments the model
 *    allows: a write waits when all of them are dirty;
 *  - a request that arrives while the drive serves another, handed over only after the drive
 *    returned that one's completion, is served exactly as if the drive had known of it from the
 *    start (what lets one event loop drive several devices and open-loop arrivals).
 */
#include <errno.h>
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
#include "iolab/engine.h"
#include "iolab/prng.h"
#include "iolab/subsys.h"
#include "iolab/workload.h"

static void open_model(struct iolab_disk_model *m)
{
	struct iolab_err err;
	if (iolab_model_open("atlas10k", m, &err)) {
		print_error("iolab_model_open(atlas10k): %s\n", err.msg);
		fail();
	}
}

/* ---- QUEUE FULL ------------------------------------------------------------------------------ */

static void test_queue_full(void **state)
{
	(void)state;
	struct iolab_disk_model m;
	open_model(&m);
	m.queue_depth = 4;
	struct iolab_disk *d = iolab_disk_new(&m);
	assert_non_null(d);
	struct iolab_disk_req r[5];
	for (unsigned i = 0; i < 5; i++)
		r[i] = (struct iolab_disk_req){.lbn = 1000000 * (uint64_t)i, .blocks = 8};
	for (unsigned i = 0; i < 4; i++)
		assert_int_equal(iolab_disk_submit(d, &r[i]), 0);
	assert_int_equal(iolab_disk_submit(d, &r[4]), -EBUSY);
	assert_int_equal(iolab_disk_outstanding(d), 4);
	struct iolab_disk_req *got = iolab_disk_next(d);
	assert_non_null(got);
	assert_int_equal(iolab_disk_outstanding(d), 3);
	r[4].t_arrive = got->t_done; /* handed over again once a command has been served */
	assert_int_equal(iolab_disk_submit(d, &r[4]), 0);
	unsigned served = 1;
	while (iolab_disk_next(d))
		served++;
	assert_int_equal(served, 5);
	assert_int_equal(iolab_disk_stats(d)->reads, 5);
	iolab_disk_free(d);

	/* A drive without command queuing takes one command besides the one it serves. */
	m.queue_depth = 1;
	d = iolab_disk_new(&m);
	assert_non_null(d);
	assert_int_equal(iolab_disk_submit(d, &r[0]), 0);
	assert_int_equal(iolab_disk_submit(d, &r[1]), -EBUSY);
	iolab_disk_free(d);
	iolab_model_free(&m);
}

/* ---- the engine holds what the drive refuses -------------------------------------------------- */

#define EQD 16
#define EROUNDS 200

/* Completion times of EQD random 4 KiB reads all issued at time 0, then each completion replaced
 * by a new read, EROUNDS in all, through the sim engine with EQD slots; lbn[] gets the order in
 * which they completed. */
static void engine_run(const struct iolab_disk_model *m, uint64_t *t_done, uint64_t *lbn)
{
	const struct iolab_engine_ops *ops = &iolab_engine_sim;
	struct iolab_engine_params p = {.qd = EQD, .config = &(struct iolab_sim_engine_config){.model = m}};
	struct iolab_engine e = {.ops = ops};
	struct iolab_err err = {{0}};
	assert_int_equal(ops->init(&e, &p, &err), 0);
	struct iolab_prng rng;
	iolab_prng_seed(&rng, 5);
	struct iolab_io slot[EQD], *batch[EQD], *done[EQD];
	unsigned issued = 0, got = 0;
	for (unsigned s = 0; s < EQD; s++) {
		slot[s] = (struct iolab_io){.off = 4096 * iolab_prng_below(&rng, m->blocks / 8),
					    .len = 4096, .op = IOLAB_OP_READ, .slot = s};
		batch[s] = &slot[s];
	}
	assert_int_equal(ops->submit(&e, batch, EQD), EQD);
	issued = EQD;
	while (got < EROUNDS) {
		int n = ops->reap(&e, 1, done, 1);
		assert_int_equal(n, 1);
		assert_int_equal(done[0]->res, 4096);
		t_done[got] = ops->now(&e);
		lbn[got++] = done[0]->off / m->block_bytes;
		if (issued < EROUNDS) {
			done[0]->off = 4096 * iolab_prng_below(&rng, m->blocks / 8);
			done[0]->res = -1;
			assert_int_equal(ops->submit(&e, done, 1), 1);
			issued++;
		}
	}
	assert_int_equal(ops->reap(&e, 0, done, EQD), 0);
	ops->cleanup(&e);
}

static void test_engine_holds_refused(void **state)
{
	(void)state;
	struct iolab_disk_model m;
	open_model(&m);
	assert_int_equal(m.queue_depth, 1);
	assert_int_equal(m.sched, IOLAB_SCHED_FCFS);
	static uint64_t t1[EROUNDS], l1[EROUNDS], t16[EROUNDS], l16[EROUNDS];
	engine_run(&m, t1, l1);   /* the drive takes 1: the engine holds up to 15 */
	m.queue_depth = EQD;
	engine_run(&m, t16, l16); /* the drive takes them all */
	/* FCFS serves in arrival order whoever holds the waiting commands: same order, same times. */
	unsigned differ = 0;
	for (unsigned i = 0; i < EROUNDS; i++)
		differ += t1[i] != t16[i] || l1[i] != l16[i];
	print_message("queue_depth 1 vs %u, %u reads at host QD %u: %u completions differ; last at %.3f s\n",
		      EQD, EROUNDS, EQD, differ, t1[EROUNDS - 1] / 1e9);
	assert_int_equal(differ, 0);
	for (unsigned i = 1; i < EROUNDS; i++)
		assert_true(t1[i] >= t1[i - 1]);
	iolab_model_free(&m);
}

/* ---- write-back with many write segments ---------------------------------------------------- */

/* NWB random 4 KiB writes back to back at QD 1 with write-back and `segs` write segments:
 * each completes when its data is in the buffer (~1 ms: overhead + 8 transfers), while its
 * flush takes a seek and a rotation (~9 ms), so flushes pile up until every write segment is
 * dirty; from then on each write waits for one to drain. Returns the writes that waited. */
#define NWB 400
static uint64_t write_waits(unsigned segs)
{
	struct iolab_disk_model m;
	open_model(&m);
	assert_true(m.write_back);
	m.write_segments = segs;
	struct iolab_disk *d = iolab_disk_new(&m);
	assert_non_null(d);
	struct iolab_prng rng;
	iolab_prng_seed(&rng, 11);
	uint64_t now = 0;
	for (unsigned i = 0; i < NWB; i++) {
		struct iolab_disk_req r = {.lbn = 8 * iolab_prng_below(&rng, m.blocks / 8), .blocks = 8,
					   .write = true, .t_arrive = now};
		assert_int_equal(iolab_disk_submit(d, &r), 0);
		assert_ptr_equal(iolab_disk_next(d), &r);
		now = r.t_done;
	}
	uint64_t waits = iolab_disk_stats(d)->write_waits;
	iolab_disk_free(d);
	iolab_model_free(&m);
	return waits;
}

static void test_many_write_segments(void **state)
{
	(void)state;
	/* With 100 write segments the backlog grows by about 8 flushes per 9 ms (a write every
	 * ~1.1 ms): all 100 are dirty after ~115 writes, and most later writes wait. A drive that
	 * lost count of its flushes beyond some fixed number would never wait. */
	uint64_t w1 = write_waits(1), w100 = write_waits(100), w1024 = write_waits(1024);
	print_message("writes that waited for a flush, of %u: 1 segment %llu, 100 segments %llu, "
		      "1024 segments %llu\n", NWB, (unsigned long long)w1, (unsigned long long)w100,
		      (unsigned long long)w1024);
	assert_true(w1 > NWB / 2);
	assert_true(w100 > 0 && w100 < NWB - 100);
	assert_int_equal(w1024, 0); /* 400 writes never fill 1024 segments */
}

/* ---- arrivals during service ------------------------------------------------------------- */

#define LATE_N 2000

/* One random stream, gaps of 0..12 ms (so most arrive while the previous request is in service),
 * a quarter sequential, a third writes, 1..128 blocks. */
static void late_stream(const struct iolab_disk_model *m, struct iolab_disk_req *a)
{
	struct iolab_prng r;
	iolab_prng_seed(&r, 7);
	uint64_t t = 0;
	for (unsigned i = 0; i < LATE_N; i++) {
		t += iolab_prng_below(&r, 12000000);
		uint64_t lbn = i && !iolab_prng_below(&r, 4) ? a[i - 1].lbn + a[i - 1].blocks
							     : iolab_prng_below(&r, m->blocks - 256);
		a[i] = (struct iolab_disk_req){.lbn = lbn, .blocks = 1 + (uint32_t)iolab_prng_below(&r, 128),
					       .write = !iolab_prng_below(&r, 3), .t_arrive = t};
	}
}

/* Oracle: everything handed over up front (future arrivals); the drive only considers commands
 * that have arrived when it picks. Under test: as an event loop does it, each request handed
 * over when its arrival is the earliest pending event, while the drive's current completion
 * has already been returned (so the arrival is earlier than a returned completion). Every
 * completion time must be the same, for every scheduler. */
static void test_arrivals_during_service(void **state)
{
	(void)state;
	static struct iolab_disk_req a[LATE_N], b[LATE_N];
	static const char *const models[] = {"atlas10k", "barracuda", "cheetah4LP", "sas15k"};
	for (unsigned mi = 0; mi < 4; mi++)
		for (unsigned sched = 0; sched < 4; sched++) {
			struct iolab_disk_model m;
			struct iolab_err err;
			assert_int_equal(iolab_model_open(models[mi], &m, &err), 0);
			m.queue_depth = LATE_N;
			m.sched = sched;
			late_stream(&m, a);
			memcpy(b, a, sizeof(b));
			struct iolab_disk *db = iolab_disk_new(&m), *da = iolab_disk_new(&m);
			assert_non_null(db);
			assert_non_null(da);
			for (unsigned i = 0; i < LATE_N; i++)
				assert_int_equal(iolab_disk_submit(db, &b[i]), 0);
			for (unsigned i = 0; i < LATE_N; i++)
				assert_non_null(iolab_disk_next(db));
			unsigned next = 0, done = 0;
			struct iolab_disk_req *pending = NULL;
			while (done < LATE_N) {
				if (!pending && iolab_disk_outstanding(da))
					pending = iolab_disk_next(da);
				if (next < LATE_N && (!pending || a[next].t_arrive <= pending->t_done)) {
					assert_int_equal(iolab_disk_submit(da, &a[next++]), 0);
					continue;
				}
				pending = NULL;
				done++;
			}
			unsigned differ = 0;
			for (unsigned i = 0; i < LATE_N; i++)
				differ += a[i].t_done != b[i].t_done;
			if (differ)
				print_error("%s, scheduler %u: %u of %u completions differ\n", models[mi], sched,
					    differ, LATE_N);
			assert_int_equal(differ, 0);
			iolab_disk_free(da);
			iolab_disk_free(db);
			iolab_model_free(&m);
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_queue_full),
		cmocka_unit_test(test_engine_holds_refused),
		cmocka_unit_test(test_many_write_segments),
		cmocka_unit_test(test_arrivals_during_service),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
