// SPDX-License-Identifier: GPL-2.0
/*
 * The shape of libftsw: its folders include one another without a cycle,
 * and exactly as the map in Documentation/design.md says ("lab -> analyze
 * nl route topo util"). Read from the sources, not from the build.
 */
#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common.h"

#define MAXF 32

static char top[PATH_MAX];

struct graph {
	unsigned n;
	char name[MAXF][32];
	bool dep[MAXF][MAXF];	/* dep[a][b]: a includes a header of b */
};

/* The repository: the test binary is build/tests/unit/layout_test. */
static void __attribute__((constructor)) find_top(void)
{
	ut_build_path(top, sizeof(top), "..");
}

static int folder(struct graph *g, const char *name, bool add)
{
	unsigned i;

	for (i = 0; i < g->n; i++)
		if (!strcmp(g->name[i], name))
			return (int)i;
	if (!add || g->n == MAXF)
		return -1;
	snprintf(g->name[g->n], sizeof(g->name[0]), "%.31s", name);
	return (int)g->n++;
}

/* Every '#include "x/..."' of one file: an edge from f to folder x. */
static void scan_file(struct graph *g, int f, const char *path)
{
	char line[512], dep[32];
	FILE *in = fopen(path, "r");
	int d;

	if (!in)
		return;
	while (fgets(line, sizeof(line), in)) {
		int end = 0;

		/* %n only counts when the '/' after the folder matched */
		if (sscanf(line, " # include \"%31[a-z0-9_]/%n", dep, &end) != 1 ||
		    !end)
			continue;
		d = folder(g, dep, true);
		if (d >= 0 && d != f)
			g->dep[f][d] = true;
	}
	fclose(in);
}

static int scan_sources(struct graph *g)
{
	char path[PATH_MAX * 2];
	struct dirent *e, *fe;
	DIR *lib, *dir;
	struct stat st;
	int f;

	snprintf(path, sizeof(path), "%s/user/lib", top);
	lib = opendir(path);
	if (!lib)
		return -1;
	while ((e = readdir(lib))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/user/lib/%s", top, e->d_name);
		if (stat(path, &st) || !S_ISDIR(st.st_mode))
			continue;
		f = folder(g, e->d_name, true);
		dir = opendir(path);
		while (dir && f >= 0 && (fe = readdir(dir))) {
			size_t l = strlen(fe->d_name);
			char file[PATH_MAX * 3];

			if (l < 3 || (strcmp(fe->d_name + l - 2, ".c") &&
				      strcmp(fe->d_name + l - 2, ".h")))
				continue;
			snprintf(file, sizeof(file), "%s/%s", path, fe->d_name);
			scan_file(g, f, file);
		}
		if (dir)
			closedir(dir);
	}
	closedir(lib);
	return 0;
}

/*
 * The map: lines "    name -> dep dep ..." of design.md's section
 * "libftsw's folders" ("(nothing...)" for none).
 */
static int read_map(struct graph *g)
{
	char path[PATH_MAX + 64], line[512], name[32], rest[400];
	bool in = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/Documentation/design.md", top);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *tok, *save = NULL;
		int a;

		if (!strncmp(line, "## ", 3)) {
			in = strstr(line, "libftsw's folders") != NULL;
			continue;
		}
		if (!in || sscanf(line, "    %31s -> %399[^\n]", name, rest) != 2)
			continue;
		a = folder(g, name, true);
		if (a < 0 || rest[0] == '(')
			continue;
		for (tok = strtok_r(rest, " ", &save); tok;
		     tok = strtok_r(NULL, " ", &save)) {
			int b = folder(g, tok, true);

			if (b >= 0)
				g->dep[a][b] = true;
		}
	}
	fclose(f);
	return 0;
}

/* Depth-first search for a cycle; the folders on it into cyc. */
static bool cyclic(const struct graph *g, unsigned v, int *state,
		   char *cyc, size_t sz)
{
	unsigned w;

	state[v] = 1;
	for (w = 0; w < g->n; w++) {
		if (!g->dep[v][w])
			continue;
		if (state[w] == 1 || (!state[w] && cyclic(g, w, state, cyc, sz))) {
			size_t l = strlen(cyc);

			snprintf(cyc + l, sz - l, " %s", g->name[v]);
			return true;
		}
	}
	state[v] = 2;
	return false;
}

TEST(no_include_cycle_between_folders)
{
	struct graph g = { 0 };
	int state[MAXF] = { 0 };
	char cyc[512] = "";
	unsigned v;

	ASSERT_EQ(0, scan_sources(&g));
	ASSERT_LE(6, g.n);	/* util topo route analyze lab fm nl at least */
	for (v = 0; v < g.n; v++)
		if (!state[v])
			EXPECT_FALSE(cyclic(&g, v, state, cyc, sizeof(cyc)))
				TH_LOG("include cycle through:%s", cyc);
}

TEST(folders_match_the_map_in_design_md)
{
	struct graph src = { 0 }, map = { 0 };
	unsigned a, b;
	int ma, mb;

	ASSERT_EQ(0, scan_sources(&src));
	ASSERT_EQ(0, read_map(&map));
	ASSERT_LE(6, map.n);
	for (a = 0; a < src.n; a++) {
		ma = folder(&map, src.name[a], false);
		EXPECT_LE(0, ma) TH_LOG("user/lib/%s is not on the map in "
					"Documentation/design.md", src.name[a]);
		if (ma < 0)
			continue;
		for (b = 0; b < src.n; b++) {
			mb = folder(&map, src.name[b], false);
			EXPECT_EQ(src.dep[a][b], mb >= 0 && map.dep[ma][mb])
				TH_LOG("%s -> %s: %s", src.name[a], src.name[b],
				       src.dep[a][b] ? "included but not on the "
				       "map" : "on the map but not included");
		}
	}
	for (a = 0; a < map.n; a++)
		EXPECT_LE(0, folder(&src, map.name[a], false))
			TH_LOG("the map names %s, no such folder", map.name[a]);
}

