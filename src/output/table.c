/* table.c: the readable table printed by default: one row per point (latencies with their
 * units, table_units.c), warnings below it (grouped by kind, table_warnings.c; but those about
 * figures the table does not show), a line for a device that accepts fewer commands than were
 * queued, and a footer that says what the columns measure. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "iolab/flash_report.h"
#include "iolab/host_queue.h"
#include "iolab/short_names.h"
#include "output_common.h"

/* A point of an engine in virtual time (a simulated path): its CPU figures measure nothing. */
static bool point_virtual(const struct iolab_point *p)
{
	const struct iolab_engine_ops *e = iolab_engine_find(p->engine);
	return e && (e->flags & IOLAB_ENGINE_VIRTUAL);
}

static const char *fmt_bs(const struct iolab_point *p, char *buf, size_t n)
{
	if (!p->bs)
		return "mix";
	return iolab_fmt_size(p->bs, buf, n);
}

/* What the load column shows: "qd" when every point is a closed loop of --qd, else "clients",
 * "rate/s" or, for a job mixing them, "load" with the model named in each row. */
enum load_col { COL_QD, COL_CLIENTS, COL_RATE, COL_MIXED };

static enum load_col point_load(const struct iolab_point *p)
{
	return p->clients ? COL_CLIENTS : p->target_iops > 0 ? COL_RATE : COL_QD;
}

static enum load_col load_col(const struct iolab_results *r)
{
	enum load_col col = r->n ? point_load(&r->point[0]) : COL_QD;
	for (unsigned i = 1; i < r->n; i++)
		if (point_load(&r->point[i]) != col)
			return COL_MIXED;
	return col;
}

static const char *load_label(const struct iolab_point *p, enum load_col col, char *buf, size_t n)
{
	enum load_col own = point_load(p);
	const char *name = col != COL_MIXED ? "" : own == COL_CLIENTS ? "clients " : own == COL_QD ? "qd " : "";
	if (own == COL_RATE) /* as --rate is written */
		snprintf(buf, n, "%s%.6g", p->poisson ? "poisson:" : col == COL_MIXED ? "rate " : "",
			 p->target_iops);
	else
		snprintf(buf, n, "%s%u", name, own == COL_CLIENTS ? p->clients : p->qd);
	return buf;
}

/* Says what the load columns of clients and open loops mean (the first point of each kind). */
static void load_footer(FILE *f, const struct iolab_results *r)
{
	bool clients = false, rate = false;
	for (unsigned i = 0; i < r->n; i++) {
		const struct iolab_point *p = &r->point[i];
		if (p->clients && !clients) {
			clients = true;
			fprintf(f, "clients = closed-loop clients per worker, each waiting %s%.6g ms after a "
				"completion before its next request (--think)\n", p->think_exp ? "on average " : "",
				(double)p->think_ns / 1e6);
		}
		if (p->target_iops > 0 && !rate) {
			rate = true;
			fprintf(f, "rate = requests arriving per second, all workers (--rate; poisson: a Poisson "
				"process, else evenly spaced); their latency\nruns from the intended arrival, so a "
				"request that waited to be issued counts that wait (and qd@ counts it waiting)\n");
		}
	}
}

/* A timed replay's own figures, one line per point: how late requests left (actual minus
 * intended issue time) and the latency from the actual issue beside the one from the intended
 * time (the table's, as for --rate). */
static void replay_lines(FILE *f, const struct iolab_results *r)
{
	unsigned shown = 0;
	for (unsigned i = 0; i < r->n; i++) {
		const struct iolab_point *p = &r->point[i];
		if (!p->replay_timed || !p->issue_err.count)
			continue;
		if (!shown++)
			fprintf(f, "\ntimed replay: issue error = actual minus intended issue time; "
				"latency from the actual issue and from the intended time:\n"
				"%3s %9s %9s %9s %11s %11s %11s %11s\n", "#", "err p50", "err p99", "err max",
				"issued p50", "issued p99", "intend p50", "intend p99");
		struct iolab_hist *h = malloc(sizeof(*h));
		if (!h)
			return;
		*h = p->dir[0].lat;
		iolab_hist_merge(h, &p->dir[1].lat);
		double us[7] = {iolab_hist_percentile(&p->issue_err, 50) / 1e3,
				iolab_hist_percentile(&p->issue_err, 99) / 1e3, (double)p->issue_err.max / 1e3,
				iolab_hist_percentile(&p->lat_issued, 50) / 1e3,
				iolab_hist_percentile(&p->lat_issued, 99) / 1e3, iolab_hist_percentile(h, 50) / 1e3,
				iolab_hist_percentile(h, 99) / 1e3};
		char t[7][24];
		for (unsigned k = 0; k < 7; k++)
			table_lat(us[k], t[k], sizeof(t[k]));
		fprintf(f, "%3u %9s %9s %9s %11s %11s %11s %11s\n", i + 1, t[0], t[1], t[2], t[3], t[4],
			t[5], t[6]);
		free(h);
	}
}

