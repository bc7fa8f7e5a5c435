/* jobfile.c: the job-file parser (format in job.h and docs/job-files.md). Line-oriented: a
 * section header, then either option lines (name = value, handed to iolab_config_set) or, in a
 * pattern section, access-spec lines of 4 or 5 columns. A [worker NAME] section belongs to the
 * [run] before it: its lines (pattern, bs, read, qd, clients, think; one value each) are read
 * through the same option table into a scratch configuration, and become one worker's
 * iolab_worker_spec when the section ends. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iolab/job.h"
#include "iolab/textfile.h"

enum section { SEC_NONE, SEC_GLOBAL, SEC_PATTERN, SEC_RUN, SEC_WORKER };

struct parser {
	const char *name;
	unsigned line;
	enum section sec;
	struct iolab_config global;
	struct iolab_job *job;
	struct iolab_err *err;
	bool simulated;    /* read for `iolab sim`: options for real targets are errors */
	unsigned pattern_line[IOLAB_PATTERNS_MAX]; /* where each [pattern] starts */
	unsigned *given_line; /* by option index (every option of the table): the line that set it
				 in this section, or 0 */
	struct iolab_config *wk; /* a [worker] section's options as they are read */
	unsigned wk_line;        /* where it starts */
};

static int fail(struct parser *p, const char *fmt, const char *a, const char *b)
{
	return iolab_errf(p->err, EINVAL, "%s:%u: %s%s%s", p->name, p->line, fmt, a ? a : "", b ? b : "");
}

/* The options a [worker] section takes. */
static const char *const worker_fields[] = {"pattern", "bs", "read", "qd", "clients", "think"};

/* Ends a [worker] section: its options become the run's next worker. */
static int worker_end(struct parser *p)
{
	if (p->sec != SEC_WORKER)
		return 0;
	struct iolab_config *k = p->wk;
	struct iolab_config *run = &p->job->run[p->job->nrun - 1];
	struct iolab_worker_spec *ws = &run->wspec[run->nwspec - 1];
	unsigned save = p->line;
	p->line = p->wk_line;
	const char *many = k->npattern > 1 ? "pattern" : k->nbs > 1 ? "bs" : k->nread > 1 ? "read"
			   : k->nqd > 1 ? "qd" : k->nclients > 1 ? "clients" : NULL;
	int rc = 0;
	if (many)
		rc = iolab_errf(p->err, EINVAL, "%s:%u: worker '%s': field '%s': a worker runs one "
				"value (a list sweeps in a [run], not in a [worker])", p->name, p->line,
				ws->name, many);
	p->line = save;
	if (rc)
		return rc;
	ws->has_pattern = k->npattern == 1;
	if (ws->has_pattern)
		ws->spec = k->pattern[0];
	ws->bs = k->nbs ? k->bs[0] : 0;
	ws->read_pct = k->nread ? (int)k->read[0] : -1;
	ws->qd = k->nqd ? k->qd[0] : 0;
	ws->clients = k->nclients ? k->clients[0] : 0;
	ws->think_ns = k->think_ns;
	ws->think_exp = k->think_exp;
	if (k->think_set && !ws->clients)
		return iolab_errf(p->err, EINVAL, "%s:%u: worker '%s': field 'think': only with "
				  "'clients' in the same section", p->name, p->wk_line, ws->name);
	return 0;
}

/* Starts a [worker NAME] section in the run before it. */
static int worker_begin(struct parser *p, const char *name)
{
	if (!p->job->nrun)
		return fail(p, "[worker ", name, "] belongs to a [run]: put it after one");
	struct iolab_config *run = &p->job->run[p->job->nrun - 1];
	for (unsigned i = 0; i < run->nwspec; i++)
		if (!strcmp(run->wspec[i].name, name))
			return fail(p, "worker '", name, "' is defined twice in this run");
	if (run->nwspec == IOLAB_WORKER_SPECS_MAX)
		return fail(p, "too many [worker] sections in this run", NULL, NULL);
	if (!p->wk && !(p->wk = malloc(sizeof(*p->wk))))
		return iolab_errf(p->err, ENOMEM, "%s: out of memory", p->name);
	iolab_config_init(p->wk);
	p->wk->patterns = &p->job->patterns;
	struct iolab_worker_spec *ws = &run->wspec[run->nwspec++];
	memset(ws, 0, sizeof(*ws));
	snprintf(ws->name, sizeof(ws->name), "%s", name);
	p->wk_line = p->line;
	p->sec = SEC_WORKER;
	return 0;
}

