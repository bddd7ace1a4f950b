// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw switch add id ID ports N [guid G] [name NAME] [lid LID]
 * ftsw switch del id ID
 * ftsw switch show [id ID]
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "nlcli.h"

static void switch_usage(FILE *f)
{
	fprintf(f, "Usage: ftsw switch add id ID ports N [guid GUID] [name NAME] [lid LID]\n"
		   "       ftsw switch del id ID\n"
		   "       ftsw switch show [id ID]\n");
}

struct show_ctx {
	int n;
};

static int switch_print(const struct ftsw_switch_info *si, void *arg)
{
	struct show_ctx *c = arg;
	int i;

	if (cli.json) {
		printf("%s{\"id\":%u,\"guid\":\"0x%016" PRIx64 "\",\"name\":",
		       c->n ? "," : "", si->id, si->guid);
		nlcli_json_str(stdout, si->name);
		printf(",\"ports\":%u,\"bound\":%u,\"lid\":%u,\"lft_size\":%u,"
		       "\"staged\":%s,\"sl2vl\":[",
		       si->nports, si->nbound, si->lid, si->lft_size,
		       si->staged ? "true" : "false");
		for (i = 0; i < FTSW_NUM_SL; i++)
			printf("%s%u", i ? "," : "", si->sl2vl[i]);
		printf("]}");
	} else {
		printf("switch %u guid 0x%016" PRIx64 " name %s ports %u bound %u",
		       si->id, si->guid, si->name[0] ? si->name : "-",
		       si->nports, si->nbound);
		if (si->lid)
			printf(" lid %u", si->lid);
		printf(" lft %u%s\n", si->lft_size, si->staged ? " staged" : "");
	}
	c->n++;
	return 0;
}

int cmd_switch(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "show";
	struct ftsw_switch_info si;
	struct show_ctx ctx = { 0 };
	bool have_id = false;
	struct ftsw_nl *nl;
	const char *v;
	uint64_t x;
	int i = 2, r;

	if (!strcmp(cmd, "help")) {
		switch_usage(stdout);
		return 0;
	}
	memset(&si, 0, sizeof(si));
	while (i < argc) {
		r = nlcli_switch_arg(argc, argv, &i, &si.id);
		if (r < 0)
			return nlcli_usage_err("switch", argv[i - 1]);
		if (r > 0) {
			have_id = true;
		} else if (nlcli_kv(argc, argv, &i, "ports", &v)) {
			if (!nlcli_num(v, 255, &x))
				return nlcli_usage_err("switch", v ? v : "ports");
			si.nports = (uint8_t)x;
		} else if (nlcli_kv(argc, argv, &i, "guid", &v)) {
			if (!nlcli_num(v, UINT64_MAX, &x))
				return nlcli_usage_err("switch", v ? v : "guid");
			si.guid = x;
		} else if (nlcli_kv(argc, argv, &i, "lid", &v)) {
			if (!nlcli_num(v, 0xffff, &x))
				return nlcli_usage_err("switch", v ? v : "lid");
			si.lid = (uint16_t)x;
		} else if (nlcli_kv(argc, argv, &i, "name", &v)) {
			if (!v || strlen(v) >= sizeof(si.name)) {
				cli_err("switch: name must be 1..%d characters",
					FTSW_NAME_MAX - 1);
				return 2;
			}
			strcpy(si.name, v);
		} else if (!have_id && (strcmp(cmd, "show") || i == 2) &&
			   nlcli_num(argv[i], UINT32_MAX, &x)) {
			si.id = (uint32_t)x;
			have_id = true;
			i++;
		} else {
			return nlcli_usage_err("switch", argv[i]);
		}
	}

	if (!strcmp(cmd, "add")) {
		if (!have_id)
			return nlcli_usage_err("switch", NULL);
		nl = nlcli_open();
		if (!nl)
			return 1;
		if (ftsw_nl_switch_new(nl, &si))
			return nlcli_fail(nl, "switch add");
	} else if (!strcmp(cmd, "del")) {
		if (!have_id)
			return nlcli_usage_err("switch", NULL);
		nl = nlcli_open();
		if (!nl)
			return 1;
		if (ftsw_nl_switch_del(nl, si.id))
			return nlcli_fail(nl, "switch del");
	} else if (!strcmp(cmd, "show")) {
		nl = nlcli_open();
		if (!nl)
			return 1;
		if (cli.json)
			printf("[");
		if (have_id) {
			struct ftsw_switch_info out;

			if (ftsw_nl_switch_get(nl, si.id, &out)) {
				if (cli.json)
					printf("]\n");
				return nlcli_fail(nl, "switch show");
			}
			switch_print(&out, &ctx);
		} else if (ftsw_nl_switch_dump(nl, switch_print, &ctx)) {
			if (cli.json)
				printf("]\n");
			return nlcli_fail(nl, "switch show");
		}
		if (cli.json)
			printf("]\n");
	} else {
		switch_usage(stderr);
		return 2;
	}
	ftsw_nl_close(nl);
	return 0;
}
