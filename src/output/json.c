/* json.c: the JSON report (built with jansson). The schema is documented in
 * docs/json-schema.md; change both together. */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iolab/device_info.h"
#include "iolab/flash_report.h"
#include "iolab/host_queue.h"
#include "iolab/utf8.h"
#include "output_common.h"

json_t *iolab_json_text(const char *s)
{
	if (!s)
		return json_null();
	if (iolab_utf8_clean(s))
		return json_string(s);
	char *e = iolab_utf8_escape_dup(s);
	json_t *j = e ? json_string(e) : NULL;
	free(e);
	return j;
}

static json_t *lat_obj(const struct iolab_hist *h)
{
	json_t *o = json_object();
	json_object_set_new(o, "min", json_real(h->count ? (double)h->min / 1e3 : 0));
	json_object_set_new(o, "mean", json_real(iolab_hist_mean(h) / 1e3));
	json_object_set_new(o, "max", json_real((double)(h->count ? h->max : 0) / 1e3));
	json_object_set_new(o, "stddev", json_real(iolab_hist_stddev(h) / 1e3));
	for (unsigned i = 0; i < IOLAB_NPCT; i++)
		json_object_set_new(o, iolab_pct_key[i], json_real(iolab_hist_percentile(h, iolab_pct_value[i]) / 1e3));
	return o;
}

/* The histogram's non-empty buckets: [[low_ns, high_ns, count], ...] (include/iolab/histogram.h). */
static json_t *hist_obj(const struct iolab_hist *h)
{
	json_t *a = json_array();
	for (unsigned i = 0; h->count && i < IOLAB_HIST_BUCKETS; i++)
		if (h->bucket[i]) {
			uint64_t low = iolab_hist_bucket_low(i);
			json_array_append_new(a, json_pack("[I,I,I]", (json_int_t)low,
							   (json_int_t)(low + iolab_hist_bucket_width(i)),
							   (json_int_t)h->bucket[i]));
		}
	return a;
}

static json_t *dir_obj(const struct iolab_point *p, const struct iolab_dir_result *d)
{
	json_t *o = json_object();
	json_object_set_new(o, "ios", json_integer((json_int_t)d->ios));
	json_object_set_new(o, "bytes", json_integer((json_int_t)d->bytes));
	json_object_set_new(o, "iops", json_real(dir_rate(p, d->ios)));
	json_object_set_new(o, "mb_per_s", json_real(dir_rate(p, d->bytes) / 1e6));
	json_object_set_new(o, "errors", json_integer((json_int_t)d->errors));
	json_object_set_new(o, "lat_us", lat_obj(&d->lat));
	return o;
}

static json_t *spread_obj(const struct iolab_spread *s)
{
	return json_pack("{s:f,s:f,s:f,s:f,s:f}", "mean", s->mean, "stddev", s->stddev, "min", s->min,
			 "max", s->max, "ci95", s->ci95);
}

/* A volume's rebuild, or null. */
static json_t *rebuild_obj(const struct iolab_rebuild_report *r)
{
	if (!r)
		return json_null();
	json_t *drives = json_array();
	for (int i = 0; i < 2; i++)
		if (r->drive[i] >= 0)
			json_array_append_new(drives, json_integer(r->drive[i] + 1));
	return json_pack("{s:o,s:I,s:I,s:I,s:b,s:o}", "drives", drives, "rate_bytes_s",
			 (json_int_t)r->rate_bytes_s, "done_bytes", (json_int_t)r->done_bytes,
			 "total_bytes", (json_int_t)r->total_bytes, "finished", r->ns >= 0, "seconds",
			 r->ns >= 0 ? json_real(r->ns / 1e9) : json_null());
}

/* v, or null when it is negative (a ratio with nothing to divide: flash_report.h). */
static json_t *ratio_or_null(double v)
{
	return v < 0 ? json_null() : json_real(v);
}

/* A flash device's (or flash die's) counts and what they make. */
static json_t *flash_obj(const struct iolab_flash_report *f)
{
	json_t *o = json_pack("{s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:f,s:f,s:I,s:I,s:f,s:I}",
		"host_pages_written", (json_int_t)f->host_pages_written, "host_pages_read",
		(json_int_t)f->host_pages_read, "flash_reads", (json_int_t)f->flash_reads,
		"flash_programs", (json_int_t)f->flash_programs, "erases", (json_int_t)f->erases,
		"gc_pages", (json_int_t)f->gc_pages, "map_reads", (json_int_t)f->map_reads,
		"flash_ns", f->flash_ns, "gc_ns", f->gc_ns, "erase_min", (json_int_t)f->erase_min,
		"erase_max", (json_int_t)f->erase_max, "erase_mean", f->erase_mean, "free_min",
		(json_int_t)f->free_min);
	json_object_set_new(o, "trimmed_pages", json_integer((json_int_t)f->trimmed_pages));
	json_object_set_new(o, "write_amplification", ratio_or_null(iolab_flash_wa(f)));
	json_object_set_new(o, "gc_share", ratio_or_null(iolab_flash_gc_share(f)));
	return o;
}

