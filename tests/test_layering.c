/* test_layering.c: the library's files do not depend on each other in a circle. Reads the
 * symbols of every object in the library archive (nm), draws an edge from a file to each file
 * that defines a symbol it uses, and looks for a cycle by depth-first search. A cycle means two
 * files that can only be understood, tested or replaced together (a registry whose entries call
 * back into it, a runner and a part that uses the runner's helpers): the fix is to move what
 * both use into a file of its own. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_FILES = 512, MAX_SYMS = 16384 };

struct sym {
	char name[96];
	int file;
};

static char files[MAX_FILES][64];
static int nfiles;
static struct sym defs[MAX_SYMS], uses[4 * MAX_SYMS];
static int ndefs, nuses;
static unsigned char edge[MAX_FILES][MAX_FILES];

static int file_index(const char *name)
{
	for (int i = 0; i < nfiles; i++)
		if (!strcmp(files[i], name))
			return i;
	assert_true(nfiles < MAX_FILES);
	snprintf(files[nfiles], sizeof(files[0]), "%s", name);
	return nfiles++;
}

/* "ARCHIVE:MEMBER: ADDR TYPE NAME" or "ARCHIVE:MEMBER:          U NAME" (nm -A). */
static void read_symbols(const char *lib)
{
	char cmd[4200], line[512];
	snprintf(cmd, sizeof(cmd), "nm -A '%s' 2>/dev/null", lib);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p)) {
		char *member = strchr(line, ':');
		char *rest = member ? strchr(member + 1, ':') : NULL;
		if (!rest)
			continue;
		*rest++ = 0;
		char a[64], b[64], c[128];
		int n = sscanf(rest, "%63s %63s %127s", a, b, c);
		const char *type = n == 3 ? b : n == 2 ? a : NULL;
		const char *name = n == 3 ? c : n == 2 ? b : NULL;
		if (!type || strlen(name) >= sizeof(defs[0].name))
			continue;
		int f = file_index(member + 1);
		if (!strcmp(type, "U") && nuses < 4 * MAX_SYMS)
			uses[nuses++] = (struct sym){.file = f};
		else if (strchr("TDBR", type[0]) && ndefs < MAX_SYMS)
			defs[ndefs++] = (struct sym){.file = f};
		else
			continue;
		struct sym *s = !strcmp(type, "U") ? &uses[nuses - 1] : &defs[ndefs - 1];
		snprintf(s->name, sizeof(s->name), "%.*s", (int)sizeof(s->name) - 1, name);
	}
	pclose(p);
}

static int cmp_sym(const void *a, const void *b)
{
	return strcmp(((const struct sym *)a)->name, ((const struct sym *)b)->name);
}

static int color[MAX_FILES], parent[MAX_FILES];

/* Depth-first search from v; on a back edge, writes the cycle into msg and returns 1. */
static int dfs(int v, char *msg, size_t n)
{
	color[v] = 1;
	for (int w = 0; w < nfiles; w++) {
		if (!edge[v][w])
			continue;
		if (color[w] == 1) {
			size_t len = (size_t)snprintf(msg, n, "%s", files[w]);
			for (int u = v; u != w && len < n; u = parent[u])
				len += (size_t)snprintf(msg + len, n - len, " <- %s", files[u]);
			if (len < n)
				snprintf(msg + len, n - len, " <- %s", files[w]);
			return 1;
		}
		if (!color[w]) {
			parent[w] = v;
			if (dfs(w, msg, n))
				return 1;
		}
	}
	color[v] = 2;
	return 0;
}

static void no_cycles(void **state)
{
	(void)state;
	const char *lib = getenv("IOLAB_LIB");
	if (!lib || !*lib) {
		print_message("IOLAB_LIB is not set (ctest sets it to the library archive): skipped\n");
		skip();
	}
	read_symbols(lib);
	assert_true(nfiles > 50); /* the archive was read */
	qsort(defs, (size_t)ndefs, sizeof(defs[0]), cmp_sym);
	for (int i = 0; i < nuses; i++) {
		struct sym *d = bsearch(&uses[i], defs, (size_t)ndefs, sizeof(defs[0]), cmp_sym);
		if (d && d->file != uses[i].file)
			edge[uses[i].file][d->file] = 1;
	}
	char msg[4096] = "";
	for (int v = 0; v < nfiles; v++)
		if (!color[v] && dfs(v, msg, sizeof(msg)))
			fail_msg("a cycle between the library's files (each is used by the next): %s", msg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(no_cycles),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
