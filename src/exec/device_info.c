/* device_info.c: a target's disk identity from sysfs (include/iolab/device_info.h). A partition
 * is traced to its disk (sysfs puts the partition's directory inside the disk's); a file to the
 * device its file system lives on. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "iolab/device_info.h"

/* The first line of dir/name, trimmed, into buf; "" if it cannot be read. */
static void read_line(const char *dir, const char *name, char *buf, size_t n)
{
	char p[PATH_MAX];
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	buf[0] = 0;
	FILE *f = fopen(p, "r");
	if (!f)
		return;
	if (!fgets(buf, (int)n, f))
		buf[0] = 0;
	fclose(f);
	size_t len = strcspn(buf, "\n");
	while (len && buf[len - 1] == ' ')
		len--;
	buf[len] = 0;
	size_t lead = strspn(buf, " ");
	memmove(buf, buf + lead, len - lead + 1);
}

/* "[none] mq-deadline kyber" -> "none". */
static void active_scheduler(const char *list, char *buf, size_t n)
{
	const char *a = strchr(list, '['), *b = a ? strchr(a, ']') : NULL;
	if (a && b)
		snprintf(buf, n, "%.*s", (int)(b - a - 1 < (long)n ? b - a - 1 : (long)n - 1), a + 1);
	else
		snprintf(buf, n, "%.*s", (int)(n - 1), list);
}

bool iolab_device_info(const char *path, struct iolab_device_info *d)
{
	memset(d, 0, sizeof(*d));
	d->rotational = d->loop_dio = -1;
	struct stat st;
	if (stat(path, &st))
		return false;
	dev_t dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
	char link[64], dir[PATH_MAX], v[256], part[PATH_MAX + 16];
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	if (!realpath(link, dir))
		return false;
	snprintf(part, sizeof(part), "%s/partition", dir);
	if (!access(part, F_OK)) /* a partition: its disk is the directory above */
		*strrchr(dir, '/') = 0;
	snprintf(d->disk, sizeof(d->disk), "%s", strrchr(dir, '/') + 1);
	char vendor[32], model[90];
	read_line(dir, "device/vendor", vendor, sizeof(vendor));
	read_line(dir, "device/model", model, sizeof(model));
	if (!vendor[0] || strncmp(vendor, "0x", 2) == 0) /* PCI ids (virtio) are not names */
		snprintf(d->model, sizeof(d->model), "%s", model);
	else
		snprintf(d->model, sizeof(d->model), "%s%s%s", vendor, model[0] ? " " : "", model);
	read_line(dir, "device/firmware_rev", d->firmware, sizeof(d->firmware)); /* NVMe */
	if (!d->firmware[0])
		read_line(dir, "device/rev", d->firmware, sizeof(d->firmware)); /* SCSI, SATA */
	read_line(dir, "loop/backing_file", d->backing, sizeof(d->backing));
	read_line(dir, "loop/dio", v, sizeof(v));
	d->loop_dio = !d->backing[0] ? -1 : v[0] == '1';
	read_line(dir, "queue/scheduler", v, sizeof(v));
	active_scheduler(v, d->scheduler, sizeof(d->scheduler));
	read_line(dir, "size", v, sizeof(v)); /* 512-byte sectors, whatever the block size */
	d->size_bytes = strtoull(v, NULL, 10) * 512;
	read_line(dir, "queue/rotational", v, sizeof(v));
	d->rotational = v[0] == '1' ? 1 : v[0] == '0' ? 0 : -1;
	return true;
}