/* A point's load model: clients and their think time, or an open loop's target rate and
 * arrivals; how late requests were issued and the most in flight. */
static void load_fields(json_t *o, const struct iolab_point *p)
{
	bool open = p->target_iops > 0;
	json_object_set_new(o, "clients", p->clients ? json_integer(p->clients) : json_null());
	json_object_set_new(o, "think_s", p->clients ? json_real((double)p->think_ns / 1e9) : json_null());
	json_object_set_new(o, "think_dist", p->clients ? json_string(p->think_exp ? "exp" : "fixed")
							 : json_null());
	json_object_set_new(o, "target_iops", open ? json_real(p->target_iops) : json_null());
	json_object_set_new(o, "arrivals", open ? json_string(p->poisson ? "poisson" : "fixed") : json_null());
	json_object_set_new(o, "issue_delay_us", !p->delay_n ? json_null()
			    : json_pack("{s:f,s:f}", "mean", p->delay_sum_ns / (double)p->delay_n / 1e3,
					"max", p->delay_max_ns / 1e3));
	json_object_set_new(o, "inflight_max", json_integer(p->inflight_max));
}

/* A replay's mode and, timed, how late requests left and their latency from the actual issue
 * (lat_us runs from the intended time); null for a run. */
static json_t *replay_obj(const struct iolab_point *p)
{
	if (!p->replay)
		return json_null();
	json_t *o = json_pack("{s:s,s:I,s:I}", "mode", p->replay_timed ? "timed" : "closed", "records",
			      (json_int_t)p->replay_records, "skipped", (json_int_t)p->replay_skipped);
	bool t = p->replay_timed && p->issue_err.count;
	json_object_set_new(o, "issue_error_us", !t ? json_null()
			    : json_pack("{s:f,s:f,s:f}", "p50", iolab_hist_percentile(&p->issue_err, 50) / 1e3,
					"p99", iolab_hist_percentile(&p->issue_err, 99) / 1e3,
					"max", (double)p->issue_err.max / 1e3));
	json_object_set_new(o, "lat_issued_us", !t ? json_null() : lat_obj(&p->lat_issued));
	return o;
}

/* Under MPI, each rank's share of the point (docs/scale-out.md); null for one process. */
static json_t *ranks_arr(const struct iolab_point *p)
{
	if (!p->nranks)
		return json_null();
	json_t *a = json_array();
	for (unsigned i = 0; i < p->nranks; i++) {
		const struct iolab_rank_result *r = &p->ranks[i];
		json_array_append_new(a, json_pack("{s:i,s:o,s:f,s:f,s:I,s:I,s:f,s:o,s:o,s:f,s:f}",
			"rank", r->rank, "host", iolab_json_text(r->host), "iops", r->iops, "mb_per_s", r->mbps, "ios",
			(json_int_t)r->ios, "bytes", (json_int_t)r->bytes, "seconds", r->seconds,
			"lat_us", lat_obj(&r->lat), "lat_hist", hist_obj(&r->lat), "clock_offset_us",
			r->clock_offset_ns / 1e3, "clock_error_us", r->clock_error_ns / 1e3));
	}
	return a;
}

/* Each worker's share of the point: its pattern, queue and figures over its own measured time. */
static json_t *workers_arr(const struct iolab_point *p)
{
	json_t *a = json_array();
	for (unsigned i = 0; i < p->nwres; i++) {
		const struct iolab_worker_result *r = &p->wres[i];
		double s = r->seconds > 0 ? r->seconds : 0;
		json_array_append_new(a, json_pack("{s:i,s:o,s:o,s:i,s:I,s:I,s:f,s:f,s:f,s:o}",
			"worker", i + 1, "name", *r->name ? iolab_json_text(r->name) : json_null(),
			"pattern", iolab_json_text(r->pattern), "qd", r->qd, "ios", (json_int_t)r->ios,
			"bytes", (json_int_t)r->bytes, "seconds", s,
			"iops", s > 0 ? (double)r->ios / s : 0.0,
			"mb_per_s", s > 0 ? (double)r->bytes / s / 1e6 : 0.0, "lat_us", lat_obj(&r->lat)));
	}
	return a;
}

