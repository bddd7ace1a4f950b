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
#include "util/output.h"
#include "util/parse.h"

static void switch_usage(FILE *f)
{
	fprintf(f, "Usage: ftsw switch add id ID ports N [guid GUID] [name NAME] [lid LID]\n"
		   "       ftsw switch del id ID\n"
		   "       ftsw switch show [id ID]\n");
}

static int switch_print(const struct ftsw_switch_info *si, void *arg)
{
	char guid[24];
	int i;

	(void)arg;
	snprintf(guid, sizeof(guid), "0x%016" PRIx64, si->guid);
	ftsw_out_open_object(NULL);
	ftsw_out_uint("id", "switch %" PRIu64, si->id);
	ftsw_out_str("guid", " guid %s", guid);
	ftsw_out_str("name", NULL, si->name);
	ftsw_out_str(NULL, " name %s", si->name[0] ? si->name : "-");
	ftsw_out_uint("ports", " ports %" PRIu64, si->nports);
	ftsw_out_uint("bound", " bound %" PRIu64, si->nbound);
	ftsw_out_uint("lid", si->lid ? " lid %" PRIu64 : NULL, si->lid);
	ftsw_out_uint("lft_size", " lft %" PRIu64, si->lft_size);
	ftsw_out_bool("staged", NULL, si->staged);
	ftsw_out_text("%s\n", si->staged ? " staged" : "");
	ftsw_out_open_array("sl2vl");
	for (i = 0; i < FTSW_NUM_SL; i++)
		ftsw_out_uint(NULL, NULL, si->sl2vl[i]);
	ftsw_out_close_array();
	ftsw_out_close_object();
	return 0;
}

/* One argument at argv[*i]: 0, or an exit status. */
static int switch_arg(const char *cmd, int argc, char **argv, int *i,
		      struct ftsw_switch_info *si, bool *have_id)
{
	struct ftsw_err err;
	const char *v;
	uint64_t x;
	int r;

	r = nlcli_switch_arg("switch", argc, argv, i, &si->id);
	if (r < 0)
		return 2;
	if (r > 0) {
		*have_id = true;
	} else if (nlcli_kv(argc, argv, i, "ports", &v)) {
		if (!nlcli_num("switch", "ports", v, 0, 255, &x))
			return 2;
		si->nports = (uint8_t)x;
	} else if (nlcli_kv(argc, argv, i, "guid", &v)) {
		if (!nlcli_num("switch", "guid", v, 0, UINT64_MAX, &x))
			return 2;
		si->guid = x;
	} else if (nlcli_kv(argc, argv, i, "lid", &v)) {
		if (!nlcli_num("switch", "lid", v, 0, 0xffff, &x))
			return 2;
		si->lid = (uint16_t)x;
	} else if (nlcli_kv(argc, argv, i, "name", &v)) {
		if (!v || strlen(v) >= sizeof(si->name)) {
			cli_err("switch: name must be 1..%d characters",
				FTSW_NAME_MAX - 1);
			return 2;
		}
		strcpy(si->name, v);
	} else if (!*have_id && (strcmp(cmd, "show") || *i == 2) &&
		   !ftsw_parse_u64("id", argv[*i], 0, UINT32_MAX, &x, &err)) {
		si->id = (uint32_t)x;
		*have_id = true;
		(*i)++;
	} else {
		return nlcli_usage_err("switch", argv[*i]);
	}
	return 0;
}

static int switch_show(struct ftsw_nl *nl, const struct ftsw_switch_info *si,
		       bool have_id)
{
	struct ftsw_switch_info out;
	int err;

	ftsw_out_begin(stdout, cli.json);
	ftsw_out_open_array(NULL);
	if (have_id) {
		err = ftsw_nl_switch_get(nl, si->id, &out);
		if (!err)
			switch_print(&out, NULL);
	} else {
		err = ftsw_nl_switch_dump(nl, switch_print, NULL);
	}
	ftsw_out_close_array();
	ftsw_out_end();
	return err;
}

int cmd_switch(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "show";
	struct ftsw_switch_info si;
	bool have_id = false;
	struct ftsw_nl *nl;
	int i = 2, rc;

	if (!strcmp(cmd, "help")) {
		switch_usage(stdout);
		return 0;
	}
	if (strcmp(cmd, "add") && strcmp(cmd, "del") && strcmp(cmd, "show")) {
		switch_usage(stderr);
		return 2;
	}
	memset(&si, 0, sizeof(si));
	while (i < argc) {
		rc = switch_arg(cmd, argc, argv, &i, &si, &have_id);
		if (rc)
			return rc;
	}
	if (!have_id && strcmp(cmd, "show"))
		return nlcli_usage_err("switch", NULL);
	nl = nlcli_open();
	if (!nl)
		return 1;
	if (!strcmp(cmd, "add") && ftsw_nl_switch_new(nl, &si))
		return nlcli_fail(nl, "switch add");
	if (!strcmp(cmd, "del") && ftsw_nl_switch_del(nl, si.id))
		return nlcli_fail(nl, "switch del");
	if (!strcmp(cmd, "show") && switch_show(nl, &si, have_id))
		return nlcli_fail(nl, "switch show");
	ftsw_nl_close(nl);
	return 0;
}
