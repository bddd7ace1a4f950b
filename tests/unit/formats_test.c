// SPDX-License-Identifier: GPL-2.0
/*
 * Interchange formats: ibnetdiscover / ibsim net files (round trips, a
 * real-style dump, malformed input named by file:line) and OpenSM's LFT
 * dump (round trip, OpenSM's own LID numbering mapped by GUID).
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "common.h"

static void net_write(FILE *f, const void *t)
{
	ftsw_net_write_file(t, f);
}

static __attribute__((noinline)) char *net_text(const struct ftsw_topo *t)
{
	return ut_text(net_write, t);
}

static struct ftsw_topo *net_parse(const char *text, const char *name,
				   struct ftsw_err *err)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	struct ftsw_topo *t = ftsw_net_read_file(f, name, err);

	fclose(f);
	return t;
}

TEST(net_round_trip_generated_and_degraded)
{
	static const char *specs[] = { "pgft:3;2,2,3;1,2,2;1,2,1", "ftmn:4,3" };
	unsigned i;

	for (i = 0; i < 2; i++) {
		struct ftsw_err err;
		struct ftsw_topo *t = ftsw_topo_gen(specs[i], &err);
		struct ftsw_degrade d = { .rand_links = 3, .rand_hosts = 2, .seed = 9 };
		struct ftsw_topo *g = ftsw_topo_degrade(t, &d, &err);
		struct ftsw_topo *src[2] = { t, g };
		unsigned k, p;

		ASSERT_NE(NULL, g);
		for (k = 0; k < 2; k++) {
			char *a = net_text(src[k]), *b;
			struct ftsw_topo *u = net_parse(a, "rt.net", &err);

			ASSERT_NE(NULL, u) TH_LOG("%s", err.msg);
			b = net_text(u);
			EXPECT_STREQ(a, b);
			EXPECT_EQ(src[k]->nnodes, u->nnodes);
			EXPECT_EQ(ftsw_topo_nlinks(src[k]), ftsw_topo_nlinks(u));
			/* the spec comment makes it a (degraded) PGFT again */
			EXPECT_TRUE(u->is_pgft);
			EXPECT_EQ(k == 1, u->degraded);
			ASSERT_EQ(src[k]->nports, u->nports);
			for (p = 0; p < u->nports; p++) {
				EXPECT_EQ(src[k]->ports[p].peer, u->ports[p].peer);
				EXPECT_EQ(src[k]->ports[p].peer_port,
					  u->ports[p].peer_port);
			}
			free(a);
			free(b);
			ftsw_topo_free(u);
		}
		ftsw_topo_free(g);
		ftsw_topo_free(t);
	}
}

/* Written after ibnetdiscover's output: comments, vendor lines, GUIDs in
 * brackets and parentheses, lid/lmc/speed remarks, a 2-port CA with one
 * port cabled, parallel links listed from both ends. */
