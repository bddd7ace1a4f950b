// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw port bind switch ID port N dev IFNAME kind link|edge
 *                [lid BASE] [lmc L] [offsets O,O,...] [sl S] [sl-table FILE]
 *                [up|down]
 * ftsw port set switch ID port N [up|down] [lid ..] [lmc ..] [offsets ..]
 *               [sl ..] [sl-table FILE]
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
#include "nlcli.h"

static void port_usage(FILE *f)
{
	fprintf(f,
		"Usage: ftsw port bind switch ID port N dev IFNAME kind link|edge\n"
		"                 [lid BASE] [lmc L] [offsets O,O,...] [sl S]\n"
		"                 [sl-table FILE] [up|down]\n"
		"       ftsw port set switch ID port N [up|down] [lid BASE] [lmc L]\n"
		"                 [offsets O,...] [sl S] [sl-table FILE]\n"
		"       ftsw port unbind switch ID port N\n"
		"       ftsw port clear switch ID port N\n"
		"       ftsw [-s] [-j] port show [switch ID [port N]]\n"
		"sl-table FILE: one SL per DLID, whitespace-separated, from LID 0.\n");
}

/* Read an SL table: numbers 0..15 separated by white space. */
static uint8_t *read_sl_table(const char *path, uint32_t *len)
{
	FILE *f = fopen(path, "r");
	uint8_t *t;
	unsigned int v;
	uint32_t n = 0;

	if (!f) {
		cli_err("port: cannot open sl-table '%s'", path);
		return NULL;
	}
	t = malloc(FTSW_LFT_SIZE);
	if (!t) {
		fclose(f);
		return NULL;
	}
	while (fscanf(f, "%u", &v) == 1) {
		if (n >= FTSW_LFT_SIZE || v > 255) {
			cli_err("port: %s: entry %u out of range", path, n);
			free(t);
			fclose(f);
			return NULL;
		}
		t[n++] = (uint8_t)v;
	}
	if (!feof(f)) {
		cli_err("port: %s: not a number at entry %u", path, n);
		free(t);
		fclose(f);
		return NULL;
	}
	fclose(f);
	*len = n;
	return t;
}

static void print_stats(const struct ftsw_port_info *p)
{
	const struct ftsw_port_stats *s = &p->stats;
	int i;

	if (cli.json) {
		printf(",\"stats\":{\"rx_packets\":%" PRIu64 ",\"rx_bytes\":%" PRIu64
		       ",\"tx_packets\":%" PRIu64 ",\"tx_bytes\":%" PRIu64
		       ",\"tx_vl\":[", s->rx_packets, s->rx_bytes, s->tx_packets,
		       s->tx_bytes);
		for (i = 0; i < FTSW_NUM_VL; i++)
			printf("%s%" PRIu64, i ? "," : "", s->tx_vl[i]);
		printf("],\"drops\":{");
		for (i = 1; i <= FTSW_DROP_MAX; i++)
			printf("%s\"%s\":%" PRIu64, i > 1 ? "," : "",
			       ftsw_drop_name(i), s->drops[i]);
		printf("},\"resolved\":%" PRIu64 "}", s->resolved);
		return;
	}
	printf("    rx %" PRIu64 " packets %" PRIu64 " bytes  tx %" PRIu64
	       " packets %" PRIu64 " bytes\n", s->rx_packets, s->rx_bytes,
	       s->tx_packets, s->tx_bytes);
	printf("    tx_vl");
	for (i = 0; i < FTSW_NUM_VL; i++)
		if (s->tx_vl[i])
			printf(" %d:%" PRIu64, i, s->tx_vl[i]);
	printf("\n    drops");
	for (i = 1; i <= FTSW_DROP_MAX; i++)
		printf(" %s %" PRIu64, ftsw_drop_name(i), s->drops[i]);
	printf("\n    resolved %" PRIu64 " (ARP/ND replies)\n", s->resolved);
}

/* Shared by "port show" and "monitor". */
void port_print(const struct ftsw_port_info *p, bool stats, bool *first)
{
	int i;

	if (cli.json) {
		printf("%s{\"switch\":%u,\"port\":%u,\"ifindex\":%u,\"dev\":",
		       *first ? "" : ",", p->switch_id, p->port, p->ifindex);
		nlcli_json_str(stdout, p->ifname);
		printf(",\"kind\":\"%s\",\"admin_up\":%s,\"oper_up\":%s,\"up\":%s",
		       ftsw_kind_name(p->kind), p->admin_up ? "true" : "false",
		       p->oper_up ? "true" : "false",
		       p->admin_up && p->oper_up ? "true" : "false");
		if (p->reason)
			printf(",\"reason\":\"%s\"", ftsw_reason_name(p->reason));
		if (p->edge) {
			printf(",\"lid\":%u,\"lmc\":%u,\"sl\":%u,\"offsets\":[",
			       p->base_lid, p->lmc, p->sl);
			for (i = 0; i < p->n_offsets; i++)
				printf("%s%u", i ? "," : "", p->offsets[i]);
			printf("]");
		}
		if (stats && p->has_stats)
			print_stats(p);
		printf("}");
	} else {
		printf("switch %u port %u dev %s kind %s admin %s oper %s",
		       p->switch_id, p->port, p->ifname, ftsw_kind_name(p->kind),
		       p->admin_up ? "up" : "down", p->oper_up ? "up" : "down");
		if (p->reason)
			printf(" reason %s", ftsw_reason_name(p->reason));
		if (p->edge) {
			printf(" lid %u lmc %u sl %u offsets ", p->base_lid,
			       p->lmc, p->sl);
			for (i = 0; i < p->n_offsets; i++)
				printf("%s%u", i ? "," : "", p->offsets[i]);
		}
		printf("\n");
		if (stats && p->has_stats)
			print_stats(p);
	}
	*first = false;
}

