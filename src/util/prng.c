/* prng.c: seeding of xoshiro256** from one 64-bit seed through splitmix64. */
#include "iolab/prng.h"

void iolab_prng_seed(struct iolab_prng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = iolab_prng_mix(seed += IOLAB_PRNG_GOLDEN);
}