static const char real_dump[] =
	"#\n"
	"# Topology file: generated on Tue Mar  3 10:00:00 2020\n"
	"#\n"
	"# Initiated from node 0002c90300a1b2c0 port 0002c90300a1b2c1\n"
	"\n"
	"vendid=0x2c9\n"
	"devid=0xcb20\n"
	"sysimgguid=0x7cfe900300bdf0c0\n"
	"switchguid=0x7cfe900300bdf0c0(7cfe900300bdf0c0)\n"
	"Switch\t36 \"S-7cfe900300bdf0c0\"\t\t# \"MF0;sw1:MSB7700/U1\" enhanced port 0 lid 3 lmc 0\n"
	"[1]\t\"H-0002c90300a1b2c0\"[1](2c90300a1b2c1) \t\t# \"node1 HCA-1\" lid 5 4xEDR\n"
	"[2]\t\"H-0002c90300a1b2d0\"[1](2c90300a1b2d1) \t\t# \"node2 HCA-1\" lid 6 4xEDR\n"
	"[35]\t\"S-7cfe900300bdf100\"[35]\t\t# \"MF0;sw2:MSB7700/U1\" lid 4 4xEDR\n"
	"[36]\t\"S-7cfe900300bdf100\"[36]\t\t# \"MF0;sw2:MSB7700/U1\" lid 4 4xEDR\n"
	"\n"
	"vendid=0x2c9\n"
	"devid=0xcb20\n"
	"sysimgguid=0x7cfe900300bdf100\n"
	"switchguid=0x7cfe900300bdf100(7cfe900300bdf100)\n"
	"Switch\t36 \"S-7cfe900300bdf100\"\t\t# \"MF0;sw2:MSB7700/U1\" enhanced port 0 lid 4 lmc 0\n"
	"[1]\t\"H-0002c90300a1b2e0\"[1](2c90300a1b2e1) \t\t# \"node3 HCA-1\" lid 7 4xEDR\n"
	"[35]\t\"S-7cfe900300bdf0c0\"[35]\t\t# \"MF0;sw1:MSB7700/U1\" lid 3 4xEDR\n"
	"[36]\t\"S-7cfe900300bdf0c0\"[36]\t\t# \"MF0;sw1:MSB7700/U1\" lid 3 4xEDR\n"
	"\n"
	"vendid=0x2c9\n"
	"devid=0x1013\n"
	"sysimgguid=0x2c90300a1b2c3\n"
	"caguid=0x2c90300a1b2c0\n"
	"Ca\t2 \"H-0002c90300a1b2c0\"\t\t# \"node1 HCA-1\"\n"
	"[1](2c90300a1b2c1) \t\"S-7cfe900300bdf0c0\"[1]\t\t# lid 5 lmc 0 \"MF0;sw1:MSB7700/U1\" lid 3 4xEDR\n"
	"\n"
	"vendid=0x2c9\n"
	"devid=0x1013\n"
	"sysimgguid=0x2c90300a1b2d3\n"
	"caguid=0x2c90300a1b2d0\n"
	"Ca\t2 \"H-0002c90300a1b2d0\"\t\t# \"node2 HCA-1\"\n"
	"[1](2c90300a1b2d1) \t\"S-7cfe900300bdf0c0\"[2]\t\t# lid 6 lmc 0 \"MF0;sw1:MSB7700/U1\" lid 3 4xEDR\n"
	"\n"
	"vendid=0x2c9\n"
	"devid=0x1013\n"
	"sysimgguid=0x2c90300a1b2e3\n"
	"caguid=0x2c90300a1b2e0\n"
	"Ca\t2 \"H-0002c90300a1b2e0\"\t\t# \"node3 HCA-1\"\n"
	"[1](2c90300a1b2e1) \t\"S-7cfe900300bdf100\"[1]\t\t# lid 7 lmc 0 \"MF0;sw2:MSB7700/U1\" lid 4 4xEDR\n";

TEST(net_reads_ibnetdiscover_dump)
{
	struct ftsw_err err;
	struct ftsw_topo *t = net_parse(real_dump, "fabric.net", &err), *u;
	char *a, *b;

	ASSERT_NE(NULL, t) TH_LOG("%s", err.msg);
	EXPECT_EQ(2, t->nswitches);
	EXPECT_EQ(3, t->nhosts);
	EXPECT_EQ(5, ftsw_topo_nlinks(t));	/* 3 host links, 2 parallel */
	EXPECT_EQ(0x7cfe900300bdf0c0ULL, t->nodes[t->switches[0]].guid);
	EXPECT_STREQ("MF0;sw1:MSB7700/U1", t->nodes[t->switches[0]].desc);
	EXPECT_STREQ("node3 HCA-1", t->nodes[t->hosts[2]].desc);
	EXPECT_EQ(2, t->nodes[t->hosts[0]].nports);
	EXPECT_EQ(t->switches[1], ftsw_port(t, t->switches[0], 36)->peer);
	EXPECT_FALSE(t->is_pgft);
	/* canonical rewrite is stable */
	a = net_text(t);
	u = net_parse(a, "again.net", &err);
	ASSERT_NE(NULL, u) TH_LOG("%s", err.msg);
	b = net_text(u);
	EXPECT_STREQ(a, b);
	free(a);
	free(b);
	ftsw_topo_free(u);
	ftsw_topo_free(t);
}

/* Without the spec comment the parameters are inferred from the graph:
 * hand-checked, PGFT(3;2,2,3;1,2,2;1,2,1) has leaves with 2 hosts and 2
 * parents over 2 links each, level-2 switches with 2 children and 2
 * parents, 4 tops with 3 children each. */