/* The check itself finds a cycle. */
TEST(cycle_detector_finds_one)
{
	struct graph g = { 0 };
	int state[MAXF] = { 0 };
	char cyc[512] = "";

	folder(&g, "a", true);
	folder(&g, "b", true);
	folder(&g, "c", true);
	g.dep[0][1] = g.dep[1][2] = true;
	EXPECT_FALSE(cyclic(&g, 0, state, cyc, sizeof(cyc)));
	memset(state, 0, sizeof(state));
	g.dep[2][0] = true;
	EXPECT_TRUE(cyclic(&g, 0, state, cyc, sizeof(cyc)));
}

/* design.md whole, NUL-terminated (malloc), or NULL. */
static char *design_md(void)
{
	char path[PATH_MAX + 64];
	struct stat st;
	char *buf;
	FILE *f;

	snprintf(path, sizeof(path), "%s/Documentation/design.md", top);
	f = fopen(path, "r");
	if (!f || fstat(fileno(f), &st) || !(buf = malloc(st.st_size + 1))) {
		if (f)
			fclose(f);
		return NULL;
	}
	buf[fread(buf, 1, st.st_size, f)] = 0;
	fclose(f);
	return buf;
}

/* Whether text names word as a word of its own: "fabric.c" in "`fabric.c`"
 * or "fabric.c,", never inside "nl_fabric.c" or "fabric.c.orig". */
static bool names(const char *text, const char *word)
{
	size_t n = strlen(word);
	const char *p;

	for (p = strstr(text, word); p; p = strstr(p + 1, word)) {
		char b = p == text ? ' ' : p[-1], a = p[n];

		if (b == '/' && (p - text < 5 || strncmp(p - 5, "kmod/", 5)))
			continue;
		if (isalnum((unsigned char)b) || b == '_' ||
		    isalnum((unsigned char)a) || a == '_' ||
		    (a == '.' && isalnum((unsigned char)p[n + 1])))
			continue;
		return true;
	}
	return false;
}

/*
 * design.md describes the code as it is: it names every source file of
 * kmod/ (each .c; each .h too, except that x.h, the header of x.c by the
 * module's rule of one header per file, is named with x.c) and describes
 * every folder of user/lib in "libftsw's folders" (a line "- `name/`:").
 */
TEST(design_md_names_every_kmod_file_and_lib_folder)
{
	char path[PATH_MAX + 64], item[64];
	char *text = design_md();
	struct dirent *e;
	struct stat st;
	unsigned nk = 0, nf = 0;
	DIR *d;

	ASSERT_NE(NULL, text);
	snprintf(path, sizeof(path), "%s/kmod", top);
	d = opendir(path);
	ASSERT_NE(NULL, d);
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);

		if (l < 3 || (strcmp(e->d_name + l - 2, ".c") &&
			      strcmp(e->d_name + l - 2, ".h")))
			continue;
		snprintf(item, sizeof(item), "%.60s", e->d_name);
		if (e->d_name[l - 1] == 'h') {
			char c[PATH_MAX * 2];

			item[l - 1] = 'c';
			snprintf(c, sizeof(c), "%s/%s", path, item);
			if (!stat(c, &st))
				continue;	/* x.h goes with x.c */
		}
		nk++;
		EXPECT_TRUE(names(text, e->d_name))
			TH_LOG("Documentation/design.md does not name kmod/%s",
			       e->d_name);
	}
	closedir(d);
	snprintf(path, sizeof(path), "%s/user/lib", top);
	d = opendir(path);
	ASSERT_NE(NULL, d);
	while ((e = readdir(d))) {
		char sub[PATH_MAX * 2];

		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		if (e->d_name[0] == '.' || stat(sub, &st) || !S_ISDIR(st.st_mode))
			continue;
		nf++;
		snprintf(item, sizeof(item), "\n- `%.40s/`: ", e->d_name);
		EXPECT_NE(NULL, strstr(text, item))
			TH_LOG("Documentation/design.md has no \"- `%s/`: \" "
			       "describing user/lib/%s", e->d_name, e->d_name);
	}
	closedir(d);
	EXPECT_LE(10, nk);
	EXPECT_LE(8, nf);
	free(text);
}

/* The word test itself. */
TEST(names_finds_whole_words_only)
{
	EXPECT_TRUE(names("`fabric.c`, ", "fabric.c"));
	EXPECT_TRUE(names("fabric.c", "fabric.c"));
	EXPECT_TRUE(names("(rx.c) and", "rx.c"));
	EXPECT_TRUE(names("in kmod/rx.c.", "rx.c"));
	EXPECT_FALSE(names("nl_fabric.c", "fabric.c"));
	EXPECT_FALSE(names("kmod/xfabric.c", "fabric.c"));
	EXPECT_FALSE(names("fabric.c.orig", "fabric.c"));
	EXPECT_FALSE(names("user/lib/lab/lab.c", "lab.c"));
}

TEST_HARNESS_MAIN
