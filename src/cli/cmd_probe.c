/* cmd_probe.c: `iolab probe DEVICE | --model NAME -o OUT.model`: measures a drive, real or
 * simulated, into a drive model (probe.h, docs/probe.md). */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "iolab/outfile.h"
#include "iolab/output.h"
#include "iolab/parse.h"
#include "iolab/probe.h"

enum { EXIT_NOT_ROTATING = 3 };

static volatile sig_atomic_t probe_cancel;

static void on_signal(int sig)
{
	(void)sig;
	probe_cancel = 1;
}

static void help(void)
{
	printf("usage: iolab probe DEVICE -o OUT.model [--write --force] [--time T] [--json FILE]\n"
	       "       iolab probe --model NAME|FILE -o OUT.model [...]\n\n"
	       "Measures a drive from the latencies of its reads (DIXtrac and Skippy style) and writes\n"
	       "a drive model for 'iolab sim' (docs/model-format.md): rotation, zones and sectors per\n"
	       "track, skews and surfaces, the seek curve, head switch, overheads, interface rate,\n"
	       "cache segments and read-ahead, command queuing. --model probes a simulated drive (a\n"
	       "self-check: the result should match the model). Method and accuracy: docs/probe.md.\n\n"
	       "  -o, --output OUT   the model to write ('-' = stdout; an existing file needs --force)\n"
	       "  --model NAME|FILE  probe the simulated drive of a model instead of a device\n"
	       "  --write            also write (each block written gets back what was just read from\n"
	       "                     it): the write cache; needs --force on a device\n"
	       "  --force            allow --write on a device, and replacing OUT\n"
	       "  --time T           budget of the drive's time: 1 s .. 24 h (120, 90s, 10m;\n"
	       "                     default 120 s)\n"
	       "  --json FILE        a summary as JSON ('-' = stdout)\n"
	       "  --seed N           seed of the random addresses (default 1)\n"
	       "  --jitter MEAN[,SPIKE[,PCT[,HOST]]]\n"
	       "                     with --model only, a test aid: the completion times the probe\n"
	       "                     sees are late as on a real host, by HOST us (default MEAN/2) plus\n"
	       "                     an exponential delay of mean MEAN us, and PCT %% of them (default\n"
	       "                     1) by a further SPIKE us (default 50 x MEAN) x 0.5 .. 1.5\n\n"
	       "DEVICE is a block device, read with O_DIRECT (a file is refused: a file system puts\n"
	       "its blocks where it likes; a loop device over it can be probed); a mounted or busy\n"
	       "device is refused for --write.\n"
	       "Exit status: 0 model written, 1 I/O error, 2 bad input or refused, 3 the device does\n"
	       "not rotate (an SSD, RAM or loop device: its latency and throughput are printed and no\n"
	       "model is written), 130 interrupted.\n");
}

/* --jitter MEAN[,SPIKE[,PCT[,HOST]]] in microseconds (PCT in percent). */
static int parse_jitter(const char *arg, struct iolab_probe_noise *n)
{
	char buf[256], *items[IOLAB_LIST_MAX];
	struct iolab_err err;
	int k = iolab_split_list("--jitter", arg, buf, sizeof(buf), items, IOLAB_LIST_MAX, &err);
	if (k < 1 || k > 4)
		return cli_errorf(EXIT_USAGE, "probe: --jitter '%s': give MEAN[,SPIKE[,PCT[,HOST]]] in "
				  "microseconds (PCT a percentage), each 0 .. 1000000", arg);
	double v[4];
	for (int i = 0; i < k; i++)
		if (iolab_parse_double("--jitter", items[i], 0, 1e6, &v[i], &err))
			return cli_errorf(EXIT_USAGE, "probe: %s (--jitter MEAN[,SPIKE[,PCT[,HOST]]] in "
					  "microseconds, PCT a percentage)", err.msg);
	if (k < 2)
		v[1] = 50 * v[0];
	if (k < 3)
		v[2] = 1;
	if (k < 4)
		v[3] = v[0] / 2;
	if (v[2] > 100)
		return cli_errorf(EXIT_USAGE, "probe: --jitter '%s': PCT %g is above 100", arg, v[2]);
	*n = (struct iolab_probe_noise){.mean_ns = v[0] * 1e3, .spike_ns = v[1] * 1e3,
					.spike_p = v[2] / 100, .host_ns = v[3] * 1e3};
	return 0;
}

