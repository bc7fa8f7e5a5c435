/* probe.h: `iolab probe`: measuring a drive, real or simulated, into a drive model.
 *
 * A probe talks to its drive through a backend (a small table of operations): it issues one
 * request, or several at once, and reads their completion times on the backend's clock. Two
 * backends exist: a block device or file (O_DIRECT preads and pwrites timed with
 * clock_gettime, several in flight through io_uring; backend_dev.c) and a simulated drive
 * (disk_sim.h in virtual time; backend_sim.c). The measurements (probe.c; the method is
 * docs/probe.md) only see latencies, in the manner of DIXtrac (Schindler and Ganger,
 * CMU-CS-99-176) and Skippy (Talagala et al., UCB//CSD-99-1063): rotation period, sectors per
 * track and the zone map, track and cylinder skews (hence the surfaces), the seek curve, head
 * switch, overheads, interface rate, cache segments and read-ahead, command queuing, and with
 * writes allowed the write cache. probe_model.c turns a result into a model (disk_model.h) and
 * writes it with comments saying what was measured, how well, and what was assumed.
 */
#ifndef IOLAB_PROBE_H
#define IOLAB_PROBE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "iolab/disk_model.h"
#include "iolab/error.h"

/* One request: the backend fills t_done. */
struct iolab_probe_io {
	uint64_t lbn;      /* in blocks of the backend's block_bytes */
	uint32_t blocks;
	bool write;        /* only on a backend opened for writing */
	uint64_t t_done;   /* ns on the backend's clock */
};

struct iolab_probe_backend;

#define IOLAB_PROBE_BACKEND_VERSION 1

struct iolab_probe_backend_ops {
	int version;       /* IOLAB_PROBE_BACKEND_VERSION */
	const char *name;
	/* Issues the n requests together at the backend's current time (all in flight at once),
	 * waits for every one and sets each t_done. A write on a read-only backend is -EPERM.
	 * Returns 0 or -errno (err says the call and the address). */
	int (*io)(struct iolab_probe_backend *b, struct iolab_probe_io *ios, unsigned n,
		  struct iolab_err *err);
	/* The backend's clock, ns. */
	uint64_t (*now)(struct iolab_probe_backend *b);
	/* Lets ns pass with nothing issued (the drive's background work goes on). */
	void (*idle)(struct iolab_probe_backend *b, uint64_t ns);
	/* Releases everything (may be NULL). */
	void (*close)(struct iolab_probe_backend *b);
};

struct iolab_probe_backend {
	const struct iolab_probe_backend_ops *ops;
	uint64_t blocks;        /* capacity in blocks */
	unsigned block_bytes;   /* the unit of lbn (the logical block size) */
	bool can_write;
	bool virtual_time;      /* a simulated drive: times are exact to the ns */
	uint64_t jitter_ns;     /* the least timing tolerance (the clock's resolution); the probe
				 * measures the noise and tolerates more when there is more */
	char desc[200];         /* what is measured: a path, or "model NAME" */
	void *priv;
};

/* A simulated drive of model m (m must outlive the backend). Returns 0 or -ENOMEM. */
int iolab_probe_backend_sim(struct iolab_probe_backend *b, const struct iolab_disk_model *m,
			    struct iolab_err *err);
/* Timing noise for a simulated drive (a test aid: what a real host adds to the completion times
 * it sees). Each request reaches the drive host_ns / 2 after the host issues it, and the host
 * stamps its completion host_ns / 2 plus an exponential delay of mean mean_ns after the drive
 * finished, plus, with probability spike_p, a further spike_ns times a uniform factor in
 * [0.5, 1.5) (a late wake-up). Idling overshoots by such a delay too. The drive itself stays
 * exact; the noise is drawn from seed. */
struct iolab_probe_noise {
	double host_ns, mean_ns, spike_ns, spike_p;
	uint64_t seed;
};

/* Adds noise n (copied) to the simulated backend b; all zero: none. Returns 0 or -EINVAL
 * (b is not simulated, or a figure is negative or spike_p above 1). */
int iolab_probe_backend_sim_noise(struct iolab_probe_backend *b, const struct iolab_probe_noise *n,
				  struct iolab_err *err);
/* The block device at path, read with O_DIRECT (anything else, a regular file included, is
 * refused with -EINVAL). With write, writes are allowed through the target safety rules
 * (target.h: force needed, a mounted or busy device refused). Returns 0 or -errno with err set
 * (-EPERM/-EBUSY/-EINVAL for refusals). */
int iolab_probe_backend_dev(struct iolab_probe_backend *b, const char *path, bool write,
			    bool force, struct iolab_err *err);
void iolab_probe_backend_close(struct iolab_probe_backend *b);