/* Once per device (or drive model) that accepts fewer commands at once than some point kept
 * queued: those points' rows differ only by the host's queue, and this says why. */
static void device_depth_notes(FILE *f, const struct iolab_results *r)
{
	bool first = true;
	for (unsigned i = 0; i < r->n; i++) {
		const struct iolab_point *p = &r->point[i];
		unsigned depth = p->device_depth;
		if (!depth || p->qd * p->workers <= depth)
			continue;
		const char *who = p->model ? p->model : p->engine;
		bool told = false;
		for (unsigned k = 0; k < i && !told; k++) {
			const struct iolab_point *q = &r->point[k];
			told = q->device_depth == depth && q->qd * q->workers > depth &&
			       !strcmp(q->model ? q->model : q->engine, who);
		}
		if (told)
			continue;
		fprintf(f, "%s%s accepts %u command%s at a time: QD above %u waits in the host queue\n",
			first ? "\n" : "", who, depth, depth == 1 ? "" : "s", depth);
		first = false;
	}
}

/* What was run and what the columns measure. */
static void footer(FILE *f, const struct iolab_point *p)
{
	const struct iolab_engine_ops *e = iolab_engine_find(p->engine);
	if (p->model && p->subsystem)
		fprintf(f, "\nsimulated subsystem %s, virtual time", p->model);
	else if (p->model) {
		struct iolab_flash_report sum;
		bool ssd = iolab_flash_total(p->comp, p->ncomp, &sum) > 0;
		fprintf(f, "\nsimulated %s %s, virtual time", ssd ? "SSD" : "drive", p->model);
	}
	else if (e && (e->flags & IOLAB_ENGINE_NO_IO))
		fprintf(f, "\nengine %s (no I/O)", p->engine);
	else
		fprintf(f, "\nengine %s, %s I/O", p->engine, p->direct ? "direct" : "buffered");
	fprintf(f, "; MB/s = 10^6 bytes/s; qd@ = mean I/Os in flight (Little's law);\n%s; "
		"cpu u/s = user/system CPU %% of one core%s;\nlatency (lat: us, ms or s as "
		"written) = from the submit call to completion: fio's lat (submission included), not "
		"its clat; for psync the two are the same\n",
		p->host_sched >= 0 ? "host = the host queue's policy (--host-scheduler)"
				   : "dev qd = the device's own mean queue (sysfs; - if none)",
		point_virtual(p) ? " (- in virtual time)" : "");
}

/* Under the rows: how far each point's volume rebuild got ("rebuild of drive 2: 100% in 812.4 s",
 * "... 37% done when the run ended"), numbered when there are several points. */
static void rebuild_lines(FILE *f, const struct iolab_results *r)
{
	for (unsigned i = 0; i < r->n; i++)
		for (unsigned k = 0; k < r->point[i].ncomp; k++) {
			const struct iolab_comp_report *c = &r->point[i].comp[k];
			const struct iolab_rebuild_report *b = &c->rebuild;
			if (!b->rate_bytes_s)
				continue;
			char who[96], pt[24] = "", vol[48] = "";
			if (strcmp(c->name, "volume")) /* a subsystem file's volumes have names */
				snprintf(vol, sizeof(vol), "%s ", c->name);
			if (b->drive[1] >= 0)
				snprintf(who, sizeof(who), "%sdrives %d and %d", vol, b->drive[0] + 1,
					 b->drive[1] + 1);
			else
				snprintf(who, sizeof(who), "%sdrive %d", vol, b->drive[0] + 1);
			if (r->n > 1)
				snprintf(pt, sizeof(pt), "point %u: ", i + 1);
			unsigned pct = b->total_bytes ? (unsigned)(100 * b->done_bytes / b->total_bytes) : 100;
			if (b->ns >= 0)
				fprintf(f, "%srebuild of %s: 100%% in %.1f s\n", pt, who, b->ns / 1e9);
			else
				fprintf(f, "%srebuild of %s: %u%% done when the run ended\n", pt, who, pct);
		}
}

