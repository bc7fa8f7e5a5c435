/* disksim_tree.c: DiskSim 4.0 parameter files read into a tree (disksim_tree.h).
 *
 * DiskSim's parameter files are blocks of `Name with spaces = value` parameters separated by
 * commas; a value is a number or a word ("source x.model", "extracted", "x.seek"), a block
 * (`type { ... }`) or a list (`[ v, v, ... ]`); '#' starts a comment. `source FILE` anywhere a
 * value reads FILE in its place; `TYPE NAME { ... }` defines NAME for later values. The reader
 * builds a small tree of the whole file, then parameters are looked up by name (compared
 * without regard to case). Every error is one line naming the file, the line and the DiskSim
 * parameter. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "iolab/parse_number.h"
#include "iolab/textfile.h"
#include "sim/formats/disksim_params.h"
#include "sim/formats/disksim_tree.h"

#define MAX_FILE_BYTES (16u << 20)
#define MAX_DEPTH 32

/* ---------------------------------------------------------------------------------------- */
/* The tree */


/* Deep copy of v into c (for `[ a, b ] = value`). Returns 0 or -ENOMEM. */
int ds_dval_copy(const struct dval *v, struct dval *c)
{
	*c = (struct dval){.kind = v->kind, .line = v->line, .file = v->file};
	if ((v->text && !(c->text = strdup(v->text))) || (v->bname && !(c->bname = strdup(v->bname))))
		return -ENOMEM;
	if (v->nparam && !(c->param = calloc(v->nparam, sizeof(*c->param))))
		return -ENOMEM;
	for (; c->nparam < v->nparam; c->nparam++) {
		const struct dparam *a = &v->param[c->nparam];
		struct dparam *b = &c->param[c->nparam];
		*b = (struct dparam){.line = a->line, .file = a->file};
		if (!(b->name = strdup(a->name)) || ds_dval_copy(&a->v, &b->v)) {
			c->nparam++;
			return -ENOMEM;
		}
	}
	if (v->nitem && !(c->item = calloc(v->nitem, sizeof(*c->item))))
		return -ENOMEM;
	for (; c->nitem < v->nitem; c->nitem++)
		if (ds_dval_copy(&v->item[c->nitem], &c->item[c->nitem])) {
			c->nitem++;
			return -ENOMEM;
		}
	return 0;
}

void ds_dval_free(struct dval *v)
{
	for (unsigned i = 0; i < v->nparam; i++) {
		free(v->param[i].name);
		ds_dval_free(&v->param[i].v);
	}
	for (unsigned i = 0; i < v->nitem; i++)
		ds_dval_free(&v->item[i]);
	free(v->param);
	free(v->item);
	free(v->text);
	free(v->bname);
	memset(v, 0, sizeof(*v));
}

/* ---------------------------------------------------------------------------------------- */
/* The tokenizer */

enum tok { T_EOF, T_WORD, T_LBRACE, T_RBRACE, T_LBRACK, T_RBRACK, T_COMMA, T_EQ,
	   T_ERR /* a `source` that failed: the error is in lx->err */ };

struct token {
	enum tok t;
	const char *p;
	size_t len;
	unsigned line;
	const char *file;
};

/* Where the lexer was in the files that `source` another one (libparam's include stack). */
struct lexframe {
	const char *file, *s;
	unsigned line;
};

struct lexer {
	const char *file;
	const char *s;
	unsigned line;
	bool peeked;
	struct token la;
	struct iolab_err *err;
	struct ds_sources *src;
	const char *field;         /* the parameter whose value is being read (messages) */
	unsigned depth;            /* files open through `source` */
	struct lexframe stack[MAX_DEPTH];
};

static bool special(char c)
{
	return c == '{' || c == '}' || c == '[' || c == ']' || c == ',' || c == '=' || c == '#';
}

static int source_push(struct lexer *lx, const struct token *name);

/* Skips white space and comments; at the end of a file read through `source`, goes back to the
 * file that sourced it. */
static void lex_skip(struct lexer *lx)
{
	for (;;) {
		while (*lx->s && isspace((unsigned char)*lx->s)) {
			if (*lx->s == '\n')
				lx->line++;
			lx->s++;
		}
		if (*lx->s == '#') {
			while (*lx->s && *lx->s != '\n')
				lx->s++;
			continue;
		}
		if (*lx->s || !lx->depth)
			return;
		struct lexframe *f = &lx->stack[--lx->depth];
		lx->file = f->file;
		lx->s = f->s;
		lx->line = f->line;
	}
}

