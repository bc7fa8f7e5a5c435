/* TEMPORARY: stand-ins until the parser and controller land. Not committed. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iolab/parse.h"
#include "iolab/sim_system.h"
#include "iolab/subsys.h"

static const struct iolab_link_type links[] = {
	{"wide-ultra-scsi", IOLAB_LINK_SHARED, 40, 0.9, 20000, 16},
	{"fast-wide-scsi", IOLAB_LINK_SHARED, 20, 0.9, 30000, 16},
	{"ata100", IOLAB_LINK_EXCLUSIVE, 100, 0.85, 5000, 2},
	{"sata2", IOLAB_LINK_P2P, 300, 0.9, 5000, 1},
	{"pci32-33", IOLAB_LINK_BUS, 133, 0.75, 1000, 0},
	{"ultra160", IOLAB_LINK_SHARED, 160, 0.9, 10000, 16},
	{"fast-scsi", IOLAB_LINK_SHARED, 10, 0.9, 30000, 8},
};
const struct iolab_link_type *iolab_link_at(unsigned i) { return i < 7 ? &links[i] : NULL; }
int iolab_link_parse(const char *field, const char *text, bool bus, struct iolab_link_type *out, struct iolab_err *err)
{
	for (unsigned i = 0; i < 7; i++) if (!strcmp(links[i].name, text)) { *out = links[i]; return 0; }
	uint64_t v;
	if (iolab_parse_size(field, text, &v, err)) return -EINVAL;
	*out = (struct iolab_link_type){.kind = bus ? IOLAB_LINK_BUS : IOLAB_LINK_SHARED, .rated_mb_s = v / 1e6, .efficiency = 1};
	snprintf(out->name, sizeof(out->name), "%s", text);
	return 0;
}
const char *iolab_write_policy_name(unsigned p) { return p ? "write-back" : "write-through"; }
int iolab_write_policy_parse(const char *f, const char *t, unsigned *o, struct iolab_err *e)
{ if (!strcmp(t, "write-back")) *o = 1; else if (!strcmp(t, "write-through")) *o = 0; else return iolab_errf(e, EINVAL, "%s: %s", f, t); return 0; }
const char *iolab_read_ahead_name(unsigned r) { return r == 2 ? "adaptive" : r ? "always" : "none"; }
int iolab_read_ahead_parse(const char *f, const char *t, unsigned *o, struct iolab_err *e)
{ if (!strcmp(t, "none")) *o = 0; else if (!strcmp(t, "always")) *o = 1; else if (!strcmp(t, "adaptive")) *o = 2; else return iolab_errf(e, EINVAL, "%s: %s", f, t); return 0; }
int iolab_subsys_check(const struct iolab_subsys *s, struct iolab_err *err) { (void)s; (void)err; return 0; }
int iolab_subsys_load(const char *path, struct iolab_subsys *s, struct iolab_err *err) { (void)s; return iolab_errf(err, EINVAL, "%s: not yet", path); }
void iolab_subsys_free(struct iolab_subsys *s) { (void)s; }