/* A point's failures: their count, by kind (every key, 0 where none), the first, whether the
 * point was given up on. */
static json_t *errors_obj(const struct iolab_point *p)
{
	const struct iolab_errors *e = &p->errors;
	json_t *kinds = json_object();
	for (unsigned op = 0; op < 2; op++)
		for (unsigned k = 0; k < IOLAB_ERR_KINDS; k++)
			json_object_set_new(kinds, iolab_error_key(op, k), json_integer((json_int_t)e->by_kind[op][k]));
	json_object_set_new(kinds, "engine", json_integer((json_int_t)e->engine));
	json_t *first = json_null();
	if (e->has_first) {
		const struct iolab_io_error *f = &e->first;
		bool io = f->op != IOLAB_ERR_NO_OP;
		first = json_pack("{s:o,s:o,s:o,s:o,s:o,s:s}",
			"op", io ? json_string(f->op ? "write" : "read") : json_null(),
			"offset", io ? json_integer((json_int_t)f->off) : json_null(),
			"len", io ? json_integer(f->len) : json_null(),
			"transferred", io && !f->err ? json_integer(f->done) : json_null(),
			"errno", f->err ? json_integer(f->err) : json_null(),
			"kind", io ? iolab_error_key(f->op, f->kind) : "engine");
	}
	return json_pack("{s:I,s:o,s:o,s:b}", "count", (json_int_t)iolab_errors_count(e), "by_kind",
			 kinds, "first", first, "gave_up", e->gave_up);
}

/* What --fault injected into a point, by kind; null without --fault. */
static json_t *faults_obj(const struct iolab_point *p)
{
	if (!p->has_faults)
		return json_null();
	json_t *kinds = json_object();
	for (unsigned k = 0; k < IOLAB_FAULT_KINDS; k++)
		json_object_set_new(kinds, iolab_fault_kind_name(k), json_integer((json_int_t)p->faults.kind[k]));
	return json_pack("{s:I,s:o}", "count", (json_int_t)iolab_fault_counts_total(&p->faults),
			 "by_kind", kinds);
}

/* A 64-bit value that JSON numbers would round: "0x..." */
static json_t *hex64(uint64_t v)
{
	char b[24];
	snprintf(b, sizeof(b), "0x%016llx", (unsigned long long)v);
	return json_string(b);
}

/* A verify block header (verify.h); a field not known (0 in an expected header) is null. A
 * block found without the magic has no header: its first 8 bytes alone. */
static json_t *vhdr_obj(const struct iolab_verify_hdr *h, bool expected)
{
	json_t *o = json_object();
	json_object_set_new(o, "magic", hex64(h->magic));
	if (!expected && h->magic != IOLAB_VERIFY_MAGIC)
		return o;
	json_object_set_new(o, "offset", json_integer((json_int_t)h->offset));
	json_object_set_new(o, "run_id", expected && !h->run_id ? json_null() : hex64(h->run_id));
	json_object_set_new(o, "gen", expected && !h->gen ? json_null() : json_integer((json_int_t)h->gen));
	json_object_set_new(o, "io_offset", expected ? json_null() : json_integer((json_int_t)h->io_offset));
	json_object_set_new(o, "io_len", expected ? json_null() : json_integer(h->io_len));
	json_object_set_new(o, "len", json_integer(h->len));
	json_object_set_new(o, "algo", h->algo ? json_string(iolab_verify_algo_name(h->algo)) : json_null());
	json_object_set_new(o, "checksum", expected && !h->algo ? json_null() : hex64(h->checksum));
	return o;
}

/* --verify, --verify-only: what the point checked and the first mismatches; null otherwise. */
static json_t *verify_obj(const struct iolab_verify_result *v)
{
	if (!v->algo && !v->only)
		return json_null();
	json_t *kept = json_array();
	for (unsigned i = 0; i < v->nkept; i++) {
		const struct iolab_verify_mismatch *m = &v->kept[i];
		json_array_append_new(kept, json_pack("{s:i,s:I,s:s,s:o,s:o}", "target", m->target + 1,
						      "offset", (json_int_t)m->expected.offset, "why",
						      iolab_verify_why_name(m->why), "expected",
						      vhdr_obj(&m->expected, true), "found",
						      vhdr_obj(&m->found, false)));
	}
	return json_pack("{s:o,s:b,s:o,s:I,s:I,s:I,s:I,s:I,s:o}", "algo",
			 v->algo ? json_string(iolab_verify_algo_name(v->algo)) : json_null(), "only",
			 v->only, "run_id", v->run_id && (v->algo || v->only) ? hex64(v->run_id) : json_null(),
			 "blocks_written", (json_int_t)v->written, "blocks_checked", (json_int_t)v->checked,
			 "blocks_checked_partial", (json_int_t)v->checked_partial, "blocks_skipped",
			 (json_int_t)v->skipped, "mismatches", (json_int_t)v->mismatches,
			 "first_mismatches", kept);
}

