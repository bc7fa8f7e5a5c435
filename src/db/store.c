/* store.c: the results store (include/iolab/store.h, docs/results-db.md): opening and migrating
 * the SQLite schema, saving a run from its JSON document, and the queries of `iolab db`. */
#include <assert.h>
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "iolab/outfile.h"
#include "iolab/parse.h"
#include "iolab/store.h"

struct iolab_store {
	sqlite3 *db;
	char path[PATH_MAX];
};

/* Schema steps: migrations[v] takes a store from version v to v + 1. Append, never edit. */
static const char *const migrations[] = {
	/* v0 -> v1 */
	"CREATE TABLE runs ("
	" id INTEGER PRIMARY KEY AUTOINCREMENT,"
	" time TEXT NOT NULL,"          /* UTC, ISO 8601 */
	" label TEXT,"
	" command TEXT NOT NULL,"       /* the command line */
	" host TEXT NOT NULL,"
	" kind TEXT NOT NULL CHECK (kind IN ('run','sim','replay')),"
	" target TEXT NOT NULL,"        /* targets, or the simulated model */
	" config TEXT NOT NULL,"        /* the JSON document's \"config\" */
	" json TEXT NOT NULL,"          /* the whole JSON document, as --json writes it */
	" table_text TEXT NOT NULL,"    /* the table, as printed */
	" interrupted INTEGER NOT NULL);"
	"CREATE INDEX runs_label ON runs(label);"
	"CREATE INDEX runs_time ON runs(time);"
	"CREATE INDEX runs_kind ON runs(kind);"
	"CREATE TABLE points ("
	" run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" idx INTEGER NOT NULL,"        /* 0-based, the order of the JSON's points */
	" pattern TEXT, qd INTEGER, bs INTEGER, iops REAL, mb_per_s REAL,"
	" lat_mean_us REAL,"            /* reads and writes together, weighted by their I/Os */
	" json TEXT NOT NULL,"          /* the point's JSON object (latency percentiles included) */
	" PRIMARY KEY (run_id, idx));"
	"CREATE INDEX points_shape ON points(pattern, qd, bs);"
	"CREATE TABLE warnings ("
	" run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" point_idx INTEGER NOT NULL,"
	" text TEXT NOT NULL);"
	"CREATE INDEX warnings_run ON warnings(run_id);",
	/* v1 -> v2: prices and capacities ($/GB, $/IOPS), the disks a run measured; each point's
	 * JSON now carries its latency histogram's buckets (lat_hist) */
	"ALTER TABLE runs ADD COLUMN price_usd REAL;"
	"ALTER TABLE runs ADD COLUMN capacity_bytes INTEGER;"
	"CREATE TABLE devices ("
	" run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" target TEXT NOT NULL, disk TEXT, model TEXT, firmware TEXT, size_bytes INTEGER,"
	" rotational INTEGER, scheduler TEXT);"
	"CREATE INDEX devices_run ON devices(run_id);",
};
static_assert(sizeof(migrations) / sizeof(migrations[0]) == IOLAB_STORE_VERSION,
	      "one migration step per schema version");

static int db_errf(struct iolab_store *s, struct iolab_err *err, int code, const char *what)
{
	return iolab_errf(err, code, "%s: %s: %s", s->path, what, sqlite3_errmsg(s->db));
}

int iolab_store_default_path(char *buf, size_t n, struct iolab_err *err)
{
	const char *x = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
	int len;
	if (x && x[0] == '/')
		len = snprintf(buf, n, "%s/iolab/results.db", x);
	else if (home && home[0] == '/')
		len = snprintf(buf, n, "%s/.local/share/iolab/results.db", home);
	else
		return iolab_errf(err, ENOENT, "no results database: neither XDG_DATA_HOME nor HOME is "
				  "an absolute path (give --db FILE or --no-db)");
	if (len < 0 || (size_t)len >= n)
		return iolab_errf(err, ENAMETOOLONG, "results database path too long");
	return 0;
}

/* mkdir -p of the directory holding path. */
static int make_parent(const char *path, struct iolab_err *err)
{
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s", path);
	char *slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return 0;
	*slash = 0;
	for (char *p = dir + 1; ; p++) {
		if (*p && *p != '/')
			continue;
		char c = *p;
		*p = 0;
		if (mkdir(dir, 0700) && errno != EEXIST)
			return iolab_errf(err, errno, "%s: cannot create the directory: %s", dir,
					  strerror(errno));
		*p = c;
		if (!c)
			break;
	}
	return 0;
}