/* Under the rows, for each point of the copy pattern: what it copied (the bytes written, each
 * read first) and how long it took, per run: the figure a copy is timed by. */
static void copy_lines(FILE *f, const struct iolab_results *r)
{
	for (unsigned i = 0; i < r->n; i++) {
		const struct iolab_point *p = &r->point[i];
		if (strcmp(p->pattern, "copy") || !p->reps || p->seconds <= 0)
			continue;
		double s = p->seconds / p->reps, copied = (double)p->dir[1].bytes / p->reps;
		char size[32];
		fprintf(f, "  %u copy: %s copied (read, then written) in %.2f s%s: %.2f MB/s copied; the MB/s "
			"column counts reads and writes\n", i + 1,
			iolab_fmt_size((uint64_t)copied, size, sizeof(size)), s, p->reps > 1 ? " per run" : "",
			copied / s / 1e6);
	}
}

/* --steady-state: one line per point under the table: the rounds, the rule's verdict, the window. */
static void steady_lines(FILE *f, const struct iolab_results *r)
{
	for (unsigned i = 0; i < r->n; i++) {
		const struct iolab_steady_result *s = &r->point[i].steady;
		if (!s->metric)
			continue;
		fprintf(f, "  %u steady state (%s): %s after %u rounds; window", i + 1,
			iolab_ss_metric_name(s->metric), s->reached ? "reached" : "NOT reached", s->rounds);
		for (unsigned k = 0; k < s->nwindow; k++)
			fprintf(f, " %.6g", s->window[k]);
		fprintf(f, "%s\n", s->metric == IOLAB_SS_LAT ? " us" : s->metric == IOLAB_SS_MB ? " MB/s" : " IOPS");
	}
}

/* The point's write amplification (its flash devices together), or -1 when it has none or
 * they wrote no page. */
static double point_wa(const struct iolab_point *p)
{
	struct iolab_flash_report sum;
	return iolab_flash_total(p->comp, p->ncomp, &sum) ? iolab_flash_wa(&sum) : -1;
}

/* The busiest of the parts of kind `kind` ("flash-channel", "flash-die") that p's device
 * p->comp[k] holds (reported after it, named "<its name>.<part>"), or NULL. */
static const struct iolab_comp_report *busiest_part(const struct iolab_point *p, unsigned k,
						    const char *kind)
{
	const struct iolab_comp_report *best = NULL;
	double top = -1;
	size_t len = strlen(p->comp[k].name);
	for (unsigned j = k + 1; j < p->ncomp; j++) {
		const struct iolab_comp_report *c = &p->comp[j];
		if (strncmp(c->name, p->comp[k].name, len) || c->name[len] != '.')
			break;
		struct comp_figures cf;
		comp_figures(c, &cf);
		if (!strcmp(c->kind, kind) && cf.utilization > top) {
			top = cf.utilization;
			best = c;
		}
	}
	return best;
}

/* --explain of a flash device (p->comp[k]): write amplification, GC's share of the dies' time,
 * what the dies did, the spread of the blocks' erase counts, and its busiest flash channel and
 * die. */
