// SPDX-License-Identifier: GPL-2.0
/*
 * The live view's library without a kernel (view/): a model of FT(4,2),
 * port dumps made up here fed to the snapshot, and what the page, the
 * stream, /metrics and lab top get from it: rates by hand, JSON checked by
 * python3's parser, /metrics by Prometheus' own promtool (check metrics)
 * and its values, the requests' endpoints and refusals, a path traced on
 * D-Mod-K's tables (by hand: h0 -> h5 leaves s0 by port 2, s5 by port 3,
 * s2 by port 4), OpenSM's log lines and the events file in the timeline.
 */
#include <arpa/inet.h>
#include <math.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common.h"
#include "view/view_int.h"

/* FT(4,2): leaves s0..s3 (ports 1, 2 up to s4, s5; 3, 4 to hosts), tops
 * s4, s5 (ports 1..4 down to s0..s3). */
static struct ftsw_view *model(void)
{
	struct ftsw_topo *t = ut_gen("ftmn:4,2");
	struct ftsw_err err;
	struct ftsw_view *v;

	if (!t)
		return NULL;
	v = ftsw_view_model(t, "ut", "ftmn:4,2", "dmodk", 0, -1, &err);
	if (!v)
		fprintf(stderr, "# model: %s\n", err.msg);
	ftsw_topo_free(t);
	return v;
}

/* One sample at time mono: every switch port up, counters from f. */
static void feed(struct ftsw_view *v, double mono,
		 uint64_t (*f)(uint32_t sw, unsigned port, int what))
{
	uint32_t sw;
	unsigned p;

	ftsw_view_snap_begin(v, mono, 1.7e9 + mono);
	for (sw = 0; sw < v->t->nswitches; sw++)
		for (p = 1; p <= 4; p++) {
			struct ftsw_port_info pi = { .switch_id = sw, .port = p,
						     .admin_up = true,
						     .oper_up = true,
						     .has_stats = true };

			pi.stats.tx_packets = f(sw, p, 0);
			pi.stats.tx_bytes = f(sw, p, 1);
			pi.stats.rx_packets = f(sw, p, 2);
			pi.stats.rx_bytes = f(sw, p, 3);
			pi.edge = sw < 4 && p > 2;
			ftsw_view_snap_port(v, &pi);
		}
	ftsw_view_snap_end(v);
}

static uint64_t zero(uint32_t sw, unsigned p, int what)
{
	(void)sw;
	(void)p;
	(void)what;
	return 1000;
}

/* s0 port 1 sent 50 packets of 100 bytes, s0 port 3 received 20 from
 * h0, in the half second after zero()'s. */
static uint64_t busy(uint32_t sw, unsigned p, int what)
{
	if (sw == 0 && p == 1 && what <= 1)
		return 1000 + (what ? 5000 : 50);
	if (sw == 0 && p == 3 && what >= 2)
		return 1000 + (what == 3 ? 3000 : 20);
	return 1000;
}

TEST(names_and_records)
{
	struct ftsw_view *v = model();

	ASSERT_NE(NULL, v);
	EXPECT_EQ(3, ftsw_view_find_host(v, "h3"));
	EXPECT_EQ(3, ftsw_view_find_host(v, "3"));
	EXPECT_EQ(7, ftsw_view_find_host(v, "H7"));	/* its node name */
	EXPECT_EQ(-1, ftsw_view_find_host(v, "h8"));
	EXPECT_EQ(-1, ftsw_view_find_host(v, "h03"));
	EXPECT_EQ(-1, ftsw_view_find_host(v, "s1"));
	EXPECT_EQ(-1, ftsw_view_find_host(v, ""));
	EXPECT_EQ(FTSW_NONE, ftsw_view_rec(v, 6, 1));
	EXPECT_EQ(FTSW_NONE, ftsw_view_rec(v, 0, 5));
	EXPECT_EQ(FTSW_NONE, ftsw_view_rec(v, 0, 0));
	EXPECT_STREQ("s4", v->node[v->t->switches[4]].name);
	EXPECT_STREQ("h5", v->node[v->t->hosts[5]].name);
	ftsw_view_model_free(v);
}

/*
 * Rates over the interval: 50 packets in 0.5 s = 100 packets/s, 5000
 * bytes = 80000 bit/s; what h0 sends is what s0:3 received (20 in 0.5 s:
 * 40/s); a delta holds those two records only.
 */