static bool valid_name(const char *s)
{
	if (!*s || strlen(s) >= IOLAB_NAME_MAX)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("-_.", *s))
			return false;
	return true;
}

static int section(struct parser *p, char *hdr)
{
	char *end = strchr(hdr, ']');
	if (!end || *iolab_trim(end + 1))
		return fail(p, "a section header looks like [global], [pattern NAME], [run NAME] or "
			    "[worker NAME]", NULL, NULL);
	*end = 0;
	int rc = worker_end(p);
	if (rc)
		return rc;
	char *kind = iolab_trim(hdr + 1), *name = kind;
	while (*name && !isspace((unsigned char)*name))
		name++;
	if (*name)
		*name++ = 0;
	name = iolab_trim(name);
	memset(p->given_line, 0, iolab_option_count() * sizeof(*p->given_line));
	if (!strcmp(kind, "global")) {
		if (*name)
			return fail(p, "[global] takes no name", NULL, NULL);
		if (p->job->nrun)
			return fail(p, "[global] must come before the first [run]", NULL, NULL);
		p->sec = SEC_GLOBAL;
		return 0;
	}
	if (strcmp(kind, "pattern") && strcmp(kind, "run") && strcmp(kind, "worker"))
		return fail(p, "unknown section '", kind, "' (global, pattern, run or worker)");
	if (!valid_name(name))
		return fail(p, "section name '", name, "' must be letters, digits, '-', '_' or '.'");
	if (!strcmp(kind, "worker"))
		return worker_begin(p, name);
	if (!strcmp(kind, "pattern")) {
		struct iolab_pattern_set *ps = &p->job->patterns;
		if (iolab_pattern_find(name))
			return fail(p, "pattern '", name, "' is a built-in name");
		for (unsigned i = 0; i < ps->n; i++)
			if (!strcmp(ps->spec[i].name, name))
				return fail(p, "pattern '", name, "' is defined twice");
		if (ps->n == IOLAB_PATTERNS_MAX)
			return fail(p, "too many patterns", NULL, NULL);
		p->pattern_line[ps->n] = p->line;
		struct iolab_spec *s = &ps->spec[ps->n++];
		memset(s, 0, sizeof(*s));
		snprintf(s->name, sizeof(s->name), "%s", name);
		p->sec = SEC_PATTERN;
		return 0;
	}
	for (unsigned i = 0; i < p->job->nrun; i++)
		if (!strcmp(p->job->run[i].name, name))
			return fail(p, "run '", name, "' is defined twice");
	if (p->job->nrun == IOLAB_JOB_RUNS)
		return fail(p, "too many runs", NULL, NULL);
	struct iolab_config *runs = realloc(p->job->run, (p->job->nrun + 1) * sizeof(*runs));
	if (!runs)
		return iolab_errf(p->err, ENOMEM, "%s: out of memory", p->name);
	p->job->run = runs;
	struct iolab_config *c = &p->job->run[p->job->nrun++];
	*c = p->global;
	snprintf(c->name, sizeof(c->name), "%s", name);
	p->sec = SEC_RUN;
	return 0;
}

