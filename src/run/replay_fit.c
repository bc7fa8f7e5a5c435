/* replay_fit.c: a trace recorded on a larger target than the run's. A trace iolab recorded
 * carries each target's size in its header (trace_record.h); when its requests reach past the
 * run's target and none of --clip, --scale or --wrap says how to fit them, it is mapped as
 * --scale would map it (each trace target's recorded size onto the run target's region, only
 * ever down), with one note saying so. A trace without a recorded size keeps the bounds check's
 * error: nothing says what its offsets were relative to. What the trace's reader said of lines it
 * read past (a version 3 fio log's `wait`) is said here too, once, and kept with each point. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "iolab/parse.h"
#include "point.h"

/* The recorded size of the first trace target that reaches past its run target and was
 * recorded on a larger one, 0 if none. *dt is then its run target. */
static uint64_t larger_target(const struct replay_run *rr, unsigned *dt)
{
	const struct iolab_replay *r = &rr->replay;
	const struct iolab_replay_scan *s = &rr->scan;
	for (unsigned t = 0; t < s->ntargets && t < IOLAB_TRACE_TARGETS_MAX; t++) {
		unsigned d = rr->dest.n == 1 ? 0 : t;
		if ((r->xform.target >= 0 && (unsigned)r->xform.target != t) || d >= rr->dest.n)
			continue;
		uint64_t len = rr->dest.len[d];
		if (s->extent[t] > len && s->header_size[t] > len) {
			*dt = d;
			return s->header_size[t];
		}
	}
	return 0;
}

/* What the trace's reader said of what it read past, said once before the first point. */
static void reader_note(struct replay_run *rr, iolab_progress_fn progress, void *ctx)
{
	if (!rr->scan.note[0] || !progress || rr->noted)
		return;
	struct iolab_progress note = {.kind = IOLAB_PROGRESS_NOTE, .what = rr->scan.note};
	progress(&note, ctx);
	rr->noted = true;
}

void replay_fit(struct replay_run *rr, iolab_progress_fn progress, void *ctx)
{
	struct iolab_replay *r = &rr->replay;
	reader_note(rr, progress, ctx);
	if (r->scale || r->xform.wrap || r->xform.clip_len)
		return;
	unsigned dt = 0;
	uint64_t recorded = larger_target(rr, &dt);
	if (!recorded)
		return;
	r->scale = true; /* from now on: the later points' targets are checked as --scale's */
	rr->fitted = true;
	rr->fit_from = recorded;
	rr->fit_to = rr->dest.len[dt];
	if (!progress)
		return;
	const char *base = strrchr(r->path, '/');
	char line[512], from[32], to[32];
	snprintf(line, sizeof(line), "replay: %s was recorded on a target of %s, larger than the %s "
		 "of run target %u: its offsets are scaled down to it as --scale would (--clip "
		 "START:LEN or --wrap fit them otherwise)", base ? base + 1 : r->path,
		 iolab_fmt_size(recorded, from, sizeof(from)), iolab_fmt_size(rr->fit_to, to, sizeof(to)),
		 dt + 1);
	struct iolab_progress note = {.kind = IOLAB_PROGRESS_NOTE, .what = line};
	progress(&note, ctx);
}

void replay_fit_warn(const struct replay_run *rr, struct iolab_point *p)
{
	char from[32], to[32];
	if (rr && rr->scan.note[0])
		iolab_point_warn_detail(p, "%s", rr->scan.note);
	if (rr && rr->fitted)
		iolab_point_warn_detail(p, "the trace's offsets were scaled down from its recorded "
					"target's %s to the run target's %s, as --scale would (none of "
					"--clip, --scale or --wrap was given)",
					iolab_fmt_size(rr->fit_from, from, sizeof(from)),
					iolab_fmt_size(rr->fit_to, to, sizeof(to)));
}