TEST(rates_and_deltas)
{
	struct ftsw_view *v = model();
	struct ftsw_vbuf b = { 0 };
	struct ftsw_view_link top[4];
	uint32_t r1, rh;

	ASSERT_NE(NULL, v);
	feed(v, 10.0, zero);
	feed(v, 10.5, busy);
	r1 = ftsw_view_rec(v, 0, 1);
	rh = ftsw_link_id(v->t, v->t->hosts[0], 1);
	EXPECT_EQ(100, v->snap.p[r1].pps);
	EXPECT_EQ(80000, v->snap.p[r1].bps);
	EXPECT_EQ(1050, v->snap.p[r1].txp);
	EXPECT_EQ(40, v->snap.p[rh].pps);
	EXPECT_EQ(1020, v->snap.p[rh].txp);
	EXPECT_EQ(0, v->snap.p[ftsw_view_rec(v, 1, 1)].pps);
	/* records: the hosts' first (nodes 0..7), then the switches' */
	ftsw_view_json_snap(v, false, 0, &b);
	ASSERT_TRUE(ut_json_valid(b.p));
	{
		char want[96];

		snprintf(want, sizeof(want), "\"links\":[[%u,2,40,48000,1020],"
			 "[%u,2,100,80000,1050]]", rh, r1);
		EXPECT_NE(NULL, strstr(b.p, want)) TH_LOG("%s", b.p);
	}
	ftsw_vbuf_free(&b);
	/* lab top: s0:1 the busiest by pps, then by its packets */
	ASSERT_EQ(24, ftsw_view_top(v, FTSW_VIEW_BY_PPS, -1, top, 4));
	EXPECT_STREQ("s0:1", top[0].from);
	EXPECT_STREQ("s4:1", top[0].to);
	EXPECT_EQ(100, top[0].pps);
	EXPECT_EQ(4, ftsw_view_top(v, FTSW_VIEW_BY_PPS, 5, top, 4));
	EXPECT_STREQ("s5:1", top[0].from);
	/* the same sample again: no record changed */
	feed(v, 11.0, busy);
	ftsw_view_json_snap(v, false, 0, &b);
	{
		char want[96];

		snprintf(want, sizeof(want), "\"links\":[[%u,2,0,0,1020],"
			 "[%u,2,0,0,1050]]", rh, r1);
		EXPECT_NE(NULL, strstr(b.p, want)) TH_LOG("%s", b.p);
	}
	ftsw_vbuf_free(&b);
	ftsw_view_json_topology(v, &b);
	ASSERT_TRUE(ut_json_valid(b.p));
	EXPECT_NE(NULL, strstr(b.p, "\"layout\":\"levels\""));
	ftsw_vbuf_free(&b);
	ftsw_view_model_free(v);
}

/* python3 counts the topology's nodes and cables and the snapshot's
 * links (every cabled record: 2 x 16). */
TEST(json_by_python)
{
	static const char prog[] = "import json,sys\n"
		"t = json.loads(sys.argv[1]); s = json.loads(sys.argv[2])\n"
		"assert len(t['nodes']) == 14 and len(t['cables']) == 16, t\n"
		"assert len(s['links']) == 32 and s['type'] == 'snap', s\n"
		"assert [n['n'] for n in t['nodes']][:3] == ['h0', 'h1', 'h2']\n";
	struct ftsw_view *v = model();
	struct ftsw_vbuf t = { 0 }, s = { 0 };
	char *cmd = NULL;
	FILE *f;

	ASSERT_NE(NULL, v);
	feed(v, 1, zero);
	ftsw_view_json_topology(v, &t);
	ftsw_view_json_snap(v, true, 0, &s);
	f = fopen("/tmp/ftsw-view-test.py", "w");
	ASSERT_NE(NULL, f);
	fputs(prog, f);
	fclose(f);
	ASSERT_LT(0, asprintf(&cmd, "python3 /tmp/ftsw-view-test.py '%s' '%s'",
			      t.p, s.p));
	EXPECT_EQ(0, system(cmd));
	unlink("/tmp/ftsw-view-test.py");
	free(cmd);
	ftsw_vbuf_free(&t);
	ftsw_vbuf_free(&s);
	ftsw_view_model_free(v);
}

