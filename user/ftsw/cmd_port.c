// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw port bind switch ID port N dev IFNAME kind link|edge
 *                [lid BASE] [lmc L] [offsets O,O,...] [sl S] [sl-table FILE]
 *                [up|down]
 * ftsw port bind switch ID port N peer S:P [kind link] [up|down]
 * ftsw port set switch ID port N [up|down] [lid ..] [lmc ..] [offsets ..]
 *               [sl ..] [sl-table FILE] [pkeys K,..] [enforce off|in|out|both]
 *               [ca-pkeys K,..] [pkey K] [pkey-table FILE]
 * ftsw port unbind switch ID port N
 * ftsw port clear switch ID port N
 * ftsw [-s] port show [switch ID [port N]]
 */
#include <inttypes.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd_port.h"
#include "nlcli.h"
#include "util/output.h"
#include "util/text.h"
#include "util/parse.h"

static const char *const kinds[] = { "link", "edge", NULL };
static const char *const states[] = { "down", "init", "armed", "active",
				      NULL };

enum { Q_SWITCH, Q_PORT, Q_DEV, Q_PEER, Q_KIND, Q_LID, Q_LMC, Q_SL,
       Q_OFFSETS, Q_SL_TABLE, Q_UP, Q_DOWN, Q_DESC, Q_GUID, Q_RATE,
       Q_IN_BUF, Q_OUT_BUF, Q_HOQ_LIFE, Q_HIGH_LIMIT, Q_ARB_HIGH, Q_ARB_LOW,
       Q_STATE, Q_PKEYS, Q_ENFORCE, Q_CA_PKEYS, Q_PKEY, Q_PKEY_TABLE, Q_N };
static const struct cli_opt port_opts[Q_N + 1] = {
	[Q_SWITCH] = NLCLI_OPT_SWITCH(true),
	[Q_PORT] = { "port", NULL, CLI_NUM, "N", 0, 255, .required = true,
		     .help = "port number" },
	[Q_DEV] = { "dev", NULL, CLI_STR, "IFNAME",
		    .help = "the device of this network namespace (bind)" },
	[Q_PEER] = { "peer", NULL, CLI_STR, "S:P",
		     .help = "bind: a patch cable to port P of switch S, "
			     "no device" },
	[Q_KIND] = { "kind", NULL, CLI_WORD, "KIND", .words = kinds,
		     .help = "switch-to-switch or host cable (bind)" },
	[Q_LID] = { "lid", NULL, CLI_NUM, "BASE", 1, FTSW_MAX_LID,
		    .help = "edge: base LID" },
	[Q_LMC] = { "lmc", NULL, CLI_NUM, "L", 0, 255,
		    .help = "edge: 2^L LIDs" },
	[Q_SL] = { "sl", NULL, CLI_NUM, "S", 0, 255,
		   .help = "edge: service level" },
	[Q_OFFSETS] = { "offsets", "offset", CLI_STR, "O,O,...",
			.help = "edge: LMC offsets the host may use" },
	[Q_SL_TABLE] = { "sl-table", NULL, CLI_FILE, "FILE",
			 .help = "edge: one SL per DLID, from LID 0" },
	[Q_UP] = { "up", NULL, CLI_FLAG, .help = "administratively up" },
	[Q_DOWN] = { "down", NULL, CLI_FLAG, .help = "administratively down" },
	[Q_DESC] = { "desc", NULL, CLI_STR, "NAME",
		     .help = "edge: the host CA's NodeDescription (< 64 bytes)" },
	[Q_GUID] = { "guid", NULL, CLI_NUM, "GUID", 1, UINT64_MAX,
		     .help = "edge: the host CA's node GUID" },
	[Q_RATE] = { "rate", NULL, CLI_STR, "RATE",
		     .help = "lossless: link rate, bit/s with k, M, G" },
	[Q_IN_BUF] = { "in-buffer", NULL, CLI_NUM, "BYTES", FTSW_BUF_MIN,
		       FTSW_BUF_MAX, .help = "lossless: input buffer per VL" },
	[Q_OUT_BUF] = { "out-buffer", NULL, CLI_NUM, "BYTES", FTSW_BUF_MIN,
			FTSW_BUF_MAX, .help = "lossless: output queue per VL" },
	[Q_HOQ_LIFE] = { "hoq-life", NULL, CLI_NUM, "V", 0, FTSW_LIFE_MAX,
			 .help = "lossless: HOQLife, 4.096 us * 2^V, 20..31 none" },
	[Q_HIGH_LIMIT] = { "vl-high-limit", NULL, CLI_NUM, "N", 0, 255,
			   .help = "lossless: VLHighLimit (4096-byte units)" },
	[Q_ARB_HIGH] = { "vlarb-high", NULL, CLI_STR, "VL:W,..",
			 .help = "lossless: high-priority VL arbitration "
				 "(at most 8 VL:weight)" },
	[Q_ARB_LOW] = { "vlarb-low", NULL, CLI_STR, "VL:W,..",
			.help = "lossless: low-priority VL arbitration" },
	[Q_STATE] = { "state", NULL, CLI_WORD, "down|init|armed|active",
		      .words = states,
		      .help = "PortState of the link, both ends (as an SM)" },
	[Q_PKEYS] = { "pkeys", NULL, CLI_STR, "K,K,..",
		      .help = "the port's P_KeyTable (at most 32 keys)" },
	[Q_ENFORCE] = { "enforce", NULL, CLI_WORD, "off|in|out|both",
			.words = port_enforce_words,
			.help = "partition enforcement of the port" },
	[Q_CA_PKEYS] = { "ca-pkeys", NULL, CLI_STR, "K,K,..",
			 .help = "edge: the CA's P_KeyTable" },
	[Q_PKEY] = { "pkey", NULL, CLI_NUM, "K", 0, 0xffff,
		     .help = "edge: the host's P_Key (0: the CA's entry 0)" },
	[Q_PKEY_TABLE] = { "pkey-table", NULL, CLI_FILE, "FILE",
			   .help = "edge: one P_Key per DLID, from LID 0 (0: none)" },
};

