/* capture.c: `iolab trace record` (trace_capture.h): a tracefs instance of our own with
 * block_rq_issue and block_rq_complete filtered to one device, its trace_pipe read and parsed
 * line by line, completions matched to issues by sector, records written in issue order. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/fs.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "iolab/trace_capture.h"

#define PENDING_MAX 8192 /* requests awaiting their completion; past it the oldest leaves without */
#define NS_PER_S 1000000000ull

struct pending {
	struct iolab_trace_rec rec;
	uint64_t sector;
	bool done;
};

struct iolab_capture {
	char dir[PATH_MAX];      /* the instance */
	const char *root;        /* tracefs */
	char device[PATH_MAX];
	bool created;
	bool mounted;            /* it mounted tracefs itself, and unmounts it at the end */
	int pipe;                /* its trace_pipe, -1 */
	uint32_t kdev;           /* the whole disk's dev_t, as the tracepoints hold it */
	uint64_t part_start, part_sectors; /* a partition: its place on the disk (else 0, 0) */
	uint64_t t0;             /* time 0 of the records, trace clock (UINT64_MAX: the first event) */
	struct pending ring[PENDING_MAX];
	unsigned head, n;
	struct iolab_capture_stats st;
	char line[8192];         /* a line split between two reads */
	size_t linelen;
};

/* ---- parsing ---- */

static int op_of(const char *rwbs)
{
	const char *p = rwbs;
	if (p[0] == 'F' && p[1] && strchr("WRDFN", p[1]))
		p++; /* 'F' first and an operation after it: a preflush */
	switch (*p) {
	case 'R': return IOLAB_TRACE_READ;
	case 'W': return IOLAB_TRACE_WRITE;
	case 'D': return IOLAB_TRACE_TRIM;
	case 'F': return IOLAB_TRACE_FLUSH;
	default: return -1;
	}
}

/* "12345.678901" ending at end (exclusive) into ns. */
static int parse_ts(const char *start, const char *end, uint64_t *ns)
{
	uint64_t s = 0, frac = 0;
	unsigned digits = 0;
	const char *p = start;
	for (; p < end && isdigit((unsigned char)*p); p++)
		s = s * 10 + (uint64_t)(*p - '0');
	if (p == start || p >= end || *p != '.')
		return -EINVAL;
	for (p++; p < end && isdigit((unsigned char)*p) && digits < 9; p++, digits++)
		frac = frac * 10 + (uint64_t)(*p - '0');
	if (p != end || !digits)
		return -EINVAL;
	while (digits++ < 9)
		frac *= 10;
	*ns = s * NS_PER_S + frac;
	return 0;
}

int iolab_capture_parse_line(const char *line, struct iolab_capture_event *ev)
{
	const char *name = strstr(line, ": block_rq_");
	if (!name)
		return 0;
	const char *ev_name = name + 2;
	size_t nl = strcspn(ev_name, ":");
	if (nl == strlen("block_rq_issue") && !strncmp(ev_name, "block_rq_issue", nl))
		ev->complete = false;
	else if (nl == strlen("block_rq_complete") && !strncmp(ev_name, "block_rq_complete", nl))
		ev->complete = true;
	else
		return 0;
	const char *ts = name;
	while (ts > line && !isspace((unsigned char)ts[-1]))
		ts--;
	if (parse_ts(ts, name, &ev->ts_ns))
		return -EINVAL;
	const char *p = ev_name + nl + 1;
	char rwbs[16];
	int used = 0;
	if (sscanf(p, " %u,%u %15s%n", &ev->major, &ev->minor, rwbs, &used) != 3)
		return -EINVAL;
	ev->op = op_of(rwbs);
	p = strchr(p + used, ')'); /* after "(cmd)": the issue has the byte count before it */
	unsigned long long sector;
	unsigned nr;
	if (!p || sscanf(p + 1, " %llu + %u", &sector, &nr) != 2)
		return -EINVAL;
	ev->sector = sector;
	ev->nr_sector = nr;
	return 1;
}

/* ---- tracefs ---- */

static int write_file(const struct iolab_capture *c, const char *rel, const char *text)
{
	char path[PATH_MAX + 64];
	snprintf(path, sizeof(path), "%s/%s", c->dir, rel);
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t n = write(fd, text, strlen(text));
	int rc = n < 0 ? -errno : (size_t)n == strlen(text) ? 0 : -EIO;
	close(fd);
	return rc;
}

static const char *find_tracefs(void)
{
	static const char *const roots[] = {"/sys/kernel/tracing", "/sys/kernel/debug/tracing"};
	for (unsigned i = 0; i < 2; i++) {
		char p[64];
		snprintf(p, sizeof(p), "%s/instances", roots[i]);
		struct stat st;
		if (!stat(p, &st) && S_ISDIR(st.st_mode))
			return roots[i];
		if (errno == EACCES)
			return roots[i]; /* there, but not ours to use: mkdir says so */
	}
	return NULL;
}

