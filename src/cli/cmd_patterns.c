/* cmd_patterns.c: `iolab patterns` and `iolab engines`: what is built in, with definitions. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "iolab/engine.h"
#include "iolab/parse.h"
#include "iolab/workload.h"

static int help_only(int argc, char **argv, const char *text)
{
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		fputs(text, stdout);
		return 1;
	}
	if (argc > 1) {
		cli_errorf(EXIT_FAILED, "%s: unexpected argument '%s'", argv[0], argv[1]);
		return -1;
	}
	return 0;
}

int cmd_patterns(int argc, char **argv)
{
	int h = help_only(argc, argv,
			  "usage: iolab patterns\n\nLists the built-in access patterns. Each line of a "
			  "pattern gives a transfer size,\nits share of the I/Os, the read % and the "
			  "random % (offsets aligned to the size).\nUse them with 'iolab run --pattern "
			  "NAME'; --bs and --read override sizes and read %.\n");
	if (h)
		return h > 0 ? EXIT_OK : EXIT_USAGE;
	for (unsigned i = 0; i < iolab_pattern_count(); i++) {
		const struct iolab_spec *s = iolab_pattern_at(i);
		printf("%-16s %s\n", s->name, s->about);
		printf("%16s %8s %6s %6s %7s\n", "", "size", "share", "read", "random");
		for (unsigned j = 0; j < s->nlines; j++) {
			char b[32];
			const struct iolab_spec_line *l = &s->line[j];
			printf("%16s %8s %5u%% %5u%% %6u%%\n", "", iolab_fmt_size(l->size, b, sizeof(b)),
			       l->share, l->read_pct, l->random_pct);
		}
	}
	return EXIT_OK;
}

int cmd_engines(int argc, char **argv)
{
	int h = help_only(argc, argv, "usage: iolab engines\n\nLists the I/O engines 'iolab run "
				      "--engine' accepts.\n");
	if (h)
		return h > 0 ? EXIT_OK : EXIT_USAGE;
	for (unsigned i = 0; i < iolab_engine_count(); i++)
		printf("%-10s %s\n", iolab_engine_at(i)->name, iolab_engine_at(i)->about);
	return EXIT_OK;
}
