/* test_target.c: opening targets (target.h) as a path is swapped under it. Every check is made
 * on the descriptor the run uses: a scratch file whose path is replaced, while iolab writes it,
 * by a symbolic link to a file iolab did not create keeps its writes (through the library, the
 * swap made from the fill's progress news, and through `iolab run`, the swap made the moment
 * inotify sees the file created); a file that takes a scratch file's place is not removed with
 * it. And the library prints nothing: what it has to say (a missing target made a 1 GiB
 * scratch file, how far writing it got) reaches the caller's tell callback, and a run's
 * (creating its targets, --precondition) its progress callback. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "helpers.h"
#include "iolab/run.h"
#include "iolab/target.h"

static ino_t inode_of(const char *path)
{
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	return st.st_ino;
}

/* The swap: path moves to moved, and a symbolic link to victim takes its place. */
struct swap {
	char path[PATH_MAX], moved[PATH_MAX + 8], victim[PATH_MAX + 8];
	bool done;
	unsigned news;
};

static void swap_now(struct swap *s)
{
	assert_int_equal(rename(s->path, s->moved), 0);
	assert_int_equal(symlink(s->victim, s->path), 0);
	s->done = true;
}

static void swap_on_first_news(const struct iolab_target_news *n, void *ctx)
{
	struct swap *s = ctx;
	s->news++;
	if (!n->note && !s->done)
		swap_now(s);
}

static void swap_setup(struct swap *s, const char *name, size_t victim_size)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->path, sizeof(s->path), "%s/%s", th_dir, name);
	snprintf(s->moved, sizeof(s->moved), "%s.moved", s->path);
	snprintf(s->victim, sizeof(s->victim), "%s.victim", s->path);
	th_make_file(s->victim, victim_size); /* not iolab's: writing it would need --force */
}

/* After the swap, the target is the file iolab made (now at moved), and writing through it
 * leaves the victim as it was. */
static void expect_kept(struct swap *s, struct iolab_target *t)
{
	assert_true(s->done);
	assert_int_equal(inode_of(s->moved), t->ino);
	struct stat st;
	assert_int_equal(fstat(t->fd, &st), 0);
	assert_int_equal(st.st_ino, inode_of(s->moved));
	static char ones[1 << 16];
	memset(ones, 0xff, sizeof(ones));
	assert_int_equal(pwrite(t->fd, ones, sizeof(ones), 0), (ssize_t)sizeof(ones));
	assert_true(th_zeros(s->victim, 8 << 20));
	iolab_target_close(t);
}

/* Opens s->path with o, swapping it at the first news of the file being written. */
static void open_swapping(struct swap *s, struct iolab_target_opts o, struct iolab_target *t)
{
	struct iolab_err err = {{0}};
	o.tell = swap_on_first_news;
	o.tell_ctx = s;
	if (iolab_target_open(t, s->path, &o, &err))
		fail_msg("open: %s", err.msg);
}

/* A scratch file being created: its path becomes a link to the victim while iolab fills it. */
static void test_swap_while_creating(void **state)
{
	(void)state;
	struct swap s;
	swap_setup(&s, "new.img", 8 << 20);
	struct iolab_target t;
	open_swapping(&s, (struct iolab_target_opts){.size = 8 << 20, .write = true}, &t);
	expect_kept(&s, &t);
}

/* iolab's own scratch file grown to a larger --size: the same swap while it grows. */
static void test_swap_while_growing(void **state)
{
	(void)state;
	struct swap s;
	swap_setup(&s, "grown.img", 8 << 20);
	struct iolab_target t;
	struct iolab_err err = {{0}};
	struct iolab_target_opts o = {.size = 1 << 20, .write = true};
	assert_int_equal(iolab_target_open(&t, s.path, &o, &err), 0);
	iolab_target_close(&t);
	open_swapping(&s, (struct iolab_target_opts){.size = 8 << 20, .write = true}, &t);
	expect_kept(&s, &t);
}

