/* csv.c: one CSV row per point, for spreadsheets and scripts. Latencies in microseconds.
 * Text fields are quoted as RFC 4180 says (a field holding a comma, a quote or a line break is
 * enclosed in quotes, its quotes doubled); a figure that does not apply is an empty field. The
 * columns of simulated SSDs (write amplification, GC's share of the flash time) are there when a
 * point has one, before those of the swept settings. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "iolab/flash_report.h"
#include "iolab/host_queue.h"
#include "output_common.h"

void iolab_csv_text(FILE *f, const char *s)
{
	if (!s[strcspn(s, ",\"\r\n")]) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void csv_warnings(FILE *f, const struct iolab_point *p)
{
	size_t len = 0;
	for (unsigned w = 0; w < p->nwarn; w++)
		len += strlen(p->warn[w]) + 2;
	char *all = calloc(1, len + 1);
	if (!all)
		return;
	for (unsigned w = 0; w < p->nwarn; w++) {
		if (w)
			strcat(all, "; ");
		strcat(all, p->warn[w]);
	}
	iolab_csv_text(f, all);
	free(all);
}

/* The load model's fields: clients and their think time, the target rate, and how late the
 * requests were issued on average; empty where they do not apply. */
static void csv_load(FILE *f, const struct iolab_point *p)
{
	if (p->clients)
		fprintf(f, ",%u,%.9g", p->clients, (double)p->think_ns / 1e9);
	else
		fprintf(f, ",,");
	if (p->target_iops > 0)
		fprintf(f, ",%.6g", p->target_iops);
	else
		fprintf(f, ",");
	if (p->delay_n)
		fprintf(f, ",%.3f", p->delay_sum_ns / (double)p->delay_n / 1e3);
	else
		fprintf(f, ",");
}

/* The point's flash devices together: write amplification and GC's share of the flash time;
 * empty where there is no figure. */
static void csv_flash(FILE *f, const struct iolab_point *p)
{
	struct iolab_flash_report sum;
	bool any = iolab_flash_total(p->comp, p->ncomp, &sum) > 0;
	double v[2] = {any ? iolab_flash_wa(&sum) : -1, any ? iolab_flash_gc_share(&sum) : -1};
	for (unsigned i = 0; i < 2; i++)
		if (v[i] >= 0)
			fprintf(f, ",%.4f", v[i]);
		else
			fputc(',', f);
}

/* iolab replay: its mode; a timed one's issue error and latency from the actual issue. */
static void csv_replay(FILE *f, const struct iolab_point *p)
{
	fprintf(f, ",%s", !p->replay ? "" : p->replay_timed ? "timed" : "closed");
	const struct iolab_hist *e = &p->issue_err, *l = &p->lat_issued;
	if (p->replay_timed && e->count)
		fprintf(f, ",%.3f,%.3f,%.3f,%.3f,%.3f", iolab_hist_percentile(e, 50) / 1e3,
			iolab_hist_percentile(e, 99) / 1e3, (double)e->max / 1e3,
			iolab_hist_percentile(l, 50) / 1e3, iolab_hist_percentile(l, 99) / 1e3);
	else
		fprintf(f, ",,,,,");
}

