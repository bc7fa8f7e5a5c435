/* trace_stats.c: the one-pass, bounded-memory figures of `iolab trace info` (trace_stats.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "iolab/prng.h"
#include "trace/trace_stats.h"

int trace_stats_init(struct trace_stats *s, bool completions)
{
	memset(s, 0, sizeof(*s));
	iolab_hist_reset(&s->gap);
	s->off_min = UINT64_MAX;
	s->col_ns = 1000;
	s->row_bytes = 1 << 20;
	s->qd_known = completions;
	if (completions && !(s->heap = malloc(TS_QD_MAX * sizeof(*s->heap))))
		return -ENOMEM;
	return 0;
}

void trace_stats_free(struct trace_stats *s)
{
	free(s->heap);
	s->heap = NULL;
}

/* ---- footprint: HyperLogLog (Flajolet et al. 2007) over (target, 4 KiB block) ---- */

static uint64_t mix(uint64_t x)
{
	return iolab_prng_mix(x + IOLAB_PRNG_GOLDEN);
}

static void hll_add(struct trace_stats *s, uint64_t key)
{
	uint64_t h = mix(key);
	unsigned idx = (unsigned)(h >> (64 - TS_HLL_BITS));
	uint64_t rest = h << TS_HLL_BITS;
	uint8_t rank = rest ? (uint8_t)(__builtin_clzll(rest) + 1) : (uint8_t)(64 - TS_HLL_BITS + 1);
	if (rank > s->hll[idx])
		s->hll[idx] = rank;
}

double trace_stats_footprint(const struct trace_stats *s)
{
	const double m = 1u << TS_HLL_BITS;
	double sum = 0;
	unsigned zeros = 0;
	for (unsigned i = 0; i < (1u << TS_HLL_BITS); i++) {
		sum += ldexp(1.0, -s->hll[i]);
		zeros += !s->hll[i];
	}
	double est = 0.7213 / (1 + 1.079 / m) * m * m / sum;
	if (est <= 2.5 * m && zeros)
		est = m * log(m / zeros); /* linear counting for small sets */
	return est * TS_FOOT_BLOCK;
}

/* ---- queue depth ---- */

