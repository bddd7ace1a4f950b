// SPDX-License-Identifier: GPL-2.0
/*
 * Readers that never misread: every malformed net file, OpenSM dump,
 * traffic and order file below is refused with file:line (or the file)
 * and a reason; the hex number parser; generator size limits; atomic
 * writes leave no temporary file behind when a signal ends the process.
 */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#pragma GCC diagnostic ignored "-Wsign-compare"
#include "kselftest_harness.h"
#include "analyze/analyze.h"
#include "lab/lab.h"
#include "route/routing.h"
#include "util/parse.h"
#include "util/text.h"

static struct ftsw_topo *net_text(const char *text, struct ftsw_err *err)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	struct ftsw_topo *t = ftsw_net_read_file(f, "x.net", err);

	fclose(f);
	return t;
}

static char *tmpfile_with(const char *text, size_t len)
{
	static char path[64];
	int fd;

	snprintf(path, sizeof(path), "/tmp/ftsw-readers-XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		return NULL;
	if (write(fd, text, len) != (ssize_t)len) {
		close(fd);
		return NULL;
	}
	close(fd);
	return path;
}

TEST(hex_parser)
{
	struct ftsw_err err;
	const char *e;
	uint64_t v;

	ASSERT_EQ(0, ftsw_parse_hex_prefix("g", "0x10)", &v, &e, &err));
	EXPECT_EQ(16, v);
	EXPECT_EQ(')', *e);
	ASSERT_EQ(0, ftsw_parse_hex_prefix("g", "ffffffffffffffff", &v, &e, &err));
	EXPECT_EQ(UINT64_MAX, v);
	EXPECT_EQ(-ERANGE, ftsw_parse_hex_prefix("g", "10000000000000000", &v,
						 &e, &err));
	EXPECT_EQ(-EINVAL, ftsw_parse_hex_prefix("g", "0x", &v, &e, &err));
	EXPECT_EQ(-EINVAL, ftsw_parse_hex_prefix("g", "-1", &v, &e, &err));
	EXPECT_EQ(-EINVAL, ftsw_parse_hex_prefix("g", " 1", &v, &e, &err));
}

TEST(net_duplicate_guids_refused)
{
	static const struct { const char *text, *want; } cases[] = {
		/* H-5 and H-05: two ids, one GUID */
		{ "Switch 4 \"S-1\"\n[1] \"H-5\"[1]\n[2] \"H-05\"[1]\n\n"
		  "Ca 1 \"H-5\"\n\nCa 1 \"H-05\"\n",
		  "x.net:7: node GUID 0x0000000000000005 already used by the "
		  "node of line 5" },
		{ "switchguid=0x7\nSwitch 4 \"a\"\n\nswitchguid=0x7\nSwitch 4 \"b\"\n",
		  "x.net:5: node GUID 0x0000000000000007" },
		{ "switchguid=0x7zz\nSwitch 4 \"a\"\n", "x.net:1: unexpected text" },
		{ "switchguid=0x10000000000000000\n", "x.net:1: GUID" },
		{ "Switch 4 \"a\"\n[1] \"a\"[-2]\n", "x.net:2: expected the peer port" },
		{ "Switch 4 \"a\"\n[ 1] \"a\"[2]\n", "x.net:2: bad port number" },
		{ "Switch 4294967297 \"a\"\n", "x.net:1: bad port count" },
		{ "", "x.net:0: no nodes" },
		{ "Switch 4 \"a\"\nSwitch 4 \"a\"\n", "x.net:2: node id \"a\" defined twice (first at line 1)" },
	};
	unsigned i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ftsw_err err = { .msg = "" };
		struct ftsw_topo *t = net_text(cases[i].text, &err);

		EXPECT_EQ(NULL, t) TH_LOG("case %u accepted", i);
		EXPECT_NE(NULL, strstr(err.msg, cases[i].want))
			TH_LOG("case %u: '%s'", i, err.msg);
		ftsw_topo_free(t);
	}
}

TEST(net_nul_byte_and_directory)
{
	static const char text[] = "Switch 4 \"a\"\n[1]\0 \"b\"[1]\n";
	struct ftsw_err err = { .msg = "" };
	FILE *f = fmemopen((void *)text, sizeof(text) - 1, "r");
	struct ftsw_topo *t = ftsw_net_read_file(f, "x.net", &err);

	fclose(f);
	EXPECT_EQ(NULL, t);
	EXPECT_NE(NULL, strstr(err.msg, "x.net:2: NUL byte"));
	EXPECT_EQ(NULL, ftsw_net_read("/tmp", &err));
	EXPECT_NE(NULL, strstr(err.msg, "/tmp"));
}

/*
 * A 2-line file whose comment names kary:32,4 (1,179,648 nodes, about
 * 200 MB when built): read as the 1 switch it holds, in a child whose peak
 * memory stays far below what building the named fabric takes.
 */