/* "size share read random [align]" in a [pattern] section. */
static int spec_line(struct parser *p, char *text)
{
	static const char *const field[] = {"size", "share", "read", "random", "align"};
	struct iolab_spec *s = &p->job->patterns.spec[p->job->patterns.n - 1];
	if (s->nlines == IOLAB_SPEC_LINES)
		return fail(p, "too many lines in the pattern", NULL, NULL);
	struct iolab_spec_line *l = &s->line[s->nlines];
	char *col[6];
	unsigned n = 0;
	for (char *sv, *tok = strtok_r(text, " \t", &sv); tok; tok = strtok_r(NULL, " \t", &sv))
		if (n < 6)
			col[n++] = tok;
		else
			n = 7;
	if (n < 4 || n > 5)
		return fail(p, "a pattern line is: size share% read% random% [align]", NULL, NULL);
	int rc = 0;
	char f[64];
	for (unsigned i = 0; i < n && !rc; i++) {
		snprintf(f, sizeof(f), "field '%s'", field[i]);
		switch (i) {
		case 0: rc = iolab_parse_size(f, col[i], &l->size, p->err); break;
		case 1: rc = iolab_parse_pct(f, col[i], &l->share, p->err); break;
		case 2: rc = iolab_parse_pct(f, col[i], &l->read_pct, p->err); break;
		case 3: rc = iolab_parse_pct(f, col[i], &l->random_pct, p->err); break;
		case 4: rc = iolab_parse_size(f, col[i], &l->align, p->err); break;
		}
	}
	if (!rc && (l->size == 0 || l->size > (1u << 30)))
		return fail(p, "field 'size': must be 1 byte..1 GiB", NULL, NULL);
	if (!rc && n == 5 && l->align == 0)
		return fail(p, "field 'align': must be more than 0", NULL, NULL);
	if (rc) {
		iolab_err_prefix(p->err, "%s:%u", p->name, p->line);
		return rc;
	}
	s->nlines++;
	return 0;
}

/* The index of option name in the option table, or -1. */
static int option_index(const char *name)
{
	for (unsigned i = 0; i < iolab_option_count(); i++)
		if (!strcmp(iolab_option_at(i)->name, name))
			return (int)i;
	return -1;
}

/* Refuses an option given twice in one section, one that excludes another given there, and
 * one a simulation does not use. */
static int check_given(struct parser *p, const char *key)
{
	int i = option_index(key);
	if (i < 0)
		return 0; /* unknown: iolab_config_set says so */
	char line[16];
	if (p->given_line[i] && !iolab_option_repeatable(key)) {
		snprintf(line, sizeof(line), "%u", p->given_line[i]);
		return iolab_errf(p->err, EINVAL, "%s:%u: field '%s': already given on line %s of this "
				  "section", p->name, p->line, key, line);
	}
	const char *other = iolab_option_excludes(key);
	int j = other ? option_index(other) : -1;
	if (j >= 0 && p->given_line[j])
		return iolab_errf(p->err, EINVAL, "%s:%u: field '%s': cannot be used with '%s' (line %u)",
				  p->name, p->line, key, other, p->given_line[j]);
	if (p->simulated && !iolab_option_simulated(key))
		return iolab_errf(p->err, EINVAL, "%s:%u: field '%s': does not apply to a simulated drive",
				  p->name, p->line, key);
	if (!p->simulated && !iolab_option_real(key))
		return iolab_errf(p->err, EINVAL, "%s:%u: field '%s': applies only to a simulated drive "
				  "(iolab sim --job)", p->name, p->line, key);
	p->given_line[i] = p->line;
	return 0;
}

/* model = NAME in [global]: the simulated drive of the job's runs (as --model; `drive =`, the
 * drives of an array, is an option of each run). */
static int job_drive(struct parser *p, const char *key, const char *val)
{
	if (!p->simulated)
		return fail(p, "field '", key, "': applies only to a simulated drive (iolab sim --job)");
	if (p->sec != SEC_GLOBAL)
		return fail(p, "field '", key, "': the job's drive, given in [global]");
	if (!val || !*val || strlen(val) >= sizeof(p->job->model))
		return fail(p, "field '", key, "': needs a model name or file (see 'iolab models')");
	if (*p->job->model)
		return fail(p, "field '", key, "': the job's drive is already given (once)");
	snprintf(p->job->model, sizeof(p->job->model), "%s", val);
	return 0;
}

