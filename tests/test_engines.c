/* test_engines.c: psync, io_uring and libaio write and read back O_DIRECT data at QD 8; the null
 * engine completes everything; ops tables of another version or without a required hook are
 * refused (as fio's check_engine_ops refuses them). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/fs.h>

#include <cmocka.h>

#include "helpers.h"
#include "iolab/engine.h"
#include "iolab/workload.h"

#define QD 8
#define BS 4096
#define NIO 64
#define FILE_SIZE (16u << 20)
#define NBLOCKS (FILE_SIZE / BS)

/* Where the engines do their I/O: a loop device (direct I/O) over a file in a scratch directory
 * on a real file system, or the file itself when no loop device can be had. */
struct fixture {
	char dir[256];
	char file[PATH_MAX];
	char dev[64];
	bool loop;
	int fd;
	void *bufs[QD];
};

static int teardown(void **state);

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	if (!f)
		return -1;
	f->fd = -1;
	*state = f;
	snprintf(f->dir, sizeof(f->dir), "%s", th_tmpdir());
	snprintf(f->file, sizeof(f->file), "%s/engines.img", f->dir);
	th_make_file(f->file, FILE_SIZE);
	f->loop = th_loop_attach(f->file, true, f->dev, sizeof(f->dev));
	const char *path = f->loop ? f->dev : f->file;
	if (!f->loop)
		fprintf(stderr, "note: no loop device; testing the engines on the plain file %s\n", f->file);
	f->fd = open(path, O_RDWR | O_DIRECT | O_CLOEXEC);
	if (f->fd < 0) {
		fprintf(stderr, "open %s with O_DIRECT: %s\n", path, strerror(errno));
		teardown(state);
		return -1;
	}
	for (unsigned i = 0; i < QD; i++)
		if (posix_memalign(&f->bufs[i], 4096, BS) != 0) {
			teardown(state);
			return -1;
		}
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	if (!f)
		return 0;
	for (unsigned i = 0; i < QD; i++)
		free(f->bufs[i]);
	if (f->fd >= 0)
		close(f->fd);
	if (f->loop)
		th_loop_detach(f->dev);
	th_rmtree(f->dir);
	free(f);
	*state = NULL;
	return 0;
}

/* Block number of I/O i: 64 distinct blocks spread over the device (37 is coprime with 4096). */
static uint64_t block_of(unsigned i)
{
	return ((uint64_t)i * 37 + 5) % NBLOCKS;
}

/* The contents written by I/O i of engine e: different for every engine, I/O and word. */
static void fill_pattern(void *buf, unsigned e, unsigned i)
{
	uint64_t *w = buf;
	for (unsigned k = 0; k < BS / 8; k++) {
		uint64_t x = ((uint64_t)(e + 1) << 48) ^ ((uint64_t)i << 32) ^ k;
		x *= 0x9e3779b97f4a7c15ull;
		w[k] = x ^ (x >> 29);
	}
}

/* Runs the NIO I/Os (write or read) through the engine, at most QD in flight, refilling each
 * slot as soon as it is reaped; checks each completes once with res == BS and, for reads, that
 * the data is the pattern written. */
