/* model_datasheet.h: a complete drive model from the figures of a drive's datasheet (`iolab
 * model new`, docs/model-format.md "From a datasheet"): capacity, spindle speed, the three seek
 * times, the media rate at the outer and inner edge, buffer size and queue. The zones, the seek
 * curve and the skews follow from them; what a datasheet does not give (heads, head switch,
 * overheads, cache segments, ...) takes a documented default marked "# ASSUMED" in the file.
 *
 * The inputs are named by the options of `iolab model new` (--capacity, ...), so that every
 * message names the option a person typed; the same names mark each input in the model file
 * ("# datasheet: --avg-seek 4.7ms"), where `iolab model check` reads them back.
 */
#ifndef IOLAB_MODEL_DATASHEET_H
#define IOLAB_MODEL_DATASHEET_H

#include <stdbool.h>
#include <stdint.h>

#include "iolab/error.h"

enum iolab_ds_input {
	IOLAB_DS_CAPACITY,   /* --capacity 73.5G: G, GB = 10^9 bytes (as drives are sold), GiB = 2^30 */
	IOLAB_DS_RPM,        /* --rpm 10000 */
	IOLAB_DS_AVG_SEEK,   /* --avg-seek 4.7ms (ms or us) */
	IOLAB_DS_TRACK_SEEK, /* --track-seek 0.6ms */
	IOLAB_DS_FULL_SEEK,  /* --full-seek 11ms */
	IOLAB_DS_MEDIA_RATE, /* --media-rate 57-36MB/s: MIN-MAX, MAX-MIN or one rate */
	IOLAB_DS_CACHE,      /* --cache 8M: the buffer; K, M, KB, MB are 2^10, 2^20 (buffer memory) */
	IOLAB_DS_QUEUE,      /* --queue 64: commands the drive accepts; 1 = no command queuing */
	IOLAB_DS_SURFACES,   /* --surfaces 4 (optional; default assumed) */
	IOLAB_DS_ZONES,      /* --zones 20 (optional) */
	IOLAB_DS_INTERFACE,  /* --interface 150MB/s (optional) */
	IOLAB_DS_NINPUTS
};

struct iolab_datasheet {
	uint64_t capacity_bytes;
	double rpm;
	double avg_seek_ms, track_seek_ms, full_seek_ms;
	double rate_outer_mb_s, rate_inner_mb_s; /* MB/s = 10^6 bytes a second; outer >= inner */
	uint64_t cache_bytes;
	unsigned queue, surfaces, zones;
	double interface_mb_s;
	char name[64];                          /* the model's name (required) */
	char given[IOLAB_DS_NINPUTS][64];       /* each input as typed ("" = not given) */
};

/* "--capacity" for IOLAB_DS_CAPACITY, ...; NULL beyond the last. */
const char *iolab_ds_option(unsigned input);
/* The input the option names ("--avg-seek" or "avg-seek"), or IOLAB_DS_NINPUTS. */
unsigned iolab_ds_input_of(const char *option);

/* Reads text as the value of input into d (and keeps it in d->given). Returns 0 or -EINVAL with
 * one line naming the option ("--avg-seek: '4.7' needs a unit: ms or us"). */
int iolab_ds_set(struct iolab_datasheet *d, unsigned input, const char *text, struct iolab_err *err);

/* Reads the "# datasheet: --OPTION VALUE" lines of a model file's text into d; returns how many
 * it read (0: the model was not made from a datasheet) or -EINVAL when one does not read. */
int iolab_ds_from_model_text(const char *text, struct iolab_datasheet *d, struct iolab_err *err);

/* The HPL seek curve (disk_model.h seek_hpl, V1..V6) through (1, track seek), (V1, average)
 * and (cylinders - 1, full stroke), V1 = (cylinders - 1) / 3 rounded: a + b sqrt(x) below V1,
 * c + e x from it. Returns 0 or -EINVAL naming the option whose figure the curve cannot meet. */
int iolab_ds_seek_curve(const struct iolab_datasheet *d, uint32_t cylinders, double hpl[6],
			struct iolab_err *err);

/* Writes the whole model file for d into *text (malloc'd; the caller frees it). Checks the
 * inputs first: every required one given, the seeks in order, the zones within the model
 * format's limits. Returns 0, or -EINVAL with one line naming the option, or -ENOMEM. */
int iolab_ds_model_text(const struct iolab_datasheet *d, char **text, struct iolab_err *err);

#endif