static struct token lex_raw(struct lexer *lx);

/* The next token; `source FILE` (a word "source" and the file's name) is replaced by the
 * tokens of FILE wherever it appears, like libparam's lexer does (DiskSim 4.0 manual §3 p6). */
static struct token lex_next(struct lexer *lx)
{
	if (lx->peeked) {
		lx->peeked = false;
		return lx->la;
	}
	for (;;) {
		struct token t = lex_raw(lx);
		if (t.t != T_WORD || t.len != 6 || memcmp(t.p, "source", 6))
			return t;
		struct token name = lex_raw(lx);
		if (name.t != T_WORD) {
			iolab_errf(lx->err, EINVAL, "%s:%u: field '%s': 'source' needs a file name, found "
				   "%s", t.file, t.line, lx->field ? lx->field : "source",
				   name.t == T_EOF ? "the end of the file" : "a separator");
			t.t = T_ERR;
			return t;
		}
		if (source_push(lx, &name)) {
			t.t = T_ERR;
			return t;
		}
	}
}

static struct token lex_raw(struct lexer *lx)
{
	lex_skip(lx);
	struct token t = {.p = lx->s, .len = 1, .line = lx->line, .file = lx->file};
	switch (*lx->s) {
	case 0: t.t = T_EOF; t.len = 0; return t;
	case '{': t.t = T_LBRACE; break;
	case '}': t.t = T_RBRACE; break;
	case '[': t.t = T_LBRACK; break;
	case ']': t.t = T_RBRACK; break;
	case ',': t.t = T_COMMA; break;
	case '=': t.t = T_EQ; break;
	default:
		t.t = T_WORD;
		while (lx->s[t.len] && !isspace((unsigned char)lx->s[t.len]) && !special(lx->s[t.len]))
			t.len++;
		lx->s += t.len;
		return t;
	}
	lx->s++;
	return t;
}

static struct token lex_peek(struct lexer *lx)
{
	if (!lx->peeked) {
		lx->la = lex_next(lx);
		lx->peeked = true;
	}
	return lx->la;
}

static const char *tok_desc(const struct token *t)
{
	switch (t->t) {
	case T_EOF: return "the end of the file";
	case T_WORD: return "a word";
	case T_LBRACE: return "'{'";
	case T_RBRACE: return "'}'";
	case T_LBRACK: return "'['";
	case T_RBRACK: return "']'";
	case T_COMMA: return "','";
	case T_EQ: return "'='";
	case T_ERR: return "an error";
	}
	return "?";
}

int ds_oom(struct iolab_err *err, const char *file)
{
	return iolab_errf(err, ENOMEM, "%s: out of memory", file);
}

/* Appends the word t to *buf, one space between words. */
static int add_word(struct lexer *lx, char **buf, const struct token *t)
{
	size_t old = *buf ? strlen(*buf) : 0;
	if (old + t->len > 4096)
		return iolab_errf(lx->err, EINVAL, "%s:%u: a name or value longer than 4096 characters",
				  lx->file, t->line);
	char *n = realloc(*buf, old + t->len + 2);
	if (!n)
		return ds_oom(lx->err, lx->file);
	if (old)
		n[old++] = ' ';
	memcpy(n + old, t->p, t->len);
	n[old + t->len] = 0;
	*buf = n;
	return 0;
}

static int keep(struct lexer *lx, char *p)
{
	struct ds_sources *src = lx->src;
	if (src->n == src->cap) {
		unsigned cap = src->cap ? src->cap * 2 : 8;
		char **n = realloc(src->owned, cap * sizeof(*n));
		if (!n) {
			free(p);
			return ds_oom(lx->err, lx->file);
		}
		src->owned = n;
		src->cap = cap;
	}
	src->owned[src->n++] = p;
	return 0;
}

void ds_sources_free(struct ds_sources *src)
{
	for (unsigned i = 0; i < src->n; i++)
		free(src->owned[i]);
	free(src->owned);
	memset(src, 0, sizeof(*src));
}