/* show: the same keys, none required. */
enum { V_SWITCH, V_PORT, V_N };
static const struct cli_opt show_opts[V_N + 1] = {
	[V_SWITCH] = NLCLI_OPT_SWITCH(false),
	[V_PORT] = { "port", NULL, CLI_NUM, "N", 0, 255,
		     .help = "port number" },
};
static const struct cli_opt unbind_opts[V_N + 1] = {
	[V_SWITCH] = NLCLI_OPT_SWITCH(true),
	[V_PORT] = { "port", NULL, CLI_NUM, "N", 0, 255, .required = true,
		     .help = "port number" },
};

/*
 * Read a table file: numbers 0..vmax separated by white space, at most max
 * of them, a regular file of at most 1 MiB with lines of 4 KiB; name is
 * the option's, for the messages. NULL (said) or the numbers, *len of them.
 */
#define PORT_TABLE_FILE_MAX	(1ULL << 20)

uint16_t *port_read_table(const char *path, const char *name, uint32_t max,
			  unsigned vmax, uint32_t *len)
{
	struct ftsw_text x;
	struct ftsw_err err;
	char what[320];
	uint16_t *t;
	unsigned v;
	uint32_t n = 0;
	int got;

	if (ftsw_text_open(&x, path, FTSW_TEXT_LINE, PORT_TABLE_FILE_MAX,
			   &err)) {
		cli_err("port: %s %s", name, err.msg);
		return NULL;
	}
	t = malloc(sizeof(*t) * max);
	if (!t) {
		ftsw_text_close(&x);
		return NULL;
	}
	while ((got = ftsw_text_line(&x, &err)) > 0) {
		char *save = NULL, *tok = strtok_r(x.line, " \t", &save);

		for (; tok; tok = strtok_r(NULL, " \t", &save)) {
			snprintf(what, sizeof(what), "%s:%u: entry %u", path,
				 x.ln, n);
			if (n >= max) {
				cli_err("port: %s:%u: more than %u entries",
					path, x.ln, max);
				goto fail;
			}
			if (ftsw_parse_uint(what, tok, 0, vmax, &v, &err)) {
				cli_err("port: %s", err.msg);
				goto fail;
			}
			t[n++] = (uint16_t)v;
		}
	}
	if (got < 0) {
		cli_err("port: %s %s", name, err.msg);
		goto fail;
	}
	ftsw_text_close(&x);
	*len = n;
	return t;
fail:
	free(t);
	ftsw_text_close(&x);
	return NULL;
}