static void run_ios(struct fixture *f, const struct iolab_engine_ops *ops, struct iolab_engine *e,
		    unsigned eidx, enum iolab_op op)
{
	struct iolab_io slot[QD];
	int io_of_slot[QD];
	bool done_io[NIO] = {false};
	unsigned next = 0, completed = 0, inflight = 0;
	unsigned char *expect = malloc(BS);
	assert_non_null(expect);
	for (unsigned s = 0; s < QD; s++)
		io_of_slot[s] = -1;

	while (completed < NIO) {
		/* Fill every free slot and submit them as one batch. */
		struct iolab_io *batch[QD];
		unsigned n = 0;
		for (unsigned s = 0; s < QD && next < NIO; s++) {
			if (io_of_slot[s] >= 0)
				continue;
			struct iolab_io *io = &slot[s];
			memset(io, 0, sizeof(*io));
			io->off = block_of(next) * BS;
			io->buf = f->bufs[s];
			io->len = BS;
			io->op = (uint8_t)op;
			io->target = 0;
			io->slot = s;
			io->res = INT32_MIN;
			if (op == IOLAB_OP_WRITE)
				fill_pattern(io->buf, eidx, next);
			else
				memset(io->buf, 0xa5, BS); /* stale data must not pass */
			io_of_slot[s] = (int)next++;
			batch[n++] = io;
		}
		if (n) {
			int rc = ops->submit(e, batch, n);
			if (rc != (int)n) {
				print_error("%s: submit(%u) returned %d\n", ops->name, n, rc);
				fail();
			}
			inflight += n;
		}
		assert_true(inflight <= QD);

		struct iolab_io *done[QD];
		int got = ops->reap(e, 1, done, QD);
		if (got < 1 || (unsigned)got > inflight) {
			print_error("%s: reap(1, %u) returned %d with %u in flight\n", ops->name, QD, got, inflight);
			fail();
		}
		for (int k = 0; k < got; k++) {
			struct iolab_io *io = done[k];
			assert_true(io >= slot && io < slot + QD);
			unsigned s = (unsigned)(io - slot);
			assert_int_equal(io->slot, s);
			int i = io_of_slot[s];
			assert_true(i >= 0 && i < NIO);
			assert_false(done_io[i]);
			if (io->res != BS) {
				print_error("%s: %s of block %llu: res %d\n", ops->name,
					    op == IOLAB_OP_READ ? "read" : "write", (unsigned long long)block_of((unsigned)i),
					    io->res);
				fail();
			}
			if (op == IOLAB_OP_READ) {
				fill_pattern(expect, eidx, (unsigned)i);
				if (memcmp(io->buf, expect, BS) != 0) {
					print_error("%s: block %llu read back wrong data\n", ops->name,
						    (unsigned long long)block_of((unsigned)i));
					fail();
				}
			}
			done_io[i] = true;
			io_of_slot[s] = -1;
			completed++;
			inflight--;
		}
	}
	/* Nothing is left: a reap that need not wait finds nothing. */
	struct iolab_io *extra[QD];
	assert_int_equal(ops->reap(e, 0, extra, QD), 0);
	free(expect);
}

/* The offset alignment O_DIRECT needs on fd. */
static unsigned dio_alignment(int fd)
{
	int lbs = 0;
	if (ioctl(fd, BLKSSZGET, &lbs) == 0 && lbs > 0)
		return (unsigned)lbs;
#ifdef STATX_DIOALIGN
	struct statx sx;
	if (statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &sx) == 0 && (sx.stx_mask & STATX_DIOALIGN) &&
	    sx.stx_dio_offset_align)
		return sx.stx_dio_offset_align;
#endif
	return 512;
}

/* One read of BS bytes at off through slot 0; returns its res, or submit's error. */
static int one_io(const struct iolab_engine_ops *ops, struct iolab_engine *e, struct fixture *f,
		  uint64_t off)
{
	struct iolab_io io = {.off = off, .buf = f->bufs[0], .len = BS, .op = IOLAB_OP_READ, .slot = 0,
			      .res = INT32_MIN};
	struct iolab_io *list[1] = {&io}, *done[QD];
	int rc = ops->submit(e, list, 1);
	if (rc < 0)
		return rc;
	assert_int_equal(rc, 1);
	assert_int_equal(ops->reap(e, 1, done, QD), 1);
	assert_ptr_equal(done[0], &io);
	assert_true(io.res != INT32_MIN);
	return io.res;
}