static int exec_sql(struct iolab_store *s, const char *sql, struct iolab_err *err)
{
	if (sqlite3_exec(s->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return db_errf(s, err, EIO, sql[0] == 'C' ? "creating the schema" : sql);
	return 0;
}

/* The schema version; -EINVAL if the file is not a database. */
static int user_version(struct iolab_store *s, int *v, struct iolab_err *err)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(s->db, "PRAGMA user_version", -1, &st, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*v = sqlite3_column_int(st, 0);
	else
		rc = iolab_errf(err, EINVAL, "%s: not an iolab results database (%s); it was left as is",
				s->path, sqlite3_errmsg(s->db));
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : rc;
}

/* A version-0 database that already holds tables is another program's: refused. */
static int foreign_tables(struct iolab_store *s, struct iolab_err *err)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(s->db, "SELECT count(*) FROM sqlite_master", -1, &st, NULL);
	int n = rc == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
	sqlite3_finalize(st);
	if (n == 0)
		return 0;
	return iolab_errf(err, EINVAL, "%s: not an iolab results database (a SQLite database of "
			  "another program); it was left as is", s->path);
}

/* Checks the version before anything is written, then brings the schema up to date in one
 * transaction (a second process doing the same waits, then finds it done). */
static int migrate(struct iolab_store *s, bool write, struct iolab_err *err)
{
	int v, rc;
	/* The version and the tables are read in one read transaction (it writes nothing): a
	 * second process creating the store commits both at once, so they are seen together. */
	if ((rc = exec_sql(s, "BEGIN", err)))
		return rc;
	rc = user_version(s, &v, err);
	if (!rc && v > IOLAB_STORE_VERSION)
		rc = iolab_errf(err, EPROTO, "%s: results database schema version %d is newer than "
				"this iolab knows (%d); it was left as is", s->path, v,
				IOLAB_STORE_VERSION);
	if (!rc && v == 0)
		rc = foreign_tables(s, err);
	sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
	if (rc)
		return rc;
	if (!write && v == IOLAB_STORE_VERSION)
		return 0;
	if (!write && v == 0) /* reading never makes a store out of an empty file */
		return iolab_errf(err, EINVAL, "%s: not an iolab results database (it is empty); it "
				  "was left as is", s->path);
	/* An older store is brought up to date whether it is opened to read or to save. */
	/* Switching to WAL needs the file to itself: a second process creating the store at the
	 * same time can make it report "locked" at once, whatever the busy timeout; try again. */
	for (int i = 0; i < 500 && sqlite3_exec(s->db, "PRAGMA journal_mode=WAL", NULL, NULL,
						NULL) == SQLITE_BUSY; i++)
		usleep(10000);
	if ((rc = exec_sql(s, "PRAGMA journal_mode=WAL", err)) ||
	    (rc = exec_sql(s, "BEGIN IMMEDIATE", err)))
		return rc;
	if ((rc = user_version(s, &v, err)))
		goto fail;
	for (; v < IOLAB_STORE_VERSION; v++) {
		char sql[64];
		snprintf(sql, sizeof(sql), "PRAGMA user_version=%d", v + 1);
		if ((rc = exec_sql(s, migrations[v], err)) || (rc = exec_sql(s, sql, err)))
			goto fail;
	}
	return exec_sql(s, "COMMIT", err);
fail:
	sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

/* A damaged database is refused before anything is saved into it (PRAGMA quick_check reads
 * every page; it writes nothing). */
static int check_integrity(struct iolab_store *s, struct iolab_err *err)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(s->db, "PRAGMA quick_check(1)", -1, &st, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	const char *res = rc == SQLITE_ROW ? (const char *)sqlite3_column_text(st, 0) : NULL;
	char what[256]; /* SQLite's findings on one line, without its "*** in database main ***" */
	snprintf(what, sizeof(what), "%s", res ? res : sqlite3_errmsg(s->db));
	for (char *c = what; *c; c++)
		if (*c == '\n')
			*c = ' ';
	const char *stars = strstr(what, "*** "), *found = what;
	if (stars == what && (stars = strstr(what + 4, "*** ")))
		found = stars + 4;
	if (res && !strcmp(res, "ok"))
		rc = 0;
	else
		rc = iolab_errf(err, EINVAL, "%s: the results database is damaged (%s); it was left as "
				"is", s->path, found);
	sqlite3_finalize(st);
	return rc;
}

/* Opens file (which exists, or is made: create) and brings its schema up to date; messages name
 * s->path. */
static int open_db(struct iolab_store *s, const char *file, bool create, struct iolab_err *err)
{
	if (sqlite3_open_v2(file, &s->db, SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0),
			    NULL) != SQLITE_OK)
		return db_errf(s, err, EIO, "cannot open the results database");
	sqlite3_busy_timeout(s->db, 30000);
	return migrate(s, create, err);
}

/* A new store is made whole under a temporary name and linked into place, so that a failure (a
 * full file system) leaves nothing behind; another process making it meanwhile wins. */
static int create_db(struct iolab_store *s, const char *path, struct iolab_err *err)
{
	char tmp[PATH_MAX], side[PATH_MAX + 8];
	const char *slash = strrchr(path, '/');
	int dl = slash ? (int)(slash - path + 1) : 0;
	if (snprintf(tmp, sizeof(tmp), "%.*s.%s.iolab-XXXXXX", dl, path, slash ? slash + 1 : path) >=
	    (int)sizeof(tmp))
		return iolab_errf(err, ENAMETOOLONG, "%s: path too long", path);
	int fd = mkstemp(tmp);
	if (fd < 0)
		return iolab_errf(err, errno, "%s: cannot create the results database: %s", path,
				  strerror(errno));
	mode_t mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask); /* as SQLite would have made it, not mkstemp's 0600 */
	close(fd);
	int rc = open_db(s, tmp, true, err);
	if (sqlite3_close(s->db) != SQLITE_OK && !rc)
		rc = iolab_errf(err, EIO, "%s: cannot finish the results database", path);
	s->db = NULL;
	if (!rc && link(tmp, path) && errno != EEXIST)
		rc = iolab_errf(err, errno, "%s: cannot create the results database: %s", path,
				strerror(errno));
	unlink(tmp);
	for (unsigned i = 0; i < 3; i++) { /* what SQLite may leave beside a failed database */
		snprintf(side, sizeof(side), "%s%s", tmp, (const char *[]){"-journal", "-wal", "-shm"}[i]);
		unlink(side);
	}
	return rc;
}