/* `source NAME`: reads NAME (relative to the directory of the file naming it) and lexes it
 * next; at most MAX_DEPTH files deep (the manual's limit, §3 p6). */
static int source_push(struct lexer *lx, const struct token *name)
{
	const char *field = lx->field ? lx->field : "source";
	if (lx->depth == MAX_DEPTH)
		return iolab_errf(lx->err, EINVAL, "%s:%u: field '%s': 'source %.*s' nested more than "
				  "%d files deep", name->file, name->line, field, (int)name->len,
				  name->p, MAX_DEPTH);
	char *rel = strndup(name->p, name->len), *path = rel ? ds_sibling(name->file, rel) : NULL, *text;
	free(rel);
	if (!path || keep(lx, path))
		return ds_oom(lx->err, lx->file);
	int rc = ds_slurp(path, &text, lx->err);
	if (rc) {
		iolab_err_prefix(lx->err, "%s:%u: field '%s'", name->file, name->line, field);
		return rc;
	}
	if (keep(lx, text))
		return -ENOMEM;
	lx->stack[lx->depth++] = (struct lexframe){lx->file, lx->s, lx->line};
	lx->file = path;
	lx->s = text;
	lx->line = 1;
	return 0;
}

static int parse_block_body(struct lexer *lx, struct dval *blk, unsigned depth);

/* A value: words, a block ("type { ... }") or a list ("[ ... ]"). */
static int parse_value(struct lexer *lx, struct dval *v, const char *field, unsigned depth)
{
	if (depth > MAX_DEPTH)
		return iolab_errf(lx->err, EINVAL, "%s:%u: field '%s': nested more than %d deep",
				  lx->file, lx->line, field, MAX_DEPTH);
	struct token t = lex_peek(lx);
	if (t.t == T_ERR)
		return -EINVAL;
	v->file = t.file;
	v->line = t.line;
	while ((t = lex_peek(lx)).t == T_WORD) {
		lex_next(lx);
		if (add_word(lx, &v->text, &t))
			return -EINVAL;
	}
	if (t.t == T_ERR)
		return -EINVAL;
	if (t.t == T_LBRACE) {
		lex_next(lx);
		v->kind = V_BLOCK;
		v->line = t.line;
		v->file = t.file;
		char *sp = v->text ? strchr(v->text, ' ') : NULL;
		if (sp) { /* `TYPE NAME { ... }` (a sourced .model file's dm_disk block) */
			*sp = 0;
			v->bname = strdup(sp + 1);
			if (!v->bname)
				return ds_oom(lx->err, lx->file);
		}
		return parse_block_body(lx, v, depth + 1);
	}
	if (t.t == T_LBRACK && !v->text) {
		lex_next(lx);
		v->kind = V_LIST;
		unsigned cap = 0;
		for (;;) {
			t = lex_peek(lx);
			if (t.t == T_RBRACK) {
				lex_next(lx);
				return 0;
			}
			if (v->nitem == cap) {
				cap = cap ? cap * 2 : 16;
				struct dval *n = realloc(v->item, cap * sizeof(*n));
				if (!n)
					return ds_oom(lx->err, lx->file);
				v->item = n;
			}
			struct dval *it = &v->item[v->nitem++];
			memset(it, 0, sizeof(*it));
			if (parse_value(lx, it, field, depth + 1))
				return -EINVAL;
			t = lex_next(lx);
			if (t.t == T_RBRACK)
				return 0;
			if (t.t == T_ERR)
				return -EINVAL;
			if (t.t != T_COMMA)
				return iolab_errf(lx->err, EINVAL, "%s:%u: field '%s': expected ',' or ']' "
						  "in the list, found %s", lx->file, t.line, field, tok_desc(&t));
		}
	}
	if (!v->text)
		return iolab_errf(lx->err, EINVAL, "%s:%u: field '%s': missing value (found %s)",
				  lx->file, t.line, field, tok_desc(&t));
	v->kind = V_SCALAR;
	return 0;
}

