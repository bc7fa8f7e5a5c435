/* fuzz_values.c: libFuzzer target for the value parsers behind every option: sizes, percents,
 * durations, numbers, lists, offset distributions, --fault rules and the figures of `iolab model
 * new` (model_datasheet.h); and for what messages
 * write back: the size formatter (its text reads back as the same count, or within 0.5 % after a
 * "~") and the \xNN escaping of text (its result is clean and says how long it is). */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "iolab/model_datasheet.h"
#include "iolab/parse.h"
#include "iolab/run.h"
#include "iolab/utf8.h"
#include "iolab/workload.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char s[512];
	if (size >= sizeof(s))
		size = sizeof(s) - 1;
	memcpy(s, data, size);
	s[size] = 0;
	struct iolab_err err;
	uint64_t u;
	unsigned pct;
	double d;
	bool b;
	struct iolab_dist dist;
	char buf[600], *items[IOLAB_LIST_MAX];
	(void)iolab_parse_size("f", s, &u, &err);
	(void)iolab_parse_pct("f", s, &pct, &err);
	(void)iolab_parse_duration("f", s, &u, &err);
	(void)iolab_parse_uint("f", s, 0, 100, &u, &err);
	(void)iolab_parse_double("f", s, -1, 1, &d, &err);
	(void)iolab_parse_bool("f", s, &b, &err);
	(void)iolab_split_list("f", s, buf, sizeof(buf), items, IOLAB_LIST_MAX, &err);
	if (iolab_dist_parse("f", s, &dist, &err) == 0) {
		char name[64];
		iolab_dist_name(&dist, name, sizeof(name));
	}
	uint64_t n = 0, back;
	memcpy(&n, data, size < sizeof(n) ? size : sizeof(n));
	char text[64];
	iolab_fmt_size(n, text, sizeof(text));
	bool rounded = text[0] == '~';
	if (iolab_parse_size("f", text + rounded, &back, &err) ||
	    (rounded ? fabsl((long double)back - (long double)n) > 0.005L * n : back != n))
		abort();
	size_t len = iolab_utf8_escape(s, NULL, 0);
	char *e = iolab_utf8_escape_dup(s);
	if (!e || strlen(e) != len || !iolab_utf8_clean(e) || (iolab_utf8_clean(s) && strcmp(e, s)))
		abort();
	free(e);
	static struct iolab_config c;
	iolab_config_init(&c);
	static const char *const opts[] = {"bs", "qd", "pattern", "read", "stroke", "time", "dist", "fault"};
	for (unsigned i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
		(void)iolab_config_set(&c, opts[i], s, &err);
	struct iolab_datasheet ds = {0};
	for (unsigned i = 0; i < IOLAB_DS_NINPUTS; i++)
		(void)iolab_ds_set(&ds, i, s, &err);
	return 0;
}
