/* kinds_text.c: the registry's kinds and keys (sim_kinds.h) as people read them: the table
 * `iolab sim kinds [KIND]` prints, and the key table of docs/subsystem-format.md, which
 * test_sim_kinds.c regenerates from here and compares with the doc. */
#include <stdio.h>
#include <string.h>

#include "iolab/parse.h"
#include "iolab/sim_kinds.h"

/* What a value of the type is, in a few words. */
static void type_text(const struct iolab_param *k, char *buf, size_t n)
{
	switch (k->type) {
	case IOLAB_PT_TIME: snprintf(buf, n, "time"); break;
	case IOLAB_PT_SIZE:
	case IOLAB_PT_SIZE_POS: snprintf(buf, n, "size"); break;
	case IOLAB_PT_RATE: snprintf(buf, n, "rate"); break;
	case IOLAB_PT_COUNT: snprintf(buf, n, "count"); break;
	case IOLAB_PT_BOOL: snprintf(buf, n, "yes/no"); break;
	case IOLAB_PT_SWITCH: snprintf(buf, n, "on/off"); break;
	case IOLAB_PT_CHOICE: snprintf(buf, n, "name"); break;
	case IOLAB_PT_BUS: snprintf(buf, n, "bus type"); break;
	case IOLAB_PT_CHANNEL: snprintf(buf, n, "channel type"); break;
	case IOLAB_PT_REF: snprintf(buf, n, "a %s", k->ref); break;
	case IOLAB_PT_MEMBERS: snprintf(buf, n, "devices"); break;
	case IOLAB_PT_MODEL: snprintf(buf, n, "model"); break;
	case IOLAB_PT_FAILED: snprintf(buf, n, "N or N+M"); break;
	case IOLAB_PT_CUSTOM: snprintf(buf, n, "%s", k->unit); break;
	}
}

/* One end of a range in its unit: "1 s", "1g", "1024". */
static void bound_text(const struct iolab_param *k, double v, char *buf, size_t n)
{
	if (!strcmp(k->unit, "ns") && v >= 1e9)
		snprintf(buf, n, "%.6g s", v / 1e9);
	else if (!strcmp(k->unit, "ns"))
		snprintf(buf, n, "%.6g us", v / 1e3);
	else if ((!strcmp(k->unit, "bytes") || !strcmp(k->unit, "bytes/s")) && v < 1.8e19)
		iolab_fmt_size((uint64_t)v, buf, n);
	else
		snprintf(buf, n, "%.6g", v);
}

void iolab_param_range_text(const struct iolab_param *k, char *buf, size_t n)
{
	char lo[32], hi[32];
	if (k->min == 0 && k->max == 0) {
		snprintf(buf, n, "-");
		return;
	}
	bound_text(k, k->min, lo, sizeof(lo));
	bound_text(k, k->max, hi, sizeof(hi));
	snprintf(buf, n, "%s to %s%s", lo, hi, !strcmp(k->unit, "bytes/s") ? "/s" : "");
}

/* The docs' text without its markdown back quotes. */
static void plain(const char *s, FILE *f)
{
	for (; *s; s++)
		if (*s != '`')
			fputc(*s, f);
}

void iolab_kind_write_text(const struct iolab_kind *k, FILE *f)
{
	fprintf(f, "%s%s: %s\n", k->name, k->cls == IOLAB_KC_HOST ? "" : " NAME", k->about);
	fprintf(f, "  %-16s %-13s %-3s %-5s %-16s %s\n", "key", "value", "req", "sweep", "range",
		"default");
	for (unsigned j = 0; j < k->nparams; j++) {
		const struct iolab_param *p = &k->params[j];
		char type[32], range[80];
		type_text(p, type, sizeof(type));
		iolab_param_range_text(p, range, sizeof(range));
		fprintf(f, "  %-16s %-13s %-3s %-5s %-16s ", p->key, type, p->required ? "yes" : "",
			p->fixed ? "no" : "yes", range);
		plain(*p->def_doc ? p->def_doc : "-", f);
		fprintf(f, "\n  %16s ", "");
		plain(p->doc, f);
		fputc('\n', f);
	}
}

void iolab_kinds_write_markdown(FILE *f)
{
	fprintf(f, "| kind | key | value | default | may vary in a sweep |\n");
	fprintf(f, "| --- | --- | --- | --- | --- |\n");
	for (unsigned i = 0; iolab_kind_at(i); i++) {
		const struct iolab_kind *k = iolab_kind_at(i);
		for (unsigned j = 0; j < k->nparams; j++) {
			const struct iolab_param *p = &k->params[j];
			if (j)
				fprintf(f, "| ");
			else if (k->cls == IOLAB_KC_HOST)
				fprintf(f, "| `%s` (at most one line) ", k->name);
			else
				fprintf(f, "| `%s NAME` ", k->name);
			fprintf(f, "| `%s` | %s%s | %s | %s |\n", p->key, p->doc,
				p->required ? "; required" : "", p->def_doc, p->fixed ? "no" : "yes");
		}
	}
}