/* Adds parameter `name` (taken) to blk, refusing a second one of the same name. */
static struct dparam *add_param(struct lexer *lx, struct dval *blk, unsigned *cap, char *name,
				const struct token *at)
{
	for (unsigned i = 0; i < blk->nparam; i++)
		if (!strcasecmp(blk->param[i].name, name)) {
			iolab_errf(lx->err, EINVAL, "%s:%u: field '%s': given twice (first on line %u)",
				   at->file, at->line, name, blk->param[i].line);
			free(name);
			return NULL;
		}
	if (blk->nparam == *cap) {
		unsigned ncap = *cap ? *cap * 2 : 32;
		struct dparam *n = realloc(blk->param, ncap * sizeof(*n));
		if (!n) {
			free(name);
			ds_oom(lx->err, lx->file);
			return NULL;
		}
		blk->param = n;
		*cap = ncap;
	}
	struct dparam *p = &blk->param[blk->nparam++];
	memset(p, 0, sizeof(*p));
	p->name = name;
	p->line = at->line;
	p->file = at->file;
	return p;
}

/* The names of `[ a, b ] = value` (libparam: one value for several parameters), after '['. */
static int parse_names(struct lexer *lx, const char *what, char ***names, unsigned *n)
{
	for (;;) {
		char *name = NULL;
		struct token t;
		while ((t = lex_next(lx)).t == T_WORD)
			if (add_word(lx, &name, &t)) {
				free(name);
				return -EINVAL;
			}
		if (t.t == T_ERR || !name || (t.t != T_COMMA && t.t != T_RBRACK)) {
			free(name);
			return t.t == T_ERR ? -EINVAL : iolab_errf(lx->err, EINVAL, "%s:%u: expected a "
				"parameter name in '[ name, name ] = value' in '%s', found %s", t.file, t.line,
				what, tok_desc(&t));
		}
		char **nn = *n < 1024 ? realloc(*names, (*n + 1) * sizeof(*nn)) : NULL;
		if (!nn) {
			free(name);
			return *n < 1024 ? ds_oom(lx->err, lx->file) : iolab_errf(lx->err, EINVAL, "%s:%u: "
				"more than 1024 names in '[ ... ] = value'", t.file, t.line);
		}
		*names = nn;
		nn[(*n)++] = name;
		if (t.t == T_RBRACK)
			return 0;
	}
}

/* After '{': `name = value` (or `[ name, name ] = value`) parameters separated by ',' up to
 * '}'. */
static int parse_block_body(struct lexer *lx, struct dval *blk, unsigned depth)
{
	unsigned open_line = blk->line, cap = 0;
	const char *what = blk->text ? blk->text : "block", *open_file = blk->file;
	for (;;) {
		struct token t = lex_peek(lx);
		if (t.t == T_ERR)
			return -EINVAL;
		if (t.t == T_RBRACE) {
			lex_next(lx);
			return 0;
		}
		if (t.t == T_EOF)
			return iolab_errf(lx->err, EINVAL, "%s:%u: '%s' opened on line %u has no closing '}'",
					  open_file, open_line, what, open_line);
		if (t.t == T_COMMA) { /* tolerate ",," and a comma right after '{' */
			lex_next(lx);
			continue;
		}
		char *name = NULL, **names = NULL;
		unsigned nnames = 0;
		struct token at = t;
		if (t.t == T_LBRACK) {
			lex_next(lx);
			int rc = parse_names(lx, what, &names, &nnames);
			t = rc ? (struct token){.t = T_ERR} : lex_next(lx);
		} else {
			while ((t = lex_next(lx)).t == T_WORD) {
				if (add_word(lx, &name, &t)) {
					free(name);
					return -EINVAL;
				}
			}
		}
		if (t.t != T_EQ || (!name && !nnames)) {
			int rc = t.t == T_ERR ? -EINVAL : iolab_errf(lx->err, EINVAL, "%s:%u: expected "
					    "'name = value' in '%s', found %s%s%s%s", t.file, t.line, what,
					    name ? "'" : "", name ? name : "", name ? "' then " : "",
					    tok_desc(&t));
			free(name);
			for (unsigned i = 0; i < nnames; i++)
				free(names[i]);
			free(names);
			return rc;
		}
		if (!nnames) {
			names = malloc(sizeof(*names));
			if (!names) {
				free(name);
				return ds_oom(lx->err, lx->file);
			}
			names[nnames++] = name;
		}
		struct dparam *p = NULL;
		struct dval v = {0};
		lx->field = names[0];
		int rc = parse_value(lx, &v, names[0], depth);
		lx->field = NULL;
		unsigned i = 0;
		for (; !rc && i < nnames; i++) {
			if (!(p = add_param(lx, blk, &cap, names[i], &at))) /* it took the name */
				rc = -EINVAL;
			else if (i + 1 < nnames && ds_dval_copy(&v, &p->v))
				rc = ds_oom(lx->err, lx->file);
		}
		for (unsigned j = rc ? i : nnames; j < nnames; j++)
			free(names[j]);
		free(names);
		if (rc) {
			ds_dval_free(&v);
			return rc;
		}
		p->v = v;
		t = lex_peek(lx);
		if (t.t == T_ERR)
			return -EINVAL;
		if (t.t == T_COMMA)
			lex_next(lx);
		else if (t.t == T_EOF)
			return iolab_errf(lx->err, EINVAL, "%s:%u: '%s' opened on line %u has no closing '}'",
					  open_file, open_line, what, open_line);
		else if (t.t != T_RBRACE)
			return iolab_errf(lx->err, EINVAL, "%s:%u: field '%s': expected ',' or '}' after "
					  "the value, found %s", t.file, t.line, p->name, tok_desc(&t));
	}
}

