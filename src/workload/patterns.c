/* patterns.c: the built-in access specifications and the helpers that edit and check a spec.
 *
 * The IOMeter-derived mixes (file-server, web-server, database, workstation, streaming-*) follow
 * the standard definitions in the design notes; offsets are aligned to the transfer size.
 * The simple patterns default to 4 KiB and are meant to be used with --bs.
 */
#include <errno.h>
#include <string.h>

#include "iolab/workload.h"

#define K 1024ull
#define L(sz, sh, rd, rn) {.size = (sz), .share = (sh), .read_pct = (rd), .random_pct = (rn)}

static const struct iolab_spec builtin[] = {
	{.name = "file-server", .about = "IOMeter file server: 80% read, 100% random, 512 B..64 KiB mix",
	 .nlines = 8,
	 .line = {L(512, 10, 80, 100), L(1 * K, 5, 80, 100), L(2 * K, 5, 80, 100), L(4 * K, 60, 80, 100),
		  L(8 * K, 2, 80, 100), L(16 * K, 4, 80, 100), L(32 * K, 4, 80, 100), L(64 * K, 10, 80, 100)}},
	{.name = "web-server", .about = "IOMeter web server: 100% read, 100% random, 512 B..512 KiB mix",
	 .nlines = 10,
	 .line = {L(512, 22, 100, 100), L(1 * K, 15, 100, 100), L(2 * K, 8, 100, 100),
		  L(4 * K, 23, 100, 100), L(8 * K, 15, 100, 100), L(16 * K, 2, 100, 100),
		  L(32 * K, 6, 100, 100), L(64 * K, 7, 100, 100), L(128 * K, 1, 100, 100),
		  L(512 * K, 1, 100, 100)}},
	{.name = "database", .about = "IOMeter database: 8 KiB, 67% read, 100% random",
	 .nlines = 1, .line = {L(8 * K, 100, 67, 100)}},
	{.name = "workstation", .about = "IOMeter workstation: 8 KiB, 80% read, 80% random",
	 .nlines = 1, .line = {L(8 * K, 100, 80, 80)}},
	{.name = "streaming-read", .about = "sequential reads, 64/128/256 KiB",
	 .nlines = 3, .line = {L(64 * K, 34, 100, 0), L(128 * K, 33, 100, 0), L(256 * K, 33, 100, 0)}},
	{.name = "streaming-write", .about = "sequential writes, 64/128/256 KiB",
	 .nlines = 3, .line = {L(64 * K, 34, 0, 0), L(128 * K, 33, 0, 0), L(256 * K, 33, 0, 0)}},
	{.name = "seq-read", .about = "sequential reads, 4 KiB (use --bs)", .nlines = 1,
	 .line = {L(4 * K, 100, 100, 0)}},
	{.name = "seq-write", .about = "sequential writes, 4 KiB (use --bs)", .nlines = 1,
	 .line = {L(4 * K, 100, 0, 0)}},
	{.name = "rand-read", .about = "random reads, 4 KiB (use --bs)", .nlines = 1,
	 .line = {L(4 * K, 100, 100, 100)}},
	{.name = "rand-write", .about = "random writes, 4 KiB (use --bs)", .nlines = 1,
	 .line = {L(4 * K, 100, 0, 100)}},
	{.name = "rand-rw", .about = "random 50% reads / 50% writes, 4 KiB (use --bs, --read)",
	 .nlines = 1, .line = {L(4 * K, 100, 50, 100)}},
	{.name = "copy", .about = "file copy: one worker, QD 1, 64 KiB sequential read of one half "
				  "then write of the other",
	 .nlines = 1, .copy = true, .line = {L(64 * K, 100, 50, 0)}},
	{.name = "trimwrite", .about = "fio's trimwrite: sequential 4 KiB writes, each after a trim of "
				       "its blocks (--trim-bs: larger trims ahead; simulator only)",
	 .nlines = 1, .trimwrite = true, .line = {L(4 * K, 100, 0, 0)}},
	{.name = "randtrimwrite", .about = "fio's randtrimwrite: random 4 KiB writes, each after a "
					   "trim of its blocks (--trim-bs: larger trims ahead; "
					   "simulator only)",
	 .nlines = 1, .trimwrite = true, .line = {L(4 * K, 100, 0, 100)}},
};