/* The phases of the breakdown as the engine named them, in its order, then the cache hits. */
static json_t *breakdown_obj(const struct iolab_point *p)
{
	struct breakdown_means m;
	if (!breakdown_means(p, &m))
		return json_null();
	json_t *o = json_object();
	for (unsigned i = 0; i < m.bd->nphase; i++)
		json_object_set_new(o, m.bd->phase[i], json_real(m.us[i]));
	json_object_set_new(o, "read_hit_pct", json_real(m.hit_pct));
	json_object_set_new(o, "read_partial_hit_pct", json_real(m.partial_hit_pct));
	return o;
}

/* The trace a replay point replayed (points[].trace): its file's base name, the path as given,
 * the hash of its bytes and its record count; null for any other point. */
static json_t *trace_obj(const struct iolab_point *p)
{
	if (!p->trace_path)
		return json_null();
	const char *base = strrchr(p->trace_path, '/');
	json_t *o = json_object();
	json_object_set_new(o, "name", iolab_json_text(base ? base + 1 : p->trace_path));
	json_object_set_new(o, "path", iolab_json_text(p->trace_path));
	json_object_set_new(o, "hash", json_string(p->trace_hash));
	json_object_set_new(o, "records", json_integer((json_int_t)p->replay_records));
	return o;
}

