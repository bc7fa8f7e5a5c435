/* probe_model.c: a probe's result as a drive model (probe.h): the zones measured become
 * [zone] sections whose cylinders follow from their blocks, sectors per track and surfaces
 * (each zone holds exactly its blocks: the remainder of its last cylinder is spare), the seek
 * table becomes [seek], and figures not measured take the assumptions written next to them in
 * the file's comments. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "iolab/probe.h"

int iolab_probe_model(const struct iolab_probe_result *r, const char *name, const char *about,
		      unsigned block_bytes, uint64_t blocks, struct iolab_disk_model *m,
		      struct iolab_err *err)
{
	memset(m, 0, sizeof(*m));
	if (!r->rotating || !r->nzones || !r->nseek)
		return iolab_errf(err, EINVAL, "probe: no mechanical figures to make a model of");
	snprintf(m->name, sizeof(m->name), "%s", name);
	snprintf(m->about, sizeof(m->about), "%s", about);
	m->block_bytes = block_bytes;
	m->blocks = blocks;
	m->surfaces = r->surfaces;
	m->rpm = r->rpm;
	m->zone = calloc(r->nzones, sizeof(*m->zone));
	m->seek = calloc(r->nseek, sizeof(*m->seek));
	if (!m->zone || !m->seek) {
		iolab_model_free(m);
		return iolab_errf(err, ENOMEM, "probe: out of memory");
	}
	uint32_t cyl = 0;
	for (unsigned i = 0; i < r->nzones; i++) {
		const struct iolab_probe_zone *pz = &r->zone[i];
		struct iolab_zone *z = &m->zone[m->nzones++];
		uint64_t per = (uint64_t)pz->spt * r->surfaces, n = (pz->nblocks + per - 1) / per;
		z->first_cyl = cyl;
		z->last_cyl = cyl + (uint32_t)n - 1;
		z->spt = pz->spt;
		z->track_skew = pz->skew_measured ? pz->track_skew : 0;
		z->cyl_skew = pz->skew_measured ? pz->cyl_skew : 0;
		z->spares = (uint32_t)(n * per - pz->nblocks);
		z->sparing = z->spares ? IOLAB_SPARE_ZONE : IOLAB_SPARE_NONE;
		cyl += (uint32_t)n;
	}
	m->cylinders = cyl;
	for (unsigned i = 0; i < r->nseek && r->seek[i].dist < cyl; i++)
		m->seek[m->nseek++] = (struct iolab_seek_point){.dist = r->seek[i].dist,
								 .ns = (uint64_t)llround(r->seek[i].ns)};
	m->seek_single_ns = m->seek[0].ns;
	m->seek_full_ns = m->seek[m->nseek - 1].ns > m->seek_single_ns ? m->seek[m->nseek - 1].ns
									: m->seek_single_ns;
	m->head_switch_ns = (uint64_t)llround(r->head_switch_ns);
	/* the track skew is the drive's own measure of a head switch (a sequential read crosses
	 * to the next track without losing a revolution): a switch measured within a sector
	 * (the bisection's resolution), or through timing noise within the tolerance between
	 * two stamps (twice the noise), above the skew's time is taken as the skew's time */
	const struct iolab_probe_zone *z0 = &r->zone[0];
	double sec = r->rev_ns / z0->spt, skew_ns = z0->track_skew * sec;
	double res = fmax(sec, 2 * r->noise_ns);
	if (z0->skew_measured && r->head_switch_ns > skew_ns && r->head_switch_ns <= skew_ns + res)
		m->head_switch_ns = (uint64_t)floor(skew_ns);
	m->write_settle_ns = 0;
	m->bus_ns_per_block = (uint64_t)llround(r->bus_ns_per_block);
	for (int k = 0; k < 2; k++) {
		m->ovh_read_hit[k] = (uint64_t)llround(r->ovh_hit_ns);
		m->ovh_read_miss[k] = (uint64_t)llround(r->ovh_miss_ns);
		uint64_t w = r->write_measured ? (uint64_t)llround(r->ovh_write_ns) : m->ovh_read_miss[k];
		m->ovh_write_hit[k] = w;
		m->ovh_write_miss[k] = r->write_measured && r->write_back ? m->ovh_read_miss[k] : w;
	}
	m->segments = r->segments ? r->segments : 1;
	m->readahead_track = r->readahead_track;
	m->readahead_blocks = r->readahead_blocks;
	if (r->segment_blocks) { /* measured: what the segment held past a read */
		m->segment_blocks = r->segment_blocks;
	} else {
		m->segment_blocks = r->readahead_blocks + 1 > 64 ? r->readahead_blocks + 1 : 64;
		if (r->readahead_track && m->segment_blocks < 2 * r->zone[0].spt)
			m->segment_blocks = 2 * r->zone[0].spt;
	}
	m->read_joins_readahead = r->read_joins_measured ? r->read_joins : true;
	m->zero_latency_read = r->zero_latency_read;
	m->write_back = r->write_measured ? r->write_back : true;
	m->write_segments = 1;
	m->read_hits_on_write_data = true;
	m->queue_depth = r->queuing ? 32 : 1;
	m->sched = r->queuing ? IOLAB_SCHED_SPTF : IOLAB_SCHED_FCFS;
	int rc = iolab_model_finish(m, err);
	if (!rc)
		rc = iolab_model_check(m, err);
	if (rc) {
		iolab_err_prefix(err, "probe: the measured figures do not make a model");
		iolab_model_free(m);
	}
	return rc;
}

