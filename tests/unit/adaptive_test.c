// SPDX-License-Identifier: GPL-2.0
/*
 * Adaptive routing groups (route/adaptive.c): the fat-tree engines' groups
 * counted by hand from the tree's shape, the checker's proof over every
 * path the groups allow (and what it catches in groups written by hand),
 * the text format, and the refusal where groups would break an engine's
 * deadlock freedom.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "analyze/analyze.h"

static struct ftsw_routing *adaptive(const char *spec, const char *eng,
				     struct ftsw_topo **tp)
{
	struct ftsw_route_req q = { .engine = eng, .lmc_given = true };
	struct ftsw_err err;
	struct ftsw_routing *r;

	*tp = ut_gen(spec);
	if (!*tp)
		return NULL;
	q.o.adaptive = true;
	q.o.threads = 1;
	r = ftsw_route_make(*tp, &q, &err);
	if (!r)
		fprintf(stderr, "# %s: %s\n", spec, err.msg);
	return r;
}

/* Ports of switch s leading to a switch of a higher level. */
static void up_ports(const struct ftsw_topo *t, uint32_t s, uint64_t set[4])
{
	const struct ftsw_node *n = &t->nodes[t->switches[s]];
	unsigned p;

	memset(set, 0, 4 * sizeof(uint64_t));
	for (p = 1; p <= n->nports; p++) {
		uint32_t peer = ftsw_port(t, t->switches[s], p)->peer;

		if (peer != FTSW_NONE && t->nodes[peer].kind == FTSW_SWITCH &&
		    t->nodes[peer].level > n->level)
			set[p / 64] |= 1ULL << (p % 64);
	}
}

/*
 * FT(4,2): 4 leaves of 2 hosts and 2 up-links, 2 spines. A leaf has a
 * group for each of the 6 hosts not its own, of its 2 up-ports: 24
 * entries, one set; the spines only go down.
 */
TEST(ft_4_2_every_up_port)
{
	struct ftsw_topo *t;
	struct ftsw_routing *r = adaptive("ftmn:4,2", "dmodk", &t);
	uint8_t ports[255];
	uint32_t s, h;

	ASSERT_NE(NULL, r);
	ASSERT_NE(NULL, r->ar);
	EXPECT_EQ(24, r->ar->entries);
	EXPECT_EQ(2, r->ar->nsets);	/* the unused 0 and one set */
	for (s = 0; s < t->nswitches; s++) {
		uint64_t up[4];

		up_ports(t, s, up);
		for (h = 0; h < t->nhosts; h++) {
			uint32_t lid = ftsw_host_lid(r, h);
			bool local = ftsw_host_switch(t, t->hosts[h]) ==
				     t->switches[s];
			unsigned n = ftsw_ar_ports(r, s, lid, ports), i;

			if (t->nodes[t->switches[s]].level != 1 || local) {
				EXPECT_FALSE(ftsw_ar_has(r, s, lid));
				EXPECT_EQ(1, n);
				continue;
			}
			ASSERT_EQ(2, n);
			for (i = 0; i < n; i++)
				EXPECT_TRUE(up[ports[i] / 64] >> (ports[i] % 64) & 1);
		}
	}
	ftsw_routing_free(r);
	ftsw_topo_free(t);
}

/*
 * FT(4,3): 16 hosts, 8 leaves, 8 middle switches in pods of 4 hosts, 4
 * top switches. Leaves: 14 remote hosts each (112 entries); middle
 * switches: the 12 hosts outside their pod (96); the top only goes down:
 * 208 entries, and the check reaches every one of them.
 */
TEST(ft_4_3_entries_and_proof)
{
	struct ftsw_topo *t;
	struct ftsw_routing *r = adaptive("ftmn:4,3", "dmodk", &t);
	struct ftsw_check_result res;

	ASSERT_NE(NULL, r);
	EXPECT_EQ(208, r->ar->entries);
	EXPECT_TRUE(ut_check(r, true, true, &res));
	EXPECT_EQ(208, res.ar_entries);
	EXPECT_EQ(0, res.ar_bad);
	ftsw_check_result_free(&res);
	ftsw_routing_free(r);
	ftsw_topo_free(t);
}