static void show_progress(const char *stage, double done, void *ctx)
{
	(void)ctx;
	fprintf(stderr, "\rprobe: %-9s %3.0f%% of the time budget", stage, 100 * done);
	fflush(stderr);
}

static void print_profile(const struct iolab_probe_result *r, const char *src)
{
	printf("%s: 4 KiB random reads: median %.1f us (min %.1f, max %.1f), %.0f IOPS at QD 1, "
	       "%.0f at QD 32\n", src, r->rand_lat_med_ns / 1e3, r->rand_lat_min_ns / 1e3,
	       r->rand_lat_max_ns / 1e3, r->iops_qd1, r->iops_qd32);
	printf("%s: 64 KiB sequential reads (MB/s) at %u places:", src, r->nseq);
	for (unsigned i = 0; i < r->nseq; i++)
		printf(" %.1f", r->seq_mbps[i]);
	printf("\n");
}

static void print_summary(const struct iolab_probe_result *r, const struct iolab_disk_model *m,
			  const char *src)
{
	print_profile(r, src);
	printf("%s: %.3f rpm, %u zones (spt %u .. %u), %u surfaces, %u cylinders\n", src, r->rpm,
	       r->nzones, r->zone[0].spt, r->zone[r->nzones - 1].spt, r->surfaces, m->cylinders);
	printf("%s: seek single %.3f ms, full %.3f ms; head switch %.3f ms; interface %.2f us a block\n",
	       src, m->seek_single_ns / 1e6, m->seek_full_ns / 1e6, r->head_switch_ns / 1e6,
	       r->bus_ns_per_block / 1e3);
	printf("%s: cache %u segments, read-ahead %u blocks%s; %s\n", src, r->segments,
	       r->readahead_blocks, r->readahead_track ? " (to the track's end)" : "",
	       r->queuing ? "command queuing" : "no command queuing");
}

static json_t *summary_json(const struct iolab_probe_result *r, const struct iolab_disk_model *m,
			    const char *src)
{
	json_t *seq = json_array(), *zones = json_array(), *seek = json_array();
	for (unsigned i = 0; i < r->nseq; i++)
		json_array_append_new(seq, json_pack("{s:I,s:f}", "lbn", (json_int_t)r->seq_lbn[i],
						     "mbps", r->seq_mbps[i]));
	json_t *o = json_pack("{s:o,s:b,s:f,s:f,s:f,s:f,s:o}", "source", iolab_json_text(src),
			      "rotating", r->rotating,
			      "rand_lat_median_us", r->rand_lat_med_ns / 1e3, "iops_qd1", r->iops_qd1,
			      "iops_qd32", r->iops_qd32, "elapsed_s", r->elapsed_ns / 1e9, "seq", seq);
	if (!r->rotating) {
		json_object_set_new(o, "why", iolab_json_text(r->why_not));
		return o;
	}
	for (unsigned i = 0; i < r->nzones; i++)
		json_array_append_new(zones, json_pack("{s:I,s:I,s:i,s:f,s:i,s:i}", "first_lbn",
			(json_int_t)r->zone[i].first_lbn, "blocks", (json_int_t)r->zone[i].nblocks,
			"spt", (int)r->zone[i].spt, "seq_mbps", r->zone[i].seq_mbps,
			"track_skew", (int)r->zone[i].track_skew, "cyl_skew", (int)r->zone[i].cyl_skew));
	for (unsigned i = 0; i < r->nseek; i++)
		json_array_append_new(seek, json_pack("{s:i,s:f,s:f}", "cylinders", (int)r->seek[i].dist,
			"ms", r->seek[i].ns / 1e6, "spread_ms", r->seek[i].spread_ns / 1e6));
	json_object_set_new(o, "rpm", json_real(r->rpm));
	json_object_set_new(o, "surfaces", json_integer(r->surfaces));
	json_object_set_new(o, "cylinders", json_integer(m ? m->cylinders : 0));
	json_object_set_new(o, "zones", zones);
	json_object_set_new(o, "seek", seek);
	json_object_set_new(o, "head_switch_ms", json_real(r->head_switch_ns / 1e6));
	json_object_set_new(o, "bus_us_per_block", json_real(r->bus_ns_per_block / 1e3));
	json_object_set_new(o, "cache_segments", json_integer(r->segments));
	json_object_set_new(o, "readahead_blocks", json_integer(r->readahead_blocks));
	json_object_set_new(o, "command_queuing", json_boolean(r->queuing));
	if (r->write_measured)
		json_object_set_new(o, "write_cache", json_boolean(r->write_back));
	return o;
}

