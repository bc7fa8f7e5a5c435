/* environment.c: what a run opens once for all its points: the targets and their regions (or
 * the virtual region of an engine without targets), the verification state, where a replay's
 * requests go, and dropping the targets' cached pages before a run. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iolab/clock.h"
#include "point.h"
#include "scaleout.h"
#include "verify_run.h"

/* Closes the targets; a refused run (discard) also removes the scratch files it created. */
void env_close(struct run_env *env, bool discard)
{
	if (env->verify) { /* a run that ends well closes it first, to report its journal's errors */
		struct iolab_err ignore;
		verify_run_close(env->verify, &ignore);
		free(env->verify);
		env->verify = NULL;
	}
	if (env->no_io) /* a virtual region: no target was opened (tgt[0].fd is 0, not a target) */
		return;
	for (unsigned i = 0; i < env->n; i++)
		if (discard)
			iolab_target_discard(&env->tgt[i]);
		else
			iolab_target_close(&env->tgt[i]);
	env->n = 0;
}

/* The regions of the volumes a simulated load is aimed at by name (--target): one per target,
 * as the regions of several files are in a measurement, so that the generator spreads the load
 * over them the same way. */
static int target_regions(const struct iolab_config *c, struct run_env *env, struct iolab_err *err)
{
	const struct iolab_subsys *d = env->desc;
	env->n = d->ntarget;
	env->working_set = 0;
	for (unsigned t = 0; t < d->ntarget; t++) {
		const struct iolab_sub_volume *v = &d->vol[d->target[t]];
		char what[IOLAB_SUBSYS_NAME + 16];
		snprintf(what, sizeof(what), "volume %s", v->name);
		env->fds[t] = -1;
		int rc = run_region_len(c, what, iolab_subsys_volume_bytes(d, v), &env->region[t].len,
					err);
		if (rc)
			return rc;
		env->region[t].start = c->offset;
		env->working_set += env->region[t].len;
	}
	return 0;
}

/* The region an engine without targets addresses in a point: the null engine's --size (1 GiB
 * by default), a simulated drive's capacity, or a volume's (its drives' together); or the
 * regions of the volumes --target names. */
int env_virtual_region(const struct iolab_config *c, const struct point_params *pp,
		       struct run_env *env, struct iolab_err *err)
{
	uint64_t size = c->virtual_size ? c->virtual_size : c->size ? c->size : 1ull << 30;
	env->n = 1;
	env->fds[0] = -1;
	if (pp && env->desc && env->desc->ntarget)
		return target_regions(c, env, err);
	if (pp && env->desc)
		size = iolab_subsys_bytes(env->desc);
	else if (!pp && c->engine == &iolab_engine_sim)
		return 0; /* each point's path is checked with the point */
	int rc = run_region_len(c, env->desc ? "the simulated path" : "the null engine's region",
				size, &env->region[0].len, err);
	if (rc)
		return rc;
	env->region[0].start = c->offset;
	env->working_set = env->region[0].len;
	return 0;
}

/* What the point addresses in all: its targets' sizes together, or a simulated path's capacity
 * (a volume's usable bytes), or the null engine's region. */
uint64_t env_capacity(const struct iolab_config *c, const struct run_env *env)
{
	if (env->no_io)
		return env->desc ? iolab_subsys_bytes(env->desc)
		       : c->virtual_size ? c->virtual_size : c->size ? c->size : 1ull << 30;
	uint64_t sum = 0;
	for (unsigned i = 0; i < env->n; i++)
		sum += env->tgt[i].size;
	return sum;
}

/* Where a target's news goes: the run's progress callback (run.h). */
struct teller {
	iolab_progress_fn fn;
	void *ctx;
};

static void tell_target_news(const struct iolab_target_news *n, void *ctx)
{
	const struct teller *t = ctx;
	char line[PATH_MAX + 160];
	struct iolab_progress pr = {.kind = IOLAB_PROGRESS_CREATE, .what = n->path, .done = n->done,
				    .total = n->total};
	if (n->note) {
		snprintf(line, sizeof(line), "%s: %s", n->path, n->note);
		pr = (struct iolab_progress){.kind = IOLAB_PROGRESS_NOTE, .what = line};
	}
	t->fn(&pr, t->ctx);
}

int env_open(const struct iolab_config *c, bool writes, struct run_env *env,
	     iolab_progress_fn progress, void *ctx, struct iolab_err *err)
{
	memset(env, 0, sizeof(*env));
	env->no_io = c->engine->flags & (IOLAB_ENGINE_NO_IO | IOLAB_ENGINE_VIRTUAL);
	if (c->stroke_pct && c->length)
		return iolab_errf(err, EINVAL, "--stroke and --length cannot be used together");
	if (env->no_io) /* the null engine and the simulator address a virtual region */
		return env_virtual_region(c, NULL, env, err);
	if (!c->ntargets)
		return iolab_errf(err, EINVAL, "no target: give a file or block device (or --engine null)");
	struct teller teller = {progress, ctx};
	struct iolab_target_opts o = {
		.size = c->size, .write = writes, .force = c->force, .destroy_data = c->destroy_data,
		.direct = c->direct, .cancel = &iolab_stop_requested,
		.tell = progress ? tell_target_news : NULL, .tell_ctx = &teller,
	};
	for (unsigned i = 0; i < c->ntargets; i++) {
		int rc = iolab_target_open(&env->tgt[i], c->target[i], &o, err);
		if (rc) {
			env_close(env, true);
			return rc;
		}
		env->n++;
		struct iolab_target *t = &env->tgt[i];
		env->fds[i] = t->fd;
		uint64_t len;
		if ((rc = run_region_len(c, t->path, t->size, &len, err))) {
			env_close(env, true);
			return rc;
		}
		env->region[i] = (struct iolab_region){.start = c->offset, .len = len};
		scale_split(c, &env->region[i]);
		env->working_set += env->region[i].len;
	}
	return 0;
}

/* --verify, --verify-only: the run's verification over env's regions (after --precondition,
 * whose writes carry no headers). */
int env_open_verify(const struct iolab_config *c, struct run_env *env, struct iolab_err *err)
{
	if (!(env->verify = malloc(sizeof(*env->verify))))
		return iolab_errf(err, ENOMEM, "out of memory");
	int rc = verify_run_open(env->verify, c, env->region, env->n, err);
	if (rc) {
		free(env->verify);
		env->verify = NULL;
	}
	return rc;
}

/* Where a replay's requests go in the current point: the targets' regions (and logical block
 * size, for direct I/O on real targets). */
void env_replay_dest(const struct iolab_config *c, const struct run_env *env,
		     struct iolab_replay_dest *d)
{
	memset(d, 0, sizeof(*d));
	d->n = env->n;
	for (unsigned t = 0; t < env->n; t++) {
		d->start[t] = env->region[t].start;
		d->len[t] = env->region[t].len;
		d->lbs[t] = !env->no_io && c->direct ? env->tgt[t].lbs : 0;
	}
}

/* Drops the targets' cached pages before a run of point p (see iolab_config_invalidates);
 * a failure is warned about once per point and the run goes on. */
void env_invalidate(const struct run_env *env, struct iolab_point *p, bool warn)
{
	for (unsigned t = 0; t < env->n; t++) {
		struct iolab_err err;
		if (iolab_target_invalidate(&env->tgt[t], &err) && warn)
			iolab_point_warn(p, "cached pages not dropped before the run: %s", err.msg);
	}
}