int iolab_store_open(struct iolab_store **sp, const char *path, bool create, struct iolab_err *err)
{
	struct iolab_store *s = calloc(1, sizeof(*s));
	if (!s)
		return iolab_errf(err, ENOMEM, "out of memory");
	snprintf(s->path, sizeof(s->path), "%s", path);
	const struct iolab_output out = {"--db", path, IOLAB_OUT_ADD};
	struct stat st;
	bool exists = stat(path, &st) == 0;
	int rc = 0;
	if (create)
		rc = iolab_outputs_check(&out, 1, NULL, 0, false, err);
	else if (!*path || (!exists && errno == ENOENT))
		rc = iolab_errf(err, ENOENT, "%s: no results database there", path);
	else if (exists && !S_ISREG(st.st_mode))
		rc = iolab_errf(err, EINVAL, "%s: not a results database (not a regular file); it was "
				"left as is", path);
	else
		iolab_input_note(path);
	if (!rc && create && !exists && !(rc = make_parent(path, err)))
		rc = create_db(s, path, err);
	if (!rc)
		rc = open_db(s, path, create, err);
	if (!rc)
		rc = check_integrity(s, err);
	if (!rc)
		rc = exec_sql(s, "PRAGMA foreign_keys=ON", err);
	if (rc) {
		iolab_store_close(s);
		return rc;
	}
	*sp = s;
	return 0;
}

void iolab_store_close(struct iolab_store *s)
{
	if (!s)
		return;
	sqlite3_close(s->db);
	free(s);
}

static int prepare(struct iolab_store *s, const char *sql, sqlite3_stmt **st, struct iolab_err *err)
{
	if (sqlite3_prepare_v2(s->db, sql, -1, st, NULL) != SQLITE_OK)
		return db_errf(s, err, EIO, "query");
	return 0;
}

