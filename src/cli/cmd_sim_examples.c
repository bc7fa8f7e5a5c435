/* cmd_sim_examples.c: `iolab sim examples` lists the example files shipped inside iolab
 * (examples/: subsystem files for --config, job files for --job, MQSim's ssdconfig.xml for
 * model import-mqsim; examples.h), each with its title; `iolab sim examples NAME` prints one,
 * to read or to save and edit. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "iolab/examples.h"

static void help(void)
{
	printf("usage: iolab sim examples [NAME]\n\n"
	       "Lists the example files shipped inside iolab: subsystem files (*.conf) for\n"
	       "--config NAME, job files (*.job) for --job NAME, and MQSim's ssdconfig.xml for\n"
	       "'iolab model import-mqsim ssdconfig.xml'. A name is found among them when\n"
	       "no file of that name is in the current directory. With NAME, prints that file\n"
	       "(iolab sim examples two-volumes.conf > my.conf gives a copy to edit).\n");
}

int cmd_sim_examples(int argc, char **argv)
{
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		help();
		return EXIT_OK;
	}
	if (argc > 2)
		return cli_errorf(EXIT_USAGE, "sim examples: takes one name at most, not %d (see "
				  "'iolab sim examples --help')", argc - 1);
	if (argc == 2) {
		const char *text = iolab_example_text(argv[1]);
		if (!text)
			return cli_errorf(EXIT_USAGE, "sim examples: no shipped example '%s' (see 'iolab "
					  "sim examples')", argv[1]);
		fputs(text, stdout);
		return EXIT_OK;
	}
	printf("%-24s %s\n", "example", "what it is (--config NAME: *.conf; --job NAME: *.job; "
	       "model import-mqsim NAME: *.xml)");
	for (unsigned i = 0; iolab_example_name(i); i++) {
		char title[200];
		iolab_example_title(i, title, sizeof(title));
		printf("%-24s %s\n", iolab_example_name(i), title);
	}
	return EXIT_OK;
}