TEST(net_pgft_inferred_without_spec)
{
	struct ftsw_err err;
	struct ftsw_topo *t = ftsw_topo_gen("pgft:3;2,2,3;1,2,2;1,2,1", &err), *u;
	struct ftsw_degrade d = { .rand_links = 1, .seed = 3 };
	struct ftsw_topo *g = ftsw_topo_degrade(t, &d, &err);
	struct ftsw_pgft inf;
	char *a = net_text(t), *line, spec[128];

	ASSERT_NE(NULL, g);
	line = strstr(a, "# ftsw-topology:");
	ASSERT_NE(NULL, line);
	/* drop the spec line */
	memmove(line, strchr(line, '\n') + 1, strlen(strchr(line, '\n') + 1) + 1);
	u = net_parse(a, "nospec.net", &err);
	ASSERT_NE(NULL, u) TH_LOG("%s", err.msg);
	EXPECT_FALSE(u->is_pgft);
	ASSERT_EQ(0, ftsw_topo_infer_pgft(u, &inf));
	ftsw_pgft_format(&inf, spec, sizeof(spec));
	EXPECT_STREQ("PGFT(3;2,2,3;1,2,2;1,2,1)", spec);
	/* a missing link breaks the regularity */
	EXPECT_NE(0, ftsw_topo_infer_pgft(g, &inf));
	ftsw_topo_free(u);
	/* two leaves linked to each other: not a tree */
	u = net_parse(real_dump, "fabric.net", &err);
	ASSERT_NE(NULL, u);
	EXPECT_NE(0, ftsw_topo_infer_pgft(u, &inf));
	free(a);
	ftsw_topo_free(u);
	ftsw_topo_free(g);
	ftsw_topo_free(t);
}

TEST(net_malformed_named_by_line)
{
	static const struct { const char *text, *want; } cases[] = {
		{ "Switch 0 \"S-1\"\n", "bad.net:1: bad port count" },
		{ "# c\nSwitch 4 \"S-1\"\n[1] \"S-2\"[1]\n", "bad.net:3: unknown node \"S-2\"" },
		{ "Switch 4 \"S-1\"\n[5] \"S-1\"[1]\n", "bad.net:2: port [5]" },
		{ "Switch 4 \"a\"\n[1] \"b\"[1]\n\nSwitch 4 \"b\"\n[1] \"c\"[1]\n\n"
		  "Switch 4 \"c\"\n", "bad.net:5: link to \"c\"[1] contradicts" },
		{ "\nfoo bar\n", "bad.net:2: unknown line" },
		{ "Switch 4 S-1\n", "bad.net:1: expected a quoted node id" },
		{ "Switch 4 \"S-1\"\n[1] \"S-1\"\n", "bad.net:2: expected the peer port" },
		{ "[1] \"x\"[1]\n", "bad.net:1: port line" },
		{ "Switch 4 \"a\"\nSwitch 4 \"a\"\n", "node id \"a\" defined twice" },
	};
	unsigned i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ftsw_err err = { .msg = "" };
		struct ftsw_topo *t = net_parse(cases[i].text, "bad.net", &err);

		EXPECT_EQ(NULL, t) TH_LOG("case %u accepted", i);
		EXPECT_NE(NULL, strstr(err.msg, cases[i].want))
			TH_LOG("case %u: '%s'", i, err.msg);
		ftsw_topo_free(t);
	}
}

TEST(net_file_io_atomic)
{
	struct ftsw_err err;
	struct ftsw_topo *t = ftsw_topo_gen("kary:2,2", &err), *u;
	char path[] = "/tmp/ftsw-formats-XXXXXX";
	int fd = mkstemp(path);

	ASSERT_LE(0, fd);
	close(fd);
	ASSERT_EQ(0, ftsw_net_write(t, path, &err));
	u = ftsw_net_read(path, &err);
	ASSERT_NE(NULL, u) TH_LOG("%s", err.msg);
	EXPECT_EQ(t->nnodes, u->nnodes);
	unlink(path);
	EXPECT_EQ(NULL, ftsw_net_read(path, &err));
	EXPECT_NE(NULL, strstr(err.msg, path));
	EXPECT_NE(0, ftsw_net_write(t, "/nonexistent-dir/x.net", &err));
	EXPECT_NE(NULL, strstr(err.msg, "/nonexistent-dir/x.net"));
	ftsw_topo_free(u);
	ftsw_topo_free(t);
}

