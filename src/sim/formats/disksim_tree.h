/* disksim_tree.h: a DiskSim 4.0 parameter file as a tree of blocks, lists and scalars
 * (disksim_tree.c), and the lookups the importers (import_disksim.c) read parameters with. Every
 * lookup marks the parameter read; errors are one line "file:line: field 'NAME': ...". */
#ifndef IOLAB_DISKSIM_TREE_H
#define IOLAB_DISKSIM_TREE_H

#include <stdbool.h>
#include <stdint.h>

#include "iolab/disksim_import.h"
#include "iolab/error.h"

enum vkind { V_SCALAR, V_BLOCK, V_LIST };

struct dparam;

struct dval {
	enum vkind kind;
	unsigned line;
	const char *file;       /* for messages */
	char *text;             /* scalar: the words joined by one space; block: its type */
	char *bname;            /* block: the words after the type, if any (top-level blocks) */
	struct dparam *param;   /* block */
	unsigned nparam;
	struct dval *item;      /* list */
	unsigned nitem;
};

struct dparam {
	char *name;
	unsigned line;
	struct dval v;
	const char *file;       /* where the name is (the value may come from a sourced file) */
	bool read;              /* looked up by an importer (ds_find) */
};

/* Files read through `source` (and the file itself, with ds_tree_load): kept, texts and names,
 * until the tree is freed. */
struct ds_sources {
	char **owned;
	unsigned n, cap;
};

/* Named blocks being resolved (ds_resolve_names). */
struct ds_named {
	const struct dval **blk;
	unsigned n, cap;
	size_t copied; /* values copied so far: names of names must not grow without bound */
};

/* Reads path whole: its top-level blocks become the items of *top (a list), names used as
 * values are replaced by copies of their blocks. Returns 0 or -errno with err set; on failure
 * nothing is left to free. */
int ds_tree_load(const char *path, struct dval *top, struct ds_sources *src, struct iolab_err *err);
void ds_tree_free(struct dval *top, struct ds_sources *src);

/* The steps of ds_tree_load (text must outlive the tree). */
int ds_slurp(const char *path, char **out, struct iolab_err *err);
int ds_parse_file(const char *file, const char *text, struct dval *top, struct ds_sources *src,
		  struct iolab_err *err);
int ds_resolve_names(struct dval *v, struct ds_named *nb, struct iolab_err *err);
void ds_sources_free(struct ds_sources *src);
int ds_dval_copy(const struct dval *v, struct dval *c);
void ds_dval_free(struct dval *v);

/* The path of name, relative to the directory of the file `from` (malloc'd; NULL: no memory). */
char *ds_sibling(const char *from, const char *name);
/* The first top-level block of type type, or NULL. */
const struct dval *ds_top_block(const struct dval *top, const char *type);

/* The parameter called name in blk, marked read, or NULL. */
const struct dparam *ds_find(const struct dval *blk, const char *name);
/* Every parameter under v is one DiskSim 4.0 accepts in its block (disksim_params.c). */
int ds_check_names(const struct dval *v, struct iolab_err *err);
/* Calls note for each parameter under v that DiskSim accepts and no lookup read. */
void ds_note_unread(const struct dval *v, iolab_import_note_fn note, void *ctx);

/* Errors: "field 'NAME': missing (in the 'TYPE' block)", "field 'NAME': 'VALUE' WHY", out of
 * memory. Each returns -EINVAL (-ENOMEM). */
int ds_missing(const struct dval *blk, const char *name, struct iolab_err *err);
int ds_perr(const struct dparam *p, const char *why, struct iolab_err *err);
int ds_oom(struct iolab_err *err, const char *file);

/* A DiskSim number: decimal or hexadecimal integer (0x1F). */
bool ds_number(const char *s, double *out);
/* Values of parameters: a number in [min, max]; a whole number; a rounded count; a flag 0/1; a
 * time in ms to ns; a word; a block of type type (NULL: any); a list of whole numbers. Each
 * returns 0, or -EINVAL with err naming the file, line and field (missing ones too). */
int ds_value_num(const struct dparam *p, double min, double max, double *out, struct iolab_err *err);
int ds_get_num(const struct dval *blk, const char *name, double min, double max, double *out,
	       struct iolab_err *err);
int ds_get_int(const struct dval *blk, const char *name, double min, double max, uint64_t *out,
	       struct iolab_err *err);
int ds_get_u32(const struct dval *blk, const char *name, double min, double max, uint32_t *out,
	       struct iolab_err *err);
int ds_get_rounded(const struct dval *blk, const char *name, double max, uint32_t *out,
		   struct iolab_err *err);
int ds_get_flag(const struct dval *blk, const char *name, bool *out, struct iolab_err *err);
int ds_get_ms(const struct dval *blk, const char *name, uint64_t *ns, struct iolab_err *err);
int ds_get_word(const struct dval *blk, const char *name, const char **out, struct iolab_err *err);
int ds_get_block(const struct dval *blk, const char *name, const char *type, const struct dval **out,
		 struct iolab_err *err);
int ds_get_list(const struct dval *blk, const char *name, uint64_t **arr, uint32_t *n,
		struct iolab_err *err);

/* Imports the disksim_disk block disk (its Model block and seek file with it) into m, named
 * from the stem of name_path (import_disksim.c). Returns 0 or -errno with err set; on failure
 * m holds nothing to free. */
struct iolab_disk_model;
int ds_import_disk(const struct dval *disk, const char *name_path, struct iolab_disk_model *m,
		   struct iolab_err *err);

#endif