/* Reads one number from a sysfs file. */
static int read_u64(const char *path, uint64_t *v)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return -errno;
	unsigned long long x;
	int ok = fscanf(f, "%llu", &x) == 1;
	fclose(f);
	if (!ok)
		return -EINVAL;
	*v = x;
	return 0;
}

/* The whole disk under device dev (itself, or a partition's disk and the partition's place). */
static int whole_disk(struct iolab_capture *c, dev_t dev)
{
	char path[128];
	unsigned maj = major(dev), min = minor(dev);
	c->kdev = iolab_capture_kdev(maj, min);
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/partition", maj, min);
	if (access(path, F_OK))
		return 0;
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/start", maj, min);
	if (read_u64(path, &c->part_start))
		return -ENODEV;
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/size", maj, min);
	if (read_u64(path, &c->part_sectors))
		return -ENODEV;
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/../dev", maj, min);
	FILE *f = fopen(path, "re");
	unsigned pm, pn;
	int ok = f && fscanf(f, "%u:%u", &pm, &pn) == 2;
	if (f)
		fclose(f);
	if (!ok)
		return -ENODEV;
	c->kdev = iolab_capture_kdev(pm, pn);
	return 0;
}

/* The device: a block device, its size, its disk. */
static int open_device(struct iolab_capture *c, const char *device, struct iolab_trace_header *h,
		       struct iolab_err *err)
{
	struct stat st;
	if (stat(device, &st))
		return iolab_errf(err, errno, "%s: %s", device, strerror(errno));
	if (!S_ISBLK(st.st_mode))
		return iolab_errf(err, ENOTBLK, "%s: not a block device (trace record captures a "
				  "device's requests)", device);
	int fd = open(device, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return iolab_errf(err, errno, "%s: %s", device, strerror(errno));
	uint64_t size = 0;
	int rc = ioctl(fd, BLKGETSIZE64, &size) ? -errno : 0;
	close(fd);
	if (rc)
		return iolab_errf(err, -rc, "%s: its size: %s", device, strerror(-rc));
	if (whole_disk(c, st.st_rdev))
		return iolab_errf(err, ENODEV, "%s: cannot find its disk in /sys/dev/block", device);
	h->ntargets = 1;
	snprintf(h->target[0].name, sizeof(h->target[0].name), "%s", device);
	h->target[0].size = size;
	return 0;
}

static int setup_instance(struct iolab_capture *c, const char *root, struct iolab_err *err)
{
	snprintf(c->dir, sizeof(c->dir), "%s/instances/iolab-%ld", root, (long)getpid());
	if (mkdir(c->dir, 0700)) {
		int e = errno;
		if (e == EACCES || e == EPERM)
			return iolab_errf(err, e, "trace record: needs root (CAP_SYS_ADMIN) to create a "
					  "tracing instance in %s/instances", root);
		return iolab_errf(err, e, "trace record: %s: %s", c->dir, strerror(e));
	}
	c->created = true;
	char filter[160];
	if (c->part_sectors)
		snprintf(filter, sizeof(filter), "dev == %u && sector >= %" PRIu64 " && sector < %" PRIu64,
			 c->kdev, c->part_start, c->part_start + c->part_sectors);
	else
		snprintf(filter, sizeof(filter), "dev == %u", c->kdev);
	static const char *const events[] = {"events/block/block_rq_issue",
					     "events/block/block_rq_complete"};
	write_file(c, "buffer_size_kb", "4096"); /* more room per CPU; the default if refused */
	c->t0 = write_file(c, "trace_clock", "mono") ? UINT64_MAX : 0;
	for (unsigned i = 0; i < 2; i++) {
		char rel[96];
		snprintf(rel, sizeof(rel), "%s/filter", events[i]);
		int rc = write_file(c, rel, filter);
		if (rc == -ENOENT)
			return iolab_errf(err, ENOENT, "trace record: tracefs at %s has no block events "
					  "(%s): this kernel was built without the block tracepoints; check "
					  "'ls %s/events/block'", root, events[i], root);
		if (!rc) {
			snprintf(rel, sizeof(rel), "%s/enable", events[i]);
			rc = write_file(c, rel, "1");
		}
		if (rc)
			return iolab_errf(err, -rc, "trace record: %s/%s: %s", c->dir, rel, strerror(-rc));
	}
	char pipe[PATH_MAX + 16];
	snprintf(pipe, sizeof(pipe), "%s/trace_pipe", c->dir);
	c->pipe = open(pipe, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (c->pipe < 0)
		return iolab_errf(err, errno, "trace record: %s: %s", pipe, strerror(errno));
	return write_file(c, "tracing_on", "1") ? iolab_errf(err, EIO, "trace record: cannot start "
							    "tracing in %s", c->dir) : 0;
}

static uint64_t clock_of(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_S + (uint64_t)ts.tv_nsec;
}

int iolab_capture_start(const char *device, struct iolab_trace_header *h, struct iolab_capture **cp,
			struct iolab_err *err)
{
	struct iolab_capture *c = calloc(1, sizeof(*c));
	if (!c)
		return iolab_errf(err, ENOMEM, "out of memory");
	c->pipe = -1;
	memset(h, 0, sizeof(*h));
	snprintf(h->source, sizeof(h->source), "iolab trace record --device %s", device);
	h->completions = true;
	int rc = geteuid() ? iolab_errf(err, EPERM, "trace record: needs root (the block tracepoints "
					"in tracefs are root's)") : 0;
	if (!rc)
		rc = open_device(c, device, h, err);
	const char *root = rc ? NULL : find_tracefs();
	/* tracefs is in the kernel but not mounted: mount it for the capture, as trace-cmd and perf
	 * do (root only; the check above made sure). */
	if (!rc && !root && !mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL)) {
		c->mounted = true;
		root = find_tracefs();
	}
	if (!rc && !root)
		rc = iolab_errf(err, ENOENT, "trace record: no tracefs at /sys/kernel/tracing or "
				"/sys/kernel/debug/tracing (mount -t tracefs nodev /sys/kernel/tracing)");
	if (!rc) {
		c->root = root;
		snprintf(c->device, sizeof(c->device), "%s", device);
		rc = setup_instance(c, root, err);
	}
	if (rc) {
		iolab_capture_end(c);
		return rc;
	}
	if (c->t0 == 0) /* the mono trace clock: records start at the capture's start */
		c->t0 = clock_of(CLOCK_MONOTONIC);
	h->start_unix_ns = clock_of(CLOCK_REALTIME);
	*cp = c;
	return 0;
}

/* ---- matching and writing ---- */

/* Writes the oldest pending request (completed or not). */
static int emit_head(struct iolab_capture *c, struct iolab_trace_writer *w, struct iolab_err *err)
{
	struct pending *p = &c->ring[c->head];
	if (!p->done) {
		p->rec.done_ns = IOLAB_TRACE_NO_TIME;
		c->st.incomplete++;
	}
	c->head = (c->head + 1) % PENDING_MAX;
	c->n--;
	c->st.records++;
	return iolab_trace_write(w, &p->rec, err);
}

static uint64_t rel_time(struct iolab_capture *c, uint64_t ts)
{
	if (c->t0 == UINT64_MAX)
		c->t0 = ts;
	return ts > c->t0 ? ts - c->t0 : 0;
}

static int on_event(struct iolab_capture *c, const struct iolab_capture_event *ev,
		    struct iolab_trace_writer *w, struct iolab_err *err)
{
	if (iolab_capture_kdev(ev->major, ev->minor) != c->kdev || ev->op < 0)
		return 0;
	int rc = 0;
	if (!ev->complete) {
		c->st.issued++;
		if (c->n == PENDING_MAX && (rc = emit_head(c, w, err)))
			return rc;
		struct pending *p = &c->ring[(c->head + c->n++) % PENDING_MAX];
		uint64_t sec = ev->sector - (ev->sector >= c->part_start ? c->part_start : 0);
		p->sector = ev->sector;
		p->done = false;
		p->rec = (struct iolab_trace_rec){
			.issue_ns = rel_time(c, ev->ts_ns), .done_ns = IOLAB_TRACE_NO_TIME,
			.offset = ev->op == IOLAB_TRACE_FLUSH ? 0 : sec * 512,
			.len = ev->op == IOLAB_TRACE_FLUSH ? 0 : (uint64_t)ev->nr_sector * 512,
			.target = 0, .op = (uint8_t)ev->op,
		};
		return 0;
	}
	c->st.completed++;
	unsigned i;
	for (i = 0; i < c->n; i++) {
		struct pending *p = &c->ring[(c->head + i) % PENDING_MAX];
		if (!p->done && p->sector == ev->sector &&
		    (p->rec.op == IOLAB_TRACE_FLUSH) == (ev->op == IOLAB_TRACE_FLUSH)) {
			p->done = true;
			p->rec.done_ns = rel_time(c, ev->ts_ns);
			break;
		}
	}
	if (i == c->n)
		c->st.unmatched++;
	while (!rc && c->n && c->ring[c->head].done)
		rc = emit_head(c, w, err);
	return rc;
}

/* Parses the complete lines of buf[0..len) (a partial last line is kept for the next read). */
static int on_data(struct iolab_capture *c, const char *buf, size_t len, struct iolab_trace_writer *w,
		   struct iolab_err *err)
{
	for (size_t i = 0; i < len; i++) {
		if (buf[i] != '\n') {
			if (c->linelen < sizeof(c->line) - 1)
				c->line[c->linelen++] = buf[i];
			continue;
		}
		c->line[c->linelen] = 0;
		c->linelen = 0;
		struct iolab_capture_event ev;
		int got = iolab_capture_parse_line(c->line, &ev);
		if (got < 0)
			c->st.bad_lines++;
		int rc = got > 0 ? on_event(c, &ev, w, err) : 0;
		if (rc)
			return rc;
	}
	return 0;
}

/* Reads what the pipe has now: 1 if it had something, 0 if empty, -errno. */
static int read_some(struct iolab_capture *c, struct iolab_trace_writer *w, struct iolab_err *err)
{
	char buf[65536];
	ssize_t n = read(c->pipe, buf, sizeof(buf));
	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? 0
		       : iolab_errf(err, errno, "trace record: reading %s/trace_pipe: %s", c->dir,
				    strerror(errno));
	if (n == 0)
		return 0;
	int rc = on_data(c, buf, (size_t)n, w, err);
	return rc ? rc : 1;
}

/* Events the instance's ring buffer lost: the per-CPU overruns and dropped events. */
static uint64_t lost_events(const struct iolab_capture *c)
{
	uint64_t lost = 0;
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	for (long cpu = 0; cpu < ncpu; cpu++) {
		char path[PATH_MAX + 64], line[128];
		snprintf(path, sizeof(path), "%s/per_cpu/cpu%ld/stats", c->dir, cpu);
		FILE *f = fopen(path, "re");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f)) {
			unsigned long long v;
			if (sscanf(line, "overrun: %llu", &v) == 1 ||
			    sscanf(line, "dropped events: %llu", &v) == 1)
				lost += v;
		}
		fclose(f);
	}
	return lost;
}