static void bind_text(sqlite3_stmt *st, int i, const char *t)
{
	if (t)
		sqlite3_bind_text(st, i, t, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

/* A number of the JSON, or NULL if absent or null. */
static void bind_num(sqlite3_stmt *st, int i, json_t *v)
{
	if (json_is_integer(v))
		sqlite3_bind_int64(st, i, json_integer_value(v));
	else if (json_is_real(v))
		sqlite3_bind_double(st, i, json_real_value(v));
	else
		sqlite3_bind_null(st, i);
}

/* Mean latency of reads and writes together, weighted by their I/Os. */
static double point_mean(json_t *p)
{
	double sum = 0, ios = 0;
	const char *dirs[] = {"read", "write"};
	for (int i = 0; i < 2; i++) {
		json_t *d = json_object_get(p, dirs[i]);
		double n = (double)json_integer_value(json_object_get(d, "ios"));
		sum += n * json_number_value(json_object_get(json_object_get(d, "lat_us"), "mean"));
		ios += n;
	}
	return ios > 0 ? sum / ios : 0;
}

static int save_point(struct iolab_store *s, sqlite3_stmt *pt, sqlite3_stmt *wt, int64_t id,
		      size_t idx, json_t *p, struct iolab_err *err)
{
	char *text = json_dumps(p, JSON_COMPACT | JSON_REAL_PRECISION(10));
	if (!text)
		return iolab_errf(err, ENOMEM, "out of memory");
	sqlite3_reset(pt);
	sqlite3_bind_int64(pt, 1, id);
	sqlite3_bind_int64(pt, 2, (sqlite3_int64)idx);
	bind_text(pt, 3, json_string_value(json_object_get(p, "pattern")));
	bind_num(pt, 4, json_object_get(p, "qd"));
	bind_num(pt, 5, json_object_get(p, "bs"));
	bind_num(pt, 6, json_object_get(p, "iops"));
	bind_num(pt, 7, json_object_get(p, "mb_per_s"));
	sqlite3_bind_double(pt, 8, point_mean(p));
	sqlite3_bind_text(pt, 9, text, -1, free);
	if (sqlite3_step(pt) != SQLITE_DONE)
		return db_errf(s, err, EIO, "saving a point");
	size_t i;
	json_t *w;
	json_array_foreach(json_object_get(p, "warnings"), i, w) {
		sqlite3_reset(wt);
		sqlite3_bind_int64(wt, 1, id);
		sqlite3_bind_int64(wt, 2, (sqlite3_int64)idx);
		bind_text(wt, 3, json_string_value(w));
		if (sqlite3_step(wt) != SQLITE_DONE)
			return db_errf(s, err, EIO, "saving a warning");
	}
	return 0;
}

/* The disks under the run's targets (the document's "devices"). */
static int save_devices(struct iolab_store *s, int64_t id, json_t *devices, struct iolab_err *err)
{
	sqlite3_stmt *st;
	int rc = prepare(s, "INSERT INTO devices (run_id, target, disk, model, firmware, size_bytes, "
			 "rotational, scheduler) VALUES (?,?,?,?,?,?,?,?)", &st, err);
	size_t i;
	json_t *d;
	json_array_foreach(devices, i, d) {
		if (rc)
			break;
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, id);
		const char *keys[] = {"target", "disk", "model", "firmware"};
		for (int k = 0; k < 4; k++)
			bind_text(st, 2 + k, json_string_value(json_object_get(d, keys[k])));
		bind_num(st, 6, json_object_get(d, "size_bytes"));
		json_t *rot = json_object_get(d, "rotational");
		if (json_is_boolean(rot))
			sqlite3_bind_int(st, 7, json_is_true(rot));
		else
			sqlite3_bind_null(st, 7);
		bind_text(st, 8, json_string_value(json_object_get(d, "scheduler")));
		if (sqlite3_step(st) != SQLITE_DONE)
			rc = db_errf(s, err, EIO, "saving a device");
	}
	sqlite3_finalize(st);
	return rc;
}

static int save_rows(struct iolab_store *s, const struct iolab_store_run *r, json_t *doc,
		     int64_t *id, struct iolab_err *err)
{
	sqlite3_stmt *rt = NULL, *pt = NULL, *wt = NULL;
	char now[32], host[256] = "";
	time_t t = time(NULL);
	struct tm tm;
	strftime(now, sizeof(now), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&t, &tm));
	gethostname(host, sizeof(host) - 1);
	char *config = json_dumps(json_object_get(doc, "config"), JSON_COMPACT | JSON_REAL_PRECISION(10));
	int rc = config ? 0 : iolab_errf(err, EINVAL, "the JSON document has no config");
	if (!rc && !(rc = prepare(s, "INSERT INTO runs (time, label, command, host, kind, target, "
				  "config, json, table_text, interrupted, price_usd, capacity_bytes) "
				  "VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
				  &rt, err))) {
		bind_text(rt, 1, now);
		bind_text(rt, 2, r->label);
		bind_text(rt, 3, r->command);
		bind_text(rt, 4, host);
		bind_text(rt, 5, r->kind);
		bind_text(rt, 6, r->target ? r->target : "");
		bind_text(rt, 7, config);
		bind_text(rt, 8, r->json);
		bind_text(rt, 9, r->table ? r->table : "");
		sqlite3_bind_int(rt, 10, json_is_true(json_object_get(doc, "interrupted")));
		bind_num(rt, 11, json_object_get(doc, "price_usd"));
		bind_num(rt, 12, json_object_get(doc, "capacity_bytes"));
		if (sqlite3_step(rt) != SQLITE_DONE)
			rc = db_errf(s, err, EIO, "saving the run");
		*id = sqlite3_last_insert_rowid(s->db);
	}
	if (!rc && !(rc = prepare(s, "INSERT INTO points (run_id, idx, pattern, qd, bs, iops, mb_per_s, "
				  "lat_mean_us, json) VALUES (?,?,?,?,?,?,?,?,?)", &pt, err)))
		rc = prepare(s, "INSERT INTO warnings (run_id, point_idx, text) VALUES (?,?,?)", &wt, err);
	size_t i;
	json_t *p;
	json_array_foreach(json_object_get(doc, "points"), i, p) {
		if (rc)
			break;
		rc = save_point(s, pt, wt, *id, i, p, err);
	}
	if (!rc)
		rc = save_devices(s, *id, json_object_get(doc, "devices"), err);
	free(config);
	sqlite3_finalize(rt);
	sqlite3_finalize(pt);
	sqlite3_finalize(wt);
	return rc;
}