TEST(net_spec_comment_never_builds_the_named_fabric)
{
	static const char text[] = "# ftsw-topology: kary:32,4\nSwitch 4 \"S-1\"\n";
	int status;
	pid_t pid = fork();

	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct ftsw_err err;
		struct ftsw_topo *t = net_text(text, &err);
		struct rusage ru;

		if (!t || t->nnodes != 1 || t->is_pgft)
			_exit(2);
		getrusage(RUSAGE_SELF, &ru);
		_exit(ru.ru_maxrss > 64 * 1024 ? 1 : 0);	/* KiB */
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

TEST(generator_size_limits)
{
	static const char *big[] = { "kary:8,8", "ftmn:130,4",
		"pgft:4;64,64,64,64;1,64,64,64;1,1,1,1" };
	unsigned i;

	for (i = 0; i < 3; i++) {
		struct ftsw_err err = { .msg = "" };
		struct ftsw_topo *t = ftsw_topo_gen(big[i], &err);

		EXPECT_EQ(NULL, t) TH_LOG("%s accepted", big[i]);
		EXPECT_NE(NULL, strstr(err.msg, "beyond the generator's limit"))
			TH_LOG("%s: %s", big[i], err.msg);
		ftsw_topo_free(t);
	}
}

/* The 2-switch fabric of formats_test: sw1 (hosts 1..2 on ports 1, 2, 35/36 to sw2) */
static const char two_sw[] =
	"switchguid=0x10\nSwitch 36 \"S-10\"\n[1] \"H-100\"[1]\n[2] \"H-200\"[1]\n"
	"[35] \"S-20\"[35]\n\nswitchguid=0x20\nSwitch 36 \"S-20\"\n[1] \"H-300\"[1]\n\n"
	"caguid=0x100\nCa 1 \"H-100\"\n[1](101) \"S-10\"[1]\n\n"
	"caguid=0x200\nCa 1 \"H-200\"\n[1](201) \"S-10\"[2]\n\n"
	"caguid=0x300\nCa 1 \"H-300\"\n[1](301) \"S-20\"[1]\n";

#define HDR1 "Unicast lids [0-7] of switch Lid 4 guid 0x10 ('a'):\n"
#define HDR2 "Unicast lids [0-7] of switch Lid 5 guid 0x20 ('b'):\n"
#define E(lid, port, g) "0x" lid " " port " # Channel Adapter portguid 0x" g ": 'h'\n"
#define X64 "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
#define X1K X64 X64 X64 X64 X64 X64 X64 X64 X64 X64 X64 X64 X64 X64 X64 X64
#define LONG4K X1K X1K X1K X1K	/* 4096 bytes */

TEST(lfts_dumps_refused)
{
	static const struct { const char *text, *want; } cases[] = {
		/* 0x100000001 must not wrap to LID 1 */
		{ HDR1 E("100000001", "001", "101") "1 lids dumped\n" HDR2 "0 lids dumped\n",
		  ":2: LID 0x100000001 is not a unicast LID" },
		{ HDR1 E("10000000000000001", "001", "101") "1 lids dumped\n"
		  HDR2 "0 lids dumped\n", ":2: bad LID" },
		{ HDR1 E("0001", "001", "101") E("0001", "002", "101")
		  "2 lids dumped\n" HDR2 "0 lids dumped\n", ":3: LID 0x1 is listed twice" },
		/* truncated: no trailer, or a wrong count */
		{ HDR1 E("0001", "001", "101"), "truncated" },
		{ HDR1 E("0001", "001", "101") E("0002", "002", "201")
		  "3 lids dumped\n" HDR2 "0 lids dumped\n", ":4: trailer says 3" },
		{ HDR1 "0 lids dumped\n", "switch 'S-20' (guid 0x0000000000000020) has no table" },
		{ "", "empty file" },
		{ HDR1 E("0001", "255", "101") "1 lids dumped\n", ":2: bad port" },
		{ HDR1 "0 lids dumped\n" HDR1 "0 lids dumped\n", ":3: switch guid 0x0000000000000010 has a second table" },
		{ HDR1 E("0001", "001", "101") HDR2, ":3: switch header before" },
		{ HDR1 "0x0001 001 # Channel Adapter portguid 0x101zz\n1 lids dumped\n",
		  ":2: malformed LFT entry (bad port guid)" },
		/* a switch owns one LID: a second one must not move its entry
		 * (found by tests/fuzz/lfts: the rewritten dump differed) */
		{ HDR1 "0x0004 000 # Switch portguid 0x10: 'a'\n"
		  "0x0006 035 # Switch portguid 0x10: 'a'\n2 lids dumped\n",
		  ":3: LID 0x6 names switch 'S-10', whose LID is 0x4" },
		/* a switch's own LID is port 0 (or absent) in its own table */
		{ HDR1 "0x0004 003 # Switch portguid 0x10: 'a'\n1 lids dumped\n"
		  HDR2 "0 lids dumped\n",
		  ":2: LID 0x4 is switch 'S-10''s own LID: its entry in its own "
		  "table is port 0 (the switch itself) or absent, not port 3" },
		/* host LIDs past 0xBFFF are multicast without --extended-lids */
		{ HDR1 E("c000", "001", "101") "1 lids dumped\n" HDR2
		  "0 lids dumped\n", ":2: LID 0xc000 is not a unicast LID "
		  "(1..0xBFFF; --extended-lids for analysis past it)" },
		{ HDR1 E("ffffff", "001", "101") "1 lids dumped\n" HDR2
		  "0 lids dumped\n", ":2: LID 0xffffff is not a unicast LID" },
		{ HDR1 E("0000", "001", "101") "1 lids dumped\n" HDR2
		  "0 lids dumped\n", ":2: LID 0x0 is not a unicast LID" },
		/* an endless line ends at the bound, with its number */
		{ HDR1 "0x0001 001 # Channel Adapter portguid 0x101: '"
		  LONG4K "'\n", ":2: line longer than 4096 bytes" },
	};
	struct ftsw_err err;
	struct ftsw_topo *t = net_text(two_sw, &err);
	unsigned i;

	ASSERT_NE(NULL, t) TH_LOG("%s", err.msg);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *path = tmpfile_with(cases[i].text, strlen(cases[i].text));
		struct ftsw_routing *r;

		ASSERT_NE(NULL, path);
		err.msg[0] = 0;
		r = ftsw_lfts_read(t, path, 0, false, &err);
		EXPECT_EQ(NULL, r) TH_LOG("case %u accepted", i);
		EXPECT_NE(NULL, strstr(err.msg, cases[i].want))
			TH_LOG("case %u: '%s'", i, err.msg);
		ftsw_routing_free(r);
		unlink(path);
	}
	EXPECT_EQ(NULL, ftsw_lfts_read(t, "/tmp", 0, false, &err));
	EXPECT_NE(NULL, strstr(err.msg, "/tmp"));
	ftsw_topo_free(t);
}

