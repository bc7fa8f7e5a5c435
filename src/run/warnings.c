/* warnings.c: the honest-results warnings of a finished point (buffered I/O and the page cache,
 * too few samples for a percentile, a queue depth not reached, a rate not kept, errors and
 * injected faults, loop devices through the page cache, runs too short to mean anything). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "iolab/clock.h"
#include "iolab/device_info.h"
#include "iolab/sim_system.h"
#include "point.h"
#include "verify_run.h"

/* v (0 < v < limit) with two significant digits (at least two decimals), and more where they
 * are needed to print it below limit: 0.999 s is not "1.00 s", and 0.0035 s is not "0.00 s". */
static const char *fmt_below(double v, double limit, char *buf, size_t n)
{
	int d = v > 0 ? (int)ceil(-log10(v)) + 1 : 2;
	for (d = d < 2 ? 2 : d > 9 ? 9 : d; d <= 9; d++) {
		snprintf(buf, n, "%.*f", d, v);
		if (strtod(buf, NULL) < limit)
			break;
	}
	return buf;
}

/* What happened to buffered I/O one way (op: IOLAB_OP_READ or IOLAB_OP_WRITE), from the
 * evidence: the bytes the device under the targets transferred that way while the point was
 * measured (sysfs), against the bytes the point asked for. Less than half: the page cache served
 * (or absorbed) most of it. Without device counters it cannot be told, and says so. */
static void warn_buffered(const struct run_env *env, int op, struct iolab_point *p)
{
	bool rd = op == IOLAB_OP_READ;
	const char *way = rd ? "reads" : "writes";
	uint64_t asked = p->dir[op].bytes;
	if (!asked)
		return;
	bool all_tmpfs = env->n > 0;
	for (unsigned t = 0; t < env->n; t++)
		all_tmpfs &= env->tgt[t].tmpfs;
	if (all_tmpfs) {
		iolab_point_warn(p, "buffered %s on tmpfs: memory %s them, there is no device "
				 "behind it", way, rd ? "served" : "took");
		return;
	}
	if (!p->has_disk) {
		uint64_t avail = iolab_mem_available();
		iolab_point_warn(p, "buffered %s: no device counters for %s, so how many the page cache "
				 "%s cannot be told%s", way, env->tgt[0].path, rd ? "served" : "absorbed",
				 rd && avail && env->working_set <= avail
					 ? " (the working set fits in available memory)" : "");
		return;
	}
	double pct = 100.0 * (double)(rd ? p->disk_read_bytes : p->disk_write_bytes) / (double)asked;
	int dec = pct < 9.95; /* 0.4 %, not 0 % */
	if (pct >= 99.5)
		iolab_point_warn(p, "buffered %s: all the bytes %s reached the device (sysfs)", way,
				 rd ? "read" : "written");
	else if (pct >= 50)
		iolab_point_warn(p, "buffered %s: %.0f %% of the bytes %s reached the device (sysfs); "
				 "the page cache %s the rest", way, pct, rd ? "read" : "written",
				 rd ? "served" : "held");
	else
		iolab_point_warn(p, "buffered %s: only %.*f %% of the bytes %s reached the device "
				 "(sysfs): the page cache %s most of them, so the figures are not the "
				 "device's", way, dec, pct, rd ? "read" : "written", rd ? "served" : "absorbed");
}

/* An asynchronous engine that completed most I/Os inside the call that submitted them (buffered
 * libaio, buffered io_uring on cached pages) kept no queue at the device whatever qd says, and
 * its latency is mostly finished I/Os waiting to be collected. Says so from the engine's count,
 * with the device's own mean queue where sysfs has it. (A synchronous engine gets the queue
 * depth warning instead.) */
