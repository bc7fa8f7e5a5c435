/* generator_internal.h: the skewed-offset sampler shared by the generator and distribution.c. */
#ifndef IOLAB_GENERATOR_INTERNAL_H
#define IOLAB_GENERATOR_INTERNAL_H

#include "iolab/workload.h"

/* Prepares k to draw among n items according to d. */
void iolab_skew_init(struct iolab_skew *k, const struct iolab_dist *d, uint64_t n);
/* Draws an item in [0, n). */
uint64_t iolab_skew_draw(const struct iolab_skew *k, struct iolab_prng *rng);

#endif
