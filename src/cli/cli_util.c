/* cli_util.c: what several subcommands share: a getopt failure said in one line, a JSON
 * document written safely (outfile.c) to a file or standard output, and the checks of a price
 * and of a run's label. */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <string.h>

#include "cli.h"
#include "iolab/outfile.h"
#include "iolab/parse.h"
#include "iolab/utf8.h"

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

int cli_parse_price(const char *cmd, const char *text, double *usd)
{
	struct iolab_err err;
	if (iolab_parse_double("--price", text, -1e300, 1e300, usd, &err))
		return cli_errorf(EXIT_USAGE, "%s: %s (a price in US dollars)", cmd, err.msg);
	if (!(*usd > 0 && *usd <= 1e15))
		return cli_errorf(EXIT_USAGE, "%s: --price: '%s' is not a price: it must be more than 0 "
				  "and at most 10^15 US dollars", cmd, text);
	return EXIT_OK;
}

int cli_check_label(const char *cmd, const char *label)
{
	char why[96];
	if (!*label)
		return cli_errorf(EXIT_USAGE, "%s: --label: empty (give a name, or no --label)", cmd);
	if (iolab_text_check(label, CLI_LABEL_MAX, why, sizeof(why)))
		return cli_errorf(EXIT_USAGE, "%s: --label '%s' %s", cmd, label, why);
	if (strspn(label, "0123456789") == strlen(label))
		return cli_errorf(EXIT_USAGE, "%s: --label '%s' is all digits: 'iolab db show %s' would "
				  "take it for a run id", cmd, label, label);
	return EXIT_OK;
}