static json_t *point_obj(const struct iolab_point *p)
{
	struct iolab_dir_result *all = malloc(sizeof(*all));
	if (!all)
		return NULL;
	point_all(p, all);
	json_t *o = json_object();
	if (p->run && *p->run)
		json_object_set_new(o, "run", iolab_json_text(p->run));
	json_object_set_new(o, "pattern", iolab_json_text(p->pattern));
	json_object_set_new(o, "qd", json_integer(p->qd));
	load_fields(o, p);
	json_object_set_new(o, "replay", replay_obj(p));
	json_object_set_new(o, "trace", trace_obj(p));
	json_object_set_new(o, "capacity_bytes", p->capacity_bytes
			    ? json_integer((json_int_t)p->capacity_bytes) : json_null());
	json_object_set_new(o, "bs", p->bs ? json_integer((json_int_t)p->bs) : json_null());
	json_object_set_new(o, "read_pct", json_integer(p->read_pct));
	json_object_set_new(o, "worker_count", json_integer(p->workers));
	json_object_set_new(o, "engine", json_string(p->engine));
	json_object_set_new(o, "model", iolab_json_text(p->model));
	json_object_set_new(o, "host_scheduler", p->host_sched >= 0
			    ? json_string(iolab_host_sched_name((enum iolab_host_sched)p->host_sched))
			    : json_null());
	json_object_set_new(o, "volume", p->array_drives
			    ? json_pack("{s:s,s:i,s:I}", "level", iolab_raid_name(p->array_level), "drives",
					p->array_drives,
					"stripe", (json_int_t)p->stripe)
			    : json_null());
	json_object_set_new(o, "cache_bytes", p->cache ? json_integer((json_int_t)p->cache) : json_null());
	json_object_set_new(o, "write_policy", p->write_policy >= 0
			    ? json_string(iolab_write_policy_name((unsigned)p->write_policy)) : json_null());
	if (p->nsettings) { /* only a run that sweeps the path's settings has them */
		json_t *set = json_object();
		for (unsigned s = 0; s < p->nsettings; s++)
			json_object_set_new(set, p->settings[s].name, iolab_json_text(p->settings[s].value));
		json_object_set_new(o, "settings", set);
	}
	json_object_set_new(o, "direct", json_boolean(p->direct));
	json_object_set_new(o, "iops", json_real(p->iops.mean));
	json_object_set_new(o, "mb_per_s", json_real(p->mbps.mean));
	json_object_set_new(o, "ios", json_integer((json_int_t)all->ios));
	json_object_set_new(o, "bytes", json_integer((json_int_t)all->bytes));
	json_object_set_new(o, "seconds", json_real(p->seconds));
	json_object_set_new(o, "lat_us", lat_obj(&all->lat));
	json_object_set_new(o, "lat_hist", json_pack("{s:o,s:o}", "read", hist_obj(&p->dir[0].lat),
						      "write", hist_obj(&p->dir[1].lat)));
	json_object_set_new(o, "ranks", ranks_arr(p));
	json_object_set_new(o, "workers", workers_arr(p));
	json_object_set_new(o, "read", dir_obj(p, &p->dir[0]));
	json_object_set_new(o, "write", dir_obj(p, &p->dir[1]));
	if (p->trims) /* a simulated load that trims (trimwrite, a replayed trace's trims) */
		json_object_set_new(o, "trims", json_integer((json_int_t)p->trims));
	json_object_set_new(o, "cpu", json_pack("{s:f,s:f}", "user_pct", p->cpu_user_pct, "sys_pct",
						 p->cpu_sys_pct));
	json_object_set_new(o, "qd_reached", json_real(p->qd_reached));
	json_object_set_new(o, "done_at_submit_pct",
			    p->sub_seen ? json_real(100.0 * (double)p->sub_done / (double)p->sub_seen)
					: json_null());
	json_object_set_new(o, "device_depth",
			    p->device_depth ? json_integer(p->device_depth) : json_null());
	json_object_set_new(o, "device",
			    p->has_disk ? json_pack("{s:f,s:I,s:f,s:I,s:I,s:I,s:I}", "util_pct",
						    p->disk_util_pct, "ios", (json_int_t)p->disk_ios,
						    "queue", p->disk_queue, "read_ios",
						    (json_int_t)p->disk_reads, "write_ios",
						    (json_int_t)p->disk_writes, "read_bytes",
						    (json_int_t)p->disk_read_bytes, "write_bytes",
						    (json_int_t)p->disk_write_bytes)
					: json_null());
	json_t *si = json_array(), *sb = json_array();
	for (unsigned s = 0; s < p->nsec; s++) {
		json_array_append_new(si, json_integer((json_int_t)p->sec_ios[s]));
		json_array_append_new(sb, json_real((double)p->sec_bytes[s] / 1e6));
	}
	json_object_set_new(o, "per_second", json_pack("{s:o,s:o}", "iops", si, "mb_per_s", sb));
	json_object_set_new(o, "repeat", json_pack("{s:i,s:o,s:o}", "runs", p->reps, "iops",
						   spread_obj(&p->iops), "mb_per_s", spread_obj(&p->mbps)));
	json_t *ss = json_null();
	if (p->steady.metric) {
		json_t *win = json_array();
		for (unsigned k = 0; k < p->steady.nwindow; k++)
			json_array_append_new(win, json_real(p->steady.window[k]));
		ss = json_pack("{s:s,s:i,s:b,s:o}", "metric", iolab_ss_metric_name(p->steady.metric),
			       "rounds", p->steady.rounds, "reached", p->steady.reached, "window", win);
	}
	json_object_set_new(o, "steady_state", ss);
	json_object_set_new(o, "breakdown_us", breakdown_obj(p));
	json_t *comps = json_array();
	for (unsigned i = 0; i < p->ncomp; i++) {
		struct comp_figures f;
		comp_figures(&p->comp[i], &f);
		const struct iolab_comp_report *c = &p->comp[i];
		json_t *o = json_pack("{s:o,s:s,s:f,s:I,s:I,s:f,s:o,s:f}", "name", iolab_json_text(c->name),
			"kind", c->kind, "utilization", f.utilization, "ios", (json_int_t)c->ios, "bytes",
			(json_int_t)c->bytes, "mean_queue", f.mean_queue, "rated_mb_s",
			c->rated_mb_s > 0 ? json_real(c->rated_mb_s) : json_null(), "achieved_mb_s",
			f.achieved_mb_s);
		if (!strcmp(c->kind, "controller"))
			json_object_set_new(o, "cache_hits", json_integer((json_int_t)c->hits));
		if (c->flash_given)
			json_object_set_new(o, "flash", flash_obj(&c->flash));
		json_array_append_new(comps, o);
	}
	json_object_set_new(o, "components", comps);
	struct iolab_flash_report flash; /* the point's flash devices together */
	if (iolab_flash_total(p->comp, p->ncomp, &flash)) {
		json_object_set_new(o, "write_amplification", ratio_or_null(iolab_flash_wa(&flash)));
		json_object_set_new(o, "gc_share", ratio_or_null(iolab_flash_gc_share(&flash)));
	}
	const struct iolab_comp_report *b = bottleneck(p), *top = busiest(p);
	json_object_set_new(o, "bottleneck", iolab_json_text(b ? b->name : NULL));
	json_object_set_new(o, "busiest", iolab_json_text(top ? top->name : NULL));
	json_object_set_new(o, "limited_by", !top ? json_null() : json_string(b ? "part" : "load"));
	json_object_set_new(o, "rebuild", rebuild_obj(point_rebuild(p)));
	json_object_set_new(o, "verify", verify_obj(&p->verify));
	json_object_set_new(o, "partial", json_boolean(p->partial));
	json_object_set_new(o, "errors", errors_obj(p));
	json_object_set_new(o, "faults_injected", faults_obj(p));
	json_t *w = json_array();
	for (unsigned i = 0; i < p->nwarn; i++)
		json_array_append_new(w, iolab_json_text(p->warn[i]));
	json_object_set_new(o, "warnings", w);
	free(all);
	return o;
}

