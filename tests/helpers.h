/* helpers.h: shared test plumbing: scratch directories, running the iolab binary, loop devices.
 * Every test program gets its own XDG_DATA_HOME (removed at exit), so the results store iolab
 * saves runs into stays out of the user's home.
 * Tests that need what the machine lacks print why and exit 77 (ctest counts it as skipped). */
#ifndef IOLAB_TEST_HELPERS_H
#define IOLAB_TEST_HELPERS_H

#include <stdbool.h>
#include <stddef.h>

/* Creates a fresh directory under /var/tmp (a real file system, not tmpfs); returns its path
 * (static storage, valid until the next call). Removed recursively by th_rmtree. */
const char *th_tmpdir(void);
void th_rmtree(const char *path);

/* A scratch directory for a whole test group: th_dir_setup (a cmocka group setup) creates it
 * into th_dir, th_dir_teardown removes it. */
extern char th_dir[256];
int th_dir_setup(void **state);
int th_dir_teardown(void **state);

/* True if path exists. */
bool th_exists(const char *path);

/* The number of entries of dir ("." and ".." aside) whose names hold part ("": all of them). */
unsigned th_count_entries(const char *dir, const char *part);

/* Output of a finished command. */
struct th_out {
	int status;  /* exit status, or 128+signal */
	char *out;   /* stdout, NUL-terminated (malloc'd) */
	char *err;   /* stderr */
};
/* Runs $IOLAB_BIN with the NULL-terminated argv (not including the program name). */
struct th_out th_iolab(const char *arg, ...) __attribute__((sentinel));
void th_out_free(struct th_out *o);

/* Attaches a loop device over file (with direct I/O if direct); writes its path into dev.
 * Returns false (and says why on stderr) when no loop device can be had. */
bool th_loop_attach(const char *file, bool direct, char *dev, size_t devsz);
void th_loop_detach(const char *dev);

/* Path of a file under tests/data ($IOLAB_SRC/tests/data/NAME, set by ctest; else next to
 * helpers.c). */
void th_data_path(char *buf, size_t n, const char *name);
/* The path of tests/data/disksim-specs/NAME (hand-written DiskSim specifications). */
void th_spec_path(char *buf, size_t n, const char *name);
/* Imports tests/data/disksim-specs/NAME into m (iolab_import_disksim); a refusal fails the test
 * with the importer's message. */
struct iolab_disk_model;
void th_import_spec(const char *name, struct iolab_disk_model *m);

/* Parses the JSON file at path; on failure prints why (path, line, message) and returns NULL. */
struct json_t *th_load_json(const char *path);

/* Number of '\n' in s. */
unsigned th_count_lines(const char *s);

/* Checks a finished command: exit status want and exactly one line on stderr holding every
 * needle (and, for status 2, nothing on stdout); prints both outputs and fails the test
 * otherwise. Frees o. Use TH_EXPECT_EXIT(o, status, "needle", ...). */
void th_expect_exit_(int line, struct th_out *o, int want, const char *const *needles);
#define TH_EXPECT_EXIT(o, want, ...) \
	th_expect_exit_(__LINE__, &(o), want, (const char *const[]){__VA_ARGS__, NULL})

/* Runs a shell command line, with $B set to the iolab binary; returns its exit status (128 +
 * signal if it was killed). */
int th_sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The whole file at path, NUL-terminated (malloc'd); *len (if not NULL) gets its size. Fails the
 * test if it cannot be read. */
char *th_read_file(const char *path, size_t *len);

/* True if the first len bytes of path are all zero (fails the test if they cannot be read). */
bool th_zeros(const char *path, size_t len);

/* Writes text to path (created or emptied); fails the test if it cannot. */
void th_write_text(const char *path, const char *text);

/* Fails the test unless the peak resident size of every child waited for so far (getrusage
 * RUSAGE_CHILDREN: a test of one iolab run measures that run) is at most kib KiB, or asan_kib
 * in a build with AddressSanitizer (its shadow memory and allocator add about 90 MiB a run). */
void th_expect_children_rss(long kib, long asan_kib);

/* A small SSD model file in th_dir (2 channels x 2 dies, 64 MiB of flash; the same figures as
 * examples/tiny-ssd.model), written on the first call; returns its path. */
const char *th_tiny_ssd_model(void);

/* W0(x), the principal branch of Lambert's W, for x in [-1/e, 0): Halley's iteration on
 * w e^w = x from the series at the branch point. */
double th_lambert_w0(double x);

/* Creates a file of size bytes filled with zeros. */
void th_make_file(const char *path, size_t size);

#endif
