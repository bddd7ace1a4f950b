// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw port: the partition words of port set and what port show prints of
 * them (Documentation/sm.md, "Partitions"):
 *   pkeys K,K,...       the switch port's P_KeyTable (at most 32 keys)
 *   enforce off|in|out|both   its partition enforcement
 *   ca-pkeys K,K,...    edge: the CA's P_KeyTable
 *   pkey K              edge: the key the host sends with by default
 *                       (0: the CA's entry 0)
 *   pkey-table FILE     edge: a key per DLID from LID 0 (0: none)
 * and the agents' management keys port show prints (read only: an SM
 * writes them in band; Documentation/sm.md, "Management keys").
 */
#include <arpa/inet.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd_port.h"
#include "util/output.h"
#include "util/parse.h"
#include "util/text.h"

const char *const port_enforce_words[] = { "off", "in", "out", "both", NULL };

/* "K,K,...": at most FTSW_PKEY_CAP keys into out (the rest 0). */
static int parse_keys(const char *what, const char *s, uint16_t *out)
{
	char buf[512], *save = NULL, *tok, name[64];
	struct ftsw_err err;
	unsigned n = 0, v;

	memset(out, 0, 2 * FTSW_PKEY_CAP);
	if (strlen(s) >= sizeof(buf)) {
		cli_err("port: %s: too long", what);
		return -1;
	}
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		snprintf(name, sizeof(name), "%s entry %u", what, n);
		if (n >= FTSW_PKEY_CAP) {
			cli_err("port: %s: more than %u keys", what,
				FTSW_PKEY_CAP);
			return -1;
		}
		if (ftsw_parse_uint(name, tok, 0, 0xffff, &v, &err)) {
			cli_err("port: %s", err.msg);
			return -1;
		}
		out[n++] = (uint16_t)v;
	}
	return 0;
}

int port_cfg_pkey(const struct port_pkey_words *w, struct ftsw_port_cfg *c,
		  struct port_pkey_bufs *b)
{
	if (w->pkeys) {
		if (parse_keys("pkeys", w->pkeys, b->pkeys))
			return 2;
		c->pkeys = b->pkeys;
	}
	if (w->ca_pkeys) {
		if (parse_keys("ca-pkeys", w->ca_pkeys, b->ca_pkeys))
			return 2;
		c->ca_pkeys = b->ca_pkeys;
	}
	if (w->enforce >= 0)
		c->enforce = w->enforce;
	if (w->pkey >= 0)
		c->pkey = w->pkey;
	if (w->pkey_table) {
		b->table = port_read_table(w->pkey_table, "pkey-table",
					   FTSW_PKEY_TABLE_MAX, 0xffff,
					   &c->pkey_table_len);
		if (!b->table)
			return 1;
		c->pkey_table = b->table;
	}
	return 0;
}

/* A table of keys up to its last non-zero one: "0xffff,0x8001". */
static void print_keys(const char *key, const char *word, const uint16_t *k,
		       unsigned n)
{
	unsigned i, last = 0;

	for (i = 0; i < n; i++)
		if (k[i])
			last = i + 1;
	ftsw_out_text(" %s ", word);
	ftsw_out_open_array(key);
	for (i = 0; i < n; i++)
		ftsw_out_uint(NULL, NULL, k[i]);
	for (i = 0; i < last; i++)
		ftsw_out_text("%s0x%04x", i ? "," : "", k[i]);
	if (!last)
		ftsw_out_text("-");
	ftsw_out_close_array();
}

static bool default_table(const uint16_t *k)
{
	unsigned i;

	for (i = 1; i < FTSW_PKEY_CAP; i++)
		if (k[i])
			return false;
	return k[0] == FTSW_PKEY_DEFAULT;
}