int iolab_store_save(struct iolab_store *s, const struct iolab_store_run *r, int64_t *id,
		     struct iolab_err *err)
{
	json_error_t je;
	json_t *doc = json_loads(r->json, 0, &je);
	if (!doc)
		return iolab_errf(err, EINVAL, "saving the run: its JSON document: %s", je.text);
	int rc = exec_sql(s, "BEGIN IMMEDIATE", err);
	if (!rc) {
		rc = save_rows(s, r, doc, id, err);
		if (!rc)
			rc = exec_sql(s, "COMMIT", err);
		if (rc)
			sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	}
	json_decref(doc);
	return rc;
}

static const char *col(sqlite3_stmt *st, int i)
{
	const char *t = (const char *)sqlite3_column_text(st, i);
	return t ? t : "";
}

int iolab_store_list(struct iolab_store *s, json_t **runs, struct iolab_err *err)
{
	sqlite3_stmt *st;
	int rc = prepare(s, "SELECT r.id, r.time, r.label, r.kind, r.target, "
			 "(SELECT count(*) FROM points p WHERE p.run_id = r.id), r.command, r.interrupted "
			 "FROM runs r ORDER BY r.id", &st, err);
	if (rc)
		return rc;
	json_t *a = json_array();
	while (a && (rc = sqlite3_step(st)) == SQLITE_ROW)
		if (json_array_append_new(a, json_pack("{sI ss so ss ss si sb ss}", "id",
						       (json_int_t)sqlite3_column_int64(st, 0), "time",
						       col(st, 1), "label", sqlite3_column_type(st, 2) == SQLITE_NULL
						       ? json_null() : json_string(col(st, 2)), "kind", col(st, 3),
						       "target", col(st, 4), "points", sqlite3_column_int(st, 5),
						       "interrupted", sqlite3_column_int(st, 7) != 0, "command",
						       col(st, 6)))) {
			rc = SQLITE_NOMEM;
			break;
		}
	sqlite3_finalize(st);
	if (!a || rc == SQLITE_NOMEM) {
		json_decref(a);
		return iolab_errf(err, ENOMEM, "out of memory");
	}
	if (rc != SQLITE_DONE) {
		json_decref(a);
		return db_errf(s, err, EIO, "listing the runs");
	}
	*runs = a;
	return 0;
}