/* Progress: stage name and the share of the time budget used (0..1). */
typedef void (*iolab_probe_progress_fn)(const char *stage, double done, void *ctx);

struct iolab_probe_opts {
	double time_s;          /* budget on the backend's clock (0: 120 s) */
	bool write;             /* write tests (the backend must allow writes) */
	uint64_t seed;
	iolab_probe_progress_fn progress; /* may be NULL */
	void *ctx;
	const volatile sig_atomic_t *cancel; /* non-zero stops the probe (may be NULL) */
};

#define IOLAB_PROBE_MAX_ZONES 256
#define IOLAB_PROBE_MAX_SEEK 128
#define IOLAB_PROBE_SEQ_POINTS 8

struct iolab_probe_zone {
	uint64_t first_lbn, nblocks;
	uint32_t spt;
	double spt_spread;      /* share of the phase steps that disagreed with spt */
	uint32_t track_skew, cyl_skew;
	bool skew_measured;
	double seq_mbps;        /* sequential 64 KiB reads in the zone (0: not measured) */
};

struct iolab_probe_seek {
	uint32_t dist;          /* cylinders */
	double ns;              /* seek time (overheads and rotation taken out) */
	double spread_ns;       /* width of the interval the bisection left */
};

struct iolab_probe_result {
	/* profile: every device */
	double rand_lat_med_ns, rand_lat_min_ns, rand_lat_max_ns; /* 4 KiB random reads, QD 1 */
	double iops_qd1, iops_qd32;                               /* 4 KiB random reads */
	uint64_t seq_lbn[IOLAB_PROBE_SEQ_POINTS];
	double seq_mbps[IOLAB_PROBE_SEQ_POINTS];                  /* 64 KiB sequential reads */
	unsigned nseq;
	bool rotating;
	char why_not[160];
	double noise_ns;        /* timing noise: 90th percentile of a stamp's lateness (0: exact) */      /* why the device was judged not to rotate */
	/* rotation */
	double rev_ns, rpm;
	unsigned rev_samples;   /* re-reads in phase behind it */
	double rev_resid_ns;    /* worst residual of those */
	/* layout */
	unsigned nzones;
	struct iolab_probe_zone zone[IOLAB_PROBE_MAX_ZONES];
	unsigned surfaces;
	bool surfaces_measured;
	/* mechanics and controller */
	unsigned nseek;
	struct iolab_probe_seek seek[IOLAB_PROBE_MAX_SEEK];
	double seek_a, seek_b, seek_c, seek_e; /* fit: a + b*sqrt(d) below seek_boundary, c + e*d above */
	uint32_t seek_boundary;
	double seek_fit_rms;    /* relative rms error of the fit over the table */
	double head_switch_ns;
	bool head_switch_measured;
	double base_ns;         /* shortest read of one block on the track under the head */
	double ovh_miss_ns, ovh_hit_ns, bus_ns_per_block;
	bool bus_measured;
	/* cache */
	unsigned segments;
	bool segments_measured;
	uint32_t readahead_blocks;
	bool readahead_track, readahead_measured;
	uint32_t segment_blocks; /* blocks the read-ahead's segment held (0: not measured) */
	bool read_joins, read_joins_measured; /* a read of blocks being read ahead waits for them */
	bool zero_latency_read;
	/* queue */
	bool queuing;
	/* writes (opts.write) */
	bool write_measured, write_back;
	double ovh_write_ns, write_lat_med_ns;
	/* bookkeeping */
	uint64_t ios;           /* requests issued */
	double elapsed_ns;      /* backend time the probe took */
	char skipped[256];      /* stages cut short by the time budget, or "" */
};

/* Measures the drive behind b. Returns 0 (see r->rotating), -ECANCELED if opts->cancel was
 * set, or -errno from the backend (err names the call). */
int iolab_probe_run(struct iolab_probe_backend *b, const struct iolab_probe_opts *opts,
		    struct iolab_probe_result *r, struct iolab_err *err);

/* The model a rotating result describes (name and about given; the caller frees it with
 * iolab_model_free). Returns 0 or -EINVAL (r does not rotate, or the figures fail
 * iolab_model_check: err says which). */
int iolab_probe_model(const struct iolab_probe_result *r, const char *name, const char *about,
		      unsigned block_bytes, uint64_t blocks, struct iolab_disk_model *m,
		      struct iolab_err *err);

/* Writes the model m built from r, preceded by comments: the measured curves (zones, seek
 * table, sequential rates) with their spread, and which figures were measured and which
 * assumed. Returns 0 or -EIO. */
int iolab_probe_write(const struct iolab_probe_result *r, const struct iolab_disk_model *m,
		      const char *source, FILE *f);

#endif