/*
 * The accepted side of the LID rules: a switch's own LID absent from its
 * table, LID 0xBFFF (the last unicast one), and past it with extended
 * LIDs; a section longer than the topology's LIDs at LMC 7 (3 hosts x
 * 128 + 2 switches = 386) is refused before it is stored.
 */
TEST(lfts_lid_rules_accepted_side)
{
	static const char own_absent[] =
		HDR1 E("0001", "001", "101") "1 lids dumped\n" HDR2
		"0 lids dumped\n";
	static const char last[] =
		HDR1 E("bfff", "001", "101") "1 lids dumped\n" HDR2
		"0 lids dumped\n";
	static const char ext[] =
		HDR1 E("c000", "001", "101") "1 lids dumped\n" HDR2
		"0 lids dumped\n";
	struct ftsw_err err;
	struct ftsw_topo *t = net_text(two_sw, &err);
	struct ftsw_routing *r;
	char *path, *big;
	size_t n = 0, i;

	ASSERT_NE(NULL, t) TH_LOG("%s", err.msg);
	path = tmpfile_with(own_absent, strlen(own_absent));
	r = ftsw_lfts_read(t, path, 0, false, &err);
	EXPECT_NE(NULL, r) TH_LOG("%s", err.msg);
	ftsw_routing_free(r);
	unlink(path);
	path = tmpfile_with(last, strlen(last));
	r = ftsw_lfts_read(t, path, 0, false, &err);
	EXPECT_NE(NULL, r) TH_LOG("%s", err.msg);
	ftsw_routing_free(r);
	unlink(path);
	path = tmpfile_with(ext, strlen(ext));
	r = ftsw_lfts_read(t, path, 0, true, &err);
	EXPECT_NE(NULL, r) TH_LOG("%s", err.msg);
	/* file LID 0xc000 is host 0's: ftsw's plan puts it at LID 1 */
	if (r)
		EXPECT_EQ(1, ftsw_lft(r, 0)[1]);
	ftsw_routing_free(r);
	unlink(path);
	big = malloc(400 * 64 + 256);
	ASSERT_NE(NULL, big);
	n += sprintf(big + n, "%s", HDR1);
	for (i = 1; i <= 387; i++)
		n += sprintf(big + n, "0x%04zx 001 # Channel Adapter portguid "
			     "0x101: 'h'\n", i);
	path = tmpfile_with(big, n);
	EXPECT_EQ(NULL, ftsw_lfts_read(t, path, 0, false, &err));
	EXPECT_NE(NULL, strstr(err.msg, ":388: the section of line 1 lists "
			       "more LIDs than the topology has (386 at LMC 7)"))
		TH_LOG("%s", err.msg);
	unlink(path);
	free(big);
	ftsw_topo_free(t);
}

/*
 * LMC from the dump: host 1's LIDs 4..7 (an aligned block of 4, base 4
 * absent on this switch) give LMC 2 and land on offsets 1..3.
 */
TEST(lfts_lmc_from_dump_and_missing_base)
{
	static const char dump[] =
		HDR1 E("0005", "001", "101") E("0006", "001", "101")
		E("0007", "001", "101") E("0008", "002", "201")
		"4 lids dumped\n" HDR2 "0 lids dumped\n";
	struct ftsw_err err;
	struct ftsw_topo *t = net_text(two_sw, &err);
	char *path = tmpfile_with(dump, strlen(dump));
	struct ftsw_routing *r;

	ASSERT_NE(NULL, t);
	if (t) {
		/* OpenSM's trailer: the header's largest LID, not the count */
		static const char osm[] = HDR1 E("0001", "001", "101")
			"7 lids dumped\n" HDR2 "7 lids dumped\n";
		char *p2;

		unlink(path);	/* tmpfile_with reuses one path buffer */
		p2 = tmpfile_with(osm, strlen(osm));
		r = ftsw_lfts_read(t, p2, 0, false, &err);
		EXPECT_NE(NULL, r);
		ftsw_routing_free(r);
		unlink(p2);
		path = tmpfile_with(dump, strlen(dump));
	}
	r = ftsw_lfts_read(t, path, 0, false, &err);
	ASSERT_NE(NULL, r) TH_LOG("%s", err.msg);
	EXPECT_EQ(2, r->lmc);
	/* host 0 owns ftsw LIDs 4..7: offsets 1, 2, 3 routed, 0 not */
	EXPECT_EQ(FTSW_PORT_NONE, ftsw_lft(r, 0)[4]);
	EXPECT_EQ(1, ftsw_lft(r, 0)[5]);
	EXPECT_EQ(1, ftsw_lft(r, 0)[7]);
	/* host 1 (file LID 8, offset 0) at ftsw LID 8 */
	EXPECT_EQ(2, ftsw_lft(r, 0)[8]);
	ftsw_routing_free(r);
	/* --lmc 1 is too small for this dump */
	EXPECT_EQ(NULL, ftsw_lfts_read(t, path, 1, false, &err));
	EXPECT_NE(NULL, strstr(err.msg, "needs LMC 2"));
	unlink(path);
	ftsw_topo_free(t);
}