/* /metrics: promtool finds nothing to say; the values are the counters. */
TEST(metrics_promtool)
{
	struct ftsw_view *v = model();
	struct ftsw_vbuf b = { 0 };
	FILE *p;

	ASSERT_NE(NULL, v);
	feed(v, 10.0, zero);
	feed(v, 10.5, busy);
	v->mgr.sm = true;
	v->mgr.sm_sweeps = 3;
	ftsw_view_metrics(v, &b);
	ASSERT_FALSE(b.oom);
	p = popen("promtool check metrics >/tmp/ftsw-promtool.out 2>&1", "w");
	ASSERT_NE(NULL, p);
	fputs(b.p, p);
	EXPECT_EQ(0, pclose(p)) system("sed 's/^/# /' /tmp/ftsw-promtool.out");
	unlink("/tmp/ftsw-promtool.out");
	EXPECT_NE(NULL, strstr(b.p, "infiniband_portxmitpkts_total{component="
			       "\"switch\",lab=\"ut\",local_guid=\"0x6674010000000000\","
			       "local_name=\"S1-0\",local_node=\"s0\",local_port=\"1\","
			       "remote_guid=\"0x6674020000000000\",remote_name="
			       "\"S2-0\",remote_node=\"s4\",remote_port=\"1\"} 1050\n"));
	/* 6000 bytes in 4-byte words */
	EXPECT_NE(NULL, strstr(b.p, "local_port=\"1\",remote_guid=\"0x6674020000000000\","
			       "remote_name=\"S2-0\",remote_node=\"s4\",remote_port="
			       "\"1\"} 1500\n"));
	EXPECT_NE(NULL, strstr(b.p, "ftsw_sm_sweeps_total{lab=\"ut\"} 3\n"));
	EXPECT_NE(NULL, strstr(b.p, "ftsw_fm_up{lab=\"ut\"} 0\n"));
	ftsw_vbuf_free(&b);
	ftsw_view_model_free(v);
}

struct args {
	const char *src, *dst, *sw, *port, *since;
};

static const char *arg(const char *name, void *ctx)
{
	const struct args *a = ctx;

	if (!strcmp(name, "src"))
		return a->src;
	if (!strcmp(name, "dst"))
		return a->dst;
	if (!strcmp(name, "sw"))
		return a->sw;
	if (!strcmp(name, "port"))
		return a->port;
	if (!strcmp(name, "since"))
		return a->since;
	return NULL;
}

TEST(requests)
{
	struct ftsw_view *v = model();
	struct ftsw_route_opts ro = { .threads = 1 };
	struct args a = { .src = "h0", .dst = "h5" };
	struct ftsw_view_resp r;
	enum ftsw_view_ep ep;

	ASSERT_NE(NULL, v);
	EXPECT_EQ(200, ftsw_view_route("GET", "/", &ep));
	EXPECT_EQ(FTSW_EP_PAGE, ep);
	EXPECT_EQ(200, ftsw_view_route("HEAD", "/metrics", &ep));
	EXPECT_EQ(FTSW_EP_METRICS, ep);
	EXPECT_EQ(405, ftsw_view_route("POST", "/api/snapshot", &ep));
	EXPECT_EQ(405, ftsw_view_route("DELETE", "/", &ep));
	EXPECT_EQ(404, ftsw_view_route("GET", "/../etc/passwd", &ep));
	EXPECT_EQ(404, ftsw_view_route("GET", "/api/snapshot/", &ep));
	EXPECT_EQ(404, ftsw_view_route("GET", "", &ep));
	EXPECT_EQ(400, ftsw_view_route(NULL, "/", &ep));
	feed(v, 1, zero);
	/* no tables yet: 503 */
	ftsw_view_answer(v, FTSW_EP_PATH, arg, &a, &r);
	EXPECT_EQ(503, r.status);
	ftsw_view_resp_free(&r);
	v->rt = ut_route("dmodk", v->t, &ro);
	ASSERT_NE(NULL, v->rt);
	ftsw_view_answer(v, FTSW_EP_PATH, arg, &a, &r);
	EXPECT_EQ(200, r.status);
	ASSERT_TRUE(ut_json_valid(r.body));
	EXPECT_NE(NULL, strstr(r.body, "\"hops\":[{\"sw\":\"s0\",\"in\":3,\"out\":2,"
			       "\"vl\":0,\"down\":false},{\"sw\":\"s5\",\"in\":1,"
			       "\"out\":3,\"vl\":0,\"down\":false},{\"sw\":\"s2\","
			       "\"in\":2,\"out\":4,\"vl\":0,\"down\":false}]"))
		TH_LOG("%s", r.body);
	ftsw_view_resp_free(&r);
	a.dst = "h9";
	ftsw_view_answer(v, FTSW_EP_PATH, arg, &a, &r);
	EXPECT_EQ(400, r.status);
	EXPECT_NE(NULL, strstr(r.body, "h9"));
	ftsw_view_resp_free(&r);
	a.sw = "s2";
	a.port = "4";
	ftsw_view_answer(v, FTSW_EP_PORT, arg, &a, &r);
	EXPECT_EQ(200, r.status);
	EXPECT_NE(NULL, strstr(r.body, "\"name\":\"s2:4\",\"to\":\"h5:1\""));
	ftsw_view_resp_free(&r);
	a.port = "5";
	ftsw_view_answer(v, FTSW_EP_PORT, arg, &a, &r);
	EXPECT_EQ(400, r.status);
	ftsw_view_resp_free(&r);
	a.since = "-1";
	ftsw_view_answer(v, FTSW_EP_TIMELINE, arg, &a, &r);
	EXPECT_EQ(400, r.status);
	ftsw_view_resp_free(&r);
	ftsw_view_answer(v, FTSW_EP_PAGE, arg, &a, &r);
	EXPECT_EQ(200, r.status);
	EXPECT_NE(NULL, strstr(r.body, "<script src=\"view.js\""));
	EXPECT_STREQ("text/html; charset=utf-8", r.type);
	ftsw_view_model_free(v);
}