/* An SL table: SLs 0..255, one per DLID. */
static uint8_t *read_sl_table(const char *path, uint32_t *len)
{
	uint16_t *w = port_read_table(path, "sl-table", FTSW_LFT_SIZE, 255,
				      len);
	uint8_t *t;
	uint32_t i;

	if (!w)
		return NULL;
	t = malloc(FTSW_LFT_SIZE);
	if (t)
		for (i = 0; i < *len; i++)
			t[i] = (uint8_t)w[i];
	free(w);
	return t;
}

static void print_stats(const struct ftsw_port_info *p)
{
	const struct ftsw_port_stats *s = &p->stats;
	bool cc;
	int i;

	ftsw_out_open_object("stats");
	ftsw_out_uint("rx_packets", "    rx %" PRIu64 " packets", s->rx_packets);
	ftsw_out_uint("rx_bytes", " %" PRIu64 " bytes", s->rx_bytes);
	ftsw_out_uint("tx_packets", "  tx %" PRIu64 " packets", s->tx_packets);
	ftsw_out_uint("tx_bytes", " %" PRIu64 " bytes\n", s->tx_bytes);
	ftsw_out_text("    tx_vl");
	ftsw_out_open_array("tx_vl");
	for (i = 0; i < FTSW_NUM_VL; i++) {
		ftsw_out_uint(NULL, NULL, s->tx_vl[i]);
		if (s->tx_vl[i])
			ftsw_out_text(" %d:%" PRIu64, i, s->tx_vl[i]);
	}
	ftsw_out_close_array();
	ftsw_out_text("\n    drops");
	nlcli_print_drops("drops", s->drops, " %s %" PRIu64, false);
	ftsw_out_text("\n");
	ftsw_out_uint("resolved", "    resolved %" PRIu64 " (ARP/ND replies)\n",
		      s->resolved);
	/* congestion management (Documentation/congestion.md) */
	if (s->ar_diverted || s->out_of_order)
		ftsw_out_text("    adaptive");
	ftsw_out_uint("ar_diverted", s->ar_diverted || s->out_of_order ?
		      " diverted %" PRIu64 : NULL, s->ar_diverted);
	ftsw_out_uint("out_of_order", s->ar_diverted || s->out_of_order ?
		      " out_of_order %" PRIu64 "\n" : NULL, s->out_of_order);
	cc = s->cc_fecn || s->cc_cnp || s->cc_becn || s->cc_held;
	if (cc)
		ftsw_out_text("    congestion");
	ftsw_out_uint("cc_fecn", cc ? " fecn %" PRIu64 : NULL, s->cc_fecn);
	ftsw_out_uint("cc_cnp", cc ? " cnp %" PRIu64 : NULL, s->cc_cnp);
	ftsw_out_uint("cc_becn", cc ? " becn %" PRIu64 : NULL, s->cc_becn);
	ftsw_out_uint("cc_held", cc ? " held %" PRIu64 "\n" : NULL,
		      s->cc_held);
	ftsw_out_close_object();
}

/* A VL arbitration table's entries of non-zero weight (the others are
 * unused, as in InfiniBand). */
static void print_vlarb(const char *key, const char *label,
			const uint8_t (*t)[2], unsigned n)
{
	unsigned i;

	ftsw_out_text("%s", label);
	ftsw_out_open_array(key);
	for (i = 0; i < n; i++) {
		if (!t[i][1])
			continue;
		ftsw_out_open_object(NULL);
		ftsw_out_uint("vl", " %" PRIu64, t[i][0]);
		ftsw_out_uint("weight", ":%" PRIu64, t[i][1]);
		ftsw_out_close_object();
	}
	ftsw_out_close_array();
}

