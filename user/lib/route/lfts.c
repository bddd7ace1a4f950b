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
 * Reading, a switch's own LID is port 000 in its own table or absent
 * from it (anything else is refused with its line), port 000 is for that
 * LID only, and every LID is unicast (1..0xBFFF; up to 0xFFFFFF with
 * extended LIDs, analysis only). A section lists at most as many LIDs as
 * the topology has at LMC 7; lines and the file are bounded
 * (FTSW_LFTS_MAX_LINE, FTSW_LFTS_MAX_FILE).
 * Reading maps every listed LID to its owner by port GUID (the LID
 * numbers of the file need not be ftsw's: OpenSM assigns its own) and
 * switches by node GUID, so OpenSM's tables land in ftsw's LID plan.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/parse.h"
#include "util/text.h"
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

static int lfts_writer(const void *r, FILE *f)
{
	return ftsw_lfts_write_file(r, f);
}

int ftsw_lfts_write(const struct ftsw_routing *r, const char *path,
		    struct ftsw_err *err)
{
	return ftsw_write_path(path, lfts_writer, r, err);
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

/*
 * Reading is two passes: the file into entries (every line checked, each
 * switch's section closed by its "N lids dumped" trailer with the right
 * N), then the LMC (the smallest that puts every port's LIDs in one
 * aligned block, or the caller's when larger) and the tables.
 */
struct lent {
	uint32_t sw, flid, owner;	/* owner: host index or switch | 1<<31 */
	uint8_t port;
	unsigned line;
};

struct lrd {
	const struct ftsw_topo *t;
	const char *path;
	struct ftsw_err *err;
	struct gmap sw, ports;
	struct lent *e;
	size_t n, cap;
	uint32_t cur;		/* switch of the open section, FTSW_NONE */
	uint32_t in_section;	/* entries in the open section */
	uint64_t max_section;	/* entries a section may have */
	uint32_t max_flid;	/* largest LID accepted */
	unsigned cur_line;	/* its header line */
	uint64_t cur_max;	/* its header's largest LID, or UINT64_MAX */
	uint8_t *seen_sw;	/* switch sections read */
	uint32_t *swlid;	/* per switch: the one LID it owns, or NONE */
	uint32_t *lo, *hi;	/* per host: smallest and largest file LID */
};

static int lrd_fail(struct lrd *d, unsigned ln, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int lrd_fail(struct lrd *d, unsigned ln, const char *fmt, ...)
{
	char buf[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (ln)
		ftsw_err_set(d->err, "%s:%u: %s", d->path, ln, buf);
	else
		ftsw_err_set(d->err, "%s: %s", d->path, buf);
	return -EINVAL;
}

/* Unicast lids [0-MAX] of switch Lid L guid 0x<guid> ('desc'): */
static int lrd_header(struct lrd *d, const char *p, unsigned ln)
{
	const char *g = strstr(p, " guid 0x"), *e;
	uint64_t guid;

	if (d->cur != FTSW_NONE)
		return lrd_fail(d, ln, "switch header before the \"lids dumped\" "
				"trailer of the section of line %u", d->cur_line);
	if (!g || ftsw_parse_hex_prefix("guid", g + 6, &guid, &e, NULL))
		return lrd_fail(d, ln, "switch header without a guid");
	d->cur = gmap_get(&d->sw, guid);
	if (d->cur == FTSW_NONE)
		return lrd_fail(d, ln, "switch guid 0x%016" PRIx64 " is not in "
				"the topology", guid);
	if (d->seen_sw[d->cur])
		return lrd_fail(d, ln, "switch guid 0x%016" PRIx64 " has a "
				"second table", guid);
	d->seen_sw[d->cur] = 1;
	d->in_section = 0;
	d->cur_line = ln;
	/* "[0-MAX]" (ftsw, OpenSM) or "[0x0-0xMAX]" (ibroute) */
	d->cur_max = UINT64_MAX;
	g = strstr(p, "lids [");
	if (g) {
		const char *m = strchr(g, '-');

		if (!m || ftsw_parse_u64_prefix("max", m + 1, 0, UINT32_MAX,
						&d->cur_max, &e, NULL) || *e != ']')
			d->cur_max = UINT64_MAX;
	}
	return 0;
}

/* 0x<lid> <port> # ... portguid 0x<guid>: '...' */
static int lrd_entry(struct lrd *d, const char *p, unsigned ln)
{
	const struct ftsw_topo *t = d->t;
	const char *e, *g;
	uint64_t flid, port, pg;
	uint32_t owner;

	if (d->cur == FTSW_NONE)
		return lrd_fail(d, ln, "LFT entry outside a switch section");
	if (ftsw_parse_u64_prefix("LID", p, 0, UINT64_MAX, &flid, &e, NULL) ||
	    (*e != ' ' && *e != '\t'))
		return lrd_fail(d, ln, "bad LID in '%.60s'", p);
	if (!flid || flid > d->max_flid)
		return lrd_fail(d, ln, "LID 0x%" PRIx64 " is not a unicast LID "
				"(1..0x%X%s)", flid, d->max_flid,
				d->max_flid < FTSW_LID_EXT_MAX ?
				"; --extended-lids for analysis past it" : "");
	if (d->in_section >= d->max_section)
		return lrd_fail(d, ln, "the section of line %u lists more LIDs "
				"than the topology has (%" PRIu64 " at LMC %u)",
				d->cur_line, d->max_section, FTSW_LMC_MAX);
	while (*e == ' ' || *e == '\t')
		e++;
	if (ftsw_parse_u64_prefix("port", e, 0, 254, &port, &e, NULL) ||
	    (*e != ' ' && *e != '\t'))
		return lrd_fail(d, ln, "bad port in '%.60s' (0..254)", p);
	g = strstr(e, "portguid 0x");
	if (!g || ftsw_parse_hex_prefix("portguid", g + 9, &pg, &e, NULL) ||
	    (*e && *e != ':' && *e != ' '))
		return lrd_fail(d, ln, "malformed LFT entry (bad port guid)");
	owner = gmap_get(&d->ports, pg);
	if (owner == FTSW_NONE)
		return lrd_fail(d, ln, "port guid 0x%016" PRIx64 " is not in the "
				"topology", pg);
	if (port == 0 && owner != (d->cur | 0x80000000u))
		return lrd_fail(d, ln, "port 0 for LID 0x%" PRIx64 ", which is "
				"not this switch's", flid);
	if (port > t->nodes[t->switches[d->cur]].nports)
		return lrd_fail(d, ln, "switch '%s' has no port %" PRIu64,
				t->nodes[t->switches[d->cur]].desc, port);
	if (owner & 0x80000000u) {
		/* a switch owns one LID (its port 0 has no LMC) */
		uint32_t sw = owner & 0x7fffffffu;

		if (d->swlid[sw] == FTSW_NONE)
			d->swlid[sw] = (uint32_t)flid;
		else if (d->swlid[sw] != flid)
			return lrd_fail(d, ln, "LID 0x%" PRIx64 " names switch "
					"'%s', whose LID is 0x%" PRIx32, flid,
					t->nodes[t->switches[sw]].desc,
					d->swlid[sw]);
		if (port != 0 && sw == d->cur)
			return lrd_fail(d, ln, "LID 0x%" PRIx64 " is switch "
					"'%s''s own LID: its entry in its own "
					"table is port 0 (the switch itself) or "
					"absent, not port %" PRIu64, flid,
					t->nodes[t->switches[sw]].desc, port);
	} else {
		if (d->lo[owner] == FTSW_NONE || flid < d->lo[owner])
			d->lo[owner] = (uint32_t)flid;
		if (d->hi[owner] == FTSW_NONE || flid > d->hi[owner])
			d->hi[owner] = (uint32_t)flid;
	}
	if (d->n == d->cap) {
		size_t cap = d->cap ? 2 * d->cap : 4096;
		struct lent *x = realloc(d->e, cap * sizeof(*x));

		if (!x)
			return -ENOMEM;
		d->e = x;
		d->cap = cap;
	}
	d->e[d->n++] = (struct lent){ d->cur, (uint32_t)flid, owner,
				      (uint8_t)port, ln };
	d->in_section++;
	return 0;
}

/* N lids dumped */
static int lrd_trailer(struct lrd *d, const char *p, unsigned ln)
{
	const char *e;
	uint64_t n;

	if (d->cur == FTSW_NONE)
		return lrd_fail(d, ln, "\"lids dumped\" outside a switch section");
	if (ftsw_parse_u64_prefix("count", p, 0, UINT32_MAX, &n, &e, NULL) ||
	    strncmp(e, " lids dumped", 12) || e[12])
		return lrd_fail(d, ln, "malformed trailer '%.60s'", p);
	/*
	 * N is the section's entry count (ftsw, ibroute), or the header's
	 * largest LID, which is what OpenSM's opensm-lfts.dump prints whether
	 * or not every LID has a route.
	 */
	if (n != d->in_section && n != d->cur_max)
		return lrd_fail(d, ln, "trailer says %" PRIu64 " LIDs, the section "
				"of line %u has %u", n, d->cur_line,
				d->in_section);
	d->cur = FTSW_NONE;
	return 0;
}

static int lrd_parse(struct lrd *d, struct ftsw_text *x)
{
	int rc = 0, got;

	while (!rc && (got = ftsw_text_line(x, d->err)) > 0) {
		char *p = x->line;
		unsigned ln = x->ln;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			continue;
		if (!strncmp(p, "Unicast lids", 12))
			rc = lrd_header(d, p, ln);
		else if (!strncmp(p, "0x", 2))
			rc = lrd_entry(d, p, ln);
		else if (strstr(p, "lids dumped"))
			rc = lrd_trailer(d, p, ln);
		else
			rc = lrd_fail(d, ln, "unexpected line '%.60s'", p);
	}
	if (!rc && got < 0)
		rc = -EINVAL;
	if (!rc && d->cur != FTSW_NONE)
		rc = lrd_fail(d, x->ln, "truncated: the section of line %u has no "
			      "\"lids dumped\" trailer", d->cur_line);
	if (!rc && !x->ln)
		rc = lrd_fail(d, 0, "empty file");
	return rc;
}

/* The LMC the dump needs: every host's LIDs in one aligned block. */
static int lrd_lmc(struct lrd *d, unsigned lmc, unsigned *out)
{
	unsigned l = 0;
	uint32_t h;

	for (h = 0; h < d->t->nhosts; h++)
		while (d->lo[h] != FTSW_NONE && l <= FTSW_LMC_MAX &&
		       d->lo[h] >> l != d->hi[h] >> l)
			l++;
	if (l > FTSW_LMC_MAX)
		return lrd_fail(d, 0, "a port's LIDs span more than an aligned "
				"block of %u (LMC %u)", 1u << FTSW_LMC_MAX,
				FTSW_LMC_MAX);
	if (lmc && l > lmc)
		return lrd_fail(d, 0, "the dump needs LMC %u (a port's LIDs span "
				"%u), more than --lmc %u", l, 1u << l, lmc);
	*out = l > lmc ? l : lmc;
	return 0;
}

static int lrd_tables(struct lrd *d, struct ftsw_routing *r)
{
	size_t i;
	uint32_t s;

	for (s = 0; s < d->t->nswitches; s++)
		if (!d->seen_sw[s])
			return lrd_fail(d, 0, "switch '%s' (guid 0x%016" PRIx64 ") "
					"has no table in the dump",
					d->t->nodes[d->t->switches[s]].desc,
					d->t->nodes[d->t->switches[s]].guid);
	for (i = 0; i < d->n; i++) {
		const struct lent *x = &d->e[i];
		uint32_t lid;
		uint8_t *slot;

		if (x->owner & 0x80000000u) {
			if (x->port == 0)
				continue;	/* the switch itself */
			lid = ftsw_switch_lid(r, x->owner & 0x7fffffffu);
		} else {
			lid = ftsw_host_lid(r, x->owner) +
			      (x->flid & ((1u << r->lmc) - 1));
		}
		slot = &ftsw_lft(r, x->sw)[lid];
		if (*slot != FTSW_PORT_NONE)
			return lrd_fail(d, x->line, "LID 0x%x is listed twice "
					"for this switch", x->flid);
		*slot = x->port;
	}
	return 0;
}

struct ftsw_routing *ftsw_lfts_read(const struct ftsw_topo *t, const char *path,
				    unsigned lmc, bool extended,
				    struct ftsw_err *err)
{
	struct lrd d = { .t = t, .path = path, .err = err, .cur = FTSW_NONE };
	struct ftsw_routing *r = NULL;
	struct ftsw_text x;
	unsigned l = 0;
	uint32_t i;
	int rc = -ENOMEM;

	if (ftsw_text_open(&x, path, FTSW_LFTS_MAX_LINE, FTSW_LFTS_MAX_FILE,
			   err))
		return NULL;
	d.max_flid = extended ? FTSW_LID_EXT_MAX : FTSW_LID_MAX;
	d.max_section = ((uint64_t)t->nhosts << FTSW_LMC_MAX) + t->nswitches;
	d.seen_sw = calloc(t->nswitches + 1, 1);
	d.swlid = malloc((t->nswitches + 1) * sizeof(uint32_t));
	d.lo = malloc((t->nhosts + 1) * sizeof(uint32_t));
	d.hi = malloc((t->nhosts + 1) * sizeof(uint32_t));
	if (!d.seen_sw || !d.swlid || !d.lo || !d.hi ||
	    gmap_init(&d.sw, t->nswitches) || gmap_init(&d.ports, t->nnodes))
		goto out;
	/* port GUID -> (kind << 31 | index) */
	for (i = 0; i < t->nswitches; i++) {
		gmap_put(&d.sw, t->nodes[t->switches[i]].guid, i);
		gmap_put(&d.ports, t->nodes[t->switches[i]].guid, i | 0x80000000u);
		d.swlid[i] = FTSW_NONE;
	}
	for (i = 0; i < t->nhosts; i++) {
		gmap_put(&d.ports, host_port_guid(t, t->hosts[i]), i);
		d.lo[i] = d.hi[i] = FTSW_NONE;
	}
	rc = lrd_parse(&d, &x);
	if (!rc)
		rc = lrd_lmc(&d, lmc, &l);
	if (!rc) {
		r = ftsw_routing_new(t, l, extended, err);
		rc = r ? lrd_tables(&d, r) : -EINVAL;
	}
out:
	if (rc == -ENOMEM)
		ftsw_err_errno(err, ENOMEM, "%s: out of memory", path);
	if (rc) {
		ftsw_routing_free(r);
		r = NULL;
	} else {
		snprintf(r->engine, sizeof(r->engine), "opensm-dump");
		r->flags = FTSW_RT_SWITCH_LIDS;
	}
	ftsw_text_close(&x);
	free(d.e);
	free(d.seen_sw);
	free(d.swlid);
	free(d.lo);
	free(d.hi);
	free(d.sw.key);
	free(d.sw.val);
	free(d.ports.key);
	free(d.ports.val);
	return r;
}