static json_t *spec_obj(const struct iolab_spec *s)
{
	json_t *lines = json_array();
	for (unsigned i = 0; i < s->nlines; i++) {
		const struct iolab_spec_line *l = &s->line[i];
		json_array_append_new(lines, json_pack("{s:I,s:i,s:i,s:i,s:I}", "size", (json_int_t)l->size,
						       "share_pct", l->share, "read_pct", l->read_pct,
						       "random_pct", l->random_pct, "align",
						       (json_int_t)(l->align ? l->align : l->size)));
	}
	return json_pack("{s:o,s:b,s:o}", "name", iolab_json_text(s->name), "copy", s->copy, "lines",
			 lines);
}

static json_t *uint_list(const unsigned *v, unsigned n)
{
	json_t *a = json_array();
	for (unsigned i = 0; i < n; i++)
		json_array_append_new(a, json_integer(v[i]));
	return a;
}

static json_t *link_obj(const struct iolab_link_type *t)
{
	return json_pack("{s:o,s:f,s:f,s:f}", "type", iolab_json_text(t->name), "rated_mb_s",
			 t->rated_mb_s, "efficiency", t->efficiency, "overhead_us",
			 (double)t->overhead_ns / 1e3);
}

/* The simulated path's parts the command line set (a subsystem file: its name). */
static json_t *path_obj(const struct iolab_config *c)
{
	if (!(c->engine->flags & IOLAB_ENGINE_VIRTUAL))
		return json_null();
	json_t *cache = json_array(), *wp = json_array();
	for (unsigned i = 0; i < c->sim.ncache; i++)
		json_array_append_new(cache, json_integer((json_int_t)c->sim.cache[i]));
	for (unsigned i = 0; i < c->sim.nwp; i++)
		json_array_append_new(wp, json_string(iolab_write_policy_name(c->sim.write_policy[i])));
	return json_pack("{s:o,s:o,s:i,s:o,s:i,s:{s:f,s:o,s:o,s:b,s:s},s:o}",
		"config", iolab_json_text(c->sim.subsys ? c->model_name : NULL),
		"channel", c->sim.has_channel ? link_obj(&c->sim.channel) : json_null(),
		"channels", c->sim.channels,
		"bus", c->sim.has_bus ? link_obj(&c->sim.bus) : json_null(),
		"controllers", c->sim.controllers,
		"controller", "overhead_us", (double)c->sim.ctl.overhead_ns / 1e3, "cache_bytes", cache,
		"write_policy", wp, "battery", c->sim.ctl.battery, "read_ahead",
		iolab_read_ahead_name(c->sim.ctl.read_ahead),
		"drive_cache", c->sim.drive_cache < 0 ? json_null() : json_boolean(c->sim.drive_cache));
}