static void check_engine(void **state, const char *name)
{
	struct fixture *f = *state;
	const struct iolab_engine_ops *ops = iolab_engine_find(name);
	assert_non_null(ops);
	assert_string_equal(ops->name, name);
	assert_int_equal(ops->version, IOLAB_ENGINE_OPS_VERSION);
	assert_false(ops->flags & IOLAB_ENGINE_NO_IO);
	unsigned eidx = 0;
	while (iolab_engine_at(eidx) != ops)
		eidx++;

	const int fds[1] = {f->fd};
	struct iolab_engine_params p = {
		.fds = fds, .nfds = 1, .qd = QD, .bufs = f->bufs, .buf_size = BS,
	};
	struct iolab_engine e = {.ops = ops};
	struct iolab_err err = {{0}};
	int rc = ops->init(&e, &p, &err);
	if (rc != 0) {
		print_error("%s: init failed: %d %s\n", name, rc, err.msg);
		fail();
	}
	run_ios(f, ops, &e, eidx, IOLAB_OP_WRITE);
	run_ios(f, ops, &e, eidx, IOLAB_OP_READ);

	/* res carries what the kernel said: a short read at the end, 0 past it, -errno for an
	 * offset O_DIRECT cannot use (some engines refuse that one at submit instead). */
	unsigned lbs = dio_alignment(f->fd);
	if (lbs < BS) {
		int res = one_io(ops, &e, f, FILE_SIZE - lbs);
		if (res != (int)lbs) {
			print_error("%s: read of the last %u bytes: res %d\n", name, lbs, res);
			fail();
		}
	}
	assert_int_equal(one_io(ops, &e, f, FILE_SIZE), 0);
	int res = one_io(ops, &e, f, lbs / 2);
	if (res >= 0) {
		print_error("%s: misaligned O_DIRECT read at %u: res %d, want -errno\n", name, lbs / 2, res);
		fail();
	}
	if (ops->cleanup)
		ops->cleanup(&e);

	/* Independently of the engine: the blocks hold the patterns, at the right offsets, and
	 * the blocks around them are untouched (the file started as zeros). */
	unsigned char *buf = f->bufs[0], *expect = malloc(BS);
	assert_non_null(expect);
	for (unsigned i = 0; i < NIO; i++) {
		assert_int_equal(pread(f->fd, buf, BS, (off_t)(block_of(i) * BS)), BS);
		fill_pattern(expect, eidx, i);
		if (memcmp(buf, expect, BS) != 0) {
			print_error("%s: block %llu does not hold I/O %u's data\n", name,
				    (unsigned long long)block_of(i), i);
			fail();
		}
		uint64_t nb = block_of(i) + 1; /* never written: 37 > 1 */
		assert_int_equal(pread(f->fd, buf, BS, (off_t)(nb * BS)), BS);
		for (unsigned k = 0; k < BS; k++)
			if (buf[k]) {
				print_error("%s: block %llu should still be zeros\n", name, (unsigned long long)nb);
				fail();
			}
	}
	free(expect);
}

static void test_psync(void **state)
{
	check_engine(state, "psync");
}

static void test_io_uring(void **state)
{
	check_engine(state, "io_uring");
}

static void test_libaio(void **state)
{
	check_engine(state, "libaio");
}

static void test_registry(void **state)
{
	(void)state;
	assert_int_equal(iolab_engine_count(), 5);
	assert_null(iolab_engine_at(iolab_engine_count()));
	assert_null(iolab_engine_find("nope"));
	assert_null(iolab_engine_find(""));
	for (unsigned i = 0; i < iolab_engine_count(); i++) {
		const struct iolab_engine_ops *ops = iolab_engine_at(i);
		assert_non_null(ops);
		assert_ptr_equal(iolab_engine_find(ops->name), ops);
		assert_int_equal(ops->version, IOLAB_ENGINE_OPS_VERSION);
		assert_non_null(ops->init);
		assert_non_null(ops->submit);
		assert_non_null(ops->reap);
		assert_non_null(ops->about);
	}
	assert_ptr_equal(iolab_engine_find("null"), &iolab_engine_null);
	assert_ptr_equal(iolab_engine_find("psync"), &iolab_engine_psync);
	assert_ptr_equal(iolab_engine_find("sim"), &iolab_engine_sim);
	assert_ptr_equal(iolab_engine_find("io_uring"), &iolab_engine_io_uring);
	assert_ptr_equal(iolab_engine_find("libaio"), &iolab_engine_libaio);
	assert_true(iolab_engine_null.flags & IOLAB_ENGINE_NO_IO);
	assert_true(iolab_engine_psync.flags & IOLAB_ENGINE_SYNC);
}

/* iolab_engine_check accepts every registered engine and refuses a table of another ops version
 * or one without a required hook, naming the engine and the fault. */
