/* cluster.c: the MPI job behind cluster.h: joining it, the ranks' hosts and clock offsets, and
 * the few collectives the runner needs. Without MPI (IOLAB_HAVE_MPI undefined) one rank. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "iolab/cluster.h"

#ifdef IOLAB_HAVE_MPI
#include <mpi.h>
#endif
#include "iolab/run.h" /* iolab_stop_requested */

static struct {
	bool active;
	unsigned rank, size;
	char host[IOLAB_HOST_MAX];
	char (*hosts)[IOLAB_HOST_MAX]; /* rank 0: every rank's */
	double *offset_ns;             /* rank 0: every rank's clock offset */
	double *offset_err_ns;         /* and its bound: half the quickest round trip */
	bool lost;                     /* a collective was given up: the job is ending */
} cl = {.size = 1};

/* Did mpirun (Open MPI, or another PMI launcher) start this process as one of several? */
static bool launched(void)
{
	const char *keys[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"};
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const char *v = getenv(keys[i]);
		if (v && atoi(v) > 1)
			return true;
	}
	return false;
}

bool iolab_cluster_active(void) { return cl.active; }
bool iolab_cluster_lost(void) { return cl.lost; }
unsigned iolab_cluster_rank(void) { return cl.rank; }
unsigned iolab_cluster_size(void) { return cl.size; }

const char *iolab_cluster_host(void)
{
	if (!*cl.host && gethostname(cl.host, sizeof(cl.host) - 1))
		snprintf(cl.host, sizeof(cl.host), "?");
	return cl.host;
}

const char *iolab_cluster_host_of(unsigned r)
{
	return cl.hosts && r < cl.size ? cl.hosts[r] : iolab_cluster_host();
}

double iolab_cluster_offset_ns(unsigned r, double *err_ns)
{
	if (err_ns)
		*err_ns = cl.offset_err_ns && r < cl.size ? cl.offset_err_ns[r] : 0;
	return cl.offset_ns && r < cl.size ? cl.offset_ns[r] : 0;
}

/* The gathers of one rank: its own bytes. */
static bool gather_alone(const void *mine, size_t n, void *all)
{
	memcpy(all, mine, n);
	return true;
}

static int gatherv_alone(const void *mine, size_t n, void **all, size_t *len)
{
	len[0] = n;
	*all = malloc(n ? n : 1);
	if (!*all)
		return -ENOMEM;
	memcpy(*all, mine, n);
	return 0;
}

#ifdef IOLAB_HAVE_MPI

static int64_t realtime_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Waits for a collective, unless the run is stopped meanwhile (SIGINT, or SIGTERM: mpirun ends
 * the job that way when a rank died, and a collective would then wait for it forever): the
 * collective is given up and the job lost. */
static bool wait_for(MPI_Request *rq)
{
	for (unsigned spin = 0;; spin++) {
		int done = 0;
		MPI_Test(rq, &done, MPI_STATUS_IGNORE);
		if (done)
			return true;
		if (iolab_stop_requested) {
			cl.lost = true;
			return false;
		}
		if (spin > 1000) { /* then leave the cores to the ranks beside this one: naps
				    * from 50 us, doubling to 1 ms */
			unsigned shift = spin - 1000 < 5 ? spin - 1000 : 5;
			struct timespec ts = {0, (50000L << shift) < 1000000L ? 50000L << shift : 1000000L};
			nanosleep(&ts, NULL);
		}
	}
}

/* Rank 0 sends each rank a few pings; a rank answers with its clock. The offset is the answer
 * less the middle of the quickest round trip (NTP's estimate; its error is below half that
 * round trip). The ranks waiting their turn nap (wait_for()), so that on a machine with fewer
 * cores than ranks the two talking get them. */