static bool ll_round_robin(const struct ftsw_port_ll *ll)
{
	unsigned i;

	for (i = 0; i < FTSW_VLARB_CAP; i++)
		if ((i < ll->nvlarb_high && ll->vlarb_high[i][1]) ||
		    (i < ll->nvlarb_low && ll->vlarb_low[i][1]))
			return false;
	return true;
}

/* Lossless mode: the settings, and each VL the kernel reports. */
static void print_ll(const struct ftsw_port_ll *ll)
{
	unsigned v;

	ftsw_out_open_object("lossless");
	ftsw_out_uint("rate", "    lossless: rate %" PRIu64 " bit/s", ll->rate);
	ftsw_out_uint("in_buffer", ", buffers in %" PRIu64, ll->in_buf);
	ftsw_out_uint("out_buffer", " out %" PRIu64 " bytes per VL",
		      ll->out_buf);
	ftsw_out_uint("hoq_life", ", HOQLife %" PRIu64, ll->hoq_life);
	ftsw_out_uint("vl_high_limit", ", VLHighLimit %" PRIu64 "\n",
		      ll->vl_high_limit);
	ftsw_out_text("    VL arbitration");
	print_vlarb("vlarb_high", " high", ll->vlarb_high, ll->nvlarb_high);
	print_vlarb("vlarb_low", ", low", ll->vlarb_low, ll->nvlarb_low);
	ftsw_out_text("%s\n", ll_round_robin(ll) ? " (none: round robin)" : "");
	ftsw_out_open_array("vls");
	for (v = 0; ll->has_vl && v < FTSW_NUM_DATA_VL; v++) {
		const struct ftsw_vl_stats *x = &ll->vl[v];

		if (!x->present)
			continue;
		ftsw_out_open_object(NULL);
		ftsw_out_uint("vl", "    VL %-2" PRIu64, v);
		ftsw_out_uint("in_bytes", " in %" PRIu64, x->in_bytes);
		ftsw_out_uint("in_packets", " B/%" PRIu64 " pkt", x->in_packets);
		ftsw_out_uint("out_bytes", " out %" PRIu64, x->out_bytes);
		ftsw_out_uint("out_packets", " B/%" PRIu64 " pkt",
			      x->out_packets);
		ftsw_out_uint("credits", " credits %" PRIu64, x->credits);
		ftsw_out_uint("in_wait_ns", " waits in %" PRIu64, x->in_wait_ns);
		ftsw_out_uint("out_wait_ns", " out %" PRIu64 " ns",
			      x->out_wait_ns);
		ftsw_out_uint("hoq_discards", " discards HOQ %" PRIu64,
			      x->hoq_discards);
		ftsw_out_uint("life_discards", " life %" PRIu64,
			      x->life_discards);
		if (x->head_port) {
			ftsw_out_uint("head_port", "\n      head waits for port "
				      "%" PRIu64, x->head_port);
			ftsw_out_uint("head_vl", " VL %" PRIu64, x->head_vl);
			ftsw_out_uint("head_wait_ns", " since %" PRIu64 " ns",
				      x->head_wait_ns);
		}
		if (x->out_credit_wait_ns)
			ftsw_out_uint("out_credit_wait_ns", "\n      output head "
				      "waits for credit since %" PRIu64 " ns",
				      x->out_credit_wait_ns);
		ftsw_out_text("\n");
		ftsw_out_close_object();
	}
	ftsw_out_close_array();
	ftsw_out_close_object();
}

/*
 * An edge port's SL table: its length, then the SL of each DLID as runs
 * ("1-4 0, 5 1", the DLIDs past the runs take the port's sl); JSON: the
 * length and the entries the kernel echoed (index = DLID).
 */
