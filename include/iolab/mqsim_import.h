/* mqsim_import.h: reading MQSim's SSD configuration (ssdconfig.xml: <Execution_Parameter_Set>
 * holding <Host_Parameter_Set> and <Device_Parameter_Set>, which holds <Flash_Parameter_Set>)
 * into an iolab SSD model (ssd_model.h; docs/model-format.md, "SSD models"). */
#ifndef IOLAB_MQSIM_IMPORT_H
#define IOLAB_MQSIM_IMPORT_H

#include "iolab/disk_model.h"
#include "iolab/error.h"

/* Called for each MQSim parameter the import accepts without modelling it, or takes MQSim's
 * default for: where (file, line; line 0 when missing), its name and what became of it. */
typedef void (*iolab_mqsim_note_fn)(const char *file, unsigned line, const char *field,
				    const char *what, void *ctx);

/* Reads the configuration text (name: its file, for messages and the model's name: the file
 * name's stem) into m, an SSD model (m->ssd set; iolab_model_free frees it). An unknown element,
 * a value MQSim would not take, or a missing one that MQSim has no default for is refused with
 * one line: "FILE:LINE: field 'NAME': ...". Returns 0, -EINVAL or -ENOMEM (m then holds
 * nothing). note may be NULL. */
int iolab_import_mqsim_text(const char *name, const char *text, struct iolab_disk_model *m,
			    iolab_mqsim_note_fn note, void *ctx, struct iolab_err *err);
/* The same, reading the file at path. */
int iolab_import_mqsim(const char *path, struct iolab_disk_model *m, iolab_mqsim_note_fn note,
		       void *ctx, struct iolab_err *err);

#endif
