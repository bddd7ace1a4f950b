// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw port bind switch ID port N dev IFNAME kind link|edge
 *                [lid BASE] [lmc L] [offsets O,O,...] [sl S] [sl-table FILE]
 *                [up|down]
 * ftsw port set switch ID port N [up|down] [lid ..] [lmc ..] [offsets ..]
 *               [sl ..] [sl-table FILE]
 * ftsw port unbind switch ID port N
 * ftsw [-s] port show [switch ID [port N]]
 */
#include <inttypes.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "nlcli.h"
#include "util/output.h"
#include "util/parse.h"

static void port_usage(FILE *f)
{
	fprintf(f,
		"Usage: ftsw port bind switch ID port N dev IFNAME kind link|edge\n"
		"                 [lid BASE] [lmc L] [offsets O,O,...] [sl S]\n"
		"                 [sl-table FILE] [up|down]\n"
		"       ftsw port set switch ID port N [up|down] [lid BASE] [lmc L]\n"
		"                 [offsets O,...] [sl S] [sl-table FILE]\n"
		"       ftsw port unbind switch ID port N\n"
		"       ftsw [-s] [-j] port show [switch ID [port N]]\n"
		"sl-table FILE: one SL per DLID, whitespace-separated, from LID 0.\n");
}

/* Read an SL table: numbers 0..255 separated by white space. */
static uint8_t *read_sl_table(const char *path, uint32_t *len)
{
	FILE *f = fopen(path, "r");
	struct ftsw_err err;
	char tok[64], what[320];
	uint8_t *t;
	unsigned v;
	uint32_t n = 0;
	int r;

	if (!f) {
		cli_err("port: cannot open sl-table '%s'", path);
		return NULL;
	}
	t = malloc(FTSW_LFT_SIZE);
	if (!t) {
		fclose(f);
		return NULL;
	}
	while ((r = fscanf(f, "%63s", tok)) == 1) {
		snprintf(what, sizeof(what), "%s: entry %u", path, n);
		if (n >= FTSW_LFT_SIZE) {
			cli_err("port: %s: more than %u entries", path,
				FTSW_LFT_SIZE);
			goto fail;
		}
		if (ftsw_parse_uint(what, tok, 0, 255, &v, &err)) {
			cli_err("port: %s", err.msg);
			goto fail;
		}
		t[n++] = (uint8_t)v;
	}
	if (r != EOF || ferror(f)) {
		cli_err("port: %s: read error at entry %u", path, n);
		goto fail;
	}
	fclose(f);
	*len = n;
	return t;
fail:
	free(t);
	fclose(f);
	return NULL;
}

static void print_stats(const struct ftsw_port_info *p)
{
	const struct ftsw_port_stats *s = &p->stats;
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
	ftsw_out_close_object();
}

/* Shared by "port show" and "monitor". */
void port_print(const char *key, const struct ftsw_port_info *p, bool stats)
{
	int i;

	ftsw_out_open_object(key);
	ftsw_out_uint("switch", "switch %" PRIu64, p->switch_id);
	ftsw_out_uint("port", " port %" PRIu64, p->port);
	ftsw_out_uint("ifindex", NULL, p->ifindex);
	ftsw_out_str("dev", " dev %s", p->ifname);
	ftsw_out_str("kind", " kind %s", ftsw_kind_name(p->kind));
	ftsw_out_bool("admin_up", NULL, p->admin_up);
	ftsw_out_bool("oper_up", NULL, p->oper_up);
	ftsw_out_bool("up", NULL, p->admin_up && p->oper_up);
	ftsw_out_text(" admin %s oper %s", p->admin_up ? "up" : "down",
		      p->oper_up ? "up" : "down");
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
	}
	ftsw_out_text("\n");
	if (stats && p->has_stats)
		print_stats(p);
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
};