/* OpenSM's lines and the events file into the timeline, oldest first. */
TEST(timeline)
{
	static const char up[] = "Nov 29 05:14:08 123456 [7F0] 0x02 -> "
				 "SUBNET UP";
	static const char trap[] = "Nov 29 05:15:01 124000 [7F1] 0x02 -> "
				   "osm_report_notice: Reporting Generic Notice "
				   "type:1 num:128 (Link state change) "
				   "from LID:5 GID:fe80::1";
	static const char trap2[] = "... Received Generic Notice type:1 "
				    "num:128 (Link state change) from LID:12 "
				    "TID:0x00000000000000ab";
	static const char ev[] = "{\"time\":1764393600.5,\"kind\":\"fm-sweep\","
				 "\"text\":\"fm sweep 2: s0:1 down\"}";
	struct ftsw_view *v = model();
	struct ftsw_view_event e[8];

	ASSERT_NE(NULL, v);
	ftsw_view_sm_line(v, up, strlen(up));
	ftsw_view_sm_line(v, trap, strlen(trap));	/* not received: none */
	ftsw_view_sm_line(v, trap2, strlen(trap2));
	ftsw_view_evlog_line(v, ev, strlen(ev));
	ftsw_view_evlog_line(v, "{garbage", 8);
	ASSERT_EQ(3, ftsw_view_recent(v, e, 8));
	EXPECT_STREQ("sm-sweep", e[0].kind);
	EXPECT_STREQ("sm-trap", e[1].kind);
	EXPECT_NE(NULL, strstr(e[1].text, "trap 128"));
	EXPECT_NE(NULL, strstr(e[1].text, "from LID 12"));
	EXPECT_STREQ("fm-sweep", e[2].kind);
	EXPECT_EQ(1764393600.5, e[2].time);
	EXPECT_EQ(1, v->mgr.sm_sweeps);
	EXPECT_EQ(1, v->mgr.sm_traps);
	ASSERT_EQ(2, ftsw_view_recent(v, e, 2));	/* the last two */
	EXPECT_STREQ("fm-sweep", e[1].kind);
	ftsw_view_model_free(v);
}

/*
 * Lossless: a port's VLs summed, a waiting head kept (100 ms or more),
 * the output waiting for credit counted; per-VL series in /metrics and
 * promtool still content.
 */