/* Skips a bracketed statement of a whole simulation's file (manual §3.5-3.6: `instantiate
 * [ disk0 .. disk5 ] as NAME`, `topology disksim_iodriver driver0 [ disksim_bus bus0 [ ... ] ]`),
 * which a drive's model does not need: the brackets must balance. */
static int skip_brackets(struct lexer *lx)
{
	struct token open = lex_next(lx), t;
	unsigned depth = 1;
	while (depth) {
		t = lex_next(lx);
		if (t.t == T_ERR)
			return -EINVAL;
		if (t.t == T_EOF)
			return iolab_errf(lx->err, EINVAL, "%s:%u: the '[' here is never closed", open.file,
					  open.line);
		depth += t.t == T_LBRACK;
		depth -= t.t == T_RBRACK;
	}
	return 0;
}

/* The whole file: top-level `type name { ... }` blocks (kept in top, a list) and statements such
 * as `instantiate [ x ] as y` (skipped); `source f` anywhere reads f in its place (src keeps the
 * files read so). */
int ds_parse_file(const char *file, const char *text, struct dval *top, struct ds_sources *src,
		      struct iolab_err *err)
{
	struct lexer lx = {.file = file, .s = text, .line = 1, .err = err, .src = src};
	memset(top, 0, sizeof(*top));
	top->kind = V_LIST;
	top->file = file;
	unsigned cap = 0;
	for (;;) {
		struct token t = lex_peek(&lx);
		if (t.t == T_EOF)
			return 0;
		if (t.t == T_ERR)
			return -EINVAL;
		if (t.t == T_COMMA) {
			lex_next(&lx);
			continue;
		}
		struct dval v = {.file = t.file, .line = t.line};
		char *words = NULL, *first = NULL;
		while ((t = lex_peek(&lx)).t == T_WORD) {
			lex_next(&lx);
			if (!first) {
				first = strndup(t.p, t.len);
				if (!first) {
					free(words);
					return ds_oom(err, file);
				}
			} else if (add_word(&lx, &words, &t)) {
				free(first);
				free(words);
				return -EINVAL;
			}
		}
		if (t.t == T_LBRACE && first) {
			lex_next(&lx);
			v.kind = V_BLOCK;
			v.text = first;
			v.bname = words;
			int rc = parse_block_body(&lx, &v, 1);
			if (!rc && top->nitem == cap) {
				cap = cap ? cap * 2 : 4;
				struct dval *n = realloc(top->item, cap * sizeof(*n));
				if (!n)
					rc = ds_oom(err, file);
				else
					top->item = n;
			}
			if (rc) {
				ds_dval_free(&v);
				return rc;
			}
			top->item[top->nitem++] = v;
			continue;
		}
		free(first);
		free(words);
		if (t.t == T_LBRACK) { /* instantiate [ ... ] as ..., topology ... [ ... ]: not needed */
			int rc = skip_brackets(&lx);
			if (rc)
				return rc;
			continue;
		}
		if (t.t == T_EOF)
			return 0;
		if (t.t == T_ERR)
			return -EINVAL;
		return iolab_errf(err, EINVAL, "%s:%u: unexpected %s at the top level", t.file, t.line,
				  tok_desc(&t));
	}
}

