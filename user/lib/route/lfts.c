// SPDX-License-Identifier: GPL-2.0
/*
 * OpenSM's LFT dump format (opensm-lfts.dump), written and read:
 *
 *   Unicast lids [0-MAX] of switch Lid L guid 0x<guid> ('<desc>'):
 *   0x<lid, 4 hex> <port, 3 digits> # <Switch|Channel Adapter> portguid 0x<guid>: '<desc>'
 *   ...
 *   N lids dumped
 *
 * Only LIDs with a route are listed; a switch's own LID has port 000.
 * Reading maps every listed LID to its owner by port GUID (the LID
 * numbers of the file need not be ftsw's: OpenSM assigns its own) and
 * switches by node GUID, so OpenSM's tables land in ftsw's LID plan.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "route/routing.h"

static uint64_t host_port_guid(const struct ftsw_topo *t, uint32_t hn)
{
	unsigned p = ftsw_host_port(t, hn);
	uint64_t g;

	if (!p)
		p = 1;
	g = t->port_guids ? t->port_guids[t->nodes[hn].first_port + p - 1] : 0;
	return g ? g : t->nodes[hn].guid | p;
}

int ftsw_lfts_write_file(const struct ftsw_routing *r, FILE *f)
{
	const struct ftsw_topo *t = r->topo;
	uint32_t s, lid;

	for (s = 0; s < r->nswitches; s++) {
		const struct ftsw_node *n = &t->nodes[t->switches[s]];
		const uint8_t *lft = ftsw_lft(r, s);
		uint32_t own = ftsw_switch_lid(r, s), cnt = 0;

		fprintf(f, "Unicast lids [0-%u] of switch Lid %u guid 0x%016"
			PRIx64 " ('%s'):\n", r->max_lid, own, n->guid,
			n->desc ? n->desc : "");
		for (lid = 1; lid <= r->max_lid; lid++) {
			uint32_t idx;
			int kind = ftsw_lid_owner(r, lid, &idx, NULL);
			unsigned port = lid == own ? 0 : lft[lid];
			uint32_t node;
			uint64_t g;

			if (!kind || port == FTSW_PORT_NONE)
				continue;
			if (kind == FTSW_HOST) {
				node = t->hosts[idx];
				g = host_port_guid(t, node);
			} else {
				node = t->switches[idx];
				g = t->nodes[node].guid;
			}
			fprintf(f, "0x%04x %03u # %s portguid 0x%016" PRIx64
				": '%s'\n", lid, port,
				kind == FTSW_HOST ? "Channel Adapter" : "Switch", g,
				t->nodes[node].desc ? t->nodes[node].desc : "");
			cnt++;
		}
		fprintf(f, "%u lids dumped\n", cnt);
	}
	return ferror(f) ? -EIO : 0;
}

int ftsw_lfts_write(const struct ftsw_routing *r, const char *path,
		    struct ftsw_err *err)
{
	char *tmp;
	FILE *f;

	if (!path || !strcmp(path, "-")) {
		if (ftsw_lfts_write_file(r, stdout) || fflush(stdout)) {
			ftsw_err_set(err, "stdout: write error");
			return -EIO;
		}
		return 0;
	}
	f = ftsw_atomic_open(path, &tmp, err);
	if (!f)
		return -EIO;
	ftsw_lfts_write_file(r, f);
	return ftsw_atomic_commit(f, path, tmp, err);
}

/* open-addressing GUID -> value map */
struct gmap {
	uint64_t *key;
	uint32_t *val;
	size_t size;
};

static int gmap_init(struct gmap *m, size_t n)
{
	m->size = 16;
	while (m->size < 2 * n + 2)
		m->size *= 2;
	m->key = calloc(m->size, sizeof(uint64_t));
	m->val = malloc(m->size * sizeof(uint32_t));
	return m->key && m->val ? 0 : -1;
}

static void gmap_put(struct gmap *m, uint64_t k, uint32_t v)
{
	size_t h = (k * 0x9e3779b97f4a7c15ULL) >> 20 & (m->size - 1);

	while (m->key[h] && m->key[h] != k)
		h = (h + 1) & (m->size - 1);
	m->key[h] = k;
	m->val[h] = v;
}

static uint32_t gmap_get(const struct gmap *m, uint64_t k)
{
	size_t h = (k * 0x9e3779b97f4a7c15ULL) >> 20 & (m->size - 1);

	while (m->key[h]) {
		if (m->key[h] == k)
			return m->val[h];
		h = (h + 1) & (m->size - 1);
	}
	return FTSW_NONE;
}