static void explain_flash(FILE *f, unsigned i, const struct iolab_point *p, unsigned k)
{
	const struct iolab_comp_report *c = &p->comp[k];
	const struct iolab_flash_report *fl = &c->flash;
	double wa = iolab_flash_wa(fl), gc = iolab_flash_gc_share(fl);
	char was[40] = "- (no page written)", gcs[24] = "-";
	if (wa >= 0)
		snprintf(was, sizeof(was), "%.2f", wa);
	if (gc >= 0)
		snprintf(gcs, sizeof(gcs), "%.1f %%", 100 * gc);
	fprintf(f, "%3u %s: write amplification %s, GC %s of the flash time; flash reads %llu, "
		"programs %llu, erases %llu; erase counts %u..%u (mean %.1f)\n", i + 1, c->name, was,
		gcs, (unsigned long long)fl->flash_reads, (unsigned long long)fl->flash_programs,
		(unsigned long long)fl->erases, fl->erase_min, fl->erase_max, fl->erase_mean);
	const struct iolab_comp_report *ch = busiest_part(p, k, "flash-channel"),
				       *die = busiest_part(p, k, "flash-die");
	if (!ch && !die)
		return;
	fprintf(f, "%3u %s: busiest", i + 1, c->name);
	struct comp_figures cf;
	if (ch) {
		comp_figures(ch, &cf);
		fprintf(f, " flash channel %s (%.1f %% busy)%s", ch->name, 100 * cf.utilization,
			die ? "," : "");
	}
	if (die) {
		comp_figures(die, &cf);
		fprintf(f, " die %s (%.1f %% busy)", die->name, 100 * cf.utilization);
	}
	fputc('\n', f);
}

/* --explain: what each part of a simulated path did, per point, and the bottleneck: the
 * busiest part if it is saturated (SATURATED_UTIL), else that none is and what load was
 * offered (then the load, not the path, set the figures). A flash device's channels and dies
 * (there may be dozens) are not rows: lines after the point's rows say what they did (the
 * JSON has each), and the bottleneck is any part, one of them included. */
static void explain(FILE *f, const struct iolab_results *r)
{
	bool any = false;
	for (unsigned i = 0; i < r->n; i++)
		any |= r->point[i].ncomp > 0;
	if (!any)
		return;
	fprintf(f, "\nthe parts of the path (whole run; util = share of the time busy, queue = mean "
		"requests in it):\n");
	fprintf(f, "%3s %-12s %-10s %7s %7s %10s %9s %9s %8s\n", "#", "part", "kind", "util%",
		"idle%", "ios", "MB/s", "rated", "queue");
	for (unsigned i = 0; i < r->n; i++) {
		const struct iolab_point *p = &r->point[i];
		for (unsigned k = 0; k < p->ncomp; k++) {
			const struct iolab_comp_report *c = &p->comp[k];
			if (!strncmp(c->kind, "flash-", 6))
				continue; /* explain_flash says what they did */
			struct comp_figures cf;
			comp_figures(c, &cf);
			char idle[16] = "", rated[16] = "";
			if (c->rated_mb_s > 0) { /* a bus or channel: its idle share, its rated rate */
				snprintf(idle, sizeof(idle), "%.1f", 100 * (1 - cf.utilization));
				snprintf(rated, sizeof(rated), "%.1f", c->rated_mb_s);
			}
			fprintf(f, "%3u %-12s %-10s %7.1f %7s %10llu %9.2f %9s %8.2f\n", i + 1, c->name,
				c->kind, 100 * cf.utilization, idle, (unsigned long long)c->ios,
				cf.achieved_mb_s, rated, cf.mean_queue);
			if (c->hits)
				fprintf(f, "%3s %-12s %-10s %7s %7s %10llu cache hits\n", "", "", "", "", "",
					(unsigned long long)c->hits);
		}
		for (unsigned k = 0; k < p->ncomp; k++)
			if (iolab_comp_is_flash_device(&p->comp[k]))
				explain_flash(f, i, p, k);
		const struct iolab_comp_report *b = bottleneck(p), *top = busiest(p);
		struct comp_figures tf;
		char load[96];
		if (b) {
			comp_figures(b, &tf);
			fprintf(f, "%3u bottleneck: %s (%.1f %% busy)\n", i + 1, b->name,
				100 * tf.utilization);
		} else if (top) {
			comp_figures(top, &tf);
			offered_load(p, load, sizeof(load));
			fprintf(f, "%3u no bottleneck: no part is %.0f %% busy or more (the busiest, %s, "
				"%.1f %%); the offered load limits: %s\n", i + 1, 100 * SATURATED_UTIL,
				top->name, 100 * tf.utilization, load);
		}
	}
}

