/* model_predict.h: what a drive model predicts, for `iolab model check`: its seek times, its
 * rotation, the media rate of its outer and inner zone, its capacity, and the random 4 KiB read
 * IOPS at queue depth 1 from a short run of the simulator's drive (disk_sim.h). */
#ifndef IOLAB_MODEL_PREDICT_H
#define IOLAB_MODEL_PREDICT_H

#include <stdint.h>

#include "iolab/disk_model.h"
#include "iolab/error.h"

struct iolab_model_prediction {
	double capacity_bytes;
	double seek_track_ms;        /* one cylinder */
	double seek_third_ms;        /* (cylinders - 1) / 3 cylinders, where datasheets quote the average */
	double seek_random_ms;       /* mean over two uniformly random cylinders (distance 0 included) */
	double seek_full_ms;         /* cylinders - 1 */
	double rev_ms, latency_ms;   /* a revolution, half of one */
	double media_outer_mb_s, media_inner_mb_s;         /* spt x block x revolutions a second */
	double sustained_outer_mb_s, sustained_inner_mb_s; /* reading whole cylinders: with the
							      track and cylinder skews */
	unsigned rand_ios;           /* the random reads simulated */
	double rand_iops;            /* 4 KiB random reads a second at queue depth 1 */
	double rand_ms;              /* their mean service time */
};

/* Mean seek time (read, ns) over two uniformly random cylinders: distance d >= 1 has
 * probability 2(C-d)/C^2 (distance 0, the same cylinder, takes none). Exact, one term per
 * distance. */
double iolab_model_random_seek_ns(const struct iolab_disk_model *m);

/* Fills p for the drive model m (a mechanical drive, after iolab_model_finish), simulating ios
 * random 4 KiB reads (aligned, over the whole capacity, from seed) one at a time. Returns 0, or
 * -EINVAL (an SSD model) / -ENOMEM with err. */
int iolab_model_predict(const struct iolab_disk_model *m, unsigned ios, uint64_t seed,
			struct iolab_model_prediction *p, struct iolab_err *err);

#endif
