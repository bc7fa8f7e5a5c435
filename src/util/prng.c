/* prng.c: seeding of xoshiro256** from one 64-bit seed through splitmix64. */
#include "iolab/prng.h"

void iolab_prng_seed(struct iolab_prng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++) {
		uint64_t z = (seed += 0x9e3779b97f4a7c15ull);
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
		r->s[i] = z ^ (z >> 31);
	}
}