/* Under MPI, a row per host under each point's (docs/scale-out.md). */
static void rank_lines(FILE *f, const struct iolab_results *r)
{
	bool any = false;
	for (unsigned i = 0; i < r->n; i++)
		any |= r->point[i].nranks > 0;
	if (!any)
		return;
	fprintf(f, "\nper host (a point's row above is their sum over the common window; clock = the "
		   "host's clock less rank 0's):\n%3s %5s %-20s %11s %9s %9s %9s %9s %18s\n", "#", "rank",
		"host", "IOPS", "MB/s", "mean lat", "p99 lat", "max lat", "clock us");
	for (unsigned i = 0; i < r->n; i++)
		for (unsigned k = 0; k < r->point[i].nranks; k++) {
			const struct iolab_rank_result *q = &r->point[i].ranks[k];
			char clock[40], lat[3][24];
			snprintf(clock, sizeof(clock), "%.1f \u00b1 %.1f", q->clock_offset_ns / 1e3,
				 q->clock_error_ns / 1e3);
			fprintf(f, "%3u %5u %-20.20s %11.0f %9.1f %9s %9s %9s %18s\n", i + 1, q->rank,
				q->host, q->iops, q->mbps, table_lat(iolab_hist_mean(&q->lat) / 1e3, lat[0], 24),
				table_lat(iolab_hist_percentile(&q->lat, 99) / 1e3, lat[1], 24),
				table_lat((double)(q->lat.count ? q->lat.max : 0) / 1e3, lat[2], 24), clock);
		}
}

/* Where the time went: a column for each phase the engine named (the union over the points, in
 * the order first named; "-" where a point has none), and the read cache hits. */
static void breakdown_lines(FILE *f, const struct iolab_results *r)
{
	struct iolab_breakdown cols = {0};
	struct breakdown_means m;
	bool any = false;
	for (unsigned i = 0; i < r->n; i++)
		if (breakdown_means(&r->point[i], &m)) {
			any = true;
			for (unsigned k = 0; k < m.bd->nphase; k++)
				iolab_breakdown_put(&cols, m.bd->phase[k], 0);
		}
	if (!any)
		return;
	fprintf(f, "\nwhere the time went, per I/O (host = waiting in the host's queue; the "
		"rest is the devices' work, queue = waiting in them;\n a volume's columns are per "
		"device command):\n");
	fprintf(f, "%3s", "#");
	for (unsigned k = 0; k < cols.nphase; k++)
		fprintf(f, " %9s", cols.phase[k]);
	fprintf(f, " %7s\n", "hits%");
	for (unsigned i = 0; i < r->n; i++) {
		if (!breakdown_means(&r->point[i], &m))
			continue;
		fprintf(f, "%3u", i + 1);
		for (unsigned k = 0; k < cols.nphase; k++) {
			unsigned j = 0;
			while (j < m.bd->nphase && strcmp(m.bd->phase[j], cols.phase[k]))
				j++;
			char t[24];
			if (j < m.bd->nphase)
				fprintf(f, " %9s", table_lat(m.us[j], t, sizeof(t)));
			else
				fprintf(f, " %9s", "-");
		}
		fprintf(f, " %7.1f\n", m.hit_pct);
	}
}

/* Job-file [worker] sections: each worker's row under the table (its own pattern and load). */
static void worker_lines(FILE *f, const struct iolab_results *r)
{
	bool any = false;
	for (unsigned i = 0; i < r->n; i++)
		any |= r->point[i].nwres > 0 && *r->point[i].wres[0].name;
	if (!any)
		return;
	fprintf(f, "\nper worker ([worker] sections; each over its own measured time):\n"
		   "%3s %-16s %-16s %5s %11s %9s %9s %9s\n", "#", "worker", "pattern", "qd", "IOPS",
		"MB/s", "mean lat", "p99 lat");
	for (unsigned i = 0; i < r->n; i++)
		for (unsigned k = 0; r->point[i].nwres && *r->point[i].wres[0].name &&
				     k < r->point[i].nwres; k++) {
			const struct iolab_worker_result *w = &r->point[i].wres[k];
			double s = w->seconds > 0 ? w->seconds : 1e-9;
			char mean[24], p99[24];
			fprintf(f, "%3u %-16.16s %-16.16s %5u %11.1f %9.1f %9s %9s\n", i + 1, w->name,
				w->pattern, w->qd, (double)w->ios / s, (double)w->bytes / s / 1e6,
				table_lat(iolab_hist_mean(&w->lat) / 1e3, mean, sizeof(mean)),
				table_lat(iolab_hist_percentile(&w->lat, 99) / 1e3, p99, sizeof(p99)));
		}
}