static void print_sl_table(const struct ftsw_port_info *p)
{
	uint32_t i, j;

	ftsw_out_uint("sl_table_len", " sl-table %" PRIu64, p->sl_table_len);
	if (!p->sl_table_shown) {
		ftsw_out_text(" (more than %u entries differ from sl %u: not shown)",
			      FTSW_SL_TABLE_ECHO, p->sl);
		return;
	}
	ftsw_out_text(" sl by dlid ");
	ftsw_out_open_array("sl_table");
	for (i = 0; i < p->sl_table_n; i = j) {
		for (j = i; j < p->sl_table_n &&
		     p->sl_table[j] == p->sl_table[i]; j++)
			ftsw_out_uint(NULL, NULL, p->sl_table[j]);
		if (j - i > 1)
			ftsw_out_text("%s%u-%u:%u", i ? "," : "", i, j - 1,
				      p->sl_table[i]);
		else
			ftsw_out_text("%s%u:%u", i ? "," : "", i,
				      p->sl_table[i]);
	}
	ftsw_out_close_array();
	ftsw_out_text("%s%u-:%u", p->sl_table_n ? "," : "", p->sl_table_n,
		      p->sl);
}

/* Shared by "port show" and "monitor". */
void port_print(const char *key, const struct ftsw_port_info *p, bool stats)
{
	int i;

	ftsw_out_open_object(key);
	ftsw_out_uint("switch", "switch %" PRIu64, p->switch_id);
	ftsw_out_uint("port", " port %" PRIu64, p->port);
	if (p->patch) {
		ftsw_out_uint("peer_switch", " peer %" PRIu64, p->peer_switch);
		ftsw_out_uint("peer_port", ":%" PRIu64, p->peer_port);
	} else {
		ftsw_out_uint("ifindex", NULL, p->ifindex);
		ftsw_out_str("dev", " dev %s", p->ifname);
	}
	ftsw_out_str("kind", " kind %s", ftsw_kind_name(p->kind));
	ftsw_out_bool("admin_up", NULL, p->admin_up);
	ftsw_out_bool("oper_up", NULL, p->oper_up);
	ftsw_out_bool("up", NULL, p->admin_up && p->oper_up);
	ftsw_out_text(" admin %s oper %s", p->admin_up ? "up" : "down",
		      p->oper_up ? "up" : "down");
	if (p->state)
		ftsw_out_str("state", " state %s",
			     ftsw_port_state_name(p->state));
	if (p->reason)
		ftsw_out_str("reason", " reason %s",
			     ftsw_reason_name(p->reason));
	if (p->edge) {
		ftsw_out_uint("lid", " lid %" PRIu64, p->base_lid);
		ftsw_out_uint("lmc", " lmc %" PRIu64, p->lmc);
		ftsw_out_uint("sl", " sl %" PRIu64, p->sl);
		ftsw_out_text(" offsets ");
		ftsw_out_open_array("offsets");
		for (i = 0; i < p->n_offsets; i++)
			ftsw_out_uint(NULL, i ? ",%" PRIu64 : "%" PRIu64,
				      p->offsets[i]);
		ftsw_out_close_array();
		ftsw_out_uint("ca_guid", " guid 0x%016" PRIx64, p->ca_guid);
		if (p->node_desc[0])
			ftsw_out_str("desc", " desc \"%s\"", p->node_desc);
		if (p->sl_table_len)
			print_sl_table(p);
	}
	port_print_pkeys(p);
	port_print_mcast(p);
	port_print_mkeys(p);
	ftsw_out_text("\n");
	if (stats && p->has_stats)
		print_stats(p);
	if (stats && p->ll.present)
		print_ll(&p->ll);
	ftsw_out_close_object();
}

static int show_cb(const struct ftsw_port_info *p, void *arg)
{
	(void)arg;
	port_print(NULL, p, cli.stats);
	return 0;
}

/* The arguments of every port command. */
struct port_args {
	struct ftsw_port_cfg c;
	bool have_sw, have_port;
	uint8_t *sl_table;
	struct port_pkey_bufs pk;
};

