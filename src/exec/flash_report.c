/* flash_report.c: a flash device's counts added, subtracted and made into the figures the
 * reports show (include/iolab/flash_report.h). */
#include <string.h>

#include "iolab/flash_report.h"

void iolab_flash_report_add(struct iolab_flash_report *a, const struct iolab_flash_report *b)
{
	a->host_pages_written += b->host_pages_written;
	a->host_pages_read += b->host_pages_read;
	a->flash_reads += b->flash_reads;
	a->flash_programs += b->flash_programs;
	a->erases += b->erases;
	a->gc_pages += b->gc_pages;
	a->map_reads += b->map_reads;
	a->trimmed_pages += b->trimmed_pages;
	a->flash_ns += b->flash_ns;
	a->gc_ns += b->gc_ns;
	a->erase_min = b->erase_min;
	a->erase_max = b->erase_max;
	a->erase_mean = b->erase_mean;
	a->free_min = b->free_min;
}

void iolab_flash_report_sub(struct iolab_flash_report *a, const struct iolab_flash_report *b)
{
	a->host_pages_written -= b->host_pages_written;
	a->host_pages_read -= b->host_pages_read;
	a->flash_reads -= b->flash_reads;
	a->flash_programs -= b->flash_programs;
	a->erases -= b->erases;
	a->gc_pages -= b->gc_pages;
	a->map_reads -= b->map_reads;
	a->trimmed_pages -= b->trimmed_pages;
	a->flash_ns -= b->flash_ns;
	a->gc_ns -= b->gc_ns;
}

double iolab_flash_wa(const struct iolab_flash_report *f)
{
	return f->host_pages_written ? (double)f->flash_programs / (double)f->host_pages_written : -1;
}

double iolab_flash_gc_share(const struct iolab_flash_report *f)
{
	return f->flash_ns > 0 ? f->gc_ns / f->flash_ns : -1;
}

bool iolab_comp_is_flash_device(const struct iolab_comp_report *c)
{
	return c->flash_given && strncmp(c->kind, "flash-", 6);
}

unsigned iolab_flash_total(const struct iolab_comp_report *comp, unsigned n,
			   struct iolab_flash_report *sum)
{
	memset(sum, 0, sizeof(*sum));
	unsigned k = 0;
	double mean = 0;
	for (unsigned i = 0; i < n; i++) {
		const struct iolab_flash_report *f = &comp[i].flash;
		if (!iolab_comp_is_flash_device(&comp[i]))
			continue;
		uint32_t lo = k ? sum->erase_min : f->erase_min, hi = k ? sum->erase_max : f->erase_max,
			 free_min = k ? sum->free_min : f->free_min;
		iolab_flash_report_add(sum, f);
		sum->erase_min = f->erase_min < lo ? f->erase_min : lo;
		sum->erase_max = f->erase_max > hi ? f->erase_max : hi;
		sum->free_min = f->free_min < free_min ? f->free_min : free_min;
		mean += f->erase_mean;
		k++;
	}
	sum->erase_mean = k ? mean / k : 0;
	return k;
}