struct ftsw_routing *ftsw_lfts_read(const struct ftsw_topo *t, const char *path,
				    unsigned lmc, struct ftsw_err *err)
{
	FILE *f = fopen(path, "r");
	struct ftsw_routing *r = NULL;
	struct gmap sw = { 0 }, ports = { 0 };
	uint32_t *base = NULL, cur = FTSW_NONE, i;
	char *line = NULL;
	size_t lsz = 0;
	unsigned ln = 0;

	if (!f) {
		ftsw_err_set(err, "%s: %s", path, strerror(errno));
		return NULL;
	}
	r = ftsw_routing_new(t, lmc, true, err);
	if (!r)
		goto fail;
	snprintf(r->engine, sizeof(r->engine), "opensm-dump");
	if (gmap_init(&sw, t->nswitches) || gmap_init(&ports, t->nnodes))
		goto oom;
	/* port GUID -> (kind << 31 | index) */
	for (i = 0; i < t->nswitches; i++) {
		gmap_put(&sw, t->nodes[t->switches[i]].guid, i);
		gmap_put(&ports, t->nodes[t->switches[i]].guid, i | 0x80000000u);
	}
	for (i = 0; i < t->nhosts; i++)
		gmap_put(&ports, host_port_guid(t, t->hosts[i]), i);
	/* base LID per file LID owner: smallest LID seen for it, per switch */
	base = malloc((t->nhosts + 1) * sizeof(uint32_t));
	if (!base)
		goto oom;
	while (getline(&line, &lsz, f) >= 0) {
		char *p = line, *e;

		ln++;
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == '\n')
			continue;
		if (!strncmp(p, "Unicast lids", 12)) {
			char *g = strstr(p, " guid 0x");
			uint64_t guid;

			if (!g) {
				ftsw_err_set(err, "%s:%u: switch header without a "
					     "guid", path, ln);
				goto fail;
			}
			guid = strtoull(g + 8, &e, 16);
			cur = gmap_get(&sw, guid);
			if (cur == FTSW_NONE) {
				ftsw_err_set(err, "%s:%u: switch guid 0x%016" PRIx64
					     " is not in the topology", path, ln,
					     guid);
				goto fail;
			}
			for (i = 0; i < t->nhosts; i++)
				base[i] = FTSW_NONE;
			continue;
		}
		if (!strncmp(p, "0x", 2)) {
			unsigned long flid, port;
			char *g;
			uint64_t pg;
			uint32_t owner, lid;

			if (cur == FTSW_NONE) {
				ftsw_err_set(err, "%s:%u: LFT entry before any switch "
					     "header", path, ln);
				goto fail;
			}
			flid = strtoul(p, &e, 16);
			port = strtoul(e, &e, 10);
			g = strstr(e, "portguid 0x");
			if (!g || port > 254) {
				ftsw_err_set(err, "%s:%u: malformed LFT entry", path, ln);
				goto fail;
			}
			pg = strtoull(g + 11, NULL, 16);
			owner = gmap_get(&ports, pg);
			if (owner == FTSW_NONE) {
				ftsw_err_set(err, "%s:%u: port guid 0x%016" PRIx64
					     " is not in the topology", path, ln, pg);
				goto fail;
			}
			if (owner & 0x80000000u) {
				if (port == 0)
					continue;	/* the switch itself */
				lid = ftsw_switch_lid(r, owner & 0x7fffffffu);
			} else {
				unsigned off;

				if (base[owner] == FTSW_NONE || flid < base[owner])
					base[owner] = (uint32_t)flid;
				off = (unsigned)(flid - base[owner]);
				if (off >= (1u << lmc)) {
					ftsw_err_set(err, "%s:%u: LID 0x%lx is offset %u "
						     "of its port, beyond LMC %u",
						     path, ln, flid, off, lmc);
					goto fail;
				}
				lid = ftsw_host_lid(r, owner) + off;
			}
			if (port == 0 || port > t->nodes[t->switches[cur]].nports) {
				ftsw_err_set(err, "%s:%u: switch '%s' has no port %lu",
					     path, ln,
					     t->nodes[t->switches[cur]].desc, port);
				goto fail;
			}
			ftsw_lft(r, cur)[lid] = (uint8_t)port;
			continue;
		}
		if (strstr(p, "lids dumped"))
			continue;
		ftsw_err_set(err, "%s:%u: unexpected line", path, ln);
		goto fail;
	}
	r->flags = FTSW_RT_SWITCH_LIDS;
	goto out;
oom:
	ftsw_err_set(err, "%s: out of memory", path);
fail:
	ftsw_routing_free(r);
	r = NULL;
out:
	fclose(f);
	free(line);
	free(base);
	free(sw.key);
	free(sw.val);
	free(ports.key);
	free(ports.val);
	return r;
}