void port_print_pkeys(const struct ftsw_port_info *p)
{
	const struct ftsw_port_pkeys *pk = &p->pk;
	uint32_t i, j;

	if (!pk->present)
		return;
	/* the text shows what differs from a new port's: JSON all */
	if (!ftsw_out_is_json() && default_table(pk->pkeys) && !pk->enforce &&
	    (!pk->has_ca || default_table(pk->ca_pkeys)) &&
	    !pk->pkey_dflt && !pk->pkey_table_len)
		return;
	print_keys("pkeys", "pkeys", pk->pkeys, FTSW_PKEY_CAP);
	ftsw_out_str("enforce", " enforce %s",
		     port_enforce_words[pk->enforce & 3]);
	if (!pk->has_ca)
		return;
	print_keys("ca_pkeys", "ca-pkeys", pk->ca_pkeys, FTSW_PKEY_CAP);
	ftsw_out_uint("pkey", " pkey 0x%04" PRIx64, pk->pkey_dflt);
	if (!pk->pkey_table_len)
		return;
	ftsw_out_uint("pkey_table_len", " pkey-table %" PRIu64,
		      pk->pkey_table_len);
	if (!pk->pkey_table_shown) {
		ftsw_out_text(" (more than %u entries: not shown)",
			      FTSW_PKEY_TABLE_ECHO);
		return;
	}
	/* runs of DLIDs and their key, as the SL table prints */
	ftsw_out_text(" pkey by dlid ");
	ftsw_out_open_array("pkey_table");
	for (i = 0; i < pk->pkey_table_n; i = j) {
		for (j = i; j < pk->pkey_table_n &&
		     pk->pkey_table[j] == pk->pkey_table[i]; j++)
			ftsw_out_uint(NULL, NULL, pk->pkey_table[j]);
		if (j - i > 1)
			ftsw_out_text("%s%u-%u:0x%04x", i ? "," : "", i, j - 1,
				      pk->pkey_table[i]);
		else
			ftsw_out_text("%s%u:0x%04x", i ? "," : "", i,
				      pk->pkey_table[i]);
	}
	ftsw_out_close_array();
}

/*
 * An edge port's multicast groups (when it has some): " mcast GROUP:MLID,
 * ..." (the group as an IPv4 or IPv6 address); JSON "mcast": [{group,
 * mlid, pkey, sl}].
 */
void port_print_mcast(const struct ftsw_port_info *p)
{
	char a[INET6_ADDRSTRLEN];
	uint32_t i;

	if (!p->mcast_n)
		return;
	ftsw_out_text(" mcast ");
	ftsw_out_open_array("mcast");
	for (i = 0; i < p->mcast_n; i++) {
		const struct ftsw_mcast_ent *e = &p->mcast[i];
		static const uint8_t v4[12] = { [10] = 0xff, [11] = 0xff };

		if (!memcmp(e->group, v4, sizeof(v4)))
			inet_ntop(AF_INET, e->group + 12, a, sizeof(a));
		else
			inet_ntop(AF_INET6, e->group, a, sizeof(a));
		ftsw_out_open_object(NULL);
		ftsw_out_str("group", i ? ",%s" : "%s", a);
		ftsw_out_uint("mlid", ":0x%04" PRIx64, ntohs(e->mlid));
		ftsw_out_uint("pkey", NULL, ntohs(e->pkey));
		ftsw_out_uint("sl", NULL, e->sl);
		ftsw_out_close_object();
	}
	ftsw_out_close_array();
}

/* An agent's key: "mkey 0x.. protect 2 lease 60 (59.5 s left) violations 1". */
static void print_mkey(const char *key, const char *word,
		       const struct ftsw_port_mkey *m)
{
	if (!m->present)
		return;
	/* the text shows a keyed or counted agent only: JSON all */
	if (!ftsw_out_is_json() && !m->key && !m->protect && !m->lease &&
	    !m->violations)
		return;
	ftsw_out_open_object(key);
	ftsw_out_uint("key", NULL, m->key);
	ftsw_out_text(" %s 0x%016" PRIx64, word, m->key);
	ftsw_out_uint("protect", " protect %" PRIu64, m->protect);
	ftsw_out_uint("lease", " lease %" PRIu64, m->lease);
	ftsw_out_uint("lease_left_ms", NULL, m->lease_left_ms);
	if (m->lease_left_ms)
		ftsw_out_text(" (%.1f s left)", m->lease_left_ms / 1000.0);
	ftsw_out_uint("violations", " violations %" PRIu64, m->violations);
	ftsw_out_close_object();
}

void port_print_mkeys(const struct ftsw_port_info *p)
{
	print_mkey("mkey", "mkey", &p->mkey);
	print_mkey("ca_mkey", "ca-mkey", &p->ca_mkey);
}