/* "S:P": a patch cable's far end into c. */
static int parse_peer(const char *v, struct ftsw_port_cfg *c)
{
	struct ftsw_err err;
	char sw[32], *colon;
	uint64_t id;
	unsigned port;

	colon = strchr(v, ':');
	if (!colon || (size_t)(colon - v) >= sizeof(sw)) {
		cli_err("port: peer '%s': expected SWITCH:PORT", v);
		return -1;
	}
	memcpy(sw, v, (size_t)(colon - v));
	sw[colon - v] = 0;
	if (ftsw_parse_u64("peer switch", sw, 0, UINT32_MAX, &id, &err) ||
	    ftsw_parse_uint("peer port", colon + 1, 1, 254, &port, &err)) {
		cli_err("port: peer '%s': %s", v, err.msg);
		return -1;
	}
	c->peer_switch = (int64_t)id;
	c->peer_port = (uint8_t)port;
	c->kind = FTSW_PORT_LINK;	/* a patch cable's ends are links */
	return 0;
}

/* "VL:W,VL:W" into t: the number of entries, or -1 after an error. */
static int parse_vlarb(const char *what, const char *v, uint8_t (*t)[2])
{
	struct ftsw_err err;
	char buf[256], *tok, *save = NULL;
	unsigned vl, w;
	int n = 0;

	if (strlen(v) >= sizeof(buf)) {
		cli_err("port: %s: too long", what);
		return -1;
	}
	snprintf(buf, sizeof(buf), "%s", v);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(tok, ':');

		if (!colon || n == FTSW_VLARB_CAP) {
			cli_err("port: %s: '%s': %s", what, v, colon ?
				"more than 8 entries" : "expected VL:WEIGHT,...");
			return -1;
		}
		*colon = 0;
		if (ftsw_parse_uint(what, tok, 0, FTSW_NUM_DATA_VL - 1, &vl,
				    &err) ||
		    ftsw_parse_uint(what, colon + 1, 0, 255, &w, &err)) {
			cli_err("port: %s", err.msg);
			return -1;
		}
		t[n][0] = (uint8_t)vl;
		t[n][1] = (uint8_t)w;
		n++;
	}
	return n;
}

/* The lossless words into c: 0, or -1 after an error. */
static int port_cfg_ll(const struct cli_args *a, struct ftsw_port_cfg *c)
{
	struct ftsw_err err;
	uint64_t bits;

	if (a->v[Q_RATE].n) {
		if (ftsw_parse_rate("rate", a->v[Q_RATE].s, FTSW_RATE_MIN,
				    FTSW_RATE_MAX, &bits, &err)) {
			cli_err("port: %s", err.msg);
			return -1;
		}
		c->rate = (int64_t)bits;
	}
	if (a->v[Q_IN_BUF].n)
		c->in_buf = (int64_t)a->v[Q_IN_BUF].u;
	if (a->v[Q_OUT_BUF].n)
		c->out_buf = (int64_t)a->v[Q_OUT_BUF].u;
	if (a->v[Q_HOQ_LIFE].n)
		c->hoq_life = (int)a->v[Q_HOQ_LIFE].u;
	if (a->v[Q_HIGH_LIMIT].n)
		c->vl_high_limit = (int)a->v[Q_HIGH_LIMIT].u;
	if (a->v[Q_ARB_HIGH].n &&
	    (c->nvlarb_high = parse_vlarb("vlarb-high", a->v[Q_ARB_HIGH].s,
					  c->vlarb_high)) < 0)
		return -1;
	if (a->v[Q_ARB_LOW].n &&
	    (c->nvlarb_low = parse_vlarb("vlarb-low", a->v[Q_ARB_LOW].s,
					 c->vlarb_low)) < 0)
		return -1;
	return 0;
}