static json_t *config_obj(const struct iolab_config *c)
{
	json_t *o = json_object();
	if (*c->name)
		json_object_set_new(o, "name", iolab_json_text(c->name));
	json_t *t = json_array();
	for (unsigned i = 0; i < c->ntargets; i++)
		json_array_append_new(t, iolab_json_text(c->target[i]));
	json_object_set_new(o, "targets", t);
	json_object_set_new(o, "size", json_integer((json_int_t)c->size));
	json_object_set_new(o, "offset", json_integer((json_int_t)c->offset));
	json_object_set_new(o, "length", json_integer((json_int_t)c->length));
	json_object_set_new(o, "stroke_pct", json_integer(c->stroke_pct));
	json_t *pats = json_array();
	for (unsigned i = 0; i < c->npattern; i++)
		json_array_append_new(pats, spec_obj(&c->pattern[i]));
	if (!c->npattern)
		json_array_append_new(pats, spec_obj(iolab_pattern_find("rand-read")));
	json_object_set_new(o, "patterns", pats);
	json_t *bs = json_array();
	for (unsigned i = 0; i < c->nbs; i++)
		json_array_append_new(bs, json_integer((json_int_t)c->bs[i]));
	json_object_set_new(o, "bs", bs);
	static const unsigned one = 1, rate_qd = IOLAB_RATE_QD;
	json_object_set_new(o, "qd", c->nqd ? uint_list(c->qd, c->nqd) : c->nclients ? json_array()
				     : uint_list(c->nrate ? &rate_qd : &one, 1));
	json_object_set_new(o, "clients", uint_list(c->clients, c->nclients));
	json_object_set_new(o, "think_s", c->nclients ? json_real((double)c->think_ns / 1e9) : json_null());
	json_object_set_new(o, "think_dist", c->nclients ? json_string(c->think_exp ? "exp" : "fixed")
							 : json_null());
	json_t *rates = json_array();
	for (unsigned i = 0; i < c->nrate; i++)
		json_array_append_new(rates, json_real(c->rate[i]));
	json_object_set_new(o, "rate", rates);
	json_object_set_new(o, "arrivals", c->nrate ? json_string(c->poisson ? "poisson" : "fixed")
						     : json_null());
	json_object_set_new(o, "read_pct", uint_list(c->read, c->nread));
	json_object_set_new(o, "workers", c->nworkers ? uint_list(c->workers, c->nworkers) : uint_list(&one, 1));
	json_object_set_new(o, "worker_region", json_string(iolab_worker_region_name(c->worker_region)));
	json_object_set_new(o, "engine", json_string(c->engine->name));
	json_object_set_new(o, "model", iolab_json_text(c->model_name));
	json_t *hs = json_array();
	for (unsigned i = 0; i < c->sim.nhost; i++)
		json_array_append_new(hs, json_string(iolab_host_sched_name(
					      (enum iolab_host_sched)c->sim.host_sched[i])));
	if (!c->sim.nhost && (c->engine->flags & IOLAB_ENGINE_VIRTUAL))
		json_array_append_new(hs, json_string(iolab_host_sched_name(IOLAB_HOST_NONE)));
	json_object_set_new(o, "host_scheduler", hs);
	json_object_set_new(o, "host_overhead_s", json_real((double)c->sim.host_overhead_ns / 1e9));
	if (c->sim.array_level) {
		json_t *st = json_array();
		for (unsigned i = 0; i < c->sim.nstripe; i++)
			json_array_append_new(st, json_integer((json_int_t)c->sim.stripe[i]));
		if (!c->sim.nstripe)
			json_array_append_new(st, json_integer(65536));
		json_object_set_new(o, "array", json_pack("{s:s,s:o,s:o}", "level",
							  iolab_raid_name(c->sim.array_level), "drives",
							  uint_list(c->sim.array_drives, c->sim.narray), "stripe", st));
	} else {
		json_object_set_new(o, "array", json_null());
	}
	json_object_set_new(o, "path", path_obj(c));
	if (c->sim.nsweep) { /* only a run that sweeps the path's settings has them */
		json_t *set = json_array();
		for (unsigned i = 0; i < c->sim.nsweep; i++) {
			const struct iolab_sim_sweep *w = &c->sim.sweep[i];
			json_t *v = json_array();
			for (unsigned k = 0; k < w->n; k++)
				json_array_append_new(v, iolab_json_text(w->value[k]));
			json_array_append_new(set, json_pack("{s:o,s:o}", "name", iolab_json_text(w->name),
							     "values", v));
		}
		json_object_set_new(o, "settings", set);
	}
	/* As the points say: an engine that does no I/O (null, a simulated drive) is not direct. */
	bool no_io = c->engine->flags & (IOLAB_ENGINE_NO_IO | IOLAB_ENGINE_VIRTUAL);
	json_object_set_new(o, "direct", json_boolean(c->direct && !no_io));
	json_object_set_new(o, "invalidate", json_boolean(iolab_config_invalidates(c)));
	json_object_set_new(o, "ramp_s", json_real((double)c->ramp_ns / 1e9));
	json_object_set_new(o, "time_s", c->time_ns ? json_real((double)c->time_ns / 1e9) : json_null());
	json_object_set_new(o, "bytes", c->bytes ? json_integer((json_int_t)c->bytes) : json_null());
	json_object_set_new(o, "seed", json_integer((json_int_t)c->seed));
	char d[64];
	json_object_set_new(o, "dist", json_string(iolab_dist_name(&c->dist, d, sizeof(d))));
	json_object_set_new(o, "repeat", json_integer(c->repeat));
	json_object_set_new(o, "precondition", json_boolean(c->precondition));
	json_object_set_new(o, "steady_state", c->steady ? json_string(iolab_ss_metric_name(c->steady))
							 : json_null());
	if (c->engine->flags & IOLAB_ENGINE_VIRTUAL) /* does the simulated state carry over runs */
		json_object_set_new(o, "fresh_state", json_boolean(c->fresh_state));
	json_object_set_new(o, "on_error", json_string(c->on_error_continue ? "continue" : "stop"));
	json_t *faults = json_array();
	for (unsigned i = 0; i < c->faults.n; i++)
		json_array_append_new(faults, json_string(c->faults.rule[i].text));
	json_object_set_new(o, "faults", faults);
	json_object_set_new(o, "verify", c->verify ? json_string(iolab_verify_algo_name(c->verify))
						   : json_null());
	json_object_set_new(o, "verify_only", json_boolean(c->verify_only));
	json_object_set_new(o, "verify_journal", *c->verify_journal ? json_string(c->verify_journal)
								    : json_null());
	char bp[32];
	snprintf(bp, sizeof(bp), c->buffer_pattern == IOLAB_BUF_COMPRESSIBLE ? "%s:%u" : "%s",
		 iolab_buffer_pattern_name(c->buffer_pattern), c->buffer_compress_pct);
	json_object_set_new(o, "buffer_pattern", json_string(bp));
	return o;
}