/* Named blocks (libparam): `TYPE NAME { ... }` defines NAME, and a later parameter whose whole
 * value is NAME takes a copy of that block ("Scheduler = SCHED0"). Names are case-sensitive,
 * as in DiskSim; a block is known from its closing brace on, so it cannot name itself. */

static size_t dval_count(const struct dval *v)
{
	size_t n = 1;
	for (unsigned i = 0; i < v->nparam; i++)
		n += dval_count(&v->param[i].v);
	for (unsigned i = 0; i < v->nitem; i++)
		n += dval_count(&v->item[i]);
	return n;
}

int ds_resolve_names(struct dval *v, struct ds_named *nb, struct iolab_err *err)
{
	for (unsigned i = 0; i < v->nparam; i++) {
		struct dval *pv = &v->param[i].v;
		if (pv->kind != V_SCALAR) {
			if (ds_resolve_names(pv, nb, err))
				return -EINVAL;
			continue;
		}
		for (unsigned k = nb->n; k-- > 0;)
			if (!strcmp(nb->blk[k]->bname, pv->text)) {
				nb->copied += dval_count(nb->blk[k]);
				if (nb->copied > 1000000)
					return iolab_errf(err, EINVAL, "%s:%u: field '%s': named blocks "
							  "used by name expand to more than a million "
							  "values", v->param[i].file, v->param[i].line,
							  v->param[i].name);
				struct dval c;
				if (ds_dval_copy(nb->blk[k], &c)) {
					ds_dval_free(&c);
					return ds_oom(err, v->file);
				}
				ds_dval_free(pv);
				*pv = c;
				break;
			}
	}
	for (unsigned i = 0; i < v->nitem; i++)
		if (ds_resolve_names(&v->item[i], nb, err))
			return -EINVAL;
	if (v->kind == V_BLOCK && v->bname) {
		if (nb->n == nb->cap) {
			nb->cap = nb->cap ? 2 * nb->cap : 8;
			const struct dval **n = realloc(nb->blk, nb->cap * sizeof(*n));
			if (!n)
				return ds_oom(err, v->file);
			nb->blk = n;
		}
		nb->blk[nb->n++] = v;
	}
	return 0;
}

/* ---------------------------------------------------------------------------------------- */
/* Looking parameters up */

/* The parameter called name in blk, marked read (what is never looked up is not modelled). */
const struct dparam *ds_find(const struct dval *blk, const char *name)
{
	for (unsigned i = 0; i < blk->nparam; i++)
		if (!strcasecmp(blk->param[i].name, name)) {
			blk->param[i].read = true;
			return &blk->param[i];
		}
	return NULL;
}

/* Every parameter of v (and of the blocks under it, of the types disksim_params.c knows) is one
 * DiskSim 4.0 accepts in its block: else the one line naming file, line and key. */
int ds_check_names(const struct dval *v, struct iolab_err *err)
{
	for (unsigned i = 0; v->kind == V_BLOCK && v->text && i < v->nparam; i++) {
		const struct dparam *p = &v->param[i];
		if (!iolab_ds_param_known(v->text, p->name))
			return iolab_errf(err, EINVAL, "%s:%u: field '%s': not a parameter of DiskSim "
					  "4.0's %s block (its modspec lists every one it accepts)",
					  p->file, p->line, p->name, v->text);
	}
	for (unsigned i = 0; i < v->nparam; i++)
		if (ds_check_names(&v->param[i].v, err))
			return -EINVAL;
	for (unsigned i = 0; i < v->nitem; i++)
		if (ds_check_names(&v->item[i], err))
			return -EINVAL;
	return 0;
}

/* Says (note) each parameter under v, in a block of a known type, that DiskSim accepts and the
 * import never read: iolab does not model it. */
void ds_note_unread(const struct dval *v, iolab_import_note_fn note, void *ctx)
{
	for (unsigned i = 0; v->kind == V_BLOCK && v->text && i < v->nparam; i++) {
		const struct dparam *p = &v->param[i];
		if (!p->read && iolab_ds_param_known(v->text, p->name) == 1)
			note(p->file, p->line, p->name, v->text, ctx);
	}
	for (unsigned i = 0; i < v->nparam; i++)
		ds_note_unread(&v->param[i].v, note, ctx);
	for (unsigned i = 0; i < v->nitem; i++)
		ds_note_unread(&v->item[i], note, ctx);
}

