/* cluster.c: the MPI job behind cluster.h: joining it, the ranks' hosts and clock offsets, and
 * the few collectives the runner needs. Without MPI (IOLAB_HAVE_MPI undefined) one rank. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "iolab/cluster.h"

#ifdef IOLAB_HAVE_MPI
#include <mpi.h>
#endif
#include "iolab/stop.h"

static struct {
	bool active;
	unsigned rank, size;
	char host[IOLAB_HOST_MAX];
	char (*hosts)[IOLAB_HOST_MAX]; /* rank 0: every rank's */
	double *offset_ns;             /* rank 0: every rank's clock offset */
	double *offset_err_ns;         /* and its bound: half the quickest round trip */
	uint64_t *lens;                /* rank 0: every rank's bytes in a gatherv */
	bool lost;                     /* a collective was given up: the job is ending */
	size_t piece_max;              /* the largest message of a gatherv (0: the default) */
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

int iolab_cluster_layout(const uint64_t *len, unsigned n, size_t *offset, size_t *total)
{
	size_t sum = 0;
	for (unsigned r = 0; r < n; r++) {
		if (offset)
			offset[r] = sum;
		if (len[r] > SIZE_MAX - sum)
			return -EOVERFLOW;
		sum += (size_t)len[r];
	}
	*total = sum;
	return 0;
}

size_t iolab_cluster_set_piece_max(size_t bytes)
{
	size_t before = cl.piece_max ? cl.piece_max : IOLAB_CLUSTER_PIECE_MAX;
	cl.piece_max = bytes > INT_MAX ? INT_MAX : bytes;
	return before;
}

#ifdef IOLAB_HAVE_MPI

enum { TAG_CLOCK = 7, TAG_GATHERV = 8 };

static int64_t realtime_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Waits for a request, unless the job is being ended meanwhile (SIGTERM: mpirun ends the job
 * that way when a rank died, and a collective would then wait for it forever): the request is
 * given up and the job lost. A SIGINT on this rank alone does not end the wait: every rank takes
 * part in the same collectives (iolab_cluster_agree keeps them in step), so the others come. */
static bool wait_for(MPI_Request *rq)
{
	for (unsigned spin = 0;; spin++) {
		int done = 0;
		MPI_Test(rq, &done, MPI_STATUS_IGNORE);
		if (done)
			return true;
		if (iolab_stop_requested == SIGTERM) {
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
				MPI_Send(&t0, 1, MPI_INT64_T, (int)r, TAG_CLOCK, MPI_COMM_WORLD);
				MPI_Recv(&t_remote, 1, MPI_INT64_T, (int)r, TAG_CLOCK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
				int64_t t1 = realtime_ns();
				if (t1 - t0 < best_rtt) {
					best_rtt = t1 - t0;
					cl.offset_ns[r] = (double)(t_remote - t0) - (double)(t1 - t0) / 2;
					cl.offset_err_ns[r] = (double)(t1 - t0) / 2;
				}
			} else if (cl.rank == r) {
				int64_t t0;
				MPI_Request rq;
				MPI_Irecv(&t0, 1, MPI_INT64_T, 0, TAG_CLOCK, MPI_COMM_WORLD, &rq);
				if (!wait_for(&rq))
					return;
				t_remote = realtime_ns();
				MPI_Send(&t_remote, 1, MPI_INT64_T, 0, TAG_CLOCK, MPI_COMM_WORLD);
			}
		}
	}
}

static void free_tables(void)
{
	free(cl.hosts);
	free(cl.offset_ns);
	free(cl.offset_err_ns);
	free(cl.lens);
	cl.hosts = NULL;
	cl.offset_ns = cl.offset_err_ns = NULL;
	cl.lens = NULL;
}