/* A refused or terminated run removes the scratch file it made, not one that took its path. */
static void test_discard_spares_a_replacement(void **state)
{
	(void)state;
	struct swap s;
	swap_setup(&s, "discard.img", 1 << 20);
	struct iolab_target t;
	struct iolab_err err = {{0}};
	struct iolab_target_opts o = {.size = 1 << 20, .write = true};
	assert_int_equal(iolab_target_open(&t, s.path, &o, &err), 0);
	assert_int_equal(rename(s.victim, s.path), 0);
	iolab_target_discard(&t);
	assert_true(th_exists(s.path));
	assert_int_equal(unlink(s.path), 0);
	iolab_target_open(&t, s.path, &o, &err); /* removed when the path is still its own */
	iolab_target_discard(&t);
	assert_false(th_exists(s.path));
}

/* Runs fn(arg) with stderr going to a file; returns what was written there (malloc'd). */
static char *stderr_of(void (*fn)(void *), void *arg)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/stderr.txt", th_dir);
	fflush(stderr);
	int saved = dup(2), fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	assert_true(saved >= 0 && fd >= 0);
	dup2(fd, 2);
	close(fd);
	fn(arg);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	return th_read_file(path, NULL);
}

struct missing {
	char path[PATH_MAX];
	volatile sig_atomic_t cancel;
	struct iolab_target_opts o;
	int rc;
	struct iolab_err err;
};

static void open_missing(void *arg)
{
	struct missing *m = arg;
	struct iolab_target t;
	m->rc = iolab_target_open(&t, m->path, &m->o, &m->err);
}

/* A missing target without --size becomes a 1 GiB scratch file, and the person is told: by the
 * caller, never by the library on stderr. (Cancelled before the first byte: no GiB written.) */
static void test_says_nothing_itself(void **state)
{
	(void)state;
	struct missing m = {.cancel = 1};
	snprintf(m.path, sizeof(m.path), "%s/quiet.img", th_dir);
	m.o = (struct iolab_target_opts){.write = true, .cancel = &m.cancel};
	char *said = stderr_of(open_missing, &m);
	assert_int_equal(m.rc, -EINTR);
	if (*said)
		fail_msg("the library printed: %s", said);
	free(said);
	assert_false(th_exists(m.path));
}

struct heard {
	char note[512];
	unsigned fills;
	uint64_t done, total;
};

static void hear(const struct iolab_target_news *n, void *ctx)
{
	struct heard *h = ctx;
	if (n->note)
		snprintf(h->note, sizeof(h->note), "%s: %s", n->path, n->note);
	else {
		h->fills++;
		h->done = n->done;
		h->total = n->total;
	}
}

static void test_tells_the_caller(void **state)
{
	(void)state;
	struct missing m = {.cancel = 1};
	struct heard h = {0};
	snprintf(m.path, sizeof(m.path), "%s/told.img", th_dir);
	m.o = (struct iolab_target_opts){.write = true, .cancel = &m.cancel, .tell = hear,
					 .tell_ctx = &h};
	open_missing(&m);
	assert_int_equal(m.rc, -EINTR);
	assert_non_null(strstr(h.note, "told.img: does not exist: creating a scratch file of 1 GiB"));
	/* and how far the writing of a file got, to the end */
	m.cancel = 0;
	m.o.size = 4 << 20;
	open_missing(&m);
	assert_int_equal(m.rc, 0);
	assert_true(h.fills >= 2);
	assert_int_equal(h.done, 4 << 20);
	assert_int_equal(h.total, 4 << 20);
}

struct run_news {
	uint64_t created, created_of, preconditioned, preconditioned_of;
	unsigned notes;
};