/* Dmodc and updn on FT(8,3) give groups the checker proves too. */
TEST(dmodc_updn_proved)
{
	static const char *const eng[] = { "dmodc", "updn", "dfsssp" };
	unsigned i;

	for (i = 0; i < 3; i++) {
		struct ftsw_topo *t;
		struct ftsw_routing *r = adaptive("ftmn:8,3", eng[i], &t);
		struct ftsw_check_result res;

		ASSERT_NE(NULL, r) TH_LOG("%s", eng[i]);
		EXPECT_LT(0, r->ar->entries);
		EXPECT_TRUE(ut_check(r, !strcmp(eng[i], "dmodc"),
				     strcmp(eng[i], "dfsssp"), &res))
			TH_LOG("%s", eng[i]);
		ftsw_check_result_free(&res);
		ftsw_routing_free(r);
		ftsw_topo_free(t);
	}
}

/*
 * On a 4x4 torus the layered engines keep the group ports whose
 * dependencies leave their VLs' graphs acyclic and refuse the others
 * (every candidate port, all of them minimal, would close a ring of
 * the torus on some VL); the checker proves what is kept. Tables that
 * are not deadlock-free already (minhop, sssp on one VL) get no groups.
 */
TEST(layered_engines_keep_only_safe_ports)
{
	static const char *const keep[] = { "lash", "dor", "dfsssp" };
	static const char *const refuse[] = { "minhop", "sssp" };
	struct ftsw_topo *t = ut_gen("torus:4,4");
	unsigned i;

	ASSERT_NE(NULL, t);
	for (i = 0; i < 3; i++) {
		struct ftsw_route_req q = { .engine = keep[i] };
		struct ftsw_check_result res;
		struct ftsw_routing *r;
		struct ftsw_err err;

		q.o.adaptive = true;
		r = ftsw_route_make(t, &q, &err);
		ASSERT_NE(NULL, r) TH_LOG("%s: %s", keep[i], err.msg);
		EXPECT_LT(0, r->ar->entries);
		EXPECT_NE(NULL, strstr(r->info, "refused (each would close a "
				       "cycle")) TH_LOG("%s", r->info);
		EXPECT_TRUE(ut_check(r, true, false, &res)) TH_LOG("%s", keep[i]);
		EXPECT_EQ(0, res.ar_bad);
		ftsw_check_result_free(&res);
		ftsw_routing_free(r);
	}
	for (i = 0; i < 2; i++) {
		struct ftsw_route_req q = { .engine = refuse[i] };
		struct ftsw_err err;

		q.o.adaptive = true;
		EXPECT_EQ(NULL, ftsw_route_make(t, &q, &err)) TH_LOG("%s",
								     refuse[i]);
		EXPECT_NE(NULL, strstr(err.msg, "not deadlock-free without "
				       "groups already")) TH_LOG("%s", err.msg);
		EXPECT_NE(NULL, strstr(err.msg, "dependency graph has a cycle "
				       "of"));
	}
	ftsw_topo_free(t);
}

static void tmp_write(char *path, const char *text)
{
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");

	fputs(text, f);
	fclose(f);
}

static struct ftsw_routing *with_groups(const struct ftsw_topo *t,
					const char *text, struct ftsw_err *err)
{
	struct ftsw_route_req q = { .engine = "dmodk", .lmc_given = true };
	char path[] = "/tmp/ftsw-groups-XXXXXX";
	struct ftsw_routing *r;

	tmp_write(path, text);
	q.groups = path;
	r = ftsw_route_make(t, &q, err);
	unlink(path);
	return r;
}