unsigned iolab_pattern_count(void)
{
	return sizeof(builtin) / sizeof(builtin[0]);
}

const struct iolab_spec *iolab_pattern_at(unsigned i)
{
	return i < iolab_pattern_count() ? &builtin[i] : NULL;
}

const struct iolab_spec *iolab_pattern_find(const char *name)
{
	for (unsigned i = 0; i < iolab_pattern_count(); i++)
		if (!strcmp(builtin[i].name, name))
			return &builtin[i];
	return NULL;
}

int iolab_spec_validate(const struct iolab_spec *spec, struct iolab_err *err)
{
	if (spec->nlines == 0)
		return iolab_errf(err, EINVAL, "pattern '%s': no access lines", spec->name);
	if (spec->nlines > IOLAB_SPEC_LINES)
		return iolab_errf(err, EINVAL, "pattern '%s': more than %d lines", spec->name,
				  IOLAB_SPEC_LINES);
	unsigned total = 0;
	for (unsigned i = 0; i < spec->nlines; i++) {
		const struct iolab_spec_line *l = &spec->line[i];
		if (l->size == 0 || l->size > (1u << 30))
			return iolab_errf(err, EINVAL, "pattern '%s' line %u: size must be 1 byte..1 GiB",
					  spec->name, i + 1);
		if (l->share > 100 || l->read_pct > 100 || l->random_pct > 100)
			return iolab_errf(err, EINVAL, "pattern '%s' line %u: a percentage is over 100",
					  spec->name, i + 1);
		total += l->share;
	}
	if (total != 100)
		return iolab_errf(err, EINVAL, "pattern '%s': shares sum to %u%%, not 100%%", spec->name,
				  total);
	return 0;
}

void iolab_spec_set_bs(struct iolab_spec *spec, uint64_t bs)
{
	/* One line that keeps the mix's overall read and random shares. */
	double rn = 0;
	for (unsigned i = 0; i < spec->nlines; i++)
		rn += (double)spec->line[i].share * spec->line[i].random_pct / 100.0;
	spec->line[0].read_pct = (unsigned)(iolab_spec_read_share(spec) + 0.5);
	spec->line[0].random_pct = (unsigned)(rn + 0.5);
	spec->nlines = 1;
	spec->line[0].size = bs;
	spec->line[0].share = 100;
	spec->line[0].align = 0;
}

void iolab_spec_set_read(struct iolab_spec *spec, unsigned read_pct)
{
	for (unsigned i = 0; i < spec->nlines; i++)
		spec->line[i].read_pct = read_pct;
}

bool iolab_spec_writes(const struct iolab_spec *spec)
{
	for (unsigned i = 0; i < spec->nlines; i++)
		if (spec->line[i].share && spec->line[i].read_pct < 100)
			return true;
	return false;
}

bool iolab_spec_reads(const struct iolab_spec *spec)
{
	for (unsigned i = 0; i < spec->nlines; i++)
		if (spec->line[i].share && spec->line[i].read_pct > 0)
			return true;
	return false;
}

uint64_t iolab_spec_max_size(const struct iolab_spec *spec)
{
	uint64_t m = 0;
	for (unsigned i = 0; i < spec->nlines; i++)
		if (spec->line[i].size > m)
			m = spec->line[i].size;
	return m;
}

double iolab_spec_read_share(const struct iolab_spec *spec)
{
	double r = 0;
	for (unsigned i = 0; i < spec->nlines; i++)
		r += (double)spec->line[i].share * spec->line[i].read_pct / 100.0;
	return r;
}