int ds_missing(const struct dval *blk, const char *name, struct iolab_err *err)
{
	return iolab_errf(err, EINVAL, "%s:%u: field '%s': missing (in the '%s' block)", blk->file,
			  blk->line, name, blk->text ? blk->text : "?");
}

int ds_perr(const struct dparam *p, const char *why, struct iolab_err *err)
{
	const char *v = p->v.kind == V_SCALAR ? p->v.text : NULL;
	return iolab_errf(err, EINVAL, "%s:%u: field '%s': %s%s%s%s", p->file, p->line, p->name,
			  v ? "'" : "", v ? v : "", v ? "' " : "", why);
}

/* Parses a DiskSim number: decimal, optional sign and exponent, nothing after it (the rules of
 * every iolab data file: iolab_parse_decimal), or a hexadecimal integer `0x1F`, `-0x1F` (libparam
 * reads those as integers: DiskSim 4.0 manual §3 p6), up to 2^53. */
bool ds_number(const char *s, double *out)
{
	if (!s)
		return false;
	const char *h = s + (*s == '-');
	if (h[0] == '0' && (h[1] == 'x' || h[1] == 'X')) {
		size_t n = strspn(h + 2, "0123456789abcdefABCDEF");
		if (!n || h[2 + n] || n > 13)
			return false;
		double x = (double)strtoull(h + 2, NULL, 16);
		*out = *s == '-' ? -x : x;
		return true;
	}
	return iolab_parse_decimal(s, out) == 0;
}

int ds_value_num(const struct dparam *p, double min, double max, double *out, struct iolab_err *err)
{
	double x;
	if (p->v.kind != V_SCALAR)
		return ds_perr(p, "must be a number, not a block or a list", err);
	if (!ds_number(p->v.text, &x))
		return ds_perr(p, "is not a number", err);
	if (x < min || x > max) {
		char why[96];
		snprintf(why, sizeof(why), "is out of range (%g..%g)", min, max);
		return ds_perr(p, why, err);
	}
	*out = x;
	return 0;
}

int ds_get_num(const struct dval *blk, const char *name, double min, double max, double *out,
		   struct iolab_err *err)
{
	const struct dparam *p = ds_find(blk, name);
	return p ? ds_value_num(p, min, max, out, err) : ds_missing(blk, name, err);
}

/* A whole number (DiskSim writes some as "12.000000"). */
int ds_get_int(const struct dval *blk, const char *name, double min, double max, uint64_t *out,
		   struct iolab_err *err)
{
	const struct dparam *p = ds_find(blk, name);
	double x;
	if (!p)
		return ds_missing(blk, name, err);
	if (ds_value_num(p, min, max, &x, err))
		return -EINVAL;
	if (x != floor(x))
		return ds_perr(p, "is not a whole number", err);
	*out = (uint64_t)x;
	return 0;
}

int ds_get_u32(const struct dval *blk, const char *name, double min, double max, uint32_t *out,
		   struct iolab_err *err)
{
	uint64_t x;
	int rc = ds_get_int(blk, name, min, max, &x, err);
	if (!rc)
		*out = (uint32_t)x;
	return rc;
}

/* A count of sectors that DiskSim may give with a fraction: rounded. */
int ds_get_rounded(const struct dval *blk, const char *name, double max, uint32_t *out,
		       struct iolab_err *err)
{
	double x;
	int rc = ds_get_num(blk, name, -0.5, max, &x, err);
	if (!rc)
		*out = (uint32_t)llround(x);
	return rc;
}

/* A flag: 0 or 1. */
int ds_get_flag(const struct dval *blk, const char *name, bool *out, struct iolab_err *err)
{
	uint64_t x;
	int rc = ds_get_int(blk, name, 0, 1, &x, err);
	if (!rc)
		*out = x != 0;
	return rc;
}

/* A time in ms, to ns. */
int ds_get_ms(const struct dval *blk, const char *name, uint64_t *ns, struct iolab_err *err)
{
	double x;
	int rc = ds_get_num(blk, name, 0, 1e6, &x, err);
	if (!rc)
		*ns = (uint64_t)llround(x * 1e6);
	return rc;
}

