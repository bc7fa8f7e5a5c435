/* cli_util.c: what several subcommands share: a getopt failure said in one line, and a JSON
 * document written safely (outfile.c) to a file or standard output. */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <string.h>

#include "cli.h"
#include "iolab/outfile.h"

int cli_opt_error(const char *cmd, int ch, char **argv)
{
	const char *bad = argv[optind - 1];
	if (ch == ':')
		return cli_errorf(EXIT_USAGE, "%s: option '%s' needs a value", cmd, bad);
	if (optopt)
		return cli_errorf(EXIT_USAGE, "%s: unknown option '-%c' (see 'iolab %s --help')", cmd,
				  optopt, cmd);
	return cli_errorf(EXIT_USAGE, "%s: unknown option '%s' (see 'iolab %s --help')", cmd, bad, cmd);
}

int cli_write_json(const char *path, json_t *root)
{
	struct iolab_out out;
	struct iolab_err err;
	int rc = iolab_out_open(&out, path, &err);
	errno = 0;
	if (!rc && (json_dumpf(root, out.f, JSON_INDENT(2)) || fputc('\n', out.f) == EOF)) {
		iolab_out_abort(&out);
		rc = iolab_errf(&err, EIO, "%s: error writing the JSON document: %s", path,
				strerror(errno ? errno : EIO));
	} else if (!rc) {
		rc = iolab_out_commit(&out, &err);
	}
	if (rc)
		cli_errorf(EXIT_FAILED, "%s", err.msg);
	return rc;
}