TEST(lossless_state)
{
	struct ftsw_view *v = model();
	struct ftsw_port_info pi = { .switch_id = 0, .port = 1,
				     .admin_up = true, .oper_up = true };
	struct ftsw_vbuf b = { 0 };
	FILE *p;

	ASSERT_NE(NULL, v);
	ftsw_view_snap_begin(v, 1, 1.7e9);
	v->snap.lossless = true;
	pi.ll.present = pi.ll.has_vl = true;
	pi.ll.in_buf = 6144;
	pi.ll.vl[0] = (struct ftsw_vl_stats){ .present = true, .in_bytes = 3072,
					      .out_bytes = 1536, .credits = 24,
					      .head_port = 2, .head_vl = 0,
					      .head_wait_ns = 200000000,
					      .out_credit_wait_ns = 5000,
					      .out_wait_ns = 7000000000ULL };
	pi.ll.vl[3] = (struct ftsw_vl_stats){ .present = true, .in_bytes = 1536,
					      .life_discards = 4 };
	ASSERT_EQ(0, ftsw_view_snap_port(v, &pi));
	ftsw_view_snap_end(v);
	{
		const struct ftsw_view_port *x = &v->snap.p[ftsw_view_rec(v, 0, 1)];

		EXPECT_EQ(4608, x->in_bytes);
		EXPECT_EQ(2, x->nvl);
		EXPECT_EQ(4, x->life);
		EXPECT_TRUE(x->waiting);
	}
	EXPECT_EQ(1, v->snap.nheads);
	EXPECT_EQ(1, v->snap.nwaiting);
	EXPECT_EQ(2, v->snap.heads[0].wait_port);
	ftsw_view_json_snap(v, true, 0, &b);
	ASSERT_TRUE(ut_json_valid(b.p));
	{
		char want[64];

		snprintf(want, sizeof(want), "\"ll\":[[%u,0.75,0,1,4,4608,1536]]",
			 ftsw_view_rec(v, 0, 1));
		EXPECT_NE(NULL, strstr(b.p, want)) TH_LOG("%s", b.p);
	}
	EXPECT_NE(NULL, strstr(b.p, "\"heads\":[[0,1,0,2,0,200,"));
	ftsw_vbuf_free(&b);
	ftsw_view_metrics(v, &b);
	EXPECT_NE(NULL, strstr(b.p, "remote_port=\"1\",vl=\"3\"} 4\n"));
	EXPECT_NE(NULL, strstr(b.p, "ftsw_port_vl_credit_wait_seconds_total{"));
	p = popen("promtool check metrics >/dev/null 2>&1", "w");
	ASSERT_NE(NULL, p);
	fputs(b.p, p);
	EXPECT_EQ(0, pclose(p));
	ftsw_vbuf_free(&b);
	ftsw_view_model_free(v);
}

/*
 * The listening socket, made before the lab is opened: port 0 takes a
 * free one, named in the URL; a connection reaches it; specs that are no
 * address refused with the option's name.
 */
TEST(listener)
{
	struct ftsw_view_listener l, l6;
	struct sockaddr_in sa = { .sin_family = AF_INET };
	struct ftsw_err err;
	unsigned port = 0;
	int c;

	ASSERT_EQ(0, ftsw_view_listen("127.0.0.1:0", &l, &err));
	ASSERT_EQ(1, sscanf(l.url, "http://127.0.0.1:%u/", &port));
	ASSERT_NE(0u, port);
	sa.sin_port = htons((uint16_t)port);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	c = socket(AF_INET, SOCK_STREAM, 0);
	ASSERT_EQ(0, connect(c, (struct sockaddr *)&sa, sizeof(sa)));
	close(c);
	/* the same port again: taken */
	{
		char spec[32];

		snprintf(spec, sizeof(spec), "127.0.0.1:%u", port);
		EXPECT_EQ(-1, ftsw_view_listen(spec, &l6, &err));
		EXPECT_NE(NULL, strstr(err.msg, "cannot listen there"));
	}
	close(l.fd);
	if (!ftsw_view_listen("[::1]:0", &l6, &err)) {
		EXPECT_EQ(0, strncmp(l6.url, "http://[::1]:", 13));
		close(l6.fd);
	}
	EXPECT_EQ(-1, ftsw_view_listen("localhost:80", &l, &err));
	EXPECT_NE(NULL, strstr(err.msg, "--listen localhost:80"));
	EXPECT_EQ(-1, ftsw_view_listen("127.0.0.1:65536", &l, &err));
	EXPECT_EQ(-1, ftsw_view_listen("127.0.0.1", &l, &err));
	EXPECT_EQ(-1, ftsw_view_listen("[::1:80", &l, &err));
	EXPECT_EQ(-1, l.fd);
}

TEST_HARNESS_MAIN