static const char *measured_or(bool b)
{
	return b ? "measured" : "ASSUMED";
}

int iolab_probe_write(const struct iolab_probe_result *r, const struct iolab_disk_model *m,
		      const char *source, FILE *f)
{
	fprintf(f, "# Measured by 'iolab probe' from %s: %" PRIu64 " requests in %.1f s of the drive's "
		   "time.\n# Method and accuracy: docs/probe.md. MEASURED figures come from latencies; "
		   "ASSUMED ones are\n# stated defaults the probe cannot see.\n#\n", source, r->ios,
		r->elapsed_ns / 1e9);
	fprintf(f, "# rotation         measured: %.4f ms a revolution (%.3f rpm), from %u re-reads of one "
		   "block\n#                  in phase, worst residual %.1f us\n", r->rev_ns / 1e6, r->rpm,
		r->rev_samples, r->rev_resid_ns / 1e3);
	fprintf(f, "# timing noise     measured: %.1f us (90th percentile of a stamp's lateness over back-to-back\n"
		   "#                  reads of one block); tolerance between two stamps twice that\n",
		r->noise_ns / 1e3);
	fprintf(f, "# surfaces         %s: %u (tracks between two cylinder skews)\n",
		measured_or(r->surfaces_measured), r->surfaces);
	fprintf(f, "# mapping          ASSUMED: cylinder (a serpentine order times the same)\n");
	fprintf(f, "# zones            measured: sectors per track from phase steps, boundaries by "
		   "bisection\n#   first_lbn       blocks   spt  spread  media MB/s  seq 64k MB/s  "
		   "skews (track, cylinder)\n");
	for (unsigned i = 0; i < r->nzones; i++) {
		const struct iolab_probe_zone *z = &r->zone[i];
		fprintf(f, "#   %9" PRIu64 "  %11" PRIu64 "  %4u  %5.1f%%  %10.2f  %12.2f  %u, %u%s\n",
			z->first_lbn, z->nblocks, z->spt, 100 * z->spt_spread,
			z->spt * (double)m->block_bytes / r->rev_ns * 1e3, z->seq_mbps, z->track_skew,
			z->cyl_skew, z->skew_measured ? "" : " (not measured: 0)");
	}
	fprintf(f, "# sequential       64 KiB reads at %u places (MB/s):", r->nseq);
	for (unsigned i = 0; i < r->nseq; i++)
		fprintf(f, " %.1f", r->seq_mbps[i]);
	double top = 0, media = r->zone[0].spt * (double)m->block_bytes / r->rev_ns * 1e3;
	for (unsigned i = 0; i < r->nseq; i++)
		top = top > r->seq_mbps[i] ? top : r->seq_mbps[i];
	fprintf(f, "\n%s", top < 0.8 * media ? "#                  (below the media rate: the interface "
		"limits them, so zones come from phase steps)\n" : "");
	fprintf(f, "# seek             measured: shortest latency bisected over the target's angle, "
		   "overheads\n#                  and the target sector taken out; fit %.4f + %.5f*sqrt(d) "
		   "ms below %u cylinders,\n#                  %.4f + %.7f*d ms above (rms %.1f%%)\n",
		r->seek_a / 1e6, r->seek_b / 1e6, r->seek_boundary, r->seek_c / 1e6, r->seek_e / 1e6,
		100 * r->seek_fit_rms);
	fprintf(f, "#   distance  ms  spread_ms\n");
	for (unsigned i = 0; i < r->nseek; i++)
		fprintf(f, "#   %u %.4f %.4f\n", r->seek[i].dist, r->seek[i].ns / 1e6,
			r->seek[i].spread_ns / 1e6);
	fprintf(f, "# head switch      %s: %.4f ms\n", measured_or(r->head_switch_measured), r->head_switch_ns / 1e6);
	fprintf(f, "# read/write switch ASSUMED: the head switch time (not measured)\n");
	fprintf(f, "# write settle     ASSUMED: 0 (hidden by the write cache)\n");
	fprintf(f, "# overheads        measured: read miss %.4f ms (shortest same-track read less a "
		   "sector, a transfer\n#                  and half a sector ASSUMED for stopping "
		   "read-ahead), read hit %.4f ms\n", r->ovh_miss_ns / 1e6, r->ovh_hit_ns / 1e6);
	fprintf(f, "# interface        %s: %.3f us a block (%s)\n", r->bus_measured ? "measured" :
		"from the sequential rate", r->bus_ns_per_block / 1e3,
		r->bus_measured ? "slope of cache hits of 1 and 16 blocks" : "no cache hits seen");
	fprintf(f, "# cache            %s: %u segments; read-ahead %s: %u blocks%s; zero-latency "
		   "reads %s\n", measured_or(r->segments_measured), r->segments, measured_or(r->readahead_measured),
		r->readahead_blocks, r->readahead_track ? " (to the end of the track)" : "",
		r->zero_latency_read ? "seen" : "not seen");
	if (r->segment_blocks)
		fprintf(f, "#                  measured: a segment holds %u blocks (after a read and idling)\n",
			r->segment_blocks);
	else
		fprintf(f, "#                  ASSUMED: segment size (read-ahead + 1, at least 64 blocks)\n");
	fprintf(f, "#                  %s: reads of blocks being read ahead %s\n",
		measured_or(r->read_joins_measured), r->read_joins_measured && !r->read_joins ?
		"stop the read-ahead" : "wait for them (a stream goes on)");
	fprintf(f, "#                  ASSUMED: one write segment, read hits on written data\n");
	if (r->write_measured)
		fprintf(f, "# writes           measured: median write %.4f ms: write cache %s\n",
			r->write_lat_med_ns / 1e6, r->write_back ? "on" : "off");
	else
		fprintf(f, "# writes           ASSUMED: write-back cache, write overheads = read miss "
			   "(probe with --write --force to measure)\n");
	fprintf(f, "# queue            measured: 4 KiB random reads %.1f IOPS at QD 1, %.1f at QD 32: "
		   "%s\n", r->iops_qd1, r->iops_qd32, r->queuing ? "command queuing (ASSUMED: depth 32, "
		   "SPTF)" : "no gain from depth (no queuing)");
	if (r->skipped[0])
		fprintf(f, "# cut short by the time budget: %s\n", r->skipped);
	fputs("\n", f);
	int rc = iolab_model_write(m, f);
	return rc ? rc : ferror(f) ? -EIO : 0;
}
