// SPDX-License-Identifier: GPL-2.0
/*
 * The congestion-control keys of opensm.conf, read and written
 * (cc/cc.h). The syntax is OpenSM's (osm_subnet.c): "key value", '#'
 * starts a comment, booleans are TRUE or anything else, numbers decimal
 * or 0x hex, the CA keys "key SL value", cc_cct "shift:multiplier,...",
 * the masks a hex number of up to 256 bits. Where OpenSM would log a bad
 * value and go on, ftsw refuses the file, naming the line.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc/cc.h"
#include "util/parse.h"
#include "util/text.h"

#define CONF_MAX_FILE	(64u << 10)
#define CONF_MAX_LINE	1023	/* OpenSM reads 1023 bytes a line */

enum kind { K_BOOL, K_U8, K_U16, K_U32, K_U64, K_THRESH, K_MASK, K_DELAY,
	    K_SL16, K_SL8, K_CCT };

struct key {
	const char *name;
	enum kind kind;
	size_t off;
};

#define F(field)	offsetof(struct ftsw_cc_params, field)

static const struct key keys[] = {
	{ "congestion_control", K_BOOL, F(congestion_control) },
	{ "cc_key", K_U64, F(cc_key) },
	{ "cc_max_outstanding_mads", K_U32, F(cc_max_outstanding_mads) },
	{ "cc_sw_cong_setting_control_map", K_U32,
	  F(cc_sw_cong_setting_control_map) },
	{ "cc_sw_cong_setting_victim_mask", K_MASK,
	  F(cc_sw_cong_setting_victim_mask) },
	{ "cc_sw_cong_setting_credit_mask", K_MASK,
	  F(cc_sw_cong_setting_credit_mask) },
	{ "cc_sw_cong_setting_threshold", K_THRESH,
	  F(cc_sw_cong_setting_threshold) },
	{ "cc_sw_cong_setting_packet_size", K_U8,
	  F(cc_sw_cong_setting_packet_size) },
	{ "cc_sw_cong_setting_credit_starvation_threshold", K_THRESH,
	  F(cc_sw_cong_setting_credit_starvation_threshold) },
	{ "cc_sw_cong_setting_credit_starvation_return_delay", K_DELAY,
	  F(cc_sw_cong_setting_credit_starvation_return_delay) },
	{ "cc_sw_cong_setting_marking_rate", K_U16,
	  F(cc_sw_cong_setting_marking_rate) },
	{ "cc_ca_cong_setting_port_control", K_U16,
	  F(cc_ca_cong_setting_port_control) },
	{ "cc_ca_cong_setting_control_map", K_U16,
	  F(cc_ca_cong_setting_control_map) },
	{ "cc_ca_cong_setting_ccti_timer", K_SL16,
	  F(cc_ca_cong_setting_ccti_timer) },
	{ "cc_ca_cong_setting_ccti_increase", K_SL8,
	  F(cc_ca_cong_setting_ccti_increase) },
	{ "cc_ca_cong_setting_trigger_threshold", K_SL8,
	  F(cc_ca_cong_setting_trigger_threshold) },
	{ "cc_ca_cong_setting_ccti_min", K_SL8,
	  F(cc_ca_cong_setting_ccti_min) },
	{ "cc_cct", K_CCT, F(cc_cct) },
};

#define NKEYS	(sizeof(keys) / sizeof(keys[0]))

/* One number, OpenSM's way but never octal: "010" is refused. */
static int num(const char *what, const char *s, uint64_t max, uint64_t *v,
	       struct ftsw_err *err)
{
	if (s[0] == '0' && isdigit((unsigned char)s[1])) {
		ftsw_err_set(err, "%s: '%s' has a leading 0, which OpenSM "
			     "reads as octal: write it in decimal or 0x hex",
			     what, s);
		return -1;
	}
	return ftsw_parse_u64(what, s, 0, max, v, err) ? -1 : 0;
}

/* "shift:multiplier" */
static int cct_entry(const char *what, const char *s,
		     struct ftsw_cct_entry *e, struct ftsw_err *err)
{
	char buf[64], *colon;
	uint64_t sh, mu;

	if (strlen(s) >= sizeof(buf) || !(colon = strchr(s, ':'))) {
		ftsw_err_set(err, "%s: '%s' is not a CCT entry "
			     "(shift:multiplier)", what, s);
		return -1;
	}
	memcpy(buf, s, (size_t)(colon - s));
	buf[colon - s] = '\0';
	if (num(what, buf, FTSW_CC_CCT_SHIFT_MAX, &sh, err) ||
	    num(what, colon + 1, FTSW_CC_CCT_MULT_MAX, &mu, err))
		return -1;
	e->shift = (uint8_t)sh;
	e->multiplier = (uint16_t)mu;
	return 0;
}

/* A 256-bit hex number, stored big-endian as OpenSM stores it. */
static int mask(const char *what, const char *s, uint8_t *m,
		struct ftsw_err *err)
{
	size_t n, i;