int iolab_capture_run(struct iolab_capture *c, struct iolab_trace_writer *w, uint64_t time_ns,
		      volatile sig_atomic_t *stop, struct iolab_err *err)
{
	uint64_t start = clock_of(CLOCK_MONOTONIC), end = time_ns ? start + time_ns : UINT64_MAX;
	int rc = 0;
	while (!rc && !(stop && *stop)) {
		uint64_t now = clock_of(CLOCK_MONOTONIC);
		if (now >= end)
			break;
		uint64_t left_ms = (end - now + 999999) / 1000000;
		struct pollfd pfd = {.fd = c->pipe, .events = POLLIN};
		poll(&pfd, 1, left_ms < 100 ? (int)left_ms : 100);
		while ((rc = read_some(c, w, err)) > 0)
			;
	}
	c->st.seconds = (double)(clock_of(CLOCK_MONOTONIC) - start) / 1e9;
	write_file(c, "tracing_on", "0");
	while (!rc && (rc = read_some(c, w, err)) > 0) /* what is buffered */
		;
	while (!rc && c->n)
		rc = emit_head(c, w, err);
	c->st.lost = lost_events(c);
	if (!rc && !c->st.issued && !c->st.completed && c->st.bad_lines)
		rc = iolab_errf(err, ENODATA, "trace record: %s: none of the %llu lines of the block "
				"tracepoints could be read, so no trace (a print format iolab does not "
				"know: see %s/events/block/block_rq_issue/format)", c->device,
				(unsigned long long)c->st.bad_lines, c->root);
	else if (!rc && !c->st.issued && !c->st.completed)
		rc = iolab_errf(err, ENODATA, "trace record: %s: no block request seen in %.1f s, so no "
				"trace: nothing read or wrote the device then, or its block tracepoints "
				"did not fire (check that %s/events/block/block_rq_issue exists and that "
				"I/O reaches %s)", c->device, c->st.seconds, c->root, c->device);
	return rc;
}

void iolab_capture_stats(const struct iolab_capture *c, struct iolab_capture_stats *s)
{
	*s = c->st;
}

void iolab_capture_end(struct iolab_capture *c)
{
	if (!c)
		return;
	if (c->pipe >= 0)
		close(c->pipe);
	if (c->created) {
		write_file(c, "tracing_on", "0");
		write_file(c, "events/block/block_rq_issue/enable", "0");
		write_file(c, "events/block/block_rq_complete/enable", "0");
		rmdir(c->dir);
	}
	if (c->mounted)
		umount("/sys/kernel/tracing");
	free(c);
}