/* Collects the ids of the runs labelled key into err's message; returns how many there are. */
static int by_label(struct iolab_store *s, const char *key, int64_t *id, struct iolab_err *err)
{
	sqlite3_stmt *st;
	int rc = prepare(s, "SELECT id FROM runs WHERE label = ? ORDER BY id", &st, err);
	if (rc)
		return rc;
	bind_text(st, 1, key);
	char ids[256] = "";
	size_t n = 0, len = 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		*id = sqlite3_column_int64(st, 0);
		if (len < sizeof(ids) - 24)
			len += (size_t)snprintf(ids + len, sizeof(ids) - len, "%s%lld", n ? ", " : "",
						(long long)*id);
		n++;
	}
	sqlite3_finalize(st);
	if (n > 1)
		return iolab_errf(err, EEXIST, "label '%s' names %zu runs (ids %s): give one id", key, n, ids);
	return n ? 0 : iolab_errf(err, ENOENT, "%s: no run with id or label '%s' (see 'iolab db list')",
				  s->path, key);
}

int iolab_store_find(struct iolab_store *s, const char *key, int64_t *id, struct iolab_err *err)
{
	uint64_t v; /* an id is digits alone (" 5" and "+5" are labels), as the CLI reads numbers */
	if (!iolab_parse_uint("id", key, 1, INT64_MAX, &v, NULL)) {
		sqlite3_stmt *st;
		int rc = prepare(s, "SELECT id FROM runs WHERE id = ?", &st, err);
		if (rc)
			return rc;
		sqlite3_bind_int64(st, 1, (sqlite3_int64)v);
		bool found = sqlite3_step(st) == SQLITE_ROW;
		sqlite3_finalize(st);
		if (found) {
			*id = (int64_t)v;
			return 0;
		}
	}
	return by_label(s, key, id, err);
}

int iolab_store_text(struct iolab_store *s, int64_t id, bool json, char **text, struct iolab_err *err)
{
	sqlite3_stmt *st;
	int rc = prepare(s, json ? "SELECT json FROM runs WHERE id = ?"
			 : "SELECT table_text FROM runs WHERE id = ?", &st, err);
	if (rc)
		return rc;
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) != SQLITE_ROW)
		rc = iolab_errf(err, ENOENT, "%s: no run %lld", s->path, (long long)id);
	else if (!(*text = strdup(col(st, 0))))
		rc = iolab_errf(err, ENOMEM, "out of memory");
	sqlite3_finalize(st);
	return rc;
}

int iolab_store_delete(struct iolab_store *s, int64_t id, struct iolab_err *err)
{
	sqlite3_stmt *st;
	int rc = prepare(s, "DELETE FROM runs WHERE id = ?", &st, err);
	if (rc)
		return rc;
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) != SQLITE_DONE)
		rc = db_errf(s, err, EIO, "deleting the run");
	else if (!sqlite3_changes(s->db))
		rc = iolab_errf(err, ENOENT, "%s: no run %lld", s->path, (long long)id);
	sqlite3_finalize(st);
	return rc;
}

int iolab_store_load(struct iolab_store *s, const char *key, struct iolab_store_doc *d,
		     struct iolab_err *err)
{
	*d = (struct iolab_store_doc){0};
	sqlite3_stmt *st;
	int rc = iolab_store_find(s, key, &d->id, err);
	if (rc || (rc = prepare(s, "SELECT label, json, time, command, host FROM runs WHERE id = ?",
				&st, err)))
		return rc;
	sqlite3_bind_int64(st, 1, d->id);
	json_error_t je;
	if (sqlite3_step(st) != SQLITE_ROW)
		rc = iolab_errf(err, ENOENT, "%s: no run %lld", s->path, (long long)d->id);
	else if (!(d->doc = json_loads(col(st, 1), 0, &je)))
		rc = iolab_errf(err, EINVAL, "%s: run %lld: its JSON document: %s", s->path,
				(long long)d->id, je.text);
	else if ((sqlite3_column_type(st, 0) != SQLITE_NULL && !(d->label = strdup(col(st, 0)))) ||
		 !(d->time = strdup(col(st, 2))) || !(d->command = strdup(col(st, 3))) ||
		 !(d->host = strdup(col(st, 4))))
		rc = iolab_errf(err, ENOMEM, "out of memory");
	sqlite3_finalize(st);
	if (rc)
		iolab_store_doc_free(d);
	return rc;
}

void iolab_store_doc_free(struct iolab_store_doc *d)
{
	json_decref(d->doc);
	free(d->label);
	free(d->time);
	free(d->command);
	free(d->host);
	*d = (struct iolab_store_doc){0};
}

int iolab_store_open_read(struct iolab_store **s, const char *db, struct iolab_err *err)
{
	char path[PATH_MAX];
	int rc = db ? 0 : iolab_store_default_path(path, sizeof(path), err);
	return rc ? rc : iolab_store_open(s, db ? db : path, false, err);
}