static int option_line(struct parser *p, char *text)
{
	char *eq = strchr(text, '=');
	char *key = text, *val = NULL;
	if (eq) {
		*eq = 0;
		val = iolab_trim(eq + 1);
	}
	key = iolab_trim(key);
	if (!strcmp(key, "model"))
		return job_drive(p, key, val);
	bool mine = p->sec != SEC_WORKER;
	for (unsigned i = 0; !mine && i < sizeof(worker_fields) / sizeof(worker_fields[0]); i++)
		mine = !strcmp(key, worker_fields[i]);
	if (!mine)
		return fail(p, "field '", key, "': not a worker's (a [worker] takes pattern, bs, read, "
			    "qd, clients, think; the rest is its [run]'s)");
	int given = check_given(p, key);
	if (given)
		return given;
	struct iolab_config *c = p->sec == SEC_GLOBAL ? &p->global : p->sec == SEC_WORKER ? p->wk
				 : &p->job->run[p->job->nrun - 1];
	c->patterns = &p->job->patterns;
	int rc = iolab_config_set(c, key, val && *val ? val : (eq ? "" : NULL), p->err);
	if (rc == -ENOENT)
		return fail(p, "field '", key, "': unknown option (see 'iolab run --help')");
	if (rc) { /* "qd: 'x' is ..." becomes "job:7: field 'qd': 'x' is ..." */
		char msg[sizeof(p->err->msg)];
		memcpy(msg, p->err->msg, sizeof(msg));
		size_t k = strlen(key);
		const char *rest = !strncmp(msg, key, k) && !strncmp(msg + k, ": ", 2) ? msg + k + 2 : msg;
		iolab_errf(p->err, EINVAL, "%s:%u: field '%s': %s", p->name, p->line, key, rest);
	}
	return rc;
}

int iolab_job_parse(const char *name, const char *text, bool simulated, struct iolab_job *job,
		    struct iolab_err *err)
{
	memset(job, 0, sizeof(*job));
	struct parser *p = calloc(1, sizeof(*p));
	unsigned *given = calloc(iolab_option_count(), sizeof(*given));
	if (!p || !given) {
		free(p);
		free(given);
		iolab_job_free(job);
		return iolab_errf(err, ENOMEM, "%s: out of memory", name);
	}
	p->given_line = given;
	p->name = name;
	p->job = job;
	p->err = err;
	p->simulated = simulated;
	iolab_config_init(&p->global);
	int rc = 0;
	const char *at = text;
	while (*at && !rc) {
		const char *nl = strchr(at, '\n');
		size_t len = nl ? (size_t)(nl - at) : strlen(at);
		p->line++;
		char buf[4096];
		if (len >= sizeof(buf)) {
			rc = fail(p, "line is too long", NULL, NULL);
			break;
		}
		memcpy(buf, at, len);
		buf[len] = 0;
		at += len + (nl ? 1 : 0);
		if (memchr(buf, 0, len)) {
			rc = fail(p, "line holds a NUL byte", NULL, NULL);
			break;
		}
		char *hash = strchr(buf, '#');
		if (hash)
			*hash = 0;
		char *l = iolab_trim(buf);
		if (!*l)
			continue;
		if (*l == '[')
			rc = section(p, l);
		else if (p->sec == SEC_NONE)
			rc = fail(p, "text before the first section ([global], [pattern NAME], [run NAME])",
				  NULL, NULL);
		else if (p->sec == SEC_PATTERN)
			rc = spec_line(p, l);
		else
			rc = option_line(p, l);
	}
	if (!rc)
		rc = worker_end(p);
	if (!rc && !job->nrun)
		rc = iolab_errf(err, EINVAL, "%s: no [run NAME] section", name);
	for (unsigned i = 0; i < job->patterns.n && !rc; i++) {
		rc = iolab_spec_validate(&job->patterns.spec[i], err);
		if (rc)
			iolab_err_prefix(err, "%s:%u", name, p->pattern_line[i]);
	}
	free(p->given_line);
	free(p->wk);
	free(p);
	if (rc)
		iolab_job_free(job);
	return rc;
}

int iolab_job_load(const char *path, bool simulated, struct iolab_job *job, struct iolab_err *err)
{
	char *text;
	int rc = iolab_read_text(path, 16u << 20, "a job file", &text, err);
	if (rc)
		return rc;
	rc = iolab_job_parse(path, text, simulated, job, err);
	free(text);
	return rc;
}

void iolab_job_free(struct iolab_job *job)
{
	free(job->run);
	memset(job, 0, sizeof(*job));
}
