/* sim_kinds.h: the registry of the kinds of parts a subsystem is made of (host, bus,
 * controller, channel, volume, and the device kinds: drive, fixed, ssd). Each kind is one file that
 * holds its component ops (sim_system.h) and its table of keys; the list of kinds is
 * src/sim/core/components.c. The subsystem file's reader, the checks, the builder, `iolab sim
 * kinds`, the key tables of docs/subsystem-format.md and iolab_subsys_set all work from these
 * tables, as fio's option table (`struct fio_option`: name, type, offset, range, default, help)
 * drives its parser, its checks and its --cmdhelp.
 *
 * A key's value lives in the record of its part (the kind's record: struct iolab_subsys for the
 * host, struct iolab_sub_bus, _controller, _channel, _volume, and struct iolab_sub_drive for
 * every device kind) at the key's offset, in the type its parameter type names. */
#ifndef IOLAB_SIM_KINDS_H
#define IOLAB_SIM_KINDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "iolab/error.h"

struct iolab_subsys;
struct iolab_sub_drive;
struct iolab_comp;
struct iolab_comp_ops;
struct iolab_sim;
struct iolab_link_type;

/* How a key's text is read, and what it is stored as. */
enum iolab_param_type {
	IOLAB_PT_TIME,     /* uint64_t ns: a time with its unit ("20us"; "0" alone), at most 1 s */
	IOLAB_PT_SIZE,     /* uint64_t bytes: "64k", "1.5m", "2G" */
	IOLAB_PT_SIZE_POS, /* uint64_t bytes, more than 0 (0 in the record: the default) */
	IOLAB_PT_RATE,     /* uint64_t bytes/s: a size, "/s" optional, more than 0 */
	IOLAB_PT_COUNT,    /* uint64_t: a whole number from min to max */
	IOLAB_PT_BOOL,     /* bool: yes/no */
	IOLAB_PT_SWITCH,   /* int: on 1, off 0; -1 when not given */
	IOLAB_PT_CHOICE,   /* unsigned: one of the names choice() knows */
	IOLAB_PT_BUS,      /* struct iolab_link_type: an I/O bus name or a rate */
	IOLAB_PT_CHANNEL,  /* struct iolab_link_type: a drive channel name or a rate */
	IOLAB_PT_REF,      /* int: index of the part of kind `ref` it names; -1 when not given */
	IOLAB_PT_MEMBERS,  /* a volume's devices: unsigned drive[] and n, names comma-separated */
	IOLAB_PT_MODEL,    /* unsigned: index into the subsystem's models (a name or a file) */
	IOLAB_PT_FAILED,   /* int failed[2]: "N" or "N+M", 1-based, stored 0-based; -1: none */
	IOLAB_PT_CUSTOM,   /* read by the key's own custom() into the record */
};

struct iolab_param {
	const char *key;
	enum iolab_param_type type;
	size_t off;          /* of the value in the kind's record */
	const char *unit;    /* of the range: "ns", "bytes", "bytes/s", or "" */
	double min, max;     /* the values allowed, in unit (min == max == 0: any the type takes) */
	const char *def;     /* the default as a value the reader takes, or NULL: the type's "not
				given" (0, -1, false) */
	const char *def_doc; /* the default as the docs say it ("" for a required key) */
	const char *doc;     /* one line: what it is */
	bool required;
	bool fixed;          /* may not vary between points of a sweep: a reference to other
				parts, or what shapes the path (a volume's level and failed
				members); the parts and their wiring stay, their settings vary */
	const char *ref;     /* IOLAB_PT_REF: the kind it names */
	/* IOLAB_PT_CHOICE: reads text (errors name field). Returns 0 or -EINVAL. */
	int (*choice)(const char *field, const char *text, unsigned *out, struct iolab_err *err);
	const char *hint;    /* IOLAB_PT_SIZE_POS: added to "must be more than 0" */
	/* IOLAB_PT_CUSTOM: reads text into rec, the kind's record (errors "field 'KEY': ...").
	 * Returns 0 or -EINVAL. */
	int (*custom)(const struct iolab_param *k, const char *text, void *rec, struct iolab_err *err);
};