static unsigned tmp_files(const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	unsigned n = 0;

	while (d && (e = readdir(d)))
		if (!strncmp(e->d_name, prefix, strlen(prefix)) &&
		    strstr(e->d_name, ".tmp"))
			n++;
	if (d)
		closedir(d);
	return n;
}

/* SIGTERM in the middle of an atomic write: no *.tmpXXXXXX is left. */
TEST(atomic_write_interrupted_leaves_nothing)
{
	char dir[] = "/tmp/ftsw-atomic-XXXXXX";
	char path[64];
	int status;
	pid_t pid;

	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/out.net", dir);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct ftsw_err err;
		char *tmp;
		FILE *f = ftsw_atomic_open(path, &tmp, &err);

		if (!f)
			_exit(3);
		fputs("half", f);
		fflush(f);
		kill(getpid(), SIGTERM);
		_exit(4);	/* not reached */
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFSIGNALED(status));
	EXPECT_EQ(SIGTERM, WTERMSIG(status));
	EXPECT_EQ(0, tmp_files(dir, "out.net"));
	EXPECT_NE(0, access(path, F_OK));
	rmdir(dir);
}

static int pattern_file(const char *text, size_t len, uint32_t n,
			struct ftsw_pattern *p, struct ftsw_err *err)
{
	char spec[96], *path = text ? tmpfile_with(text, len) : NULL;
	int rc;

	snprintf(spec, sizeof(spec), "file:%s", path);
	rc = ftsw_pattern_make(spec, n, NULL, p, err);
	unlink(path);
	return rc;
}

