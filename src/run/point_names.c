/* point_names.c: a file name for a point of a sweep (run.h: iolab_config_point_name), what
 * --record DIR/ names each point's trace by. */
#include <stdio.h>
#include <string.h>

#include "iolab/parse.h"
#include "iolab/replay.h"
#include "point.h"

enum { NAME_MAX_CHARS = 96, STEM_MAX_CHARS = 48 };

/* Appends the printf-formatted text to buf (len bytes used of n). */
#define APPEND(buf, n, len, ...)                                                             \
	do {                                                                                 \
		if (len < n)                                                                 \
			len += (size_t)snprintf(buf + len, n - len, __VA_ARGS__);            \
	} while (0)

/* The stem: the pattern's name (a job's [worker] sections: theirs, joined by '+' as the table's
 * pattern column joins them), or a replay's trace file name without its extension. */
static void stem_of(const struct iolab_config *c, const struct point_params *pp, char *buf, size_t n)
{
	size_t len = 0;
	for (unsigned i = 0; i < c->nwspec && len < n; i++) {
		const struct iolab_worker_spec *ws = &c->wspec[i];
		len += (size_t)snprintf(buf + len, n - len, "%s%.*s", i ? "+" : "", STEM_MAX_CHARS,
					ws->has_pattern ? ws->spec.name : pp->spec.name);
	}
	if (c->nwspec)
		return;
	if (!c->replay) {
		snprintf(buf, n, "%.*s", STEM_MAX_CHARS, pp->spec.name);
		return;
	}
	const char *base = strrchr(c->replay->path, '/');
	base = base ? base + 1 : c->replay->path;
	const char *dot = strrchr(base, '.');
	len = dot && dot != base ? (size_t)(dot - base) : strlen(base);
	snprintf(buf, n, "%.*s", (int)(len < STEM_MAX_CHARS ? len : STEM_MAX_CHARS), base);
}

/* Every byte but letters, digits, '.', '_' and '-' becomes '-'; a leading '.' or '-' too. */
static void file_safe(char *s)
{
	for (char *p = s; *p; p++) {
		bool ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			  (*p >= '0' && *p <= '9') || *p == '.' || *p == '_' || *p == '-';
		if (!ok || (p == s && (*p == '.' || *p == '-')))
			*p = p == s ? 'x' : '-';
	}
}

void iolab_config_point_name(const struct iolab_config *c, unsigned k, char *buf, size_t n)
{
	struct point_params pp;
	point_decode(c, NULL, k, &pp);
	char stem[STEM_MAX_CHARS + 1], name[NAME_MAX_CHARS + 32];
	stem_of(c, &pp, stem, sizeof(stem));
	size_t len = 0;
	name[0] = 0;
	if (*c->name) /* a job file's run */
		APPEND(name, sizeof(name), len, "%.24s-", c->name);
	APPEND(name, sizeof(name), len, "%s", stem);
	if (pp.clients)
		APPEND(name, sizeof(name), len, "-c%u", pp.clients);
	else if (pp.rate > 0)
		APPEND(name, sizeof(name), len, "-r%.6g", pp.rate);
	else if (!c->nwspec) /* [worker] sections have each their own load */
		APPEND(name, sizeof(name), len, "-qd%u", c->replay && c->replay->mode == IOLAB_REPLAY_TIMED
			&& !c->nqd ? IOLAB_RATE_QD : pp.qd);
	if (c->nworkers > 1)
		APPEND(name, sizeof(name), len, "-w%u", pp.workers);
	if (c->nbs > 1) {
		char size[32];
		APPEND(name, sizeof(name), len, "-bs%s", iolab_fmt_size(pp.bs, size, sizeof(size)));
	}
	if (c->nread > 1)
		APPEND(name, sizeof(name), len, "-rd%d", pp.read_pct);
	name[NAME_MAX_CHARS] = 0;
	file_safe(name);
	snprintf(buf, n, "%s", name);
}