TEST(written_and_read_back)
{
	struct ftsw_topo *t;
	struct ftsw_routing *r = adaptive("ftmn:4,3", "dmodk", &t), *q;
	struct ftsw_err err;
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	uint32_t s, lid;

	ASSERT_NE(NULL, r);
	f = open_memstream(&text, &len);
	ASSERT_EQ(0, ftsw_ar_write_file(r, f));
	fclose(f);
	q = with_groups(t, text, &err);
	ASSERT_NE(NULL, q) TH_LOG("%s", err.msg);
	EXPECT_EQ(r->ar->entries, q->ar->entries);
	for (s = 0; s < t->nswitches; s++)
		for (lid = 1; lid <= r->max_lid; lid++) {
			uint8_t a[255], b[255];
			unsigned na = ftsw_ar_ports(r, s, lid, a);

			ASSERT_EQ(na, ftsw_ar_ports(q, s, lid, b));
			EXPECT_EQ(0, memcmp(a, b, na));
		}
	free(text);
	ftsw_routing_free(q);
	ftsw_routing_free(r);
	ftsw_topo_free(t);
}

/* The GUID line of switch s, as the file names it. */
static void sw_line(const struct ftsw_topo *t, uint32_t s, char *buf,
		    size_t sz)
{
	snprintf(buf, sz, "switch 0x%016llx\n",
		 (unsigned long long)t->nodes[t->switches[s]].guid);
}

TEST(bad_files_refused_with_the_line)
{
	struct ftsw_topo *t = ut_gen("ftmn:4,2");
	struct ftsw_routing *r;
	struct ftsw_route_opts o = { .threads = 1 };
	struct ftsw_err err;
	char text[512], sw[64];
	uint8_t st;

	ASSERT_NE(NULL, t);
	r = ut_route("dmodk", t, &o);
	ASSERT_NE(NULL, r);
	/* leaf 0's static port to host 2's LID 3 */
	st = ftsw_lft(r, 0)[3];
	sw_line(t, 0, sw, sizeof(sw));
	snprintf(text, sizeof(text), "0x0003 1,2\n");
	EXPECT_EQ(NULL, with_groups(t, text, &err));
	EXPECT_NE(NULL, strstr(err.msg, ":1: a LID run before any 'switch'"))
		TH_LOG("%s", err.msg);
	snprintf(text, sizeof(text), "# x\nswitch 0x1234\n");
	EXPECT_EQ(NULL, with_groups(t, text, &err));
	EXPECT_NE(NULL, strstr(err.msg, ":2: no switch of GUID"));
	snprintf(text, sizeof(text), "%s0x0003 %u,9\n", sw, st);
	EXPECT_EQ(NULL, with_groups(t, text, &err));
	EXPECT_NE(NULL, strstr(err.msg, ":2: 9 is out of range"))
		TH_LOG("%s", err.msg);
	/* a group without its static port */
	snprintf(text, sizeof(text), "%s0x0003 %u\n", sw, st == 1 ? 2 : 1);
	EXPECT_EQ(NULL, with_groups(t, text, &err));
	EXPECT_NE(NULL, strstr(err.msg, "the static port"))
		TH_LOG("%s", err.msg);
	snprintf(text, sizeof(text), "%s0x0003-0x0001 1,2\n", sw);
	EXPECT_EQ(NULL, with_groups(t, text, &err));
	/* 8 hosts: LID 9 is the first switch's */
	snprintf(text, sizeof(text), "%s0x0009 1,2\n", sw);
	EXPECT_EQ(NULL, with_groups(t, text, &err));
	EXPECT_NE(NULL, strstr(err.msg, "not a host's")) TH_LOG("%s", err.msg);
	ftsw_routing_free(r);
	ftsw_topo_free(t);
}

/*
 * Groups written by hand that leave the shortest paths: host 0's LID
 * (1) at a spine may also go down to leaf 3, and leaf 3 may take either
 * up-port, one of which is that spine again: a loop, a longer path, and
 * an up after a down hop. The check finds them.
 */
