/* fault_rules.c: the rules of --fault (fault.h): parsing one, the names of the kinds, the counts
 * of what was injected and the state one run of a point shares between its workers. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "iolab/fault.h"
#include "iolab/parse.h"
#include "iolab/workload.h"

static const char *const kind_name[IOLAB_FAULT_KINDS] = {
	[IOLAB_FAULT_EIO] = "eio", [IOLAB_FAULT_SHORT] = "short", [IOLAB_FAULT_ENOSPC] = "enospc",
	[IOLAB_FAULT_DELAY] = "delay", [IOLAB_FAULT_VANISH] = "vanish",
};

const char *iolab_fault_kind_name(unsigned kind)
{
	return kind < IOLAB_FAULT_KINDS ? kind_name[kind] : "?";
}

#define SYNTAX "KIND[:read|:write][=VALUE] then @N, /N or %P, with KIND eio, short, enospc, " \
	       "delay=TIME or vanish[=eio]: eio:read@1000, short-write%1, delay=50ms%0.1, vanish@5000"

static int bad(struct iolab_err *err, const char *field, const char *text, const char *why)
{
	return iolab_errf(err, EINVAL, "%s: '%s' %s", field, text, why);
}

/* The kind and direction of head ("eio", "eio:read", "short-write"); false if neither is known. */
static bool parse_head(char *head, struct iolab_fault_rule *r, const char **why)
{
	char *dir = strchr(head, ':');
	if (!dir) { /* KIND-read, KIND-write */
		char *dash = strrchr(head, '-');
		if (dash && (!strcmp(dash + 1, "read") || !strcmp(dash + 1, "write")))
			dir = dash;
	}
	r->ops = 1u << IOLAB_OP_READ | 1u << IOLAB_OP_WRITE;
	if (dir) {
		*dir++ = 0;
		if (strcmp(dir, "read") && strcmp(dir, "write")) {
			*why = "names a direction that is not read or write (" SYNTAX ")";
			return false;
		}
		r->ops = 1u << (strcmp(dir, "read") ? IOLAB_OP_WRITE : IOLAB_OP_READ);
	}
	for (unsigned k = 0; k < IOLAB_FAULT_KINDS; k++)
		if (!strcmp(head, kind_name[k])) {
			r->kind = (uint8_t)k;
			return true;
		}
	*why = "is not a fault: " SYNTAX;
	return false;
}

/* The =VALUE of r's kind (NULL: none given). */
static int parse_value(const char *field, const char *text, const char *value,
		       struct iolab_fault_rule *r, struct iolab_err *err)
{
	r->vanish_errno = ENODEV;
	if (r->kind == IOLAB_FAULT_DELAY) {
		if (!value)
			return bad(err, field, text, "needs the time: delay=TIME (delay=50ms%0.1)");
		int rc = iolab_parse_duration(field, value, &r->delay_ns, err);
		if (!rc && !r->delay_ns)
			return bad(err, field, text, "delays by nothing: give a time above 0");
		return rc;
	}
	if (r->kind == IOLAB_FAULT_VANISH && value) {
		if (strcmp(value, "eio") && strcmp(value, "enodev"))
			return bad(err, field, text, "fails the I/Os after the vanishing with enodev "
				   "(the default) or eio, nothing else");
		r->vanish_errno = strcmp(value, "eio") ? ENODEV : EIO;
		return 0;
	}
	if (value)
		return iolab_errf(err, EINVAL, "%s: '%s': %s takes no =VALUE", field, text,
				  kind_name[r->kind]);
	return 0;
}

int iolab_fault_parse(const char *field, const char *text, struct iolab_fault_rule *r,
		      struct iolab_err *err)
{
	memset(r, 0, sizeof(*r));
	size_t len = strlen(text);
	if (len >= sizeof(r->text))
		return iolab_errf(err, EINVAL, "%s: '%.40s...' is longer than a rule can be (%zu "
				  "characters)", field, text, sizeof(r->text) - 1);
	char buf[IOLAB_FAULT_TEXT];
	memcpy(buf, text, len + 1);
	char *mark = strpbrk(buf, "@/%");
	if (!mark)
		return bad(err, field, text, "does not say when it strikes: @N (the Nth I/O), /N "
			   "(every Nth) or %P (P percent of them)");
	char when = *mark, *count = mark + 1;
	*mark = 0;
	char *value = strchr(buf, '=');
	if (value)
		*value++ = 0;
	const char *why;
	if (!parse_head(buf, r, &why))
		return bad(err, field, text, why);
	if (r->kind == IOLAB_FAULT_ENOSPC) {
		if (!(r->ops & 1u << IOLAB_OP_WRITE))
			return bad(err, field, text, "cannot be: only writes run out of space");
		r->ops = 1u << IOLAB_OP_WRITE;
	}
	int rc = parse_value(field, text, value, r, err);
	if (rc)
		return rc;
	if (when == '%') {
		r->when = IOLAB_FAULT_CHANCE;
		double pct;
		if (iolab_parse_double(field, count, 0, 100, &pct, err) || !(pct > 0))
			return bad(err, field, text, "needs a percentage above 0 and at most 100 after %");
		r->chance = pct / 100;
	} else {
		r->when = when == '@' ? IOLAB_FAULT_AT : IOLAB_FAULT_EVERY;
		uint64_t n;
		if (iolab_parse_uint(field, count, 1, UINT64_MAX / 2, &n, err))
			return bad(err, field, text, when == '@' ? "needs an I/O number from 1 after @"
				   : "needs a count from 1 after / (every Nth I/O)");
		r->n = n;
	}
	memcpy(r->text, text, len + 1);
	return 0;
}

uint64_t iolab_fault_counts_total(const struct iolab_fault_counts *c)
{
	uint64_t n = 0;
	for (unsigned k = 0; k < IOLAB_FAULT_KINDS; k++)
		n += c->kind[k];
	return n;
}

void iolab_fault_counts_add(struct iolab_fault_counts *a, const struct iolab_fault_counts *b)
{
	for (unsigned k = 0; k < IOLAB_FAULT_KINDS; k++)
		a->kind[k] += b->kind[k];
}

void iolab_fault_run_init(struct iolab_fault_run *run, const struct iolab_fault_plan *plan,
			  uint64_t seed)
{
	run->plan = plan;
	run->seed = seed;
	for (unsigned i = 0; i < IOLAB_FAULTS_MAX; i++)
		atomic_init(&run->seen[i], 0);
	atomic_init(&run->vanished, 0);
	for (unsigned k = 0; k < IOLAB_FAULT_KINDS; k++)
		atomic_init(&run->injected[k], 0);
}

void iolab_fault_run_counts(struct iolab_fault_run *run, struct iolab_fault_counts *out)
{
	for (unsigned k = 0; k < IOLAB_FAULT_KINDS; k++)
		out->kind[k] = atomic_load(&run->injected[k]);
}
