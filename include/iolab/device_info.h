/* device_info.h: who a target is, read from sysfs, so a stored result says what it measured: the
 * whole disk holding a file or partition, its vendor and model, firmware, size, whether it
 * spins, and its I/O scheduler (Documentation/ABI/stable/sysfs-block in the kernel sources). */
#ifndef IOLAB_DEVICE_INFO_H
#define IOLAB_DEVICE_INFO_H

#include <stdbool.h>
#include <stdint.h>

struct iolab_device_info {
	char disk[64];        /* the kernel's name of the whole disk ("sda", "nvme0n1", "loop3") */
	char model[128];      /* vendor and model as the device reports them; "" if none */
	char firmware[64];    /* firmware revision; "" if none */
	char backing[256];    /* a loop device's backing file; "" otherwise */
	char scheduler[32];   /* the active I/O scheduler ("none", "mq-deadline"); "" if none */
	uint64_t size_bytes;  /* of the whole disk */
	int rotational;       /* 1 spins, 0 does not, -1 unknown */
	int loop_dio;         /* a loop device: 1 if it reads its file with direct I/O (loop/dio),
				 0 if through the page cache; -1 not a loop device */
};

/* Fills d for the disk holding path (a block device, or a file on one). Returns false where
 * there is no such disk (tmpfs, a network file system): d is then zeroed, rotational -1. */
bool iolab_device_info(const char *path, struct iolab_device_info *d);

#endif