static void test_check(void **state)
{
	(void)state;
	struct iolab_err err = {{0}};
	for (unsigned i = 0; i < iolab_engine_count(); i++)
		assert_int_equal(iolab_engine_check(iolab_engine_at(i), &err), 0);
	struct iolab_engine_ops bad = iolab_engine_null;
	bad.name = "bad";
	bad.version = IOLAB_ENGINE_OPS_VERSION + 1;
	assert_int_equal(iolab_engine_check(&bad, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "'bad'"));
	assert_non_null(strstr(err.msg, "version"));
	bad.version = 0; /* a table that forgot to set it */
	assert_int_equal(iolab_engine_check(&bad, &err), -EINVAL);
	bad.version = IOLAB_ENGINE_OPS_VERSION;
	assert_int_equal(iolab_engine_check(&bad, &err), 0);
	bad.reap = NULL;
	assert_int_equal(iolab_engine_check(&bad, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "reap"));
	bad = iolab_engine_null;
	bad.submit = NULL;
	assert_int_equal(iolab_engine_check(&bad, &err), -EINVAL);
	bad = iolab_engine_null;
	bad.init = NULL;
	assert_int_equal(iolab_engine_check(&bad, &err), -EINVAL);
	bad = iolab_engine_sim; /* a virtual-time engine without its clock */
	bad.now = NULL;
	assert_int_equal(iolab_engine_check(&bad, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "now"));
	bad = iolab_engine_null;
	bad.name = NULL;
	assert_int_equal(iolab_engine_check(&bad, &err), -EINVAL);
	assert_int_equal(iolab_engine_check(NULL, &err), -EINVAL);
}

/* The null engine completes every I/O at once with res == len and hands each back exactly once,
 * in batches of any size, including across the wrap of its internal ring. */
static void test_null(void **state)
{
	(void)state;
	const struct iolab_engine_ops *ops = iolab_engine_find("null");
	assert_non_null(ops);
	const int fds[1] = {-1};
	struct iolab_engine_params p = {.fds = fds, .nfds = 1, .qd = QD};
	struct iolab_engine e = {.ops = ops};
	struct iolab_err err = {{0}};
	assert_int_equal(ops->init(&e, &p, &err), 0);

	struct iolab_io slot[QD];
	bool busy[QD] = {false};
	unsigned inflight = 0, total = 0;
	uint32_t seq = 0;
	struct iolab_io *done[QD];
	assert_int_equal(ops->reap(&e, 0, done, QD), 0);
	for (unsigned round = 0; round < 1000; round++) {
		/* Submit between 1 and all free slots. */
		struct iolab_io *batch[QD];
		unsigned want = 1 + round % (QD - inflight > 0 ? QD - inflight : 1), n = 0;
		for (unsigned s = 0; s < QD && n < want && inflight + n < QD; s++) {
			if (busy[s])
				continue;
			slot[s] = (struct iolab_io){.off = (uint64_t)seq * 512, .len = 512 + (seq % 7) * 512,
						    .op = (uint8_t)(seq & 1), .slot = s, .res = -1};
			seq++;
			busy[s] = true;
			batch[n++] = &slot[s];
		}
		if (n)
			assert_int_equal(ops->submit(&e, batch, n), (int)n);
		inflight += n;
		/* Reap some (max varies), then check each. */
		unsigned max = 1 + round % QD;
		int got = ops->reap(&e, 1, done, max);
		assert_true(got >= 1 && (unsigned)got <= max && (unsigned)got <= inflight);
		for (int k = 0; k < got; k++) {
			assert_true(done[k] >= slot && done[k] < slot + QD);
			unsigned s = (unsigned)(done[k] - slot);
			assert_true(busy[s]);
			assert_int_equal(done[k]->res, (int32_t)done[k]->len);
			busy[s] = false;
		}
		inflight -= (unsigned)got;
		total += (unsigned)got;
	}
	/* Drain. */
	int got = ops->reap(&e, 0, done, QD);
	assert_int_equal(got, (int)inflight);
	for (int k = 0; k < got; k++) {
		unsigned s = (unsigned)(done[k] - slot);
		assert_true(busy[s]);
		assert_int_equal(done[k]->res, (int32_t)done[k]->len);
		busy[s] = false;
	}
	total += (unsigned)got;
	assert_int_equal(total, seq);
	assert_int_equal(ops->reap(&e, 0, done, QD), 0);
	ops->cleanup(&e);
	assert_null(e.priv);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry),
		cmocka_unit_test(test_null),
		cmocka_unit_test(test_check),
		cmocka_unit_test_setup_teardown(test_psync, setup, teardown),
		cmocka_unit_test_setup_teardown(test_io_uring, setup, teardown),
		cmocka_unit_test_setup_teardown(test_libaio, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