int ds_get_word(const struct dval *blk, const char *name, const char **out, struct iolab_err *err)
{
	const struct dparam *p = ds_find(blk, name);
	if (!p)
		return ds_missing(blk, name, err);
	if (p->v.kind != V_SCALAR)
		return ds_perr(p, "must be a word, not a block or a list", err);
	*out = p->v.text;
	return 0;
}

/* A block parameter of the given type ("Mechanical Model = dm_mech_g1 { ... }"). */
int ds_get_block(const struct dval *blk, const char *name, const char *type, const struct dval **out,
		     struct iolab_err *err)
{
	const struct dparam *p = ds_find(blk, name);
	if (!p)
		return ds_missing(blk, name, err);
	if (p->v.kind != V_BLOCK)
		return ds_perr(p, "must be a block ('type { ... }')", err);
	if (type && (!p->v.text || strcasecmp(p->v.text, type))) {
		char why[160];
		snprintf(why, sizeof(why), "'%s' is not supported (only %s)",
			 p->v.text ? p->v.text : "(a block without type)", type);
		return ds_perr(p, why, err);
	}
	*out = &p->v;
	return 0;
}

/* A list of whole numbers >= 0 ("slips = [ 1, 2 ]"). */
int ds_get_list(const struct dval *blk, const char *name, uint64_t **arr, uint32_t *n,
		    struct iolab_err *err)
{
	const struct dparam *p = ds_find(blk, name);
	if (!p)
		return ds_missing(blk, name, err);
	if (p->v.kind != V_LIST)
		return ds_perr(p, "must be a list ('[ n, n, ... ]')", err);
	*n = 0;
	*arr = NULL;
	if (!p->v.nitem)
		return 0;
	*arr = malloc(p->v.nitem * sizeof(**arr));
	if (!*arr)
		return ds_oom(err, p->v.file);
	for (unsigned i = 0; i < p->v.nitem; i++) {
		const struct dval *it = &p->v.item[i];
		double x;
		if (it->kind != V_SCALAR || !ds_number(it->text, &x) || x < 0 || x > 1e15 || x != floor(x))
			return iolab_errf(err, EINVAL, "%s:%u: field '%s': item %u%s%s%s is not a whole "
					  "number 0..1e15", it->file, it->line, p->name, i + 1,
					  it->kind == V_SCALAR ? " '" : "",
					  it->kind == V_SCALAR ? it->text : "",
					  it->kind == V_SCALAR ? "'" : "");
		(*arr)[(*n)++] = (uint64_t)x;
	}
	return 0;
}

/* ---------------------------------------------------------------------------------------- */
/* Files */

int ds_slurp(const char *path, char **out, struct iolab_err *err)
{
	return iolab_read_text(path, MAX_FILE_BYTES, "a DiskSim file", out, err);
}

/* The path of name, relative to the directory of the file `from`. */
char *ds_sibling(const char *from, const char *name)
{
	const char *slash = strrchr(from, '/');
	size_t dlen = name[0] == '/' || !slash ? 0 : (size_t)(slash - from) + 1;
	char *p = malloc(dlen + strlen(name) + 1);
	if (p) {
		memcpy(p, from, dlen);
		strcpy(p + dlen, name);
	}
	return p;
}


const struct dval *ds_top_block(const struct dval *top, const char *type)
{
	for (unsigned i = 0; i < top->nitem; i++)
		if (top->item[i].kind == V_BLOCK && !strcasecmp(top->item[i].text, type))
			return &top->item[i];
	return NULL;
}

int ds_tree_load(const char *path, struct dval *top, struct ds_sources *src, struct iolab_err *err)
{
	char *text = NULL;
	memset(top, 0, sizeof(*top));
	memset(src, 0, sizeof(*src));
	int rc = ds_slurp(path, &text, err);
	if (rc)
		return rc;
	struct lexer lx = {.err = err, .src = src};
	if ((rc = keep(&lx, text)))
		return rc;
	if (!(rc = ds_parse_file(path, text, top, src, err))) {
		struct ds_named nb = {0};
		rc = ds_resolve_names(top, &nb, err);
		free(nb.blk);
	}
	if (rc)
		ds_tree_free(top, src);
	return rc;
}

void ds_tree_free(struct dval *top, struct ds_sources *src)
{
	ds_dval_free(top);
	ds_sources_free(src);
}
