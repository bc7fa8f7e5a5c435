/* examples.h: the example files shipped with iolab (examples/: subsystem files *.conf, job
 * files *.job, and MQSim's ssdconfig.xml), compiled into the binary so that `--config NAME`,
 * `--job NAME` and `model import-mqsim NAME` find one by its file name when no file of that
 * name is in the current directory, as a drive model's built-in name is found (examples.c). */
#ifndef IOLAB_EXAMPLES_H
#define IOLAB_EXAMPLES_H

/* The shipped examples, in name order: NULL past the last. */
const char *iolab_example_name(unsigned i);
/* The first comment line of example i (its title, without "# "), into out[0..len). */
void iolab_example_title(unsigned i, char *out, unsigned len);
/* The text of the example called name (its file name, "two-volumes.conf"), or NULL. */
const char *iolab_example_text(const char *name);

/* What `--config PATH` or `--job PATH` reads when it is not a file: the text of the shipped
 * example called path when no file of that name exists (path holds no '/'), else NULL (read
 * the file: it exists, or reading it says what is wrong). */
const char *iolab_example_text_for(const char *path);

#endif