TEST(traffic_files)
{
	static const struct { const char *text, *want; } bad[] = {
		{ "0 1 nan\n", ":1: expected 'SRC DST [AMOUNT]'" },
		{ "0 1 inf\n", ":1: expected" },
		{ "0 1 -1\n", ":1: expected" },
		{ "0 1 1e999\n", ":1: expected" },
		{ "0 1 2 3\n", ":1: expected" },
		{ "0x 1\n", ":1: expected" },
		{ "0 4294967297\n", ":1: rank outside 0..15: 4294967297" },
		{ "", ":0: no 'SRC DST [AMOUNT]' line" },
		{ "# only a comment\n\n", ":2: no 'SRC DST" },
	};
	struct ftsw_pattern p;
	struct ftsw_err err;
	char *longline;
	unsigned i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err.msg[0] = 0;
		EXPECT_NE(0, pattern_file(bad[i].text, strlen(bad[i].text), 16,
					  &p, &err)) TH_LOG("case %u accepted", i);
		EXPECT_NE(NULL, strstr(err.msg, bad[i].want))
			TH_LOG("case %u: '%s'", i, err.msg);
	}
	/* decimal, never octal: 010 is ten, 08 is eight */
	ASSERT_EQ(0, pattern_file("010 08 0.5\n", 11, 16, &p, &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(1, p.stages[0].nflows);
	EXPECT_EQ(10, p.stages[0].f[0].src);
	EXPECT_EQ(8, p.stages[0].f[0].dst);
	EXPECT_EQ(0.5, p.stages[0].f[0].amount);
	ftsw_pattern_free(&p);
	/* a long line is refused, never read as two */
	longline = malloc(6000);
	ASSERT_NE(NULL, longline);
	memset(longline, ' ', 6000);
	memcpy(longline + 5990, "1 2 3\n", 6);
	EXPECT_NE(0, pattern_file(longline, 5996, 16, &p, &err));
	EXPECT_NE(NULL, strstr(err.msg, ":1: line longer than")) TH_LOG("%s", err.msg);
	free(longline);
	/* /dev/zero and a directory are refused before a byte is read */
	EXPECT_NE(0, ftsw_pattern_make("file:/dev/zero", 16, NULL, &p, &err));
	EXPECT_NE(NULL, strstr(err.msg, "/dev/zero: a character device"))
		TH_LOG("%s", err.msg);
	EXPECT_NE(0, ftsw_pattern_make("file:/tmp", 16, NULL, &p, &err));
	EXPECT_NE(NULL, strstr(err.msg, "/tmp: a directory")) TH_LOG("%s", err.msg);
	/* binary input in a regular file ends at its NUL byte */
	EXPECT_NE(0, pattern_file("0 1\n2\0003\n", 8, 16, &p, &err));
	EXPECT_NE(NULL, strstr(err.msg, ":2: NUL byte")) TH_LOG("%s", err.msg);
	/* pattern strings: numbers through the one parser */
	EXPECT_NE(0, ftsw_pattern_make("shift:4294967297", 16, NULL, &p, &err));
	EXPECT_NE(0, ftsw_pattern_make("uniform:nan", 16, NULL, &p, &err));
	EXPECT_NE(0, ftsw_pattern_make("cluster:0", 16, NULL, &p, &err));
	EXPECT_NE(0, ftsw_pattern_make("ring:1", 16, NULL, &p, &err));
	EXPECT_NE(0, ftsw_pattern_make("perm:1:2", 16, NULL, &p, &err));
	ASSERT_EQ(0, ftsw_pattern_make("shift:010", 16, NULL, &p, &err));
	EXPECT_EQ(10, p.stages[0].f[0].dst);
	ftsw_pattern_free(&p);
}

TEST(order_files)
{
	static const struct { const char *text, *want; } bad[] = {
		{ "", ":0: no host in the file" },
		{ "0\n1\n", ":2: rank 2 has no host" },
		{ "0 0\n1 1\n2 2 H2 extra\n", ":3: host 2 is" },
		{ "0 010\n", ":1: no host '010'" },	/* decimal: 10 > 3 hosts */
		{ "4294967296 0\n", ":1: rank '4294967296' not in 0..2" },
	};
	struct ftsw_err err;
	struct ftsw_topo *t = ftsw_topo_gen("kary:2,2", &err);
	uint32_t o[4];
	char spec[96];
	unsigned i;

	ASSERT_NE(NULL, t);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *path = tmpfile_with(bad[i].text, strlen(bad[i].text));

		snprintf(spec, sizeof(spec), "file:%s", path);
		err.msg[0] = 0;
		EXPECT_NE(0, ftsw_order_make(spec, t, 3, o, &err))
			TH_LOG("case %u accepted", i);
		EXPECT_NE(NULL, strstr(err.msg, bad[i].want))
			TH_LOG("case %u: '%s'", i, err.msg);
		unlink(path);
	}
	EXPECT_NE(0, ftsw_order_make("file:/dev/zero", t, 3, o, &err));
	EXPECT_NE(NULL, strstr(err.msg, "/dev/zero: a character device"));
	EXPECT_NE(0, ftsw_order_make("file:/tmp", t, 3, o, &err));
	EXPECT_NE(0, ftsw_order_make("random:-1", t, 3, o, &err));
	ftsw_topo_free(t);
}

/*
 * The one bounded line reader: a line of exactly the bound is read (with
 * or without a CR before its newline), one byte more is refused with its
 * line number; the file bound counts every byte read; a regular file
 * larger than the bound is refused before a byte is read.
 */
TEST(text_reader_bounds)
{
	char *text = malloc(3 * 4200), *p;
	struct ftsw_text x;
	struct ftsw_err err;
	char *path;
	FILE *f;

	ASSERT_NE(NULL, text);
	p = text + sprintf(text, "ok\n");
	memset(p, 'a', 4096);
	memcpy(p + 4096, "\r\n", 2);
	p += 4098;
	memset(p, 'b', 4096);
	p[4096] = '\n';
	p += 4097;
	memset(p, 'c', 4097);
	p[4097] = '\n';
	p += 4098;
	f = fmemopen(text, (size_t)(p - text), "r");
	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, ftsw_text_attach(&x, f, "t.txt", 4096, 1 << 20, &err));
	EXPECT_EQ(1, ftsw_text_line(&x, &err));
	EXPECT_STREQ("ok", x.line);
	EXPECT_EQ(1, ftsw_text_line(&x, &err));
	EXPECT_EQ(4096, x.len);
	EXPECT_EQ('a', x.line[4095]);
	EXPECT_EQ(1, ftsw_text_line(&x, &err));
	EXPECT_EQ(4096, x.len);
	EXPECT_EQ(-1, ftsw_text_line(&x, &err));
	EXPECT_STREQ("t.txt:4: line longer than 4096 bytes", err.msg);
	ftsw_text_close(&x);
	fclose(f);
	/* 6 + 6 bytes against a bound of 10: the second line passes it */
	f = fmemopen("12345\n67890\n", 12, "r");
	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, ftsw_text_attach(&x, f, "t.txt", 4096, 10, &err));
	EXPECT_EQ(1, ftsw_text_line(&x, &err));
	EXPECT_EQ(-1, ftsw_text_line(&x, &err));
	EXPECT_STREQ("t.txt:2: file longer than 10 bytes", err.msg);
	ftsw_text_close(&x);
	fclose(f);
	/* 3 GiB would be a bigger file than 1 GiB: refused by its size */
	path = tmpfile_with(text, 100);
	ASSERT_NE(NULL, path);
	EXPECT_EQ(-1, ftsw_text_open(&x, path, 4096, 64, &err));
	EXPECT_NE(NULL, strstr(err.msg, ": larger than 64 bytes (100 bytes)"))
		TH_LOG("%s", err.msg);
	EXPECT_EQ(0, ftsw_text_open(&x, path, 4096, 1 << 20, &err));
	ftsw_text_close(&x);
	unlink(path);
	free(text);
}

