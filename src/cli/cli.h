/* cli.h: the subcommands of the iolab command-line tool. Each returns the process exit status:
 * 0 success, 1 the run failed (I/O errors), 2 bad input or a refusal, 130 interrupted. */
#ifndef IOLAB_CLI_H
#define IOLAB_CLI_H

#include <stdbool.h>

enum { EXIT_OK = 0, EXIT_FAILED = 1, EXIT_USAGE = 2, EXIT_INTERRUPTED = 130 };

int cmd_run(int argc, char **argv);
int cmd_sim(int argc, char **argv);
/* `iolab sim` measuring a workload on a model (cmd_run.c). */
int cmd_sim_run(int argc, char **argv);
/* `iolab sim examples [NAME]`: lists the shipped examples, or prints one (cmd_sim_examples.c). */
int cmd_sim_examples(int argc, char **argv);
/* `iolab replay` (cmd_replay.c), which runs through the command line of run or sim (sim: a
 * simulated path is named) with the trace replay r (cmd_run.c). */
struct iolab_replay;
int cmd_replay(int argc, char **argv);
int cmd_replay_run(int argc, char **argv, bool sim, const struct iolab_replay *r);
int cmd_patterns(int argc, char **argv);
/* `iolab probe` (cmd_probe.c): a drive measured into a model; 3 if it does not rotate. */
int cmd_probe(int argc, char **argv);
int cmd_engines(int argc, char **argv);
/* `iolab model import-disksim|show|list` and `iolab models` (cmd_model.c). */
int cmd_model(int argc, char **argv);
int cmd_models(int argc, char **argv);
/* The SSD side of `iolab model` (cmd_model_ssd.c): import-mqsim, and show for an SSD model. */
struct iolab_disk_model;
int model_import_mqsim(int argc, char **argv);
/* `model import-KIND FILE -o OUT [--force]` (cmd is "model import-KIND", what the question a
 * missing FILE gets): returns -1 with *in, *out and *force set, or the exit status. */
int model_import_args(int argc, char **argv, const char *cmd, const char *what, void (*help)(void),
		      const char **in, const char **out, bool *force);
/* Writes m to out (opened by iolab_out_open) after the comment "# Imported by 'iolab CMD' from
 * FILE" (in's base name, then note, and the lines of extra if not NULL). Returns 0 or -errno
 * with err; out is then removed. */
struct iolab_err;
int model_import_write(const struct iolab_disk_model *m, const char *cmd, const char *in,
		       const char *note, const char *extra, const char *out, bool *to_stdout,
		       struct iolab_err *err);
int model_show_ssd(const struct iolab_disk_model *m, bool json);
/* The arguments of `model show` and `model check`: [--json] NAME|FILE, or --help (help() is
 * printed and *name stays NULL). Returns EXIT_OK or the exit status of a usage error. */
int model_one_arg(int argc, char **argv, const char *cmd, void (*help)(void), bool *json,
		  const char **name);
/* `iolab model new` (cmd_model_new.c) and `iolab model check` (cmd_model_check.c); argv[0] is
 * "new" / "check". */
int model_new(int argc, char **argv);
int model_check(int argc, char **argv);
/* `iolab trace formats|info|convert|import` (cmd_trace.c). */
int cmd_trace(int argc, char **argv);
/* `iolab trace record --device DEV` (cmd_record.c): argv[0] is "record". */
int cmd_trace_record(int argc, char **argv);

/* The whole command line as main() received it (argv[0] the program), for the results store:
 * replay takes its own options out before run sees the rest. */
extern int cli_argc;
extern char **cli_argv;
/* The command line as given (cli_cmdline.c): cli_keep_command_line saves main's arguments
 * before any option parsing reorders them; cli_command_line returns them as one line, "iolab"
 * then each argument shell-quoted where needed (malloc'd; NULL without memory). */
void cli_keep_command_line(int argc, char **argv);
char *cli_command_line(void);

/* `iolab db list|show|export|delete` (cmd_db.c): the results store. */
int cmd_db(int argc, char **argv);
/* `iolab report ID|LABEL ... -o FILE` (cmd_report.c): an HTML page of saved runs. */
int cmd_report(int argc, char **argv);

/* `iolab compare` (cmd_compare.c): saved runs point by point (docs/compare.md). */
int cmd_compare(int argc, char **argv);
/* The price table of a comparison result (compare_price_table.c); nothing when no run has a
 * price. */
#include <stdio.h>
struct json_t;
void cli_compare_price_table(FILE *f, const struct json_t *res);

/* Every message of the CLI: prints "iolab: " and the formatted text as one line on stderr, and
 * returns status (so that `return cli_errorf(EXIT_USAGE, ...)` reports and exits). Bytes that
 * are not UTF-8 and control characters in it (from a file name, a line of a file) are shown as
 * \xNN (iolab_utf8_escape), so that nothing reaches the terminal as an escape sequence. */
int cli_errorf(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The text of the last line cli_errorf said ("" if none), for the other MPI ranks to hear. */
const char *cli_last_error(void);

/* cli_util.c: a getopt failure of `iolab CMD` (ch ':' or '?') said in one line; returns
 * EXIT_USAGE. */
int cli_opt_error(const char *cmd, int ch, char **argv);
/* Writes root to path ("-": standard output) through outfile.c; returns 0 or -errno (said). */
struct json_t;
int cli_write_json(const char *path, struct json_t *root);
/* --price USD: a decimal number of US dollars above 0 (up to 10^15) into *usd; returns EXIT_OK,
 * or EXIT_USAGE with the reason said as "CMD: --price: ...". */
int cli_parse_price(const char *cmd, const char *text, double *usd);
/* --label TEXT: one line of UTF-8 text without control characters, 1 to CLI_LABEL_MAX bytes, not
 * all digits (those name run ids); returns EXIT_OK or EXIT_USAGE (said). */
#define CLI_LABEL_MAX 128
int cli_check_label(const char *cmd, const char *label);

#endif