int iolab_cluster_start(int *argc, char ***argv, struct iolab_err *err)
{
	if (!launched())
		return 0;
	int rank, size;
	MPI_Init(argc, argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	cl.rank = (unsigned)rank;
	cl.size = (unsigned)size;
	iolab_cluster_host();
	int room = 1, all_room = 0;
	if (cl.rank == 0) {
		cl.hosts = calloc(cl.size, sizeof(*cl.hosts));
		cl.offset_ns = calloc(cl.size, sizeof(*cl.offset_ns));
		cl.offset_err_ns = calloc(cl.size, sizeof(*cl.offset_err_ns));
		cl.lens = calloc(cl.size, sizeof(*cl.lens));
		room = cl.hosts && cl.offset_ns && cl.offset_err_ns && cl.lens;
	}
	/* every rank is here: they learn together whether rank 0 could make its tables */
	MPI_Allreduce(&room, &all_room, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
	if (!all_room) {
		free_tables();
		MPI_Finalize();
		cl.size = 1; /* one process again; cl.rank stays, for the CLI to silence the others */
		return iolab_errf(err, ENOMEM, "rank 0 has no memory for the tables of a job of %d "
				  "ranks", size);
	}
	cl.active = size > 1;
	MPI_Gather(cl.host, IOLAB_HOST_MAX, MPI_CHAR, cl.hosts, IOLAB_HOST_MAX, MPI_CHAR, 0,
		   MPI_COMM_WORLD);
	measure_offsets();
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
	free_tables();
}

static int lost_job(int rc, struct iolab_err *err)
{
	return rc ? rc : iolab_errf(err, ECANCELED, "the job lost a rank");
}

int iolab_cluster_agree(int rc, const char *msg, struct iolab_err *err)
{
	if (!cl.active)
		return rc;
	if (cl.lost)
		return lost_job(rc, err);
	/* the lowest failed rank (size: none), then its word, from it to every rank: no buffer
	 * that grows with the ranks, so nothing here can fail on one rank alone */
	int mine = rc ? (int)cl.rank : (int)cl.size, first = (int)cl.size;
	MPI_Request rq;
	MPI_Iallreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD, &rq);
	if (!wait_for(&rq))
		return lost_job(rc, err);
	if (first == (int)cl.size)
		return 0;
	struct { int rc; char msg[sizeof(err->msg)]; } word = {0};
	if (first == (int)cl.rank) {
		word.rc = rc;
		snprintf(word.msg, sizeof(word.msg), "host %s (rank %u): %s", cl.host, cl.rank,
			 msg ? msg : "failed");
	}
	MPI_Ibcast(&word, sizeof(word), MPI_BYTE, first, MPI_COMM_WORLD, &rq);
	if (!wait_for(&rq))
		return lost_job(rc, err);
	return iolab_errf(err, -word.rc, "%s", word.msg);
}

bool iolab_cluster_barrier(void)
{
	if (!cl.active || cl.lost)
		return !cl.lost;
	MPI_Request rq;
	MPI_Ibarrier(MPI_COMM_WORLD, &rq);
	return wait_for(&rq);
}

unsigned iolab_cluster_max(unsigned v)
{
	if (!cl.active || cl.lost)
		return v;
	unsigned out = v;
	MPI_Request rq;
	MPI_Iallreduce(&v, &out, 1, MPI_UNSIGNED, MPI_MAX, MPI_COMM_WORLD, &rq);
	return wait_for(&rq) ? out : v;
}

bool iolab_cluster_any(bool flag)
{
	unsigned any = iolab_cluster_max(flag);
	return any || cl.lost;
}

bool iolab_cluster_bcast(void *buf, size_t n)
{
	if (!cl.active || cl.lost)
		return !cl.lost;
	MPI_Request rq;
	MPI_Ibcast(buf, (int)n, MPI_BYTE, 0, MPI_COMM_WORLD, &rq);
	return wait_for(&rq);
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

/* Rank 0 receives n bytes from rank `peer` into in; another rank sends its n bytes at out to
 * rank 0. In pieces that an MPI count (an int) holds. False if the job was lost. */
static bool move_pieces(const char *out, char *in, size_t n, int peer)
{
	size_t max = cl.piece_max ? cl.piece_max : IOLAB_CLUSTER_PIECE_MAX;
	for (size_t done = 0; done < n;) {
		int piece = (int)(n - done < max ? n - done : max);
		MPI_Request rq;
		if (in)
			MPI_Irecv(in + done, piece, MPI_BYTE, peer, TAG_GATHERV, MPI_COMM_WORLD, &rq);
		else
			MPI_Isend(out + done, piece, MPI_BYTE, 0, TAG_GATHERV, MPI_COMM_WORLD, &rq);
		if (!wait_for(&rq))
			return false;
		done += (size_t)piece;
	}
	return true;
}

int iolab_cluster_gatherv(const void *mine, size_t n, void **all, size_t *len)
{
	if (!cl.active)
		return gatherv_alone(mine, n, all, len);
	if (cl.lost)
		return -ECANCELED;
	uint64_t in = n;
	MPI_Request rq;
	MPI_Igather(&in, 1, MPI_UINT64_T, cl.lens, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD, &rq);
	if (!wait_for(&rq))
		return -ECANCELED;
	/* rank 0 makes room for the whole, and says whether it could before any rank sends */
	char *whole = NULL;
	size_t total = 0;
	if (cl.rank == 0) {
		if (!iolab_cluster_layout(cl.lens, cl.size, NULL, &total))
			whole = malloc(total ? total : 1);
		for (unsigned r = 0; r < cl.size; r++)
			len[r] = (size_t)cl.lens[r];
	}
	int room = cl.rank != 0 || whole;
	MPI_Ibcast(&room, 1, MPI_INT, 0, MPI_COMM_WORLD, &rq);
	int rc = !wait_for(&rq) ? -ECANCELED : !room ? -ENOMEM : 0;
	if (!rc && cl.rank == 0) {
		memcpy(whole, mine, n);
		char *at = whole + n;
		for (unsigned r = 1; r < cl.size && !rc; r++) {
			rc = move_pieces(NULL, at, len[r], (int)r) ? 0 : -ECANCELED;
			at += len[r];
		}
	} else if (!rc) {
		rc = move_pieces(mine, NULL, n, 0) ? 0 : -ECANCELED;
	}
	if (rc) {
		free(whole);
		whole = NULL;
	}
	if (cl.rank == 0)
		*all = whole;
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
unsigned iolab_cluster_max(unsigned v) { return v; }

bool iolab_cluster_bcast(void *buf, size_t n)
{
	(void)buf;
	(void)n;
	return true;
}

bool iolab_cluster_gather(const void *mine, size_t n, void *all)
{
	return gather_alone(mine, n, all);
}

int iolab_cluster_gatherv(const void *mine, size_t n, void **all, size_t *len)
{
	return gatherv_alone(mine, n, all, len);
}

#endif