/* The parsed words into pa (bind, set, unbind): 0, or an exit status. */
static int port_cfg(const struct cli_args *a, struct port_args *pa)
{
	struct ftsw_port_cfg *c = &pa->c;

	c->switch_id = (uint32_t)a->v[Q_SWITCH].u;
	c->port = (uint8_t)a->v[Q_PORT].u;
	pa->have_sw = pa->have_port = true;
	if (a->v[Q_DEV].n) {
		c->ifindex = if_nametoindex(a->v[Q_DEV].s);
		if (!c->ifindex) {
			cli_err("port: no device '%s' in this network "
				"namespace", a->v[Q_DEV].s);
			return 1;
		}
	}
	if (a->v[Q_PEER].n && parse_peer(a->v[Q_PEER].s, c))
		return 2;
	if (a->v[Q_KIND].n)
		c->kind = a->v[Q_KIND].u ? FTSW_PORT_EDGE : FTSW_PORT_LINK;
	if (a->v[Q_LID].n)
		c->base_lid = (int)a->v[Q_LID].u;
	if (a->v[Q_LMC].n)
		c->lmc = (int)a->v[Q_LMC].u;
	if (a->v[Q_SL].n)
		c->sl = (int)a->v[Q_SL].u;
	if (a->v[Q_OFFSETS].n) {
		c->n_offsets = nlcli_list("port", "offsets", a->v[Q_OFFSETS].s,
					  255, c->offsets, FTSW_MAX_OFFSETS);
		if (c->n_offsets <= 0)
			return 2;
	}
	if (a->v[Q_SL_TABLE].n) {
		pa->sl_table = read_sl_table(a->v[Q_SL_TABLE].s,
					     &c->sl_table_len);
		if (!pa->sl_table)
			return 1;
		c->sl_table = pa->sl_table;
	}
	if (a->v[Q_DESC].n) {
		if (strlen(a->v[Q_DESC].s) >= 64) {
			cli_err("port: desc: longer than 63 bytes");
			return 2;
		}
		c->node_desc = a->v[Q_DESC].s;
	}
	if (a->v[Q_GUID].n)
		c->ca_guid = a->v[Q_GUID].u;
	if (port_cfg_ll(a, c))
		return 2;
	{
		struct port_pkey_words w = {
			.pkeys = a->v[Q_PKEYS].n ? a->v[Q_PKEYS].s : NULL,
			.ca_pkeys = a->v[Q_CA_PKEYS].n ? a->v[Q_CA_PKEYS].s :
							 NULL,
			.pkey_table = a->v[Q_PKEY_TABLE].n ?
				      a->v[Q_PKEY_TABLE].s : NULL,
			.enforce = a->v[Q_ENFORCE].n ? (int)a->v[Q_ENFORCE].u :
						       -1,
			.pkey = a->v[Q_PKEY].n ? (int)a->v[Q_PKEY].u : -1,
		};
		int rc = port_cfg_pkey(&w, c, &pa->pk);

		if (rc)
			return rc;
	}
	if (a->v[Q_UP].n && a->v[Q_DOWN].n) {
		cli_err("port: up and down exclude each other");
		return 2;
	}
	if (a->v[Q_UP].n || a->v[Q_DOWN].n)
		c->admin_up = a->v[Q_UP].n ? 1 : 0;
	if (a->v[Q_STATE].n)
		c->state = FTSW_PORT_STATE_DOWN + (int)a->v[Q_STATE].u;
	return 0;
}

static int port_show(const struct cli_args *args)
{
	struct port_args pa = { 0 }, *a = &pa;
	struct ftsw_nl *nl;
	int err;

	pa.have_sw = args->v[V_SWITCH].n;
	pa.have_port = args->v[V_PORT].n;
	pa.c.switch_id = (uint32_t)args->v[V_SWITCH].u;
	pa.c.port = (uint8_t)args->v[V_PORT].u;
	nl = nlcli_open();
	if (!nl)
		return 1;
	ftsw_out_begin(stdout, cli.json);
	ftsw_out_open_object(NULL);
	ftsw_out_open_array("ports");
	if (a->have_sw && a->have_port) {
		struct ftsw_port_info pi;

		err = ftsw_nl_port_get(nl, a->c.switch_id, a->c.port, &pi);
		if (!err)
			port_print(NULL, &pi, cli.stats);
	} else {
		err = ftsw_nl_port_dump(nl, a->have_sw ?
					(int64_t)a->c.switch_id : -1,
					show_cb, NULL);
	}
	ftsw_out_close_array();
	ftsw_out_close_object();
	ftsw_out_end();
	if (err)
		return nlcli_fail(nl, "port show");
	ftsw_nl_close(nl);
	return 0;
}

