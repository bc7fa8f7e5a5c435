/* test_probe_device.c: `iolab probe` on a block device that rotates. The machine has no
 * rotating disk, so one is made: tests/tools/simdisk_fuse serves the sas15k model as a file
 * through FUSE in real time (seeks, rotation, zones, cache), and a loop device over that file is
 * probed like /dev/sdb, through the kernel's block layer, the loop driver, FUSE and the
 * scheduler's real timing noise. Skips, saying why, without root, /dev/fuse or loop devices.
 *
 * Asserted: the device is judged rotating and a model written; its rpm within 0.5 % of the
 * model's (docs/probe.md, "Accuracy"). The figures that depend on sector-level timing (zones,
 * surfaces, seek curve, IOPS of the probed model) are printed: through ~90 us of host noise
 * they are not held to the simulator's self-check bounds. Built with AddressSanitizer, iolab is
 * several times slower and its own timing noise is not a host's (one such run found 9068 rpm):
 * the test then skips, saying so; the device backend still runs under the sanitizers in
 * test_probe.c (a loop device that does not rotate). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "helpers.h"
#include "iolab/disk_model.h"

static bool mounted(const char *file)
{
	for (int i = 0; i < 100; i++) {
		if (th_exists(file))
			return true;
		struct timespec ts = {0, 50000000};
		nanosleep(&ts, NULL);
	}
	return false;
}

static void rotating_device(void **state)
{
	(void)state;
#if defined(__SANITIZE_ADDRESS__)
	fprintf(stderr, "SKIP: timing through a real-time device means nothing in a sanitizer build\n");
	skip();
#endif
	const char *tool = getenv("IOLAB_SIMDISK");
	if (!tool || access(tool, X_OK) || geteuid() != 0 || access("/dev/fuse", R_OK | W_OK)) {
		fprintf(stderr, "SKIP: needs root, /dev/fuse and tests/simdisk_fuse (IOLAB_SIMDISK)\n");
		skip();
	}
	char mnt[512], file[600], dev[64], out[512];
	snprintf(mnt, sizeof(mnt), "%s/mnt", th_dir);
	snprintf(file, sizeof(file), "%s/disk", mnt);
	snprintf(out, sizeof(out), "%s/probed.model", th_dir);
	assert_int_equal(mkdir(mnt, 0755), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		execl(tool, tool, "sas15k", mnt, (char *)NULL);
		_exit(127);
	}
	if (!mounted(file)) {
		kill(pid, SIGTERM);
		waitpid(pid, NULL, 0);
		fprintf(stderr, "SKIP: the FUSE file system did not mount at %s\n", mnt);
		skip();
	}
	bool attached = th_loop_attach(file, false, dev, sizeof(dev));
	struct th_out o = {0};
	if (attached) {
		o = th_iolab("probe", dev, "-o", out, "--time", "20", NULL);
		th_loop_detach(dev);
	}
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "fusermount3 -u '%s'", mnt);
	if (system(cmd) != 0)
		kill(pid, SIGTERM);
	waitpid(pid, NULL, 0);
	if (!attached)
		skip();
	printf("%s%s", o.out, o.err);
	assert_int_equal(o.status, 0);
	th_out_free(&o);

	/* the rotation's and the noise's comments, for a reader of a failure */
	FILE *f = fopen(out, "r");
	assert_non_null(f);
	char line[256];
	bool more = false;
	while (fgets(line, sizeof(line), f)) {
		bool head = !strncmp(line, "# rotation", 10) || !strncmp(line, "# timing noise", 14);
		more = head || (more && !strncmp(line, "#     ", 6));
		if (more)
			fputs(line, stdout);
	}
	fclose(f);
	struct iolab_disk_model m, pm;
	struct iolab_err err;
	assert_int_equal(iolab_model_open("sas15k", &m, &err), 0);
	if (iolab_model_load(out, &pm, &err))
		fail_msg("%s", err.msg);
	double e_rpm = fabs(pm.rpm - m.rpm) / m.rpm;
	printf("through FUSE and a loop device: rpm %.3f / %.3f (%.3f%%), %u zones / %u, %u surfaces "
	       "/ %u\n", pm.rpm, m.rpm, 100 * e_rpm, pm.nzones, m.nzones, pm.surfaces, m.surfaces);
	assert_true(e_rpm <= 0.005);
	iolab_model_free(&pm);
	iolab_model_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rotating_device),
	};
	return cmocka_run_group_tests(tests, th_dir_setup, th_dir_teardown);
}
