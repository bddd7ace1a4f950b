// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw lab waits: in a lossless lab, the switch input buffers whose head
 * packet waits, and the cycles of full buffers waiting on each other (the
 * lab's counterpart of ftsw sim's deadlock report), each checked against
 * the routing's channel dependency graph (lab/lab_waits.c). Exit status 3
 * when there is a cycle, as ftsw sim's for a deadlock.
 */
#include <inttypes.h>
#include <stdio.h>

#include "cli.h"
#include "cmd_lab.h"
#include "util/output.h"

enum { W_NAME, W_MIN_WAIT, W_N };
const struct cli_opt lab_waits_opts[W_N + 1] = {
	[W_NAME] = LAB_OPT_NAME,
	[W_MIN_WAIT] = { "--min-wait", NULL, CLI_NUM, "MS", 0, 86400000,
			 .help = "only heads that have waited this long (100)" },
};

static const char *sw_name(const struct ftsw_topo *t, uint32_t sw,
			   char *buf, size_t sz)
{
	const char *d = sw < t->nswitches ? t->nodes[t->switches[sw]].desc :
			NULL;

	snprintf(buf, sz, "s%" PRIu32 "%s%s", sw, d && *d ? " " : "",
		 d && *d ? d : "");
	return buf;
}

static void print_cycle(const struct ftsw_lab *lab,
			const struct ftsw_lab_waits *w,
			const struct ftsw_lab_cycle *c)
{
	char nb[64];
	unsigned k;

	ftsw_out_open_object(NULL);
	ftsw_out_uint("buffers", "  cycle of %" PRIu64 " full buffers "
		      "waiting on each other", c->n);
	ftsw_out_uint("vl", " on VL %" PRIu64 ":\n", c->bufs[0].vl);
	ftsw_out_open_array("cycle");
	for (k = 0; k < c->n; k++) {
		const struct ftsw_sim_wait *b = &c->bufs[k];
		const struct ftsw_lab_buf *x = NULL;
		size_t i;

		for (i = 0; i < w->nbufs; i++)
			if (w->bufs[i].sw == b->sw &&
			    w->bufs[i].port == b->in_port &&
			    w->bufs[i].vl == b->vl)
				x = &w->bufs[i];
		ftsw_out_open_object(NULL);
		ftsw_out_str("switch_name", "    %s",
			     sw_name(lab->topo, b->sw, nb, sizeof(nb)));
		ftsw_out_uint("switch", NULL, b->sw);
		ftsw_out_uint("in_port", " in port %" PRIu64, b->in_port);
		ftsw_out_uint("vl", " VL %" PRIu64, b->vl);
		ftsw_out_uint("out_port", " -> out port %" PRIu64, b->out_port);
		if (x) {
			ftsw_out_uint("bytes", " (%" PRIu64, x->bytes);
			ftsw_out_uint("size", " of %" PRIu64 " bytes", x->size);
			ftsw_out_float("waited_ms", ", waited %.0f ms)",
				       x->waited_ns / 1e6);
		}
		ftsw_out_text("\n");
		ftsw_out_close_object();
	}
	ftsw_out_close_array();
	ftsw_out_str("cdg_cycle", "    CDG cross-check: %s", c->cdg > 0 ? "yes" :
		     c->cdg == 0 ? "no" : "not checked");
	ftsw_out_str("cdg_why", " (%s)\n", c->why);
	ftsw_out_close_object();
}

int lab_waits(const struct cli_args *a)
{
	uint64_t min_ms = a->v[W_MIN_WAIT].n ? a->v[W_MIN_WAIT].u : 100;
	struct ftsw_lab_waits w;
	struct ftsw_lab lab;
	struct ftsw_err err;
	size_t k;

	if (open_lab(a, &lab))
		return 1;
	if (ftsw_lab_waits(&lab, min_ms * 1000000, &w, &err)) {
		cli_err("lab waits: %s", err.msg);
		ftsw_lab_close(&lab);
		return 1;
	}
	ftsw_out_begin(stdout, cli.json);
	ftsw_out_open_object(NULL);
	ftsw_out_str("lab", "lab %s", lab.name);
	ftsw_out_bool("lossless", lab.lossless ? NULL : " (not lossless: "
		      "no buffers)", lab.lossless);
	ftsw_out_uint("buffers", ": %" PRIu64 " VL buffers", w.buffers);
	ftsw_out_uint("min_wait_ms", ", heads waiting %" PRIu64 " ms or more",
		      min_ms);
	ftsw_out_uint("waiting", ": %" PRIu64, w.nbufs);
	ftsw_out_uint("hoq_discards", "; discards HOQ %" PRIu64,
		      w.hoq_discards);
	ftsw_out_uint("life_discards", " life %" PRIu64 "\n", w.life_discards);
	ftsw_out_bool("sls_known", NULL, w.sls_known);
	ftsw_out_open_array("cycles");
	for (k = 0; k < w.cycles.n; k++)
		print_cycle(&lab, &w, &w.cycles.v[k]);
	ftsw_out_close_array();
	if (!w.cycles.n)
		ftsw_out_text("  no cycle\n");
	ftsw_out_close_object();
	ftsw_out_end();
	k = w.cycles.n;
	ftsw_lab_waits_free(&w);
	ftsw_lab_close(&lab);
	return k ? 3 : 0;
}
