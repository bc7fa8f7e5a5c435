/* ssd_calendar.c: a resource's reserved intervals (ssd_calendar.h). */
#include <stdlib.h>
#include <string.h>

#include "sim/devices/ssd_calendar.h"

#define AT(c, i) (((c)->head + (i)) & ((c)->cap - 1))

static int grow(struct ssd_calendar *c)
{
	uint32_t cap = c->cap ? 2 * c->cap : 16;
	uint64_t *s = malloc(cap * sizeof(*s)), *e = malloc(cap * sizeof(*e));
	if (!s || !e) {
		free(s);
		free(e);
		return -1;
	}
	for (uint32_t i = 0; i < c->n; i++) {
		s[i] = c->start[AT(c, i)];
		e[i] = c->end[AT(c, i)];
	}
	free(c->start);
	free(c->end);
	c->start = s;
	c->end = e;
	c->head = 0;
	c->cap = cap;
	return 0;
}

uint64_t ssd_calendar_place(struct ssd_calendar *c, uint64_t now, uint64_t t, uint64_t x)
{
	while (c->n && c->end[c->head] <= now) { /* the past */
		c->head = AT(c, 1);
		c->n--;
	}
	uint64_t at = t;
	uint32_t i = 0;
	if (at >= c->last_end) /* after them all: no search */
		i = c->n;
	for (; i < c->n; i++) { /* the first gap from t that holds x */
		uint32_t k = AT(c, i);
		if (c->end[k] <= at)
			continue;
		if (c->start[k] >= at + x)
			break;
		at = c->end[k];
	}
	if (at + x > c->last_end)
		c->last_end = at + x;
	bool joins_before = i > 0 && c->end[AT(c, i - 1)] == at;
	bool joins_after = i < c->n && c->start[AT(c, i)] == at + x;
	if (joins_before && joins_after) { /* fills the gap: one interval */
		c->end[AT(c, i - 1)] = c->end[AT(c, i)];
		for (uint32_t j = i; j + 1 < c->n; j++) {
			c->start[AT(c, j)] = c->start[AT(c, j + 1)];
			c->end[AT(c, j)] = c->end[AT(c, j + 1)];
		}
		c->n--;
		return at;
	}
	if (joins_before) {
		c->end[AT(c, i - 1)] = at + x;
		return at;
	}
	if (joins_after) {
		c->start[AT(c, i)] = at;
		return at;
	}
	if (c->n == c->cap && grow(c)) {
		if (c->nomem)
			*c->nomem = true;
		at = t > c->last_end ? t : c->last_end;
		c->last_end = at + x;
		return at;
	}
	for (uint32_t j = c->n; j > i; j--) {
		c->start[AT(c, j)] = c->start[AT(c, j - 1)];
		c->end[AT(c, j)] = c->end[AT(c, j - 1)];
	}
	c->start[AT(c, i)] = at;
	c->end[AT(c, i)] = at + x;
	c->n++;
	return at;
}

uint64_t ssd_calendar_after(const struct ssd_calendar *c, uint64_t t)
{
	uint64_t sum = 0;
	for (uint32_t i = c->n; i-- > 0;) {
		uint32_t k = AT(c, i);
		if (c->end[k] <= t)
			break;
		sum += c->end[k] - (c->start[k] > t ? c->start[k] : t);
	}
	return sum;
}

void ssd_calendar_free(struct ssd_calendar *c)
{
	free(c->start);
	free(c->end);
	memset(c, 0, sizeof(*c));
}