static void hear_run(const struct iolab_progress *p, void *ctx)
{
	struct run_news *n = ctx;
	if (p->kind == IOLAB_PROGRESS_CREATE) {
		n->created = p->done;
		n->created_of = p->total;
	} else if (p->kind == IOLAB_PROGRESS_PRECONDITION) {
		n->preconditioned = p->done;
		n->preconditioned_of = p->total;
	} else if (p->kind == IOLAB_PROGRESS_NOTE) {
		n->notes++;
	}
}

struct quiet_run {
	struct iolab_config c;
	struct run_news news;
	int rc;
	struct iolab_err err;
};

static void run_quietly(void *arg)
{
	struct quiet_run *q = arg;
	struct iolab_results res = {0};
	q->rc = iolab_run(&q->c, &res, hear_run, &q->news, &q->err);
	iolab_results_free(&res);
}

/* A run that creates its target and preconditions it (twice its 2 MiB) tells its progress
 * callback how far each got, to the end, and writes nothing on stderr itself. */
static void test_run_says_nothing_itself(void **state)
{
	(void)state;
	struct quiet_run q = {0};
	char target[PATH_MAX];
	snprintf(target, sizeof(target), "%s/pre.img", th_dir);
	iolab_config_init(&q.c);
	const char *set[][2] = {{"target", target}, {"size", "2m"}, {"engine", "psync"},
				{"pattern", "seq-read"}, {"time", "0.05"}};
	for (unsigned i = 0; i < sizeof(set) / sizeof(set[0]); i++)
		assert_int_equal(iolab_config_set(&q.c, set[i][0], set[i][1], &q.err), 0);
	q.c.precondition = true;
	char *said = stderr_of(run_quietly, &q);
	if (q.rc)
		fail_msg("iolab_run: %s", q.err.msg);
	if (*said)
		fail_msg("the library printed: %s", said);
	free(said);
	assert_true(q.news.created == 2 << 20 && q.news.created_of == 2 << 20);
	assert_true(q.news.preconditioned == 4 << 20 && q.news.preconditioned_of == 4 << 20);
	assert_int_equal(q.news.notes, 0); /* --size given: nothing to tell */
}

/* The same swap against `iolab run`: made as soon as inotify sees the scratch file created, while
 * iolab writes its 128 MiB. Without --force, the victim must come out untouched. */
static void test_run_swap(void **state)
{
	(void)state;
	struct swap s;
	swap_setup(&s, "run.img", 128 << 20); /* as large as --size: no other check refuses it */
	int in = inotify_init1(IN_CLOEXEC);
	assert_true(in >= 0);
	assert_true(inotify_add_watch(in, th_dir, IN_CREATE) >= 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		dup2(null, 1);
		const char *bin = getenv("IOLAB_BIN");
		execl(bin ? bin : "iolab", "iolab", "run", s.path, "--size", "128m", "--pattern",
		      "rand-write", "--time", "0.2", "--no-db", (char *)NULL);
		_exit(127);
	}
	while (!s.done) {
		char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
		ssize_t n = read(in, buf, sizeof(buf));
		assert_true(n > 0);
		for (char *at = buf; at < buf + n && !s.done;) {
			const struct inotify_event *e = (const struct inotify_event *)at;
			if (e->len && !strcmp(e->name, "run.img"))
				swap_now(&s);
			at += sizeof(*e) + e->len;
		}
	}
	close(in);
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_true(th_zeros(s.victim, 128 << 20));
	char v[8];
	assert_true(getxattr(s.moved, "user.iolab.scratch", v, sizeof(v)) > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_swap_while_creating),
		cmocka_unit_test(test_swap_while_growing),
		cmocka_unit_test(test_discard_spares_a_replacement),
		cmocka_unit_test(test_says_nothing_itself),
		cmocka_unit_test(test_tells_the_caller),
		cmocka_unit_test(test_run_says_nothing_itself),
		cmocka_unit_test(test_run_swap),
	};
	return cmocka_run_group_tests(tests, th_dir_setup, th_dir_teardown);
}