TEST(check_catches_bad_groups)
{
	struct ftsw_topo *t = ut_gen("ftmn:4,2");
	struct ftsw_routing *r;
	struct ftsw_route_opts o = { .threads = 1 };
	struct ftsw_check_result res;
	struct ftsw_err err;
	char text[512], a[64], b[64];
	uint32_t spine = FTSW_NONE, leaf3 = FTSW_NONE;
	unsigned p, down3 = 0, st;

	ASSERT_NE(NULL, t);
	r = ut_route("dmodk", t, &o);
	ASSERT_NE(NULL, r);
	leaf3 = ftsw_host_switch(t, t->hosts[7]);
	leaf3 = t->nodes[leaf3].index;
	/* the spine leaf 0 sends LID 1's traffic... from leaf 3 */
	st = ftsw_lft(r, leaf3)[1];
	spine = ftsw_peer_switch(t, &t->nodes[t->switches[leaf3]], st);
	ASSERT_NE(FTSW_NONE, spine);
	for (p = 1; p <= t->nodes[t->switches[spine]].nports; p++)
		if (ftsw_peer_switch(t, &t->nodes[t->switches[spine]], p) ==
		    leaf3)
			down3 = p;
	ASSERT_NE(0, down3);
	sw_line(t, spine, a, sizeof(a));
	sw_line(t, leaf3, b, sizeof(b));
	snprintf(text, sizeof(text), "%s0x0001 %u,%u\n%s0x0001 1,2\n", a,
		 ftsw_lft(r, spine)[1], down3, b);
	ftsw_routing_free(r);
	r = with_groups(t, text, &err);
	ASSERT_NE(NULL, r) TH_LOG("%s", err.msg);
	EXPECT_FALSE(ut_check(r, true, true, &res));
	EXPECT_LT(0, res.ar_bad);
	EXPECT_NE(NULL, strstr(res.report, "adaptive: switch"));
	ftsw_check_result_free(&res);
	ftsw_routing_free(r);
	ftsw_topo_free(t);
}

/*
 * The analyzer's static part (adaptive_split): host 0 to host 15 of
 * FT(4,3) may take either up-port of its leaf and of the middle switch:
 * 4 paths, half the flow on each of the leaf's up-links, a quarter on
 * each of the 4 middle-to-top links and on each of the 4 top-to-middle
 * links, half on each middle-to-leaf link of the far pod, all of it into
 * host 15. Links carrying it: 1 + 2 + 4 + 4 + 2 + 1 = 14, load summed
 * 1 + 1 + 1 + 1 + 1 + 1 = 6 (one unit per hop).
 */
TEST(analyzer_splits_over_the_groups)
{
	struct ftsw_topo *t;
	struct ftsw_routing *r = adaptive("ftmn:4,3", "dmodk", &t);
	struct ftsw_load_opts lo = { .adaptive_split = true };
	struct ftsw_load_result res;
	struct ftsw_err err;
	struct ftsw_tm tm;
	double *load, sum = 0, max = 0;
	unsigned used = 0, halves = 0, quarters = 0;
	uint32_t l;

	ASSERT_NE(NULL, r);
	load = calloc(t->nports, sizeof(*load));
	ftsw_tm_init(&tm, t->nhosts);
	ftsw_tm_add(&tm, 0, 15, 1.0);
	ASSERT_EQ(0, ftsw_link_loads(r, &tm, &lo, load, NULL, &res, &err));
	EXPECT_EQ(4, res.ar_paths);
	EXPECT_EQ(4, res.ar_paths_max);
	for (l = 0; l < t->nports; l++) {
		if (load[l] <= 0)
			continue;
		used++;
		sum += load[l];
		halves += fabs(load[l] - 0.5) < 1e-12;
		quarters += fabs(load[l] - 0.25) < 1e-12;
		if (load[l] > max)
			max = load[l];
	}
	EXPECT_EQ(14, used);
	EXPECT_LT(fabs(sum - 6), 1e-9);
	EXPECT_EQ(4, halves);
	EXPECT_EQ(8, quarters);
	EXPECT_EQ(1.0, max);
	/* without the split: the static path, 6 links of 1 */
	lo.adaptive_split = false;
	ASSERT_EQ(0, ftsw_link_loads(r, &tm, &lo, load, NULL, &res, &err));
	for (used = 0, l = 0; l < t->nports; l++)
		used += load[l] > 0;
	EXPECT_EQ(6, used);
	ftsw_tm_free(&tm);
	free(load);
	ftsw_routing_free(r);
	ftsw_topo_free(t);
}

TEST_HARNESS_MAIN
