/* fuzz_subsys.c: libFuzzer target for the subsystem-file parser (subsys_parse.c): any bytes must
 * give a subsystem that iolab_subsys_check accepts again, or one error line naming the file,
 * never a crash, a leak or undefined behaviour. Comment lines "#set PART KEY VALUE" of an
 * accepted file are then given to iolab_subsys_set: each is taken (and the result still passes
 * the check) or refused in one line with the description unchanged. Inputs naming a path ('/')
 * are skipped so that the fuzzer never opens files outside its directory as drive models. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "iolab/subsys.h"

static struct iolab_subsys sub, before;

/* Applies every "#set PART KEY VALUE" line of text to sub. */
static void sets(const char *text)
{
	for (const char *at = strstr(text, "#set "); at; at = strstr(at + 1, "#set ")) {
		char part[64], key[64], value[64];
		if (sscanf(at + 5, "%63s %63s %63s", part, key, value) != 3)
			continue;
		struct iolab_err err;
		memcpy(&before, &sub, sizeof(sub));
		if (iolab_subsys_set(&sub, part, key, value, &err) == 0) {
			if (iolab_subsys_check(&sub, &err) != 0)
				abort(); /* what the set takes, the checker accepts */
		} else if (!memchr(err.msg, 0, sizeof(err.msg)) || strchr(err.msg, '\n') ||
			   memcmp(&before, &sub, sizeof(sub))) {
			abort(); /* one line; the description as it was */
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (memchr(data, '/', size))
		return 0;
	char *text = fuzz_text(data, size);
	if (!text)
		return 0;
	struct iolab_err err;
	if (iolab_subsys_parse("fuzz.conf", text, &sub, &err) == 0) {
		if (iolab_subsys_check(&sub, &err) != 0)
			abort(); /* what the parser accepts, the checker accepts */
		sets(text);
		iolab_subsys_free(&sub);
	} else {
		fuzz_check_error(&err, "fuzz.conf"); /* every error names the file */
		if (strchr(err.msg, '\n') || sub.nmodel)
			abort(); /* one line; nothing left to free */
	}
	free(text);
	return 0;
}