/* The pattern column: its width, and each point's name there (a replayed trace's file name,
 * else the pattern's) cut from the middle to it, distinct names kept apart (short_names.h). */
enum { PATTERN_W = 16, PATTERN_SIZE = 4 * PATTERN_W + 1 };

static char *pattern_names(const struct iolab_results *r)
{
	const char **names = calloc(r->n ? r->n : 1, sizeof(*names));
	char *out = calloc(r->n ? r->n : 1, PATTERN_SIZE);
	for (unsigned i = 0; names && out && i < r->n; i++) {
		const struct iolab_point *p = &r->point[i];
		const char *base = p->trace_path ? strrchr(p->trace_path, '/') : NULL;
		names[i] = !p->trace_path ? p->pattern : base ? base + 1 : p->trace_path;
	}
	bool ok = names && out;
	if (ok)
		iolab_short_names(names, r->n, PATTERN_W, out, PATTERN_SIZE);
	free(names);
	if (!ok)
		free(out);
	return ok ? out : NULL;
}

void iolab_output_table(FILE *f, const struct iolab_results *r, bool explained)
{
	bool reps = false, simulated = false, volume = false, ctl = false, wa = false;
	for (unsigned i = 0; i < r->n; i++) {
		wa |= point_wa(&r->point[i]) >= 0; /* a column of write amplification */
		reps |= r->point[i].reps > 1;
		simulated |= r->point[i].host_sched >= 0;
		volume |= r->point[i].array_drives > 0 || r->point[i].stripe > 0;
		ctl |= r->point[i].cache > 0 || r->point[i].write_policy >= 0;
	}
	/* A simulated drive has no sysfs queue to show: that column names the host's policy. A
	 * volume's shape (drives x stripe unit) gets a column of its own. */
	fprintf(f, "%3s ", "#");
	if (volume)
		fprintf(f, "%-12s ", "volume");
	if (ctl)
		fprintf(f, "%-17s ", "controller");
	const char *set[SETTINGS_COLUMNS]; /* the swept settings of the path: a column each */
	int set_w[SETTINGS_COLUMNS];
	unsigned nset = settings_columns(r, set, SETTINGS_COLUMNS);
	for (unsigned s = 0; s < nset; s++) {
		set_w[s] = (int)strlen(set[s]);
		for (unsigned i = 0; i < r->n; i++) {
			const char *v = point_setting(&r->point[i], set[s]);
			if (v && (int)strlen(v) > set_w[s])
				set_w[s] = (int)strlen(v);
		}
		fprintf(f, "%-*s ", set_w[s], set[s]);
	}
	enum load_col col = load_col(r);
	static const char *const col_name[] = {"qd", "clients", "rate/s", "load"};
	int lw = col == COL_QD ? 4 : 11; /* "poisson:200", "clients 16" */
	fprintf(f, "%-16s %5s %4s %3s %*s %11s %9s %9s %9s %9s %6s %8s %9s%s%s\n", "pattern",
		"bs", "rd%", "wk", lw, col_name[col], "IOPS", "MB/s", "mean lat", "p99 lat", "max lat", "qd@",
		simulated ? "host" : "dev qd", "cpu u/s", wa ? "     WA" : "",
		reps ? "  IOPS sd  (min..max)  95% CI IOPS, MB/s" : "");
	char *shown_names = pattern_names(r);
	for (unsigned i = 0; i < r->n; i++) {
		const struct iolab_point *p = &r->point[i];
		struct iolab_dir_result *all = malloc(sizeof(*all));
		if (!all || !shown_names) {
			free(all);
			free(shown_names);
			return;
		}
		point_all(p, all);
		char bs[32], cpu[24] = "-", devq[16] = "-", load[32], lat[3][24];
		if (!point_virtual(p)) /* in virtual time the CPU iolab used measures nothing */
			snprintf(cpu, sizeof(cpu), "%.0f/%.0f", p->cpu_user_pct, p->cpu_sys_pct);
		if (p->host_sched >= 0)
			snprintf(devq, sizeof(devq), "%s", iolab_host_sched_name((enum iolab_host_sched)p->host_sched));
		else if (p->has_disk)
			snprintf(devq, sizeof(devq), "%.2f", p->disk_queue);
		fprintf(f, "%3u ", i + 1);
		if (volume) {
			char vol[40] = "-", unit[32];
			if (p->array_drives && p->array_level == IOLAB_RAID1)
				snprintf(vol, sizeof(vol), "raid1 %u", p->array_drives);
			else if (p->array_drives)
				snprintf(vol, sizeof(vol), "%s %ux%s", iolab_raid_name(p->array_level),
					 p->array_drives, iolab_fmt_size(p->stripe, unit, sizeof(unit)));
			else if (p->stripe) /* a subsystem file's volumes, their unit swept */
				snprintf(vol, sizeof(vol), "stripe %s", iolab_fmt_size(p->stripe, unit, sizeof(unit)));
			fprintf(f, "%-12s ", vol);
		}
		if (ctl) {
			char c[48] = "", unit[32];
			if (p->cache)
				snprintf(c, sizeof(c), "%s ", iolab_fmt_size(p->cache, unit, sizeof(unit)));
			if (p->write_policy >= 0)
				snprintf(c + strlen(c), sizeof(c) - strlen(c), "%s",
					 iolab_write_policy_name((unsigned)p->write_policy));
			fprintf(f, "%-17s ", c);
		}
		for (unsigned s = 0; s < nset; s++) {
			const char *v = point_setting(p, set[s]);
			fprintf(f, "%-*s ", set_w[s], v ? v : "-");
		}
		const char *name = shown_names + (size_t)i * PATTERN_SIZE;
		int pad = PATTERN_W - (int)iolab_name_width(name); /* "…" is one column, three bytes */
		fprintf(f, "%s%*s %5s %4d %3u %*s %11.0f %9.1f %9s %9s %9s %6.1f %8s %9s", name,
			pad > 0 ? pad : 0, "", fmt_bs(p, bs, sizeof(bs)), p->read_pct, p->workers, lw,
			load_label(p, col, load, sizeof(load)), p->iops.mean,
			p->mbps.mean, table_lat(iolab_hist_mean(&all->lat) / 1e3, lat[0], sizeof(lat[0])),
			table_lat(iolab_hist_percentile(&all->lat, 99) / 1e3, lat[1], sizeof(lat[1])),
			table_lat((double)(all->lat.count ? all->lat.max : 0) / 1e3, lat[2], sizeof(lat[2])),
			p->qd_reached, devq, cpu);
		if (wa) {
			double w = point_wa(p);
			if (w >= 0)
				fprintf(f, " %6.2f", w);
			else
				fprintf(f, " %6s", "-");
		}
		if (p->reps > 1)
			fprintf(f, "  %7.0f  (%.0f..%.0f)  \u00b1 %.0f, \u00b1 %.1f", p->iops.stddev, p->iops.min,
				p->iops.max, p->iops.ci95, p->mbps.ci95);
		if (p->partial)
			fprintf(f, "  (partial)");
		fputc('\n', f);
		free(all);
	}
	free(shown_names);
	rank_lines(f, r);
	worker_lines(f, r);
	rebuild_lines(f, r);
	copy_lines(f, r);
	steady_lines(f, r);
	replay_lines(f, r);
	breakdown_lines(f, r);
	table_warnings(f, r);
	if (explained)
		explain(f, r);
	device_depth_notes(f, r);
	if (r->n)
		footer(f, &r->point[0]);
	load_footer(f, r);
	if (wa)
		fprintf(f, "WA = write amplification of the simulated SSDs: flash pages programmed per "
			"page the host wrote (GC's copies and the mapping table's included)\n");
	if (r->interrupted)
		fprintf(f, "interrupted: the last point is partial\n");
}