static void warn_done_at_submit(const struct iolab_config *c, const struct run_env *env,
				const struct point_params *pp, struct iolab_point *p)
{
	if (env->no_io || (c->engine->flags & IOLAB_ENGINE_SYNC) || pp->qd < 2 || p->sub_seen < 100)
		return;
	double pct = 100.0 * (double)p->sub_done / (double)p->sub_seen;
	if (pct < 50)
		return;
	char dev[64] = "";
	if (p->has_disk)
		snprintf(dev, sizeof(dev), " (the device's own mean queue: %.2f)", p->disk_queue);
	iolab_point_warn(p, "%.0f %% of the I/Os were complete when %s's submit call returned: qd %u "
			 "was not a queue at the device%s; latency includes waiting to be collected",
			 pct, c->engine->name, pp->qd, dev);
}

/* An open loop that did not keep up with its rate: the device could not, or the cap on requests
 * in flight held them back (then they waited for a slot: their latency counts from their
 * intended arrival all the same). */
static void warn_load(const struct point_params *pp, struct iolab_point *p)
{
	if (pp->rate <= 0 || p->seconds <= 0 || p->iops.mean >= 0.95 * pp->rate)
		return;
	char cap[96] = "";
	if (p->inflight_max >= pp->qd * pp->workers)
		snprintf(cap, sizeof(cap), "; the cap of %u in flight (--qd) was reached", pp->qd * pp->workers);
	double late = p->delay_n ? p->delay_sum_ns / (double)p->delay_n : 0;
	iolab_point_warn(p, "target rate not reached: %.1f IOPS of %.6g (below 95 %%); requests were "
			 "issued %.3g %s late on average%s", p->iops.mean, pp->rate,
			 late >= 1e9 ? late / 1e9 : late / 1e6, late >= 1e9 ? "s" : "ms", cap);
}

/* A point's failures: their count by kind and the first ("12 I/O errors: 3 EIO (read), 9 short
 * writes; the first: a read of 4096 bytes at offset 8192: Input/output error (EIO)"), a point
 * given up on, and the faults --fault injected. */
static void warn_errors(struct iolab_point *p)
{
	const struct iolab_errors *e = &p->errors;
	uint64_t n = iolab_errors_count(e);
	if (n) {
		char kinds[IOLAB_WARN_LEN], first[IOLAB_WARN_LEN] = "";
		iolab_errors_describe(e, kinds, sizeof(kinds));
		if (e->has_first)
			iolab_error_describe(&e->first, first, sizeof(first));
		iolab_point_warn(p, "%" PRIu64 " I/O error%s: %s; the first: %s%s", n, n == 1 ? "" : "s",
				 kinds, first, e->has_first && e->first.err == ENOSPC
				 ? ", the device or file system is full" : "");
	}
	if (e->gave_up)
		iolab_point_warn(p, "every I/O failed for %.0f s (has the device gone?): the point "
				 "stopped there (--on-error continue)", IOLAB_GIVE_UP_NS / 1e9);
	if (p->has_faults) {
		char what[IOLAB_WARN_LEN] = "";
		size_t len = 0;
		for (unsigned k = 0; k < IOLAB_FAULT_KINDS && len < sizeof(what); k++)
			if (p->faults.kind[k])
				len += (size_t)snprintf(what + len, sizeof(what) - len, "%s%" PRIu64 " %s",
							len ? ", " : "", p->faults.kind[k],
							iolab_fault_kind_name(k));
		iolab_point_warn(p, "faults injected on purpose (--fault): %s", len ? what : "none struck");
	}
}

