/* cmd_model_check.c: `iolab model check NAME|FILE [--json]`: what a drive model predicts beside
 * the figures it was made from (a model of `iolab model new` carries them as "# datasheet:"
 * lines; any other model gives its own datasheet fields): seeks, rotation, media rates,
 * capacity, and random 4 KiB reads at queue depth 1 from a short simulation. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "iolab/disk_model.h"
#include "iolab/model_datasheet.h"
#include "iolab/model_predict.h"
#include "iolab/textfile.h"

#define CHECK_IOS 3000 /* random reads simulated: a few seconds of the drive, under a second here */
#define CHECK_SEED 1

static void help_check(void)
{
	printf("usage: iolab model check NAME|FILE [--json]\n\n"
	       "Prints what a drive model predicts beside the figures it was made from: capacity,\n"
	       "rotation (a turn, average latency), track-to-track, average and full-stroke seek (the\n"
	       "average both at a third of the stroke and over random cylinder pairs), the media rate\n"
	       "of the outer and inner zone (and sustained over head and cylinder switches), and\n"
	       "random 4 KiB reads at queue depth 1 from %u simulated reads. The figures come from the\n"
	       "'# datasheet:' lines 'iolab model new' writes, else from the model's own datasheet\n"
	       "fields (rpm, seek_single_ms, seek_average_ms, seek_full_ms); '-' where none is known.\n\n"
	       "  --json   the same as one JSON object on stdout\n\n"
	       "Exit status: 0 checked, 2 bad input (an SSD model has no mechanics to check).\n",
	       CHECK_IOS);
}

/* The figures the model was made from; NAN where not known. */
struct inputs {
	double capacity_bytes, rpm, track_ms, avg_ms, full_ms, outer_mb_s, inner_mb_s;
};

/* The datasheet's figure where its line gave one, else the model's own field (0: not given). */
static double known(const struct iolab_datasheet *d, unsigned input, double from_ds, double field)
{
	return d->given[input][0] ? from_ds : field ? field : NAN;
}

static void known_inputs(const struct iolab_disk_model *m, const struct iolab_datasheet *d,
			 struct inputs *in)
{
	in->capacity_bytes = known(d, IOLAB_DS_CAPACITY, (double)d->capacity_bytes, 0);
	in->rpm = known(d, IOLAB_DS_RPM, d->rpm, m->rpm);
	in->track_ms = known(d, IOLAB_DS_TRACK_SEEK, d->track_seek_ms, m->seek_single_ns / 1e6);
	in->avg_ms = known(d, IOLAB_DS_AVG_SEEK, d->avg_seek_ms, m->seek_avg_ns / 1e6);
	in->full_ms = known(d, IOLAB_DS_FULL_SEEK, d->full_seek_ms, m->seek_full_ns / 1e6);
	in->outer_mb_s = known(d, IOLAB_DS_MEDIA_RATE, d->rate_outer_mb_s, 0);
	in->inner_mb_s = known(d, IOLAB_DS_MEDIA_RATE, d->rate_inner_mb_s, 0);
}

/* "4.700 ms" or "-" */
static const char *fmt(char *buf, size_t n, double v, const char *f)
{
	if (isnan(v))
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, f, v);
	return buf;
}

static void show_text(const struct iolab_disk_model *m, const struct inputs *in,
		      const struct iolab_model_prediction *p, int from_ds)
{
	char a[64];
	printf("%s: %s\n", m->name, m->about);
	printf("inputs: %s\n\n", from_ds ? "the '# datasheet:' lines of 'iolab model new'"
					  : "the model's own datasheet fields");
	printf("%-26s %-14s %s\n", "figure", "input", "model");
	printf("%-26s %-14s %.2f GB (%llu blocks)\n", "capacity",
	       fmt(a, sizeof(a), in->capacity_bytes / 1e9, "%.2f GB"), p->capacity_bytes / 1e9,
	       (unsigned long long)m->blocks);
	printf("%-26s %-14s %.3f ms a turn, average latency %.3f ms\n", "rotation",
	       fmt(a, sizeof(a), in->rpm, "%.0f rpm"), p->rev_ms, p->latency_ms);
	printf("%-26s %-14s %.3f ms\n", "seek, track to track", fmt(a, sizeof(a), in->track_ms, "%.3f ms"),
	       p->seek_track_ms);
	printf("%-26s %-14s %.3f ms at 1/3 stroke (%u cylinders); %.3f ms over random pairs\n",
	       "seek, average", fmt(a, sizeof(a), in->avg_ms, "%.3f ms"), p->seek_third_ms,
	       (unsigned)((m->cylinders - 1) / 3.0 + 0.5), p->seek_random_ms);
	printf("%-26s %-14s %.3f ms\n", "seek, full stroke", fmt(a, sizeof(a), in->full_ms, "%.3f ms"),
	       p->seek_full_ms);
	printf("%-26s %-14s %.2f MB/s (sustained over switches %.2f MB/s)\n", "media rate, outer zone",
	       fmt(a, sizeof(a), in->outer_mb_s, "%.2f MB/s"), p->media_outer_mb_s,
	       p->sustained_outer_mb_s);
	printf("%-26s %-14s %.2f MB/s (sustained over switches %.2f MB/s)\n", "media rate, inner zone",
	       fmt(a, sizeof(a), in->inner_mb_s, "%.2f MB/s"), p->media_inner_mb_s,
	       p->sustained_inner_mb_s);
	printf("%-26s %-14s %.1f IOPS (%.3f ms each, %u simulated)\n", "random 4 KiB reads, QD 1", "-",
	       p->rand_iops, p->rand_ms, p->rand_ios);
}