	if (!strncmp(s, "0x", 2) || !strncmp(s, "0X", 2))
		s += 2;
	n = strlen(s);
	for (i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			break;
	if (!n || i < n || n > 2 * FTSW_CC_MASK_BYTES) {
		ftsw_err_set(err, "%s: '%s' is not a port mask (up to 64 hex "
			     "digits, bit n = port n)", what, s);
		return -1;
	}
	memset(m, 0, FTSW_CC_MASK_BYTES);
	for (i = 0; i < n; i++) {
		unsigned d = (unsigned)(isdigit((unsigned char)s[n - 1 - i]) ?
			     s[n - 1 - i] - '0' :
			     tolower((unsigned char)s[n - 1 - i]) - 'a' + 10);

		m[FTSW_CC_MASK_BYTES - 1 - i / 2] |= (uint8_t)(d << (4 * (i % 2)));
	}
	return 0;
}

static int cct(const char *what, char *s, struct ftsw_cc_params *p,
	       struct ftsw_err *err)
{
	unsigned n = 0;
	char *save = NULL, *tok;

	for (tok = strtok_r(s, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (n == FTSW_CC_CCT_MAX) {
			ftsw_err_set(err, "%s: more than %u entries", what,
				     FTSW_CC_CCT_MAX);
			return -1;
		}
		tok += strspn(tok, " \t");
		tok[strcspn(tok, " \t")] = '\0';
		if (cct_entry(what, tok, &p->cc_cct[n], err))
			return -1;
		n++;
	}
	p->cc_cct_len = (uint16_t)n;
	return 0;
}

/* The value of key k (its words after the key) into p. */
static int set_key(const struct key *k, char *val, const char *what,
		   struct ftsw_cc_params *p, uint32_t *seen_sl,
		   struct ftsw_err *err)
{
	char *f = (char *)p + k->off;
	char *words[3];
	unsigned nw;
	uint64_t v, sl;

	if (k->kind == K_BOOL) {
		*(bool *)f = !strcmp(val, "TRUE");
		return 0;
	}
	if (k->kind == K_CCT)
		return strcmp(val, "(null)") ? cct(what, val, p, err) :
		       (p->cc_cct_len = 0, 0);
	nw = ftsw_split_words(val, words, 2, NULL);
	if (k->kind == K_SL16 || k->kind == K_SL8) {
		if (nw != 2) {
			ftsw_err_set(err, "%s: expected an SL and a value", what);
			return -1;
		}
		if (num(what, words[0], FTSW_CC_SLS - 1, &sl, err) ||
		    num(what, words[1], k->kind == K_SL16 ? 0xffff : 0xff,
			&v, err))
			return -1;
		if (*seen_sl >> sl & 1) {
			ftsw_err_set(err, "%s: SL %u given twice", what,
				     (unsigned)sl);
			return -1;
		}
		*seen_sl |= 1u << sl;
		if (k->kind == K_SL16)
			((uint16_t *)f)[sl] = (uint16_t)v;
		else
			((uint8_t *)f)[sl] = (uint8_t)v;
		return 0;
	}
	if (nw != 1) {
		ftsw_err_set(err, "%s: expected one value", what);
		return -1;
	}
	switch (k->kind) {
	case K_MASK:
		return mask(what, words[0], (uint8_t *)f, err);
	case K_DELAY:
		return cct_entry(what, words[0], (struct ftsw_cct_entry *)f, err);
	case K_U8:
	case K_THRESH:
		if (num(what, words[0], k->kind == K_THRESH ?
			FTSW_CC_THRESHOLD_MAX : 0xff, &v, err))
			return -1;
		*(uint8_t *)f = (uint8_t)v;
		return 0;
	case K_U16:
		if (num(what, words[0], 0xffff, &v, err))
			return -1;
		*(uint16_t *)f = (uint16_t)v;
		return 0;
	case K_U32:
		if (num(what, words[0], 0xffffffffu, &v, err))
			return -1;
		*(uint32_t *)f = (uint32_t)v;
		return 0;
	default:
		if (num(what, words[0], UINT64_MAX, &v, err))
			return -1;
		*(uint64_t *)f = v;
		return 0;
	}
}

static int parse_lines(struct ftsw_text *x, struct ftsw_cc_params *p,
		       struct ftsw_err *err)
{
	uint32_t seen[NKEYS][FTSW_CC_SLS] = { { 0 } };
	bool once[NKEYS] = { false };
	int got;

	while ((got = ftsw_text_line(x, err)) > 0) {
		char *line = x->line, *hash = strchr(line, '#'), *key, *val;
		char what[160];
		size_t i, n;

		if (hash)
			*hash = '\0';
		key = line + strspn(line, " \t");
		n = strcspn(key, " \t");
		if (!n)
			continue;
		val = key + n;
		if (*val)
			*val++ = '\0';
		val += strspn(val, " \t");
		for (i = strlen(val); i && isspace((unsigned char)val[i - 1]); i--)
			val[i - 1] = '\0';
		for (i = 0; i < NKEYS; i++)
			if (!strcmp(keys[i].name, key))
				break;
		if (i == NKEYS)
			continue;	/* not a congestion-control key */
		snprintf(what, sizeof(what), "%s:%u: %s", x->path, x->ln, key);
		if (!*val) {
			ftsw_err_set(err, "%s: no value", what);
			return -1;
		}
		if (keys[i].kind != K_SL16 && keys[i].kind != K_SL8) {
			if (once[i]) {
				ftsw_err_set(err, "%s: given twice", what);
				return -1;
			}
			once[i] = true;
		}
		if (set_key(&keys[i], val, what, p, seen[i], err))
			return -1;
	}
	return got < 0 ? -1 : 0;
}

int ftsw_cc_params_read(const char *path, struct ftsw_cc_params *p,
			struct ftsw_err *err)
{
	struct ftsw_text x;
	int rc;

