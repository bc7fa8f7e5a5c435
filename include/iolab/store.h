/* store.h: the results store, one SQLite database (docs/results-db.md) that keeps every run, sim
 * and replay: the run's JSON document (docs/json-schema.md) and table as printed, with indexed
 * columns per run and per point for queries. The schema is versioned (PRAGMA user_version) and
 * migrated step by step; a database newer than this build, or a file that is not one, is refused
 * and never written. WAL mode and a busy timeout let several processes save at once. */
#ifndef IOLAB_STORE_H
#define IOLAB_STORE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "iolab/error.h"

#define IOLAB_STORE_VERSION 2 /* the schema version this build writes */

struct iolab_store;

/* One run to save. json is the document iolab_output_json wrote; table the text of
 * iolab_output_table. label may be NULL. */
struct iolab_store_run {
	const char *label, *command, *kind, *target;
	const char *json, *table;
};

/* The default store: $XDG_DATA_HOME/iolab/results.db, else ~/.local/share/iolab/results.db.
 * Returns 0 or -errno (no home) with err set. */
int iolab_store_default_path(char *buf, size_t n, struct iolab_err *err);

/* Opens the store at path; create: make it (and its directory) if missing, and bring its schema
 * up to date. Without create, a missing file is -ENOENT. A newer schema or a file that is not a
 * database is refused (-EPROTO / -EINVAL) without writing to it. */
int iolab_store_open(struct iolab_store **s, const char *path, bool create, struct iolab_err *err);
void iolab_store_close(struct iolab_store *s);

/* Saves one run with its points and warnings in one transaction; *id is its run id. */
int iolab_store_save(struct iolab_store *s, const struct iolab_store_run *r, int64_t *id,
		     struct iolab_err *err);

/* The saved runs, in id order: *runs is a new array of {id, time, label (null: none), kind,
 * target, points, interrupted, command}. */
int iolab_store_list(struct iolab_store *s, json_t **runs, struct iolab_err *err);

/* The run named by key: a run id, else a label. -ENOENT if none; -EEXIST if the label names
 * several (err lists their ids). */
int iolab_store_find(struct iolab_store *s, const char *key, int64_t *id, struct iolab_err *err);

/* The run's stored text: its JSON document (json true) or its table. *text is malloc'd. */
int iolab_store_text(struct iolab_store *s, int64_t id, bool json, char **text, struct iolab_err *err);

/* One run read back: its id, label (NULL: none), the facts of its row and its JSON document
 * (docs/json-schema.md). */
struct iolab_store_doc {
	int64_t id;
	char *label;
	char *time, *command, *host; /* when it was saved (UTC, ISO 8601), its command line, where */
	json_t *doc;
};

/* Reads the run named by key (as iolab_store_find). Free with iolab_store_doc_free. */
int iolab_store_load(struct iolab_store *s, const char *key, struct iolab_store_doc *d,
		     struct iolab_err *err);
void iolab_store_doc_free(struct iolab_store_doc *d);

/* Opens the store to read: db, else the default path. A missing store is refused. */
int iolab_store_open_read(struct iolab_store **s, const char *db, struct iolab_err *err);

/* Deletes the run, its points and warnings. */
int iolab_store_delete(struct iolab_store *s, int64_t id, struct iolab_err *err);

#endif