static json_t *num_or_null(double v)
{
	return isnan(v) ? json_null() : json_real(v);
}

static int show_json(const struct iolab_disk_model *m, const struct inputs *in,
		     const struct iolab_model_prediction *p, int from_ds)
{
	json_t *input = json_object();
	json_object_set_new(input, "capacity_bytes", num_or_null(in->capacity_bytes));
	json_object_set_new(input, "rpm", num_or_null(in->rpm));
	json_object_set_new(input, "seek_track_ms", num_or_null(in->track_ms));
	json_object_set_new(input, "seek_average_ms", num_or_null(in->avg_ms));
	json_object_set_new(input, "seek_full_ms", num_or_null(in->full_ms));
	json_object_set_new(input, "media_outer_mb_s", num_or_null(in->outer_mb_s));
	json_object_set_new(input, "media_inner_mb_s", num_or_null(in->inner_mb_s));
	json_t *model = json_object();
	json_object_set_new(model, "capacity_bytes", json_real(p->capacity_bytes));
	json_object_set_new(model, "blocks", json_integer((json_int_t)m->blocks));
	json_object_set_new(model, "revolution_ms", json_real(p->rev_ms));
	json_object_set_new(model, "rotational_latency_ms", json_real(p->latency_ms));
	json_object_set_new(model, "seek_track_ms", json_real(p->seek_track_ms));
	json_object_set_new(model, "seek_third_ms", json_real(p->seek_third_ms));
	json_object_set_new(model, "seek_random_ms", json_real(p->seek_random_ms));
	json_object_set_new(model, "seek_full_ms", json_real(p->seek_full_ms));
	json_object_set_new(model, "media_outer_mb_s", json_real(p->media_outer_mb_s));
	json_object_set_new(model, "media_inner_mb_s", json_real(p->media_inner_mb_s));
	json_object_set_new(model, "sustained_outer_mb_s", json_real(p->sustained_outer_mb_s));
	json_object_set_new(model, "sustained_inner_mb_s", json_real(p->sustained_inner_mb_s));
	json_object_set_new(model, "random_read_4k_qd1_iops", json_real(p->rand_iops));
	json_object_set_new(model, "random_read_4k_qd1_ms", json_real(p->rand_ms));
	json_object_set_new(model, "random_reads", json_integer(p->rand_ios));
	json_t *root = json_object();
	json_object_set_new(root, "name", json_string(m->name));
	json_object_set_new(root, "about", json_string(m->about));
	json_object_set_new(root, "from_datasheet", json_boolean(from_ds));
	json_object_set_new(root, "input", input);
	json_object_set_new(root, "model", model);
	int rc = json_dumpf(root, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
	json_decref(root);
	fputc('\n', stdout);
	return rc ? EXIT_FAILED : EXIT_OK;
}

/* Loads the model, and from a file its "# datasheet:" lines: returns how many it holds, or -1
 * (said). */
static int load(const char *name, struct iolab_disk_model *m, struct iolab_datasheet *d)
{
	struct iolab_err err;
	size_t len = strlen(name);
	if (!strchr(name, '/') && !(len >= 6 && !strcmp(name + len - 6, ".model"))) {
		if (!iolab_model_open(name, m, &err)) /* a built-in: no datasheet lines */
			return 0;
		cli_errorf(EXIT_USAGE, "model check: %s", err.msg);
		return -1;
	}
	char *text;
	if (iolab_read_text(name, 4u << 20, "a model file", &text, &err)) {
		cli_errorf(EXIT_USAGE, "model check: %s", err.msg);
		return -1;
	}
	int found = -1;
	if (iolab_model_parse(name, text, m, &err)) {
		cli_errorf(EXIT_USAGE, "model check: %s", err.msg);
	} else if ((found = iolab_ds_from_model_text(text, d, &err)) < 0) {
		iolab_model_free(m);
		cli_errorf(EXIT_USAGE, "model check: %s: %s", name, err.msg);
	}
	free(text);
	return found;
}

int model_check(int argc, char **argv)
{
	bool json;
	const char *name;
	int st = model_one_arg(argc, argv, "model check", help_check, &json, &name);
	if (st || !name)
		return st;
	struct iolab_disk_model m;
	struct iolab_datasheet d = {0};
	int from_ds = load(name, &m, &d);
	if (from_ds < 0)
		return EXIT_USAGE;
	struct iolab_model_prediction p;
	struct iolab_err err;
	if (iolab_model_predict(&m, CHECK_IOS, CHECK_SEED, &p, &err)) {
		iolab_model_free(&m);
		return cli_errorf(EXIT_USAGE, "model check: %s", err.msg);
	}
	struct inputs in;
	known_inputs(&m, &d, &in);
	int rc = EXIT_OK;
	if (json)
		rc = show_json(&m, &in, &p, from_ds);
	else
		show_text(&m, &in, &p, from_ds);
	iolab_model_free(&m);
	return rc;
}