/* Send a bind or a set of c; the exit status. */
static int port_send(const char *what, const struct ftsw_port_cfg *c,
		     int (*op)(struct ftsw_nl *nl,
			       const struct ftsw_port_cfg *c))
{
	struct ftsw_nl *nl = nlcli_open();

	if (!nl)
		return 1;
	if (op(nl, c))
		return nlcli_fail(nl, what);
	ftsw_nl_close(nl);
	return 0;
}

static int port_bind(const struct cli_args *a)
{
	struct port_args pa = { 0 };
	int rc;

	ftsw_port_cfg_init(&pa.c);
	rc = port_cfg(a, &pa);
	if (!rc && pa.c.peer_switch >= 0 && pa.c.ifindex) {
		cli_err("port bind: dev and peer exclude each other (a patch "
			"cable has no device)");
		rc = 2;
	} else if (!rc && pa.c.peer_switch < 0 &&
		   (!pa.c.ifindex || !pa.c.kind)) {
		cli_err("port bind: needs dev IFNAME and kind link|edge, or "
			"peer S:P");
		rc = 2;
	}
	for (unsigned i = Q_RATE; !rc && i <= Q_PKEY_TABLE; i++)
		if (a->v[i].n) {
			cli_err("port bind: %s is for set only (bind, then "
				"port set)", port_opts[i].name);
			rc = 2;
		}
	if (!rc)
		rc = port_send("port bind", &pa.c, ftsw_nl_port_bind);
	free(pa.sl_table);
	free(pa.pk.table);
	return rc;
}

static int port_set(const struct cli_args *a)
{
	struct port_args pa = { 0 };
	int rc;

	ftsw_port_cfg_init(&pa.c);
	rc = port_cfg(a, &pa);
	if (!rc && pa.c.peer_switch >= 0) {
		cli_err("port set: peer is for bind only (a cable is rebound "
			"by unbind and bind)");
		rc = 2;
	}
	if (!rc)
		rc = port_send("port set", &pa.c, ftsw_nl_port_set);
	free(pa.sl_table);
	free(pa.pk.table);
	return rc;
}

/* unbind or clear (op) of the port a names; the exit status. */
static int port_op(const struct cli_args *a, const char *what,
		   int (*op)(struct ftsw_nl *nl, uint32_t sw, uint8_t port))
{
	struct ftsw_nl *nl = nlcli_open();

	if (!nl)
		return 1;
	if (op(nl, (uint32_t)a->v[V_SWITCH].u, (uint8_t)a->v[V_PORT].u))
		return nlcli_fail(nl, what);
	ftsw_nl_close(nl);
	return 0;
}

static int port_unbind(const struct cli_args *a)
{
	return port_op(a, "port unbind", ftsw_nl_port_unbind);
}

static int port_clear(const struct cli_args *a)
{
	return port_op(a, "port clear", ftsw_nl_port_clear);
}

const struct cli_cmd cli_cmds_port[] = {
	{ "bind", "switch ID port N {dev IFNAME kind link|edge [lid BASE] "
	  "[lmc L] [offsets O,O,...] [sl S] [sl-table FILE] | peer S:P} "
	  "[up|down]",
	  "bind a device, or a patch cable to another port, to a switch port",
	  .opts = port_opts, .run = port_bind },
	{ "set", "switch ID port N [up|down] [state down|init|armed|active] "
	  "[lid BASE] [lmc L] [offsets O,...] [sl S] [sl-table FILE] "
	  "[desc NAME] [guid GUID] [pkeys K,..] [enforce off|in|out|both] "
	  "[ca-pkeys K,..] [pkey K] [pkey-table FILE]",
	  "change a bound port", .opts = port_opts, .run = port_set },
	{ "unbind", "switch ID port N", "unbind a port", .opts = unbind_opts,
	  .run = port_unbind },
	{ "clear", "switch ID port N", "zero a port's counters",
	  .opts = unbind_opts, .run = port_clear },
	{ "show", "[switch ID [port N]]", "ports (-s: with counters)",
	  .opts = show_opts, .run = port_show, .def = true },
	{ NULL }
};