TEST(lfts_round_trip)
{
	struct ftsw_err err;
	struct ftsw_topo *t = ftsw_topo_gen("pgft:3;2,2,3;1,2,2;1,2,1", &err);
	struct ftsw_route_opts o = { .lmc = 1 };
	struct ftsw_routing *r = ftsw_route("dmodc", t, &o, &err), *u;
	char path[] = "/tmp/ftsw-lfts-XXXXXX";
	int fd = mkstemp(path);

	ASSERT_NE(NULL, r);
	ASSERT_LE(0, fd);
	close(fd);
	ASSERT_EQ(0, ftsw_lfts_write(r, path, &err));
	u = ftsw_lfts_read(t, path, 1, false, &err);
	ASSERT_NE(NULL, u) TH_LOG("%s", err.msg);
	ASSERT_EQ(r->lft_size, u->lft_size);
	EXPECT_EQ(0, memcmp(r->lft, u->lft, r->lft_size * r->nswitches));
	unlink(path);
	ftsw_routing_free(u);
	ftsw_routing_free(r);
	ftsw_topo_free(t);
}

/* OpenSM numbered the switches 3, 4 and the hosts 5, 6, 7; ftsw's plan
 * has hosts 1, 2, 3 and switches 4, 5: entries land by port GUID. */
TEST(lfts_reads_opensm_numbering)
{
	static const char dump[] =
		"Unicast lids [0-7] of switch Lid 3 guid 0x7cfe900300bdf0c0 ('MF0;sw1:MSB7700/U1'):\n"
		"0x0003 000 # Switch portguid 0x7cfe900300bdf0c0: 'MF0;sw1:MSB7700/U1'\n"
		"0x0004 035 # Switch portguid 0x7cfe900300bdf100: 'MF0;sw2:MSB7700/U1'\n"
		"0x0005 001 # Channel Adapter portguid 0x0002c90300a1b2c1: 'node1 HCA-1'\n"
		"0x0006 002 # Channel Adapter portguid 0x0002c90300a1b2d1: 'node2 HCA-1'\n"
		"0x0007 036 # Channel Adapter portguid 0x0002c90300a1b2e1: 'node3 HCA-1'\n"
		"5 lids dumped\n"
		"Unicast lids [0-7] of switch Lid 4 guid 0x7cfe900300bdf100 ('MF0;sw2:MSB7700/U1'):\n"
		"0x0004 000 # Switch portguid 0x7cfe900300bdf100: 'MF0;sw2:MSB7700/U1'\n"
		"1 lids dumped\n";
	struct ftsw_err err;
	struct ftsw_topo *t = net_parse(real_dump, "fabric.net", &err);
	char path[] = "/tmp/ftsw-osm-XXXXXX";
	int fd = mkstemp(path);
	struct ftsw_routing *r;
	size_t two = (size_t)(strchr(strchr(dump, '\n') + 1, '\n') + 1 - dump);

	ASSERT_NE(NULL, t);
	ASSERT_EQ((ssize_t)strlen(dump), write(fd, dump, strlen(dump)));
	close(fd);
	r = ftsw_lfts_read(t, path, 0, false, &err);
	ASSERT_NE(NULL, r) TH_LOG("%s", err.msg);
	EXPECT_EQ(1, ftsw_lft(r, 0)[1]);
	EXPECT_EQ(2, ftsw_lft(r, 0)[2]);
	EXPECT_EQ(36, ftsw_lft(r, 0)[3]);
	EXPECT_EQ(35, ftsw_lft(r, 0)[5]);	/* sw2 */
	EXPECT_EQ(FTSW_PORT_NONE, ftsw_lft(r, 1)[1]);	/* sw2 routes nothing */
	ftsw_routing_free(r);
	/* a GUID the topology lacks is an error naming the line */
	fd = open(path, O_WRONLY | O_TRUNC);
	ASSERT_LE(0, fd);
	/* the header and the first entry, then a foreign GUID */
	ASSERT_EQ((ssize_t)two, write(fd, dump, two));
	ASSERT_LT(0, write(fd, "0x0008 001 # Switch portguid 0x1234: 'x'\n", 41));
	close(fd);
	EXPECT_EQ(NULL, ftsw_lfts_read(t, path, 0, false, &err));
	EXPECT_NE(NULL, strstr(err.msg, ":3: port guid 0x0000000000001234"))
		TH_LOG("%s", err.msg);
	unlink(path);
	ftsw_topo_free(t);
}

TEST_HARNESS_MAIN