	if (ftsw_text_open(&x, path, CONF_MAX_LINE, CONF_MAX_FILE, err))
		return -1;
	rc = parse_lines(&x, p, err);
	ftsw_text_close(&x);
	return rc;
}

int ftsw_cc_params_parse(const char *text, const char *name,
			 struct ftsw_cc_params *p, struct ftsw_err *err)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	struct ftsw_text x;
	int rc;

	if (!f) {
		ftsw_err_errno(err, errno, "%s: cannot read", name);
		return -1;
	}
	if (ftsw_text_attach(&x, f, name, CONF_MAX_LINE, CONF_MAX_FILE, err)) {
		fclose(f);
		return -1;
	}
	rc = parse_lines(&x, p, err);
	ftsw_text_close(&x);
	fclose(f);
	return rc;
}

int ftsw_cc_params_write(const struct ftsw_cc_params *p, FILE *f)
{
	const struct ftsw_cct_entry *d =
		&p->cc_sw_cong_setting_credit_starvation_return_delay;
	unsigned i;

	fprintf(f, "congestion_control %s\n",
		p->congestion_control ? "TRUE" : "FALSE");
	fprintf(f, "cc_key 0x%016" PRIx64 "\n", p->cc_key);
	fprintf(f, "cc_max_outstanding_mads %u\n", p->cc_max_outstanding_mads);
	fprintf(f, "cc_sw_cong_setting_control_map 0x%x\n",
		p->cc_sw_cong_setting_control_map);
	fprintf(f, "cc_sw_cong_setting_victim_mask 0x");
	for (i = 0; i < FTSW_CC_MASK_BYTES; i++)
		fprintf(f, "%02x", p->cc_sw_cong_setting_victim_mask[i]);
	fprintf(f, "\ncc_sw_cong_setting_credit_mask 0x");
	for (i = 0; i < FTSW_CC_MASK_BYTES; i++)
		fprintf(f, "%02x", p->cc_sw_cong_setting_credit_mask[i]);
	fprintf(f, "\ncc_sw_cong_setting_threshold 0x%x\n",
		p->cc_sw_cong_setting_threshold);
	fprintf(f, "cc_sw_cong_setting_packet_size %u\n",
		p->cc_sw_cong_setting_packet_size);
	fprintf(f, "cc_sw_cong_setting_credit_starvation_threshold 0x%x\n",
		p->cc_sw_cong_setting_credit_starvation_threshold);
	fprintf(f, "cc_sw_cong_setting_credit_starvation_return_delay %u:%u\n",
		d->shift, d->multiplier);
	fprintf(f, "cc_sw_cong_setting_marking_rate %u\n",
		p->cc_sw_cong_setting_marking_rate);
	fprintf(f, "cc_ca_cong_setting_port_control 0x%x\n",
		p->cc_ca_cong_setting_port_control);
	fprintf(f, "cc_ca_cong_setting_control_map 0x%x\n",
		p->cc_ca_cong_setting_control_map);
	for (i = 0; i < FTSW_CC_SLS; i++) {
		if (!p->cc_ca_cong_setting_ccti_timer[i] &&
		    !p->cc_ca_cong_setting_ccti_increase[i] &&
		    !p->cc_ca_cong_setting_trigger_threshold[i] &&
		    !p->cc_ca_cong_setting_ccti_min[i])
			continue;
		fprintf(f, "cc_ca_cong_setting_ccti_timer %u %u\n", i,
			p->cc_ca_cong_setting_ccti_timer[i]);
		fprintf(f, "cc_ca_cong_setting_ccti_increase %u %u\n", i,
			p->cc_ca_cong_setting_ccti_increase[i]);
		fprintf(f, "cc_ca_cong_setting_trigger_threshold %u %u\n", i,
			p->cc_ca_cong_setting_trigger_threshold[i]);
		fprintf(f, "cc_ca_cong_setting_ccti_min %u %u\n", i,
			p->cc_ca_cong_setting_ccti_min[i]);
	}
	if (p->cc_cct_len) {
		fprintf(f, "cc_cct ");
		for (i = 0; i < p->cc_cct_len; i++)
			fprintf(f, "%s%u:%u", i ? "," : "", p->cc_cct[i].shift,
				p->cc_cct[i].multiplier);
		fprintf(f, "\n");
	}
	return ferror(f) ? -EIO : 0;
}