/* The disks under the targets of every run, once each (device_info.h); [] for a simulation. */
static json_t *devices_obj(const struct iolab_report *rep)
{
	json_t *a = json_array();
	for (unsigned i = 0; i < rep->nconfig; i++)
		for (unsigned t = 0; t < rep->config[i]->ntargets; t++) {
			if (rep->config[i]->engine->flags & IOLAB_ENGINE_VIRTUAL)
				break; /* a simulation's targets are volumes by name, no disks */
			const char *path = rep->config[i]->target[t];
			struct iolab_device_info d;
			bool found = iolab_device_info(path, &d);
#define STR_OR_NULL(s) iolab_json_text(found && (s)[0] ? (s) : NULL)
			json_array_append_new(a, json_pack(
				"{s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "target", iolab_json_text(path), "disk",
				STR_OR_NULL(d.disk), "model", STR_OR_NULL(d.model), "firmware",
				STR_OR_NULL(d.firmware), "backing_file", STR_OR_NULL(d.backing),
				"size_bytes", found ? json_integer((json_int_t)d.size_bytes) : json_null(),
				"rotational", d.rotational < 0 ? json_null() : json_boolean(d.rotational),
				"scheduler", STR_OR_NULL(d.scheduler)));
#undef STR_OR_NULL
		}
	return a;
}

int iolab_output_json(FILE *f, const struct iolab_report *rep, const struct iolab_results *r,
		      struct iolab_err *err)
{
	json_t *runs = json_array();
	for (unsigned i = 0; i < rep->nconfig; i++)
		json_array_append_new(runs, config_obj(rep->config[i]));
	json_t *points = json_array();
	for (unsigned i = 0; i < r->n; i++)
		json_array_append_new(points, point_obj(&r->point[i]));
	json_t *root = json_pack("{s:s,s:s,s:{s:o,s:o,s:I},s:o,s:b}", "iolab", IOLAB_VERSION, "command",
				 rep->command, "config", "job", iolab_json_text(rep->job),
				 "runs", runs, "precondition_bytes", (json_int_t)r->precondition_bytes, "points", points, "interrupted", r->interrupted);
	if (root) {
		json_object_set_new(root, "price_usd", rep->price_usd > 0 ? json_real(rep->price_usd)
								   : json_null());
		json_object_set_new(root, "capacity_bytes", r->n && r->point[0].capacity_bytes
				    ? json_integer((json_int_t)r->point[0].capacity_bytes) : json_null());
		json_object_set_new(root, "devices", devices_obj(rep));
	}
	if (!root)
		return iolab_errf(err, ENOMEM, "cannot build the JSON document (out of memory, or text "
				  "that is not UTF-8)");
	errno = 0;
	int rc = json_dumpf(root, f, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
	json_decref(root);
	if (rc || fputc('\n', f) == EOF)
		return iolab_errf(err, EIO, "error writing the JSON document: %s",
				  strerror(errno ? errno : EIO));
	return 0;
}