#define IOLAB_KIND_KEYS_MAX 32 /* the most keys one kind has */

/* What a part of each class is, in struct iolab_subsys. */
enum iolab_kind_class {
	IOLAB_KC_HOST, IOLAB_KC_BUS, IOLAB_KC_CONTROLLER, IOLAB_KC_CHANNEL, IOLAB_KC_VOLUME,
	IOLAB_KC_DEVICE,
};

/* A device below a channel: a volume's member (the mechanical drive; fixed). The volume, the
 * channel and the builder use every device kind through this alone. */
struct iolab_device_ops {
	/* The blocks the device d of s holds, and their size. */
	void (*geometry)(const struct iolab_subsys *s, const struct iolab_sub_drive *d,
			 uint64_t *blocks, uint32_t *block_bytes);
	/* Refuses settings of d that contradict each other: returns 0, or -EINVAL with err saying
	 * "field 'KEY': what is wrong" (the caller puts where before it). May be NULL. */
	int (*check)(const struct iolab_subsys *s, const struct iolab_sub_drive *d,
		     struct iolab_err *err);
	/* Builds d's component on sim into c: on a channel of type chan_type (NULL: none
	 * modelled) whose link component is link (NULL: none). Returns 0, -EINVAL or -ENOMEM. */
	int (*build)(struct iolab_comp *c, struct iolab_sim *sim, const struct iolab_subsys *s,
		     const struct iolab_sub_drive *d, const struct iolab_link_type *chan_type,
		     struct iolab_comp *link);
};

struct iolab_kind {
	const char *name;       /* the word that starts its lines */
	const char *about;      /* one line */
	enum iolab_kind_class cls;
	const struct iolab_comp_ops *ops; /* its component (NULL: the parts it builds are of
					     several kinds, as a volume of one drive) */
	const struct iolab_param *params;
	unsigned nparams;                 /* at most IOLAB_KIND_KEYS_MAX */
	const struct iolab_device_ops *device; /* IOLAB_KC_DEVICE */
};

/* The kinds, in the order lines are described; NULL after the last. */
const struct iolab_kind *iolab_kind_at(unsigned i);
/* The kind called name, or NULL. */
const struct iolab_kind *iolab_kind_find(const char *name);
/* The key of kind k, or NULL. */
const struct iolab_param *iolab_kind_param(const struct iolab_kind *k, const char *key);
/* k's keys, comma-separated ("model, channel, write-cache"), into buf. */
void iolab_kind_keys(const struct iolab_kind *k, char *buf, size_t n);
/* The kinds' names, comma-separated, into buf. */
void iolab_kind_names(char *buf, size_t n);
/* The kind of device d of s (a drive when d->kind is NULL, as in descriptions built by hand;
 * an ssd when a drive's model is an SSD model). */
const struct iolab_kind *iolab_device_kind(const struct iolab_subsys *s, const struct iolab_sub_drive *d);
/* The blocks device i of s holds and their size. */
void iolab_subsys_device_geometry(const struct iolab_subsys *s, unsigned i, uint64_t *blocks,
				  uint32_t *block_bytes);

/* The range of k's values as people read it ("512 to 1g", "0 us to 1 s"; "-": none). */
void iolab_param_range_text(const struct iolab_param *k, char *buf, size_t n);
/* Writes kind k and its keys as a table people read (`iolab sim kinds KIND`). */
void iolab_kind_write_text(const struct iolab_kind *k, FILE *f);
/* Writes every kind's keys as the markdown table of docs/subsystem-format.md ("Kinds and
 * keys"). */
void iolab_kinds_write_markdown(FILE *f);

/* The registered kinds. */
extern const struct iolab_kind iolab_kind_host, iolab_kind_bus, iolab_kind_controller,
	iolab_kind_channel, iolab_kind_volume, iolab_kind_drive, iolab_kind_ssd;

#endif