/*
 * Every reader refuses what is not a regular file at once: /dev/zero
 * (an endless line) in a child limited to 256 MB of address space (the
 * net reader used to grow to 8 GB, then say "no nodes in file"), a FIFO
 * nobody writes (opening it used to wait forever), a directory.
 */
TEST(readers_refuse_devices_and_fifos)
{
	char dir[] = "/tmp/ftsw-fifo-XXXXXX", fifo[64], spec[96];
	struct ftsw_err err;
	struct ftsw_topo *t = ftsw_topo_gen("kary:2,2", &err);
	struct ftsw_pattern p;
	int status;
	uint32_t o[4];
	pid_t pid;

	ASSERT_NE(NULL, t);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct rlimit rl = { 256 << 20, 256 << 20 };
		struct ftsw_routing *r;

		setrlimit(RLIMIT_AS, &rl);
		alarm(20);
		if (ftsw_net_read("/dev/zero", &err) ||
		    strcmp(err.msg, "/dev/zero: a character device, not a "
			   "regular file"))
			_exit(1);
		r = ftsw_lfts_read(t, "/dev/zero", 0, false, &err);
		if (r || strcmp(err.msg, "/dev/zero: a character device, not a "
				"regular file"))
			_exit(2);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status)) TH_LOG("killed by signal %d",
					       WTERMSIG(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	/* a FIFO: refused without waiting for a writer */
	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	ASSERT_EQ(0, mkfifo(fifo, 0600));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		alarm(20);
		if (ftsw_net_read(fifo, &err) || !strstr(err.msg, "a FIFO"))
			_exit(1);
		snprintf(spec, sizeof(spec), "file:%s", fifo);
		if (!ftsw_order_make(spec, t, 3, o, &err) ||
		    !strstr(err.msg, "a FIFO"))
			_exit(2);
		if (!ftsw_pattern_make(spec, 4, NULL, &p, &err) ||
		    !strstr(err.msg, "a FIFO"))
			_exit(3);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	unlink(fifo);
	rmdir(dir);
	ASSERT_TRUE(WIFEXITED(status)) TH_LOG("killed by signal %d",
					       WTERMSIG(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(NULL, ftsw_net_read("/tmp", &err));
	EXPECT_STREQ("/tmp: a directory, not a regular file", err.msg);
	ftsw_topo_free(t);
}

/* A net file line past the bound is refused, never split or grown. */
TEST(net_long_line)
{
	static const char text[] = "Switch 4 \"S-1\"\n# " LONG4K "\n";
	struct ftsw_err err = { .msg = "" };

	EXPECT_EQ(NULL, net_text(text, &err));
	EXPECT_STREQ("x.net:2: line longer than 4096 bytes", err.msg);
}

/*
 * Write t's net file (small: it fits the pipe's buffer) into the FIFO
 * from a child, then read what the FIFO holds: the text (malloc'd), or
 * NULL if the write failed. The read end is open first, so the child's
 * open never waits, and a child that does not write leaves it empty.
 */
static char *write_through_fifo(const struct ftsw_topo *t, const char *fifo)
{
	size_t got = 0, cap = 1 << 16;
	char *buf = malloc(cap);
	struct ftsw_err err;
	int status, fd = open(fifo, O_RDONLY | O_NONBLOCK);
	ssize_t n;
	pid_t pid;

	if (!buf || fd < 0)
		goto fail;
	pid = fork();
	if (pid == 0) {
		alarm(20);
		_exit(ftsw_net_write(t, fifo, &err) ? 1 : 0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		goto fail;
	while ((n = read(fd, buf + got, cap - 1 - got)) > 0)
		got += n;
	close(fd);
	buf[got] = 0;
	return buf;
fail:
	if (fd >= 0)
		close(fd);
	free(buf);
	return NULL;
}

/*
 * -o names the real reason a file cannot be written: /proc takes no new
 * file (mkstemp's ENOENT said "No such file or directory" of a file that
 * exists), a missing directory is named, and a device or a FIFO is never
 * replaced by a regular file: it is written in place.
 */
TEST(atomic_write_says_why)
{
	char dir[] = "/tmp/ftsw-atomic-XXXXXX", fifo[64], *fifo_text;
	struct ftsw_err err;
	struct ftsw_topo *t = ftsw_topo_gen("kary:2,2", &err);
	struct stat st;

	ASSERT_NE(NULL, t);
	EXPECT_NE(0, ftsw_net_write(t, "/proc/version", &err));
	EXPECT_NE(NULL, strstr(err.msg, "/proc/version: directory '/proc' is "
			       "in the proc file system")) TH_LOG("%s", err.msg);
	EXPECT_EQ(NULL, strstr(err.msg, "No such file"));
	EXPECT_NE(0, ftsw_net_write(t, "/tmp/ftsw-no-such-dir/x.net", &err));
	EXPECT_STREQ("/tmp/ftsw-no-such-dir/x.net: directory "
		     "'/tmp/ftsw-no-such-dir' does not exist", err.msg);
	/*
	 * A device or a FIFO is written in place, never renamed over: -o
	 * /dev/null stays the device, and a FIFO's reader gets the file.
	 */
	EXPECT_EQ(0, ftsw_net_write(t, "/dev/null", &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(0, stat("/dev/null", &st));
	EXPECT_TRUE(S_ISCHR(st.st_mode));
	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	ASSERT_EQ(0, mkfifo(fifo, 0600));
	fifo_text = write_through_fifo(t, fifo);
	ASSERT_NE(NULL, fifo_text);
	/* kary:2,2's net file: its switches and hosts reach the reader */
	EXPECT_NE(NULL, strstr(fifo_text, "Switch")) TH_LOG("%s", fifo_text);
	EXPECT_NE(NULL, strstr(fifo_text, "Ca"));
	free(fifo_text);
	ASSERT_EQ(0, stat(fifo, &st));
	EXPECT_TRUE(S_ISFIFO(st.st_mode));
	unlink(fifo);
	rmdir(dir);
	EXPECT_NE(0, ftsw_net_write(t, "/tmp", &err));
	EXPECT_NE(NULL, strstr(err.msg, "/tmp: a directory")) TH_LOG("%s", err.msg);
	ftsw_topo_free(t);
}

/*
 * Messages in the user's words: a random pattern's bad argument names the
 * pattern as given (not with a sample's seed appended); rankfiles and
 * hostfiles given to --order file: are named as what they are.
 */
TEST(messages_quote_the_user)
{
	static const struct { const char *text, *want; } other[] = {
		{ "# Open MPI rankfile\nrank 0=H0 slot=0\n",
		  ":2: an Open MPI rankfile line ('rank N=HOST slot=S'); "
		  "--order file: reads 'HOST' or 'RANK HOST' lines" },
		{ "H0 slots=1\n", ":1: an Open MPI hostfile line" },
		{ "H0:1\n", ":1: an MPICH machinefile line ('HOST:N')" },
		{ "H0 H1\n", ":1: expected 'HOST' or 'RANK HOST': 'H0' is not "
		  "a rank number" },
	};
	struct ftsw_random_opts ro = { .pattern = "uniform:2", .order = "topo",
				       .ranks = 16, .samples = 4 };
	struct ftsw_random_metrics rm;
	struct ftsw_err err;
	struct ftsw_topo *t = ftsw_topo_gen("kary:4,2", &err);
	struct ftsw_routing *r;
	char spec[96];
	uint32_t o[16];
	unsigned i;

	ASSERT_NE(NULL, t);
	r = ftsw_route("dmodk", t, &(struct ftsw_route_opts){ 0 }, &err);
	ASSERT_NE(NULL, r);
	EXPECT_NE(0, ftsw_analyze_random(r, &ro, &rm, &err));
	EXPECT_NE(NULL, strstr(err.msg, "pattern 'uniform:2': expected "
			       "uniform:P[:SEED], P a probability in 0..1"))
		TH_LOG("%s", err.msg);
	ro.pattern = "cluster:99:7";
	EXPECT_NE(0, ftsw_analyze_random(r, &ro, &rm, &err));
	EXPECT_NE(NULL, strstr(err.msg, "pattern 'cluster:99:7': expected "
			       "cluster:G[:SEED], G in 1..16"))
		TH_LOG("%s", err.msg);
	for (i = 0; i < sizeof(other) / sizeof(other[0]); i++) {
		char *path = tmpfile_with(other[i].text, strlen(other[i].text));

		snprintf(spec, sizeof(spec), "file:%s", path);
		err.msg[0] = 0;
		EXPECT_NE(0, ftsw_order_make(spec, t, 16, o, &err));
		EXPECT_NE(NULL, strstr(err.msg, other[i].want))
			TH_LOG("case %u: '%s'", i, err.msg);
		unlink(path);
	}
	ftsw_routing_free(r);
	ftsw_topo_free(t);
}

/*
 * The unroutable-pairs note is written once however often the tables are
 * counted (updn counts them itself, then ftsw_route() again): PGFT(2;4,4;
 * 1,1;1,1) has one root; a missing leaf-root link cuts a leaf off.
 */
TEST(unroutable_note_once)
{
	struct ftsw_err err;
	struct ftsw_topo *t = ftsw_topo_gen("pgft:2;4,4;1,1;1,1", &err), *d;
	struct ftsw_degrade dg = { .rand_links = 1, .seed = 1 };
	struct ftsw_routing *r;
	const char *w;

	ASSERT_NE(NULL, t);
	d = ftsw_topo_degrade(t, &dg, &err);
	ASSERT_NE(NULL, d) TH_LOG("%s", err.msg);
	r = ftsw_route("updn", d, &(struct ftsw_route_opts){ 0 }, &err);
	ASSERT_NE(NULL, r) TH_LOG("%s", err.msg);
	/* the cut leaf's 4 hosts to and from the other 12: 2 * 4 * 12 */
	EXPECT_EQ(96, r->unroutable_pairs);
	w = strstr(r->warning, "ordered host pairs unroutable");
	ASSERT_NE(NULL, w) TH_LOG("%s", r->warning);
	EXPECT_EQ(NULL, strstr(w + 1, "ordered host pairs unroutable"))
		TH_LOG("%s", r->warning);
	ftsw_routing_count_unroutable(r, 1);
	EXPECT_EQ(NULL, strstr(strstr(r->warning, "unroutable") + 1,
			       "unroutable")) TH_LOG("%s", r->warning);
	ftsw_routing_free(r);
	ftsw_topo_free(d);
	ftsw_topo_free(t);
}

/* Write text as FILE of the run directory dir. */
static int run_file(const char *dir, const char *file, const char *text)
{
	char path[160];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

/*
 * Files of a lab's run directory are read by the one line reader too: the
 * path SLs' summary (path-sl) as ps_write() writes it is read back exactly;
 * a line that is not KEY=VALUE, an unknown or repeated key, a bad number, a
 * missing key is refused with FILE:LINE (or the file); no file at all is
 * ENOENT (no path SLs). A gateway's pid file that holds no process id is
 * refused before anything starts.
 */
TEST(run_directory_files_refused)
{
	static const char good[] = "on=1\nhost=3\nsweeps=2\nqueries=16\n"
		"records=576\nconflicts=0\npairs=240\nmissing=0\nus=280000\n"
		"sl0=192\nsl1=48\n";
	static const struct {
		const char *text, *msg;
	} bad[] = {
		{ "on=1\nhost=3\nbogus=1\n", "path-sl:3: unknown key 'bogus'" },
		{ "on=1\nhost\n", "path-sl:2: not KEY=VALUE" },
		{ "on=1\non=0\n", "path-sl:2: repeated key 'on'" },
		{ "on=2\n", "path-sl:1: on" },
		{ "on=1\nhost=3\nsl3=x\n", "path-sl:3: sl3" },
		{ "on=1\nhost=3\nsl16=1\n", "path-sl:3: unknown key 'sl16'" },
		{ "on=1\nhost=3\nsl03=1\n", "path-sl:3: unknown key 'sl03'" },
		{ "on=1\nhost=3\n", "path-sl: no 'sweeps=' line" },
	};
	char lab[32], dir[64], line[200];
	struct ftsw_lab_path_sl r;
	struct ftsw_err err;
	unsigned i;

	snprintf(lab, sizeof(lab), "ut-rundir-%d", (int)getpid());
	snprintf(dir, sizeof(dir), FTSW_RUNDIR "/%s", lab);
	mkdir(FTSW_RUNDIR, 0755);
	ASSERT_EQ(0, mkdir(dir, 0755));

	EXPECT_EQ(-1, ftsw_lab_path_sl_read(lab, &r, &err));
	EXPECT_EQ(ENOENT, err.code);

	ASSERT_EQ(0, run_file(dir, "path-sl", good));
	ASSERT_EQ(0, ftsw_lab_path_sl_read(lab, &r, &err)) TH_LOG("%s", err.msg);
	EXPECT_TRUE(r.on);
	EXPECT_EQ(3, r.host);
	EXPECT_EQ(2, r.sweeps);
	EXPECT_EQ(16, r.queries);
	EXPECT_EQ(576, r.records);
	EXPECT_EQ(240, r.pairs);
	EXPECT_EQ(280000, r.us);
	EXPECT_EQ(192, r.per_sl[0]);
	EXPECT_EQ(48, r.per_sl[1]);
	EXPECT_EQ(0, r.per_sl[2]);

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(line, sizeof(line), "%s", bad[i].text);
		ASSERT_EQ(0, run_file(dir, "path-sl", line));
		EXPECT_EQ(-1, ftsw_lab_path_sl_read(lab, &r, &err))
			TH_LOG("accepted: %s", bad[i].text);
		EXPECT_NE(NULL, strstr(err.msg, bad[i].msg))
			TH_LOG("'%s': %s", bad[i].msg, err.msg);
		EXPECT_EQ(0, r.on);
	}
	/* a line past the bound: refused, not split in two */
	memset(line, '1', sizeof(line) - 2);
	memcpy(line, "us=", 3);
	line[sizeof(line) - 2] = '\n';
	line[sizeof(line) - 1] = 0;
	ASSERT_EQ(0, run_file(dir, "path-sl", line));
	EXPECT_EQ(-1, ftsw_lab_path_sl_read(lab, &r, &err));
	EXPECT_NE(NULL, strstr(err.msg, "path-sl:1: line longer than"))
		TH_LOG("%s", err.msg);

	ASSERT_EQ(0, run_file(dir, "gw-h0.pid", "12ab\n"));
	EXPECT_EQ(-1, ftsw_lab_gw_start(lab, 0, &err));
	EXPECT_NE(NULL, strstr(err.msg, "gw-h0.pid:1: process id"))
		TH_LOG("%s", err.msg);
	ASSERT_EQ(0, run_file(dir, "gw-h0.pid", "1234\n5678\n"));
	EXPECT_EQ(-1, ftsw_lab_gw_start(lab, 0, &err));
	EXPECT_NE(NULL, strstr(err.msg, "gw-h0.pid:2: more than a process id"))
		TH_LOG("%s", err.msg);

	snprintf(line, sizeof(line), "%s/path-sl", dir);
	unlink(line);
	snprintf(line, sizeof(line), "%s/gw-h0.pid", dir);
	unlink(line);
	/* the flock that keeps two starters from starting two gateways */
	snprintf(line, sizeof(line), "%s/gw-h0.lock", dir);
	EXPECT_EQ(0, unlink(line));
	EXPECT_EQ(0, rmdir(dir));
}

TEST_HARNESS_MAIN