static void heap_push(struct trace_stats *s, uint64_t v)
{
	unsigned i = s->nheap++;
	while (i && s->heap[(i - 1) / 2] > v) {
		s->heap[i] = s->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	s->heap[i] = v;
}

static uint64_t heap_pop(struct trace_stats *s)
{
	uint64_t top = s->heap[0], v = s->heap[--s->nheap];
	unsigned i = 0;
	for (;;) {
		unsigned c = 2 * i + 1;
		if (c >= s->nheap)
			break;
		if (c + 1 < s->nheap && s->heap[c + 1] < s->heap[c])
			c++;
		if (s->heap[c] >= v)
			break;
		s->heap[i] = s->heap[c];
		i = c;
	}
	if (s->nheap)
		s->heap[i] = v;
	return top;
}

/* Moves the depth clock to t, counting the completions up to it. */
static void qd_advance(struct trace_stats *s, uint64_t t)
{
	while (s->nheap && s->heap[0] <= t) {
		uint64_t d = heap_pop(s);
		s->qd_area += (long double)(s->nheap + 1) * (long double)(d - s->qd_now);
		s->qd_now = d;
	}
	if (t > s->qd_now) {
		s->qd_area += (long double)s->nheap * (long double)(t - s->qd_now);
		s->qd_now = t;
	}
}

static void qd_add(struct trace_stats *s, const struct iolab_trace_rec *rec)
{
	if (!s->qd_known || s->qd_overflow)
		return;
	if (rec->done_ns == IOLAB_TRACE_NO_TIME) {
		s->qd_known = false; /* one request without a completion: the depth is unknown */
		return;
	}
	if (s->n == 1)
		s->qd_now = s->qd_since = rec->issue_ns;
	qd_advance(s, rec->issue_ns); /* an issue earlier than the clock counts at the clock */
	if (s->nheap == TS_QD_MAX) {
		s->qd_overflow = true;
		return;
	}
	heap_push(s, rec->done_ns < s->qd_now ? s->qd_now : rec->done_ns);
	if (s->nheap > s->qd_max)
		s->qd_max = s->nheap;
}

void trace_stats_finish(struct trace_stats *s)
{
	if (s->qd_known && !s->qd_overflow && s->nheap)
		qd_advance(s, s->heap[0] > s->last_done ? s->heap[0] : s->last_done);
}

double trace_stats_qd_mean(const struct trace_stats *s)
{
	uint64_t span = s->qd_now - s->qd_since;
	return span ? (double)(s->qd_area / span) : 0;
}

/* ---- the map ---- */

static void map_widen(struct trace_stats *s)
{
	for (unsigned r = 0; r < TS_MAP_ROWS; r++)
		for (unsigned c = 0; c < TS_MAP_COLS; c++)
			s->map[r][c] = c < TS_MAP_COLS / 2 ? s->map[r][2 * c] + s->map[r][2 * c + 1] : 0;
	s->col_ns *= 2;
}

static void map_heighten(struct trace_stats *s)
{
	for (unsigned r = 0; r < TS_MAP_ROWS; r++)
		for (unsigned c = 0; c < TS_MAP_COLS; c++)
			s->map[r][c] = r < TS_MAP_ROWS / 2 ? s->map[2 * r][c] + s->map[2 * r + 1][c] : 0;
	s->row_bytes *= 2;
}

static void map_add(struct trace_stats *s, const struct iolab_trace_rec *rec)
{
	uint64_t t = rec->issue_ns > s->first_issue ? rec->issue_ns - s->first_issue : 0;
	while (t / s->col_ns >= TS_MAP_COLS)
		map_widen(s);
	while (rec->offset / s->row_bytes >= TS_MAP_ROWS)
		map_heighten(s);
	s->map[rec->offset / s->row_bytes][t / s->col_ns]++;
}

void trace_stats_map_row(const struct trace_stats *s, unsigned r, char *out)
{
	static const char levels[] = " .:-=+*#%@";
	uint64_t max = 0;
	for (unsigned i = 0; i < TS_MAP_ROWS; i++)
		for (unsigned c = 0; c < TS_MAP_COLS; c++)
			if (s->map[i][c] > max)
				max = s->map[i][c];
	for (unsigned c = 0; c < TS_MAP_COLS; c++) {
		uint64_t v = s->map[r][c];
		out[c] = v ? levels[1 + (unsigned)((v - 1) * 9 / (max ? max : 1))] : ' ';
		if (v && out[c] == 0)
			out[c] = '@';
	}
	out[TS_MAP_COLS] = 0;
}

/* ---- one record ---- */

void trace_stats_add(struct trace_stats *s, const struct iolab_trace_rec *rec)
{
	s->n++;
	s->ops[rec->op & 3]++;
	s->bytes[rec->op & 3] += rec->len;
	if (s->n == 1) {
		s->first_issue = rec->issue_ns;
	} else {
		iolab_hist_add(&s->gap, rec->issue_ns > s->prev_issue ? rec->issue_ns - s->prev_issue : 0);
	}
	s->prev_issue = rec->issue_ns;
	if (rec->issue_ns > s->last_issue || s->n == 1)
		s->last_issue = rec->issue_ns;
	if (rec->done_ns != IOLAB_TRACE_NO_TIME && rec->done_ns > s->last_done)
		s->last_done = rec->done_ns;
	qd_add(s, rec);
	if (!rec->len)
		return;
	s->size_hist[63 - __builtin_clzll(rec->len)]++;
	if (s->seen[rec->target] && s->prev_end[rec->target] == rec->offset)
		s->sequential++;
	s->seen[rec->target] = true;
	s->prev_end[rec->target] = rec->offset + rec->len;
	if (rec->offset < s->off_min)
		s->off_min = rec->offset;
	if (rec->offset + rec->len > s->off_end)
		s->off_end = rec->offset + rec->len;
	uint64_t first = rec->offset / TS_FOOT_BLOCK, last = (rec->offset + rec->len - 1) / TS_FOOT_BLOCK;
	if (last - first >= TS_FOOT_SPAN_MAX)
		last = first + TS_FOOT_SPAN_MAX - 1; /* bounded time: a huge trim counts its first 4 GiB */
	for (uint64_t b = first; b <= last; b++)
		hll_add(s, ((uint64_t)rec->target << 52) ^ b);
	map_add(s, rec);
}