/* The model's name: the output file's stem (or the source's), kept to [A-Za-z0-9._-]. */
static void model_name(const char *out, const char *src, char *name, size_t n)
{
	const char *p = out && strcmp(out, "-") ? out : src;
	const char *base = strrchr(p, '/');
	base = base ? base + 1 : p;
	size_t k = 0;
	for (; base[k] && k + 1 < n && strcmp(base + k, ".model"); k++) {
		char ch = base[k];
		name[k] = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
			  ch == '.' || ch == '-' || ch == '_' ? ch : '_';
	}
	name[k] = 0;
	if (!k)
		snprintf(name, n, "probed");
}

int cmd_probe(int argc, char **argv)
{
	static const struct option lo[] = {
		{"output", required_argument, NULL, 'o'}, {"model", required_argument, NULL, 'm'},
		{"write", no_argument, NULL, 'w'},       {"force", no_argument, NULL, 'f'},
		{"time", required_argument, NULL, 't'},  {"json", required_argument, NULL, 'j'},
		{"seed", required_argument, NULL, 's'},  {"help", no_argument, NULL, 'h'},
		{"jitter", required_argument, NULL, 'J'},
		{0},
	};
	const char *out = NULL, *model = NULL, *json = NULL, *dev = NULL;
	bool write = false, force = false;
	double time_s = 120;
	uint64_t seed = 1;
	struct iolab_probe_noise noise = {0};
	bool jitter = false;
	int ch;
	opterr = 0;
	optind = 1;
	struct iolab_err err;
	uint64_t ns;
	while ((ch = getopt_long(argc, argv, ":o:h", lo, NULL)) != -1) {
		switch (ch) {
		case 'o': out = optarg; break;
		case 'm': model = optarg; break;
		case 'w': write = true; break;
		case 'f': force = true; break;
		case 'j': json = optarg; break;
		case 't':
			if (iolab_parse_duration("--time", optarg, &ns, &err))
				return cli_errorf(EXIT_USAGE, "probe: %s", err.msg);
			time_s = (double)ns / 1e9;
			if (!(time_s >= 1 && time_s <= 86400))
				return cli_errorf(EXIT_USAGE, "probe: --time '%s': give 1 s .. 24 h (120, "
						  "90s, 10m)", optarg);
			break;
		case 's':
			if (iolab_parse_uint("--seed", optarg, 0, UINT64_MAX, &seed, &err))
				return cli_errorf(EXIT_USAGE, "probe: %s", err.msg);
			break;
		case 'J':
			if (parse_jitter(optarg, &noise))
				return EXIT_USAGE;
			jitter = true;
			break;
		case 'h': help(); return EXIT_OK;
		default: return cli_opt_error("probe", ch, argv);
		}
	}
	if (optind < argc)
		dev = argv[optind++];
	if (optind < argc)
		return cli_errorf(EXIT_USAGE, "probe: unexpected argument '%s'", argv[optind]);
	if (!dev == !model)
		return cli_errorf(EXIT_USAGE, "probe: name a DEVICE or --model NAME (one of them; see "
				  "'iolab probe --help')");
	if (!out)
		return cli_errorf(EXIT_USAGE, "probe: -o OUT.model is required");
	if (jitter && !model)
		return cli_errorf(EXIT_USAGE, "probe: --jitter simulates a host's timing noise: it goes "
				  "with --model only (a real device has its own)");
	if (write && dev && !force)
		return cli_errorf(EXIT_USAGE, "probe: --write on %s destroys nothing but writes to it: "
				  "it needs --force", dev);
	const char *src = dev ? dev : model;
	const struct iolab_output outs[] = {{"--output", out, IOLAB_OUT_REPLACE},
					    {"--json", json, IOLAB_OUT_REPLACE}};
	if (iolab_outputs_check(outs, 2, &src, 1, force, &err))
		return cli_errorf(EXIT_USAGE, "probe: %s", err.msg);
	struct iolab_disk_model sm;
	bool have_sm = false;
	struct iolab_probe_backend b = {0};
	int rc;
	if (model) {
		if ((rc = iolab_model_open(model, &sm, &err)))
			return cli_errorf(EXIT_USAGE, "probe: %s", err.msg);
		have_sm = true;
		rc = iolab_probe_backend_sim(&b, &sm, &err);
		noise.seed = seed;
		if (!rc && jitter && (rc = iolab_probe_backend_sim_noise(&b, &noise, &err)))
			iolab_probe_backend_close(&b);
	} else {
		rc = iolab_probe_backend_dev(&b, dev, write, force, &err);
	}
	if (rc) {
		if (have_sm)
			iolab_model_free(&sm);
		return cli_errorf(rc == -ENOMEM || rc == -EIO ? EXIT_FAILED : EXIT_USAGE, "probe: %s", err.msg);
	}
	/* SA_RESTART: the probe looks at probe_cancel between its requests; the request under way
	 * finishes (a read interrupted by the signal restarts rather than failing with EINTR). */
	struct sigaction sa = {.sa_handler = on_signal, .sa_flags = SA_RESTART}, old_int, old_term;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	struct iolab_probe_opts o = {.time_s = time_s, .write = write, .seed = seed,
				     .cancel = &probe_cancel};
	if (isatty(STDERR_FILENO))
		o.progress = show_progress;
	struct iolab_probe_result *r = calloc(1, sizeof(*r));
	int status = EXIT_OK;
	struct iolab_disk_model pm;
	bool have_pm = false;
	if (!r) {
		status = cli_errorf(EXIT_FAILED, "probe: out of memory");
		goto out;
	}
	rc = iolab_probe_run(&b, &o, r, &err);
	if (o.progress)
		fputs("\r\033[K", stderr);
	if (rc == -ECANCELED) {
		status = cli_errorf(EXIT_INTERRUPTED, "probe: interrupted: no model written");
		goto out;
	}
	if (rc) {
		status = cli_errorf(EXIT_FAILED, "probe: %s", err.msg);
		goto out;
	}
	if (r->rotating) {
		char name[64], about[256];
		model_name(out, src, name, sizeof(name));
		snprintf(about, sizeof(about), "measured by iolab probe from %s", src);
		for (char *p = about; *p; p++)
			if (*p == '#' || (unsigned char)*p < ' ')
				*p = '_';
		if (iolab_probe_model(r, name, about, b.block_bytes, b.blocks, &pm, &err)) {
			status = cli_errorf(EXIT_FAILED, "%s", err.msg);
			goto out;
		}
		have_pm = true;
		struct iolab_out of;
		if (iolab_out_open(&of, out, &err)) {
			status = cli_errorf(EXIT_FAILED, "%s", err.msg);
			goto out;
		}
		if (iolab_probe_write(r, &pm, src, of.f)) {
			iolab_out_abort(&of);
			status = cli_errorf(EXIT_FAILED, "%s: error writing the model", out);
			goto out;
		}
		if (iolab_out_commit(&of, &err)) {
			status = cli_errorf(EXIT_FAILED, "%s", err.msg);
			goto out;
		}
		if (!iolab_out_is_stdout(out))
			print_summary(r, &pm, src);
	} else {
		print_profile(r, src);
		cli_errorf(EXIT_NOT_ROTATING, "probe: %s does not rotate (%s): no model written", src,
			   r->why_not);
		status = EXIT_NOT_ROTATING;
	}
	if (json) {
		json_t *j = summary_json(r, have_pm ? &pm : NULL, src);
		if (cli_write_json(json, j) && status == EXIT_OK)
			status = EXIT_FAILED;
		json_decref(j);
	}
out:
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	free(r);
	if (have_pm)
		iolab_model_free(&pm);
	iolab_probe_backend_close(&b);
	if (have_sm)
		iolab_model_free(&sm);
	return status;
}