static void measure_offsets(void)
{
	enum { ROUNDS = 16 };
	for (unsigned r = 1; r < cl.size; r++) {
		int64_t best_rtt = INT64_MAX;
		for (unsigned k = 0; k < ROUNDS; k++) {
			int64_t t_remote = 0;
			if (cl.rank == 0) {
				int64_t t0 = realtime_ns();
				MPI_Send(&t0, 1, MPI_INT64_T, (int)r, 7, MPI_COMM_WORLD);
				MPI_Recv(&t_remote, 1, MPI_INT64_T, (int)r, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
				int64_t t1 = realtime_ns();
				if (t1 - t0 < best_rtt) {
					best_rtt = t1 - t0;
					cl.offset_ns[r] = (double)(t_remote - t0) - (double)(t1 - t0) / 2;
					cl.offset_err_ns[r] = (double)(t1 - t0) / 2;
				}
			} else if (cl.rank == r) {
				int64_t t0;
				MPI_Request rq;
				MPI_Irecv(&t0, 1, MPI_INT64_T, 0, 7, MPI_COMM_WORLD, &rq);
				if (!wait_for(&rq))
					return;
				t_remote = realtime_ns();
				MPI_Send(&t_remote, 1, MPI_INT64_T, 0, 7, MPI_COMM_WORLD);
			}
		}
	}
}

int iolab_cluster_start(int *argc, char ***argv, struct iolab_err *err)
{
	(void)err;
	if (!launched())
		return 0;
	int rank, size;
	MPI_Init(argc, argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	cl.rank = (unsigned)rank;
	cl.size = (unsigned)size;
	cl.active = size > 1;
	iolab_cluster_host();
	if (cl.rank == 0) {
		cl.hosts = calloc(cl.size, sizeof(*cl.hosts));
		cl.offset_ns = calloc(cl.size, sizeof(*cl.offset_ns));
		cl.offset_err_ns = calloc(cl.size, sizeof(*cl.offset_err_ns));
		if (!cl.hosts || !cl.offset_ns || !cl.offset_err_ns)
			MPI_Abort(MPI_COMM_WORLD, 2);
	}
	MPI_Gather(cl.host, IOLAB_HOST_MAX, MPI_CHAR, cl.hosts, IOLAB_HOST_MAX, MPI_CHAR, 0,
		   MPI_COMM_WORLD);
	measure_offsets();
	if (cl.rank != 0) { /* rank 0 speaks for the job; a rank that cannot be silenced runs on */
		bool quiet = freopen("/dev/null", "w", stdout) && freopen("/dev/null", "w", stderr);
		(void)quiet;
	}
	return 0;
}

void iolab_cluster_end(void)
{
	int on = 0, off = 0;
	MPI_Initialized(&on);
	if (on)
		MPI_Finalized(&off);
	if (on && !off && !cl.lost) /* a lost job ends without the ranks that left it */
		MPI_Finalize();
	free(cl.hosts);
	free(cl.offset_ns);
	free(cl.offset_err_ns);
	cl.hosts = NULL;
	cl.offset_ns = cl.offset_err_ns = NULL;
}

int iolab_cluster_agree(int rc, const char *msg, struct iolab_err *err)
{
	if (!cl.active)
		return rc;
	if (cl.lost)
		return rc ? rc : iolab_errf(err, ECANCELED, "the job lost a rank");
	struct { int rc; char msg[sizeof(err->msg)]; } mine = {.rc = rc}, *all = NULL;
	if (rc)
		snprintf(mine.msg, sizeof(mine.msg), "%s", msg ? msg : "failed");
	all = malloc(cl.size * sizeof(*all));
	if (!all)
		MPI_Abort(MPI_COMM_WORLD, 2);
	MPI_Request rq;
	MPI_Iallgather(&mine, sizeof(mine), MPI_BYTE, all, sizeof(mine), MPI_BYTE, MPI_COMM_WORLD, &rq);
	if (!wait_for(&rq)) {
		free(all);
		return rc ? rc : iolab_errf(err, ECANCELED, "the job lost a rank");
	}
	char hosts[IOLAB_HOST_MAX];
	int out = 0;
	for (unsigned r = 0; r < cl.size && !out; r++) {
		if (!all[r].rc)
			continue;
		out = all[r].rc;
		if (cl.rank == r)
			snprintf(hosts, sizeof(hosts), "%s", cl.host);
		else
			snprintf(hosts, sizeof(hosts), "%s", cl.hosts ? cl.hosts[r] : "?");
		iolab_errf(err, -out, "host %s (rank %u): %s", hosts, r, all[r].msg);
	}
	free(all);
	return out;
}

bool iolab_cluster_barrier(void)
{
	if (!cl.active || cl.lost)
		return !cl.lost;
	MPI_Request rq;
	MPI_Ibarrier(MPI_COMM_WORLD, &rq);
	return wait_for(&rq);
}

bool iolab_cluster_any(bool flag)
{
	if (!cl.active || cl.lost)
		return flag || cl.lost;
	int in = flag, out = 0;
	MPI_Request rq;
	MPI_Iallreduce(&in, &out, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD, &rq);
	return !wait_for(&rq) || out;
}

bool iolab_cluster_gather(const void *mine, size_t n, void *all)
{
	if (!cl.active)
		return gather_alone(mine, n, all);
	if (cl.lost)
		return false;
	MPI_Request rq;
	MPI_Igather(mine, (int)n, MPI_BYTE, all, (int)n, MPI_BYTE, 0, MPI_COMM_WORLD, &rq);
	return wait_for(&rq);
}

int iolab_cluster_gatherv(const void *mine, size_t n, void **all, size_t *len)
{
	if (!cl.active)
		return gatherv_alone(mine, n, all, len);
	if (cl.lost)
		return -ECANCELED;
	int in = (int)n, *counts = NULL, *displs = NULL, total = 0, rc = 0;
	if (cl.rank == 0) {
		counts = calloc(cl.size, sizeof(int));
		displs = calloc(cl.size, sizeof(int));
		if (!counts || !displs)
			MPI_Abort(MPI_COMM_WORLD, 2);
	}
	MPI_Request rq;
	MPI_Igather(&in, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD, &rq);
	if (!wait_for(&rq)) {
		free(counts);
		free(displs);
		return -ECANCELED;
	}
	if (cl.rank == 0) {
		for (unsigned r = 0; r < cl.size; r++) {
			displs[r] = total;
			total += counts[r];
			len[r] = (size_t)counts[r];
		}
		*all = malloc(total ? (size_t)total : 1);
		if (!*all)
			MPI_Abort(MPI_COMM_WORLD, 2);
	}
	MPI_Igatherv(mine, in, MPI_BYTE, cl.rank == 0 ? *all : NULL, counts, displs, MPI_BYTE, 0,
		     MPI_COMM_WORLD, &rq);
	if (!wait_for(&rq)) {
		rc = -ECANCELED;
		if (cl.rank == 0) {
			free(*all);
			*all = NULL;
		}
	}
	free(counts);
	free(displs);
	return rc;
}

#else /* one rank */

int iolab_cluster_start(int *argc, char ***argv, struct iolab_err *err)
{
	(void)argc;
	(void)argv;
	if (launched())
		return iolab_errf(err, ENOTSUP, "started by mpirun, but this iolab was built without "
				  "MPI (install libopenmpi-dev and rebuild: docs/scale-out.md)");
	return 0;
}

void iolab_cluster_end(void) {}

int iolab_cluster_agree(int rc, const char *msg, struct iolab_err *err)
{
	(void)msg;
	(void)err;
	return rc;
}

bool iolab_cluster_barrier(void) { return true; }
bool iolab_cluster_any(bool flag) { return flag; }

bool iolab_cluster_gather(const void *mine, size_t n, void *all)
{
	return gather_alone(mine, n, all);
}

int iolab_cluster_gatherv(const void *mine, size_t n, void **all, size_t *len)
{
	return gatherv_alone(mine, n, all, len);
}

#endif