/* One argument at argv[*i]: 0, or an exit status. */
static int port_arg(int argc, char **argv, int *i, struct port_args *a)
{
	struct ftsw_port_cfg *c = &a->c;
	const char *v;
	uint64_t x;
	int r;

	r = nlcli_switch_arg("port", argc, argv, i, &c->switch_id);
	if (r < 0)
		return 2;
	if (r > 0) {
		a->have_sw = true;
	} else if (nlcli_kv(argc, argv, i, "port", &v)) {
		if (!nlcli_num("port", "port", v, 0, 255, &x))
			return 2;
		c->port = (uint8_t)x;
		a->have_port = true;
	} else if (nlcli_kv(argc, argv, i, "dev", &v)) {
		if (!v)
			return nlcli_usage_err("port", "dev");
		c->ifindex = if_nametoindex(v);
		if (!c->ifindex) {
			cli_err("port: no device '%s' in this network namespace", v);
			return 1;
		}
	} else if (nlcli_kv(argc, argv, i, "kind", &v)) {
		if (v && !strcmp(v, "link"))
			c->kind = FTSW_PORT_LINK;
		else if (v && !strcmp(v, "edge"))
			c->kind = FTSW_PORT_EDGE;
		else
			return nlcli_usage_err("port", v ? v : "kind");
	} else if (nlcli_kv(argc, argv, i, "lid", &v)) {
		if (!nlcli_num("port", "lid", v, 0, 0xffff, &x))
			return 2;
		c->base_lid = (int)x;
	} else if (nlcli_kv(argc, argv, i, "lmc", &v)) {
		if (!nlcli_num("port", "lmc", v, 0, 255, &x))
			return 2;
		c->lmc = (int)x;
	} else if (nlcli_kv(argc, argv, i, "sl", &v)) {
		if (!nlcli_num("port", "sl", v, 0, 255, &x))
			return 2;
		c->sl = (int)x;
	} else if (nlcli_kv(argc, argv, i, "offsets", &v) ||
		   nlcli_kv(argc, argv, i, "offset", &v)) {
		c->n_offsets = nlcli_list("port", argv[*i - (v ? 2 : 1)], v,
					  255, c->offsets, FTSW_MAX_OFFSETS);
		if (c->n_offsets <= 0)
			return 2;
	} else if (nlcli_kv(argc, argv, i, "sl-table", &v)) {
		if (!v)
			return nlcli_usage_err("port", "sl-table");
		free(a->sl_table);
		a->sl_table = read_sl_table(v, &c->sl_table_len);
		if (!a->sl_table)
			return 1;
		c->sl_table = a->sl_table;
	} else if (!strcmp(argv[*i], "up") || !strcmp(argv[*i], "down")) {
		c->admin_up = !strcmp(argv[*i], "up");
		(*i)++;
	} else {
		return nlcli_usage_err("port", argv[*i]);
	}
	return 0;
}

static int port_show(const struct port_args *a)
{
	struct ftsw_nl *nl = nlcli_open();
	int err;

	if (!nl)
		return 1;
	ftsw_out_begin(stdout, cli.json);
	ftsw_out_open_array(NULL);
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
	ftsw_out_end();
	if (err)
		return nlcli_fail(nl, "port show");
	ftsw_nl_close(nl);
	return 0;
}

/* bind, set, unbind */
static int port_change(const char *cmd, const struct port_args *a)
{
	struct ftsw_nl *nl;
	char what[32];
	int err;

	if (strcmp(cmd, "bind") && strcmp(cmd, "set") && strcmp(cmd, "unbind")) {
		port_usage(stderr);
		return 2;
	}
	if (!a->have_sw || !a->have_port)
		return nlcli_usage_err("port", NULL);
	if (!strcmp(cmd, "bind") && (!a->c.ifindex || !a->c.kind)) {
		cli_err("port bind: needs dev IFNAME and kind link|edge");
		return 2;
	}
	nl = nlcli_open();
	if (!nl)
		return 1;
	if (!strcmp(cmd, "bind"))
		err = ftsw_nl_port_bind(nl, &a->c);
	else if (!strcmp(cmd, "set"))
		err = ftsw_nl_port_set(nl, &a->c);
	else
		err = ftsw_nl_port_unbind(nl, a->c.switch_id, a->c.port);
	if (err) {
		snprintf(what, sizeof(what), "port %s", cmd);
		return nlcli_fail(nl, what);
	}
	ftsw_nl_close(nl);
	return 0;
}

int cmd_port(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "show";
	struct port_args a = { 0 };
	int i = 2, rc = 0;

	if (!strcmp(cmd, "help")) {
		port_usage(stdout);
		return 0;
	}
	ftsw_port_cfg_init(&a.c);
	while (i < argc && !rc)
		rc = port_arg(argc, argv, &i, &a);
	if (!rc)
		rc = !strcmp(cmd, "show") ? port_show(&a) : port_change(cmd, &a);
	free(a.sl_table);
	return rc;
}