int iolab_output_csv(FILE *f, const struct iolab_results *r, struct iolab_err *err)
{
	errno = 0;
	fprintf(f, "run,pattern,bs,read_pct,workers,qd,engine,model,host_scheduler,volume_drives,stripe,direct,reps,seconds,ios,iops,mb_per_s,"
		   "iops_stddev,read_iops,write_iops,lat_min_us,lat_mean_us,lat_stddev_us,lat_max_us");
	for (unsigned i = 0; i < IOLAB_NPCT; i++)
		fprintf(f, ",lat_%s_us", iolab_pct_key[i]);
	fprintf(f, ",qd_reached,device_queue,device_util_pct,done_at_submit_pct,clients,think_s,"
		   "target_iops,issue_delay_mean_us,cpu_user_pct,cpu_sys_pct,errors,partial,warnings,"
		   "replay,issue_error_p50_us,issue_error_p99_us,issue_error_max_us,lat_issued_p50_us,"
		   "lat_issued_p99_us");
	bool flash = false;
	for (unsigned i = 0; i < r->n; i++) {
		struct iolab_flash_report sum;
		flash |= iolab_flash_total(r->point[i].comp, r->point[i].ncomp, &sum) > 0;
	}
	if (flash)
		fprintf(f, ",write_amplification,gc_share");
	const char *set[SETTINGS_COLUMNS]; /* the swept settings: a column each, at the end */
	unsigned nset = settings_columns(r, set, SETTINGS_COLUMNS);
	for (unsigned s = 0; s < nset; s++) {
		fputc(',', f);
		iolab_csv_text(f, set[s]);
	}
	fputc('\n', f);
	struct iolab_dir_result *all = malloc(sizeof(*all));
	if (!all)
		return iolab_errf(err, ENOMEM, "out of memory");
	for (unsigned i = 0; i < r->n; i++) {
		const struct iolab_point *p = &r->point[i];
		point_all(p, all);
		const struct iolab_hist *h = &all->lat;
		iolab_csv_text(f, p->run ? p->run : "");
		fputc(',', f);
		iolab_csv_text(f, p->pattern);
		fputc(',', f);
		if (p->bs) /* empty for a size mix */
			fprintf(f, "%" PRIu64, p->bs);
		fprintf(f, ",%d,%u,%u,", p->read_pct, p->workers, p->qd);
		iolab_csv_text(f, p->engine);
		fputc(',', f);
		iolab_csv_text(f, p->model ? p->model : "");
		fputc(',', f);
		if (p->host_sched >= 0)
			iolab_csv_text(f, iolab_host_sched_name((enum iolab_host_sched)p->host_sched));
		fputc(',', f);
		if (p->array_drives) /* empty for a single drive or a real target */
			fprintf(f, "%u,%" PRIu64, p->array_drives, p->stripe);
		else
			fputc(',', f);
		fprintf(f, ",%d,%u,%.3f,%" PRIu64 ",%.1f,%.3f,%.1f,%.1f,%.1f,%.3f,%.3f,%.3f,%.3f",
			p->direct, p->reps, p->seconds, all->ios, p->iops.mean, p->mbps.mean, p->iops.stddev,
			dir_rate(p, p->dir[0].ios), dir_rate(p, p->dir[1].ios),
			h->count ? (double)h->min / 1e3 : 0, iolab_hist_mean(h) / 1e3,
			iolab_hist_stddev(h) / 1e3, h->count ? (double)h->max / 1e3 : 0);
		for (unsigned k = 0; k < IOLAB_NPCT; k++)
			fprintf(f, ",%.3f", iolab_hist_percentile(h, iolab_pct_value[k]) / 1e3);
		fprintf(f, ",%.2f", p->qd_reached);
		if (p->has_disk) /* empty fields where there is no figure */
			fprintf(f, ",%.2f,%.1f", p->disk_queue, p->disk_util_pct);
		else
			fprintf(f, ",,");
		if (p->sub_seen)
			fprintf(f, ",%.1f", 100.0 * (double)p->sub_done / (double)p->sub_seen);
		else
			fprintf(f, ",");
		csv_load(f, p);
		fprintf(f, ",%.1f,%.1f,%" PRIu64 ",%d,", p->cpu_user_pct, p->cpu_sys_pct, all->errors,
			p->partial);
		csv_warnings(f, p);
		csv_replay(f, p);
		if (flash)
			csv_flash(f, p);
		for (unsigned s = 0; s < nset; s++) {
			const char *v = point_setting(p, set[s]);
			fputc(',', f);
			if (v)
				iolab_csv_text(f, v);
		}
		fputc('\n', f);
	}
	free(all);
	if (ferror(f))
		return iolab_errf(err, EIO, "error writing the CSV rows: %s", strerror(errno ? errno : EIO));
	return 0;
}
