/* sim_carry.c: the simulated system of a point, kept between its runs. A simulator's state is
 * what a real device keeps between two runs: a write-back controller's dirty data, the cache's
 * contents, the drives' caches and head positions, a rebuild's progress, the time. A real
 * device is not emptied between SNIA PTS rounds or between repetitions, and a simulated one is
 * not either: the point's first run builds the system and has the ramp (the ramp warms the
 * state), each further round or repetition continues it from where the last one left it (the
 * requests in flight at the end of a run finish uncounted before the next begins). With
 * --fresh-state every run builds its system afresh, ramp included. */
#include "sim_point.h"
#include "worker_loads.h"

int sim_carry_get(struct sim_carry *sc, const struct iolab_config *c, const struct run_env *env,
		  const struct point_params *pp, unsigned slots, struct iolab_engine **e,
		  uint64_t *ramp_ns, struct iolab_err *err)
{
	*e = NULL;
	*ramp_ns = c->ramp_ns;
	if (!(c->engine->flags & IOLAB_ENGINE_VIRTUAL)) /* a real device keeps its own state */
		return 0;
	if (sc->open) { /* a continued state: warm already */
		*ramp_ns = 0;
		*e = &sc->eng;
		return 0;
	}
	struct iolab_sim_engine_config cfg;
	struct iolab_engine_params p = {
		.fds = env->fds, .nfds = env->n, .qd = slots, .config = sim_point_engine(c, pp, env, &cfg),
	};
	sc->eng = (struct iolab_engine){.ops = c->engine};
	int rc = c->engine->init(&sc->eng, &p, err);
	if (rc)
		return rc;
	sc->open = true;
	*e = &sc->eng;
	return 0;
}

void sim_carry_after_run(struct sim_carry *sc, const struct iolab_config *c)
{
	if (c->fresh_state)
		sim_carry_end(sc);
}

void sim_carry_end(struct sim_carry *sc)
{
	if (sc->open && sc->eng.ops->cleanup)
		sc->eng.ops->cleanup(&sc->eng);
	sc->open = false;
}