static int show_cb(const struct ftsw_port_info *p, void *arg)
{
	port_print(p, cli.stats, arg);
	return 0;
}

int cmd_port(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "show";
	bool have_sw = false, have_port = false, first = true;
	uint8_t *sl_table = NULL;
	struct ftsw_port_cfg c;
	struct ftsw_nl *nl;
	const char *v;
	uint64_t x;
	int i = 2, r, err;

	if (!strcmp(cmd, "help")) {
		port_usage(stdout);
		return 0;
	}
	ftsw_port_cfg_init(&c);
	while (i < argc) {
		r = nlcli_switch_arg(argc, argv, &i, &c.switch_id);
		if (r < 0)
			return nlcli_usage_err("port", argv[i - 1]);
		if (r > 0) {
			have_sw = true;
		} else if (nlcli_kv(argc, argv, &i, "port", &v)) {
			if (!nlcli_num(v, 255, &x))
				return nlcli_usage_err("port", v ? v : "port");
			c.port = (uint8_t)x;
			have_port = true;
		} else if (nlcli_kv(argc, argv, &i, "dev", &v)) {
			if (!v)
				return nlcli_usage_err("port", "dev");
			c.ifindex = if_nametoindex(v);
			if (!c.ifindex) {
				cli_err("port: no device '%s' in this network namespace", v);
				return 1;
			}
		} else if (nlcli_kv(argc, argv, &i, "kind", &v)) {
			if (v && !strcmp(v, "link"))
				c.kind = FTSW_PORT_LINK;
			else if (v && !strcmp(v, "edge"))
				c.kind = FTSW_PORT_EDGE;
			else
				return nlcli_usage_err("port", v ? v : "kind");
		} else if (nlcli_kv(argc, argv, &i, "lid", &v)) {
			if (!nlcli_num(v, 0xffff, &x))
				return nlcli_usage_err("port", v ? v : "lid");
			c.base_lid = (int)x;
		} else if (nlcli_kv(argc, argv, &i, "lmc", &v)) {
			if (!nlcli_num(v, 255, &x))
				return nlcli_usage_err("port", v ? v : "lmc");
			c.lmc = (int)x;
		} else if (nlcli_kv(argc, argv, &i, "sl", &v)) {
			if (!nlcli_num(v, 255, &x))
				return nlcli_usage_err("port", v ? v : "sl");
			c.sl = (int)x;
		} else if (nlcli_kv(argc, argv, &i, "offsets", &v) ||
			   nlcli_kv(argc, argv, &i, "offset", &v)) {
			c.n_offsets = nlcli_list(v, 255, c.offsets,
						 FTSW_MAX_OFFSETS);
			if (c.n_offsets <= 0)
				return nlcli_usage_err("port", v ? v : "offsets");
		} else if (nlcli_kv(argc, argv, &i, "sl-table", &v)) {
			if (!v)
				return nlcli_usage_err("port", "sl-table");
			free(sl_table);
			sl_table = read_sl_table(v, &c.sl_table_len);
			if (!sl_table)
				return 1;
			c.sl_table = sl_table;
		} else if (!strcmp(argv[i], "up") || !strcmp(argv[i], "down")) {
			c.admin_up = !strcmp(argv[i], "up");
			i++;
		} else {
			free(sl_table);
			return nlcli_usage_err("port", argv[i]);
		}
	}

	if (!strcmp(cmd, "show")) {
		nl = nlcli_open();
		if (!nl)
			return 1;
		if (cli.json)
			printf("[");
		if (have_sw && have_port) {
			struct ftsw_port_info pi;

			err = ftsw_nl_port_get(nl, c.switch_id, c.port, &pi);
			if (!err)
				port_print(&pi, cli.stats, &first);
		} else {
			err = ftsw_nl_port_dump(nl, have_sw ? (int64_t)c.switch_id : -1,
						show_cb, &first);
		}
		if (cli.json)
			printf("]\n");
		if (err)
			return nlcli_fail(nl, "port show");
		ftsw_nl_close(nl);
		return 0;
	}
	if (!have_sw || !have_port) {
		free(sl_table);
		return nlcli_usage_err("port", NULL);
	}
	nl = nlcli_open();
	if (!nl) {
		free(sl_table);
		return 1;
	}
	if (!strcmp(cmd, "bind")) {
		if (!c.ifindex || !c.kind) {
			free(sl_table);
			ftsw_nl_close(nl);
			cli_err("port bind: needs dev IFNAME and kind link|edge");
			return 2;
		}
		err = ftsw_nl_port_bind(nl, &c);
	} else if (!strcmp(cmd, "set")) {
		err = ftsw_nl_port_set(nl, &c);
	} else if (!strcmp(cmd, "unbind")) {
		err = ftsw_nl_port_unbind(nl, c.switch_id, c.port);
	} else if (!strcmp(cmd, "clear")) {
		err = ftsw_nl_port_clear(nl, c.switch_id, c.port);
	} else {
		free(sl_table);
		ftsw_nl_close(nl);
		port_usage(stderr);
		return 2;
	}
	free(sl_table);
	if (err) {
		char what[32];

		snprintf(what, sizeof(what), "port %s", cmd);
		return nlcli_fail(nl, what);
	}
	ftsw_nl_close(nl);
	return 0;
}