/* The honest-results warnings of a finished point. */
void point_add_warnings(const struct iolab_config *c, const struct run_env *env,
			const struct point_params *pp, struct iolab_point *p)
{
	uint64_t n = p->dir[0].ios + p->dir[1].ios;
	for (unsigned i = 0; env->desc && i < env->desc->nctl; i++) {
		const struct iolab_sub_controller *k = &env->desc->ctl[i];
		const char *why = iolab_ctl_warning(&k->p);
		if (why)
			iolab_point_warn(p, "%s: %s", k->name, why);
	}
	if (!env->no_io && !c->direct) {
		warn_buffered(env, IOLAB_OP_READ, p);
		warn_buffered(env, IOLAB_OP_WRITE, p);
	}
	static const struct {
		double need;
		const char *name;
	} pct[] = {{1e4, "p99"}, {1e5, "p99.9"}, {1e6, "p99.99"}};
	for (unsigned i = 0; i < 3; i++)
		if ((double)n < pct[i].need) {
			/* The table shows p99 only: the others go to the JSON and CSV, which have them. */
			(i ? iolab_point_warn_detail : iolab_point_warn)(
				p, "only %" PRIu64 " I/Os: %s and above rest on fewer than 100 samples (they "
				"need %.0f I/Os)", n, pct[i].name, pct[i].need);
			break;
		}
	warn_done_at_submit(c, env, pp, p);
	warn_load(pp, p);
	verify_warn(env->verify, p);
	if (p->trims)
		iolab_point_warn(p, "%" PRIu64 " trims besides the I/Os counted: a trim moves no data, "
				 "so IOPS, MB/s and latencies leave trims out (JSON trims)", p->trims);
	if (p->replay_skipped && c->replay && c->replay->trims)
		iolab_point_warn(p, "%" PRIu64 " of the trace's %" PRIu64 " records not replayed: "
				 "flushes and empty transfers (the simulated devices take reads, writes "
				 "and trims)", p->replay_skipped, p->replay_records);
	else if (p->replay_skipped)
		iolab_point_warn(p, "%" PRIu64 " of the trace's %" PRIu64 " records not replayed: trims, "
				 "flushes and empty transfers (the engines issue reads and writes)",
				 p->replay_skipped, p->replay_records);
	/* fewer in flight than slots, by design */
	bool paced = pp->clients || pp->rate > 0 || pp->timed;
	unsigned want_qd = pp->qd * pp->workers;
	if (!paced && p->device_depth && want_qd > p->device_depth) /* said once, under the table */
		iolab_point_warn_detail(p, "%s accepts %u command%s at a time: of the %u I/Os in "
					"flight, %u waited in the host queue",
					p->model ? p->model : c->engine->name, p->device_depth,
					p->device_depth == 1 ? "" : "s", want_qd, want_qd - p->device_depth);
	uint64_t errs = p->dir[0].errors + p->dir[1].errors;
	if (!paced && !env->no_io && p->seconds > 0 && !p->partial && !errs) {
		double want = (double)pp->qd * pp->workers;
		double mean_qd = p->qd_reached;
		if (mean_qd < 0.9 * want) {
			if (c->engine->flags & IOLAB_ENGINE_SYNC && pp->qd > 1)
				iolab_point_warn(p, "queue depth %.1f reached of %.0f requested: %s is "
						 "synchronous (one I/O per worker); use io_uring or libaio",
						 mean_qd, want, c->engine->name);
			else
				iolab_point_warn(p, "queue depth %.1f reached of %.0f requested", mean_qd, want);
		}
	}
	for (unsigned t = 0; t < env->n && !env->no_io && c->direct; t++) {
		struct iolab_device_info d;
		if (env->tgt[t].tmpfs)
			iolab_point_warn(p, "%s is on tmpfs: O_DIRECT does not bypass memory there",
					 env->tgt[t].path);
		else if (env->tgt[t].blockdev && iolab_device_info(env->tgt[t].path, &d) && !d.loop_dio)
			iolab_point_warn(p, "%s is a loop device reading %s through the page cache "
					 "(loop/dio = 0): memory serves what it cached, not the disk "
					 "(losetup --direct-io=on)", env->tgt[t].path, d.backing);
	}
	warn_errors(p);
	/* A partial point (interrupted, stopped by an error) is as unstable when short as any. */
	char secs[32];
	if (p->seconds > 0 && p->seconds / p->reps < 1.0)
		iolab_point_warn(p, "measured for only %s s per run%s: too short to be a stable figure",
				 fmt_below(p->seconds / p->reps, 1.0, secs, sizeof(secs)),
				 p->partial ? " (stopped early)" : "");
}
