/* table_warnings.c: the warnings under the table, grouped: warnings of one kind (the same text
 * but for its numbers) on several points are one line with the points and each number's range,
 * "! 8 points (1-8): only 1791-4070 I/Os: p99 and above rest on fewer than 100 samples (they need
 * 10000 I/Os)", instead of a line per point; a warning on one point keeps its own line. The JSON
 * and CSV keep every point's warnings as they are. Warnings about figures the table does not
 * show (warn_detail) are left to those. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "output_common.h"

#define MAX_NUMS 8

/* One warning taken apart: its text with each number replaced by '#', and the numbers. A number
 * is digits (with a decimal point between digits) standing alone, not part of a name (loop3,
 * sdb1, x86). */
struct shape {
	char text[IOLAB_WARN_LEN];
	unsigned nnum;
	double num[MAX_NUMS];
	char lit[MAX_NUMS][32]; /* each number as written */
};

static bool name_char(char c)
{
	return isalpha((unsigned char)c) || c == '_' || c == '/' || c == '-' || c == '.';
}

static void take_apart(const char *w, struct shape *s)
{
	size_t o = 0;
	s->nnum = 0;
	for (size_t i = 0; w[i] && o + 1 < sizeof(s->text);) {
		size_t j = i;
		bool standalone = isdigit((unsigned char)w[i]) && (i == 0 || !name_char(w[i - 1]));
		if (standalone && s->nnum < MAX_NUMS) {
			while (isdigit((unsigned char)w[j]) ||
			       (w[j] == '.' && isdigit((unsigned char)w[j + 1]) && j > i))
				j++;
			if (!isalpha((unsigned char)w[j]) && j - i < sizeof(s->lit[0])) {
				memcpy(s->lit[s->nnum], w + i, j - i);
				s->lit[s->nnum][j - i] = 0;
				s->num[s->nnum] = strtod(s->lit[s->nnum], NULL);
				s->nnum++;
				s->text[o++] = '#';
				i = j;
				continue;
			}
		}
		/* copy a whole run of digits that is not a number, so that its tail is not one */
		j = i + 1;
		while (isdigit((unsigned char)w[i]) && isdigit((unsigned char)w[j]))
			j++;
		while (i < j && o + 1 < sizeof(s->text))
			s->text[o++] = w[i++];
	}
	s->text[o] = 0;
}

/* One shown warning: its point and its shape. */
struct shown {
	unsigned point;
	struct shape s;
	bool done;
};

/* "1-8", "1-3, 5, 7-8" of the points (1-based, ascending) in pts[0..n). */
static void point_list(FILE *f, const unsigned *pts, unsigned n)
{
	for (unsigned i = 0; i < n;) {
		unsigned j = i;
		while (j + 1 < n && pts[j + 1] == pts[j] + 1)
			j++;
		fprintf(f, "%s%u", i ? ", " : "", pts[i]);
		if (j > i)
			fprintf(f, "-%u", pts[j]);
		i = j + 1;
	}
}

/* Prints the group of ws[first] (the warnings of its shape, from first on), and marks them done. */
static void print_group(FILE *f, struct shown *ws, unsigned nw, unsigned first)
{
	const struct shape *s = &ws[first].s;
	unsigned *pts = malloc(nw * sizeof(*pts)), n = 0;
	unsigned lo[MAX_NUMS], hi[MAX_NUMS];
	for (unsigned k = 0; k < s->nnum; k++)
		lo[k] = hi[k] = first;
	for (unsigned i = first; i < nw; i++) {
		if (ws[i].done || strcmp(ws[i].s.text, s->text) || ws[i].s.nnum != s->nnum)
			continue;
		ws[i].done = true;
		if (pts && (!n || pts[n - 1] != ws[i].point + 1))
			pts[n++] = ws[i].point + 1;
		for (unsigned k = 0; k < s->nnum; k++) {
			if (ws[i].s.num[k] < ws[lo[k]].s.num[k])
				lo[k] = i;
			if (ws[i].s.num[k] > ws[hi[k]].s.num[k])
				hi[k] = i;
		}
	}
	if (!pts || n <= 1)
		fprintf(f, "  ! point %u: ", ws[first].point + 1);
	else {
		fprintf(f, "  ! %u points (", n);
		point_list(f, pts, n);
		fprintf(f, "): ");
	}
	unsigned k = 0;
	for (const char *c = s->text; *c; c++) {
		if (*c != '#' || k >= s->nnum) {
			fputc(*c, f);
			continue;
		}
		const char *a = ws[lo[k]].s.lit[k], *b = ws[hi[k]].s.lit[k];
		if (ws[lo[k]].s.num[k] == ws[hi[k]].s.num[k])
			fputs(a, f);
		else
			fprintf(f, "%s-%s", a, b);
		k++;
	}
	fputc('\n', f);
	free(pts);
}

void table_warnings(FILE *f, const struct iolab_results *r)
{
	unsigned nw = 0;
	for (unsigned i = 0; i < r->n; i++)
		nw += r->point[i].nwarn;
	struct shown *ws = nw ? calloc(nw, sizeof(*ws)) : NULL;
	if (!ws)
		return;
	nw = 0;
	for (unsigned i = 0; i < r->n; i++) {
		const struct iolab_point *p = &r->point[i];
		for (unsigned w = 0; w < p->nwarn; w++) {
			if (p->warn_detail & (UINT32_C(1) << w))
				continue; /* about a figure not in the table: JSON and CSV carry it */
			ws[nw].point = i;
			take_apart(p->warn[w], &ws[nw++].s);
		}
	}
	if (nw)
		fputc('\n', f);
	for (unsigned i = 0; i < nw; i++)
		if (!ws[i].done)
			print_group(f, ws, nw, i);
	free(ws);
}
