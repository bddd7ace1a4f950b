// SPDX-License-Identifier: GPL-2.0
/*
 * Progress is a callback (ftsw_progress_fn, util/util.h): the library
 * reports to the caller's function and never writes to stdout or stderr
 * itself. Each test runs a long call with the callback, then again
 * without one, with the process's stdout and stderr redirected to a file
 * that must stay empty.
 */
#include <fcntl.h>

#include "common.h"
#include "sim/sim.h"

struct calls {
	unsigned n, ends;	/* counter calls, end-of-call calls */
	uint64_t last_total;
	bool done_seen[8];
	bool after_end;		/* a counter after the end: wrong */
	char what[64];
};

static void record(const char *what, uint64_t done, uint64_t total,
		   void *arg)
{
	struct calls *c = arg;

	if (!what) {
		c->ends++;
		return;
	}
	if (c->ends)
		c->after_end = true;
	c->n++;
	c->last_total = total;
	if (done < 8)
		c->done_seen[done] = true;
	snprintf(c->what, sizeof(c->what), "%s", what);
}

/* Point fds 1 and 2 at a scratch file; restore() says what was written. */
struct quiet {
	int save1, save2, fd;
	char path[64];
};

static int hush(struct quiet *q)
{
	snprintf(q->path, sizeof(q->path), "/tmp/ftsw-progress-%d",
		 (int)getpid());
	fflush(NULL);
	q->fd = open(q->path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	q->save1 = dup(1);
	q->save2 = dup(2);
	if (q->fd < 0 || q->save1 < 0 || q->save2 < 0)
		return -1;
	return dup2(q->fd, 1) < 0 || dup2(q->fd, 2) < 0 ? -1 : 0;
}

static off_t restore(struct quiet *q)
{
	off_t n;

	fflush(NULL);
	dup2(q->save1, 1);
	dup2(q->save2, 2);
	close(q->save1);
	close(q->save2);
	n = lseek(q->fd, 0, SEEK_END);
	close(q->fd);
	unlink(q->path);
	return n;
}

/*
 * A sweep of 3 load points reports each point done (1, 2, 3 of 3, in any
 * order across its threads), then the end, and prints nothing.
 */
TEST(sim_sweep_points)
{
	struct ftsw_topo *t = ut_gen("ftmn:4,2");
	struct ftsw_routing *r;
	struct ftsw_route_opts ro = { 0 };
	struct ftsw_sim_traffic tr;
	struct ftsw_sim_result res[3];
	const double loads[3] = { 0.1, 0.2, 0.3 };
	struct ftsw_sim_opts o;
	struct calls c = { 0 };
	struct ftsw_err err;
	struct quiet q;
	size_t i;

	ASSERT_NE(NULL, t);
	r = ut_route("dmodk", t, &ro);
	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, ftsw_sim_traffic_make(t, "uniform", "topo", 0, &tr,
					   &err));
	ftsw_sim_opts_default(&o);
	o.warmup = 200;
	o.measure = 500;
	o.threads = 2;
	o.progress = record;
	o.progress_arg = &c;
	ASSERT_EQ(0, hush(&q));
	ASSERT_EQ(0, ftsw_sim_sweep(r, &tr, &o, loads, 3, res, &err));
	for (i = 0; i < 3; i++)
		ftsw_sim_result_free(&res[i]);
	o.progress = NULL;
	ASSERT_EQ(0, ftsw_sim_sweep(r, &tr, &o, loads, 3, res, &err));
	EXPECT_EQ(0, restore(&q));
	for (i = 0; i < 3; i++)
		ftsw_sim_result_free(&res[i]);
	EXPECT_EQ(3, c.n);
	EXPECT_EQ(3, c.last_total);
	EXPECT_TRUE(c.done_seen[1] && c.done_seen[2] && c.done_seen[3]);
	EXPECT_STREQ("sim: load points", c.what);
	EXPECT_EQ(1, c.ends);
	EXPECT_FALSE(c.after_end);
	ftsw_sim_traffic_free(&tr);
	ftsw_routing_free(r);
	ftsw_topo_free(t);
}

/*
 * The checker reports every 1024 LIDs walked: ftmn:16,3 has 2 x 8^3 = 1024
 * hosts and (2 x 3 - 1) x 8^2 = 320 switches (128 on each of the two
 * lower levels, 64 roots),
 * LIDs 1..1344 at LMC 0, so LID 1024
 * lies in the walk (LID 0 too, as a block start): at least one report of
 * max_lid, then the end; nothing printed.
 */
TEST(check_lids)
{
	struct ftsw_topo *t = ut_gen("ftmn:16,3");
	struct ftsw_route_opts ro = { 0 };
	struct ftsw_check_opts co = { .switch_lids = true, .threads = 1 };
	struct ftsw_check_result res;
	struct ftsw_routing *r;
	struct calls c = { 0 };
	struct ftsw_err err;
	struct quiet q;

	ASSERT_NE(NULL, t);
	EXPECT_EQ(1024, t->nhosts);
	EXPECT_EQ(320, t->nswitches);
	r = ut_route("dmodk", t, &ro);
	ASSERT_NE(NULL, r);
	co.progress = record;
	co.progress_arg = &c;
	ASSERT_EQ(0, hush(&q));
	ASSERT_EQ(0, ftsw_routing_check(r, &co, &res, &err));
	ftsw_check_result_free(&res);
	co.progress = NULL;
	ASSERT_EQ(0, ftsw_routing_check(r, &co, &res, &err));
	EXPECT_EQ(0, restore(&q));
	EXPECT_TRUE(res.ok);
	ftsw_check_result_free(&res);
	EXPECT_LE(1, c.n);
	EXPECT_EQ(1344, c.last_total);
	EXPECT_STREQ("check: LID", c.what);
	EXPECT_EQ(1, c.ends);
	EXPECT_FALSE(c.after_end);
	ftsw_routing_free(r);
	ftsw_topo_free(t);
}

TEST_HARNESS_MAIN
