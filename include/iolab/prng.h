/* prng.h: the generator's random numbers: xoshiro256** seeded through splitmix64.
 * Small, fast and of good quality; one state per worker so runs are deterministic by seed. */
#ifndef IOLAB_PRNG_H
#define IOLAB_PRNG_H

#include <stdint.h>

struct iolab_prng {
	uint64_t s[4];
};

void iolab_prng_seed(struct iolab_prng *r, uint64_t seed);

/* The splitmix64 step (Steele, Lea and Flood, OOPSLA 2014): its finalizer is a bijection of
 * 64-bit words that mixes every input bit into every output bit. */
#define IOLAB_PRNG_GOLDEN UINT64_C(0x9e3779b97f4a7c15)
static inline uint64_t iolab_prng_mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static inline uint64_t iolab_prng_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t iolab_prng_next(struct iolab_prng *r)
{
	uint64_t *s = r->s;
	uint64_t result = iolab_prng_rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = iolab_prng_rotl(s[3], 45);
	return result;
}

/* Uniform integer in [0, n) from the top 32 bits of x (Lemire's multiply-shift; n < 2^32). */
static inline uint32_t iolab_prng_below32(uint64_t x, uint32_t n)
{
	return (uint32_t)(((x >> 32) * (uint64_t)n) >> 32);
}

/* Uniform integer in [0, n) for any 64-bit n (128-bit multiply-shift). */
static inline uint64_t iolab_prng_below(struct iolab_prng *r, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)iolab_prng_next(r) * n) >> 64);
}

/* Uniform double in [0, 1). */
static inline double iolab_prng_unit(struct iolab_prng *r)
{
	return (double)(iolab_prng_next(r) >> 11) * 0x1.0p-53;
}

/* The greatest common divisor of a and b: an affine map x -> (a x + c) mod n permutes [0, n)
 * when it is 1 for a and n (the permuted orders of the workload's skews and of preconditioning). */
static inline uint64_t iolab_gcd64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

#endif
