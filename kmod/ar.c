// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw: adaptive routing (Documentation/congestion.md, "Adaptive
 * routing"). A switch may have, per destination LID, a group of allowed
 * output ports beside its LFT's static port: the number of one of its
 * port sets. The tables are staged by netlink and published with the LFTs
 * at commit (RCU), never written once published. When a packet becomes
 * the head of its input buffer in lossless mode, the switch picks the
 * allowed port with the shortest queue and the most credit
 * (ftsw_ar_better(), ll_ar.c), per packet or per flowlet. The
 * rule is libftsw's (user/lib/cc/cc.h), which the simulator follows; the
 * KUnit suite checks the same hand-computed cases. Pure logic.
 */
#include <linux/bitmap.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include "ar.h"

/*
 * The smallest queued - credit (the shortest queue, of equal queues the
 * most free credit); ties go to the static port, then to the lowest port
 * number. The static port when there is no candidate.
 */
unsigned int ftsw_ar_pick(const struct ftsw_ar_cand *c, unsigned int n,
			  unsigned int static_port)
{
	unsigned int i, best = static_port;
	s64 bs = S64_MAX;

	for (i = 0; i < n; i++) {
		s64 sc = (s64)c[i].queued - (s64)c[i].credit;

		if (ftsw_ar_better(sc, c[i].port, bs, best, static_port)) {
			bs = sc;
			best = c[i].port;
		}
	}
	return best;
}

/* A flow's slot among the switch's FTSW_FLOWLET_SLOTS (a power of two). */
unsigned int ftsw_ar_flowlet_slot(u16 slid, u16 dlid)
{
	return (ftsw_ar_flowlet_key(slid, dlid) * 0x9e3779b1u) >>
	       (32 - ilog2(FTSW_FLOWLET_SLOTS));
}

/*
 * The port flow @key's flowlet keeps at @now: its slot holds the flow and
 * its last packet was switched less than @gap ago (the slot's time moves
 * to @now); 0: choose anew (then ftsw_ar_flowlet_take()). @gap 0: always.
 */
u8 ftsw_ar_flowlet_keep(struct ftsw_flowlet *f, u32 key, u64 now, u64 gap)
{
	if (!gap || !f->port || f->key != key || now - f->last >= gap)
		return 0;
	f->last = now;
	return f->port;
}

void ftsw_ar_flowlet_take(struct ftsw_flowlet *f, u32 key, u8 port, u64 now)
{
	f->key = key;
	f->port = port;
	f->last = now;
}

/* ------------------------------------------------------------ tables */

/*
 * A table for LIDs 0..@size-1 (grown in steps of 64) with @nsets port
 * sets, every LID without a group, and its flowlets, every slot empty;
 * @from's groups and sets copied (those past @nsets dropped), if given.
 */
struct ftsw_ar *ftsw_ar_alloc(u32 size, u16 nsets, const struct ftsw_ar *from)
{
	struct ftsw_ar *ar;

	if (from && from->size > size)
		size = from->size;
	size = min_t(u32, round_up(max_t(u32, size, 1), 64), FTSW_LFT_SIZE);
	ar = kzalloc(sizeof(*ar), GFP_KERNEL_ACCOUNT);
	if (!ar)
		return NULL;
	ar->grp = kvzalloc(size, GFP_KERNEL_ACCOUNT);
	ar->sets = kcalloc(nsets + 1, sizeof(*ar->sets), GFP_KERNEL_ACCOUNT);
	ar->flow = kcalloc(FTSW_FLOWLET_SLOTS, sizeof(*ar->flow),
			   GFP_KERNEL_ACCOUNT);
	if (!ar->grp || !ar->sets || !ar->flow) {
		ftsw_ar_free(ar);
		return NULL;
	}
	ar->size = size;
	ar->nsets = nsets;
	if (from) {
		memcpy(ar->grp, from->grp, from->size);
		memcpy(ar->sets, from->sets,
		       (min(nsets, from->nsets) + 1) * sizeof(*ar->sets));
	}
	return ar;
}

void ftsw_ar_free(struct ftsw_ar *ar)
{
	if (!ar)
		return;
	kvfree(ar->grp);
	kfree(ar->sets);
	kfree(ar->flow);
	kfree(ar);
}

static void ftsw_ar_free_rcu(struct rcu_head *head)
{
	ftsw_ar_free(container_of(head, struct ftsw_ar, rcu));
}

void ftsw_ar_free_deferred(struct ftsw_ar *ar)
{
	if (ar)
		call_rcu(&ar->rcu, ftsw_ar_free_rcu);
}

size_t ftsw_ar_bytes(const struct ftsw_ar *ar)
{
	return ar ? sizeof(*ar) + ar->size +
		    (ar->nsets + 1) * sizeof(*ar->sets) +
		    FTSW_FLOWLET_SLOTS * sizeof(*ar->flow) : 0;
}

/*
 * Check port sets as netlink carries them (FTSW_ATTR_AR_SETS: 32 bytes
 * each, bit p % 8 of byte p / 8 is port p): a whole number of sets, at
 * most FTSW_AR_SETS_MAX, each naming at least one port and only ports
 * 1..@nports of the switch.
 */
int ftsw_ar_check_sets(const u8 *data, u32 len, u8 nports, const char **msg)
{
	u32 n = len / FTSW_AR_SET_BYTES, k, p;

	if (len % FTSW_AR_SET_BYTES) {
		*msg = "port sets are 32 bytes each";
		return -EINVAL;
	}
	if (n > FTSW_AR_SETS_MAX) {
		*msg = "more than 255 port sets";
		return -EINVAL;
	}
	for (k = 0; k < n; k++) {
		const u8 *s = data + k * FTSW_AR_SET_BYTES;
		bool any = false;

		for (p = 0; p < 256; p++) {
			if (!(s[p / 8] >> (p % 8) & 1))
				continue;
			if (!p || p > nports) {
				*msg = "a port set names a port the switch does not have";
				return -EINVAL;
			}
			any = true;
		}
		if (!any) {
			*msg = "an empty port set";
			return -EINVAL;
		}
	}
	return 0;
}

/* Check a block of groups: within the LID space, sets 0..@nsets. */
int ftsw_ar_check_block(u32 first, const u8 *data, u32 len, u16 nsets,
			const char **msg)
{
	u32 i;

	if (!len) {
		*msg = "empty group block";
		return -EINVAL;
	}
	if (first + len > FTSW_LFT_SIZE) {
		*msg = "group block past LID 0xBFFF";
		return -EINVAL;
	}
	for (i = 0; i < len; i++) {
		if (data[i] > nsets) {
			*msg = "group names a port set not given";
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * Stage groups: the staged table (made from the active one, or grown, if
 * need be) takes the port sets @sets (if @sets_len, or @sets non-NULL:
 * all of them replaced; groups naming a set past the new ones are
 * cleared) and the groups @data from LID @first (if @len). Checked
 * beforehand (ftsw_ar_check_*). On failure nothing has changed. fn->lock.
 */
int ftsw_ar_stage(struct ftsw_ar **staged, const struct ftsw_ar *active,
		  const u8 *sets, u32 sets_len, u32 first, const u8 *data,
		  u32 len)
{
	struct ftsw_ar *cur = *staged ?: (struct ftsw_ar *)active;
	u16 nsets = sets ? sets_len / FTSW_AR_SET_BYTES : (cur ? cur->nsets : 0);
	struct ftsw_ar *n = *staged;
	u32 i, p;

	if (!n || n->size < first + len || nsets != n->nsets) {
		n = ftsw_ar_alloc(len ? first + len : 1, nsets, cur);
		if (!n)
			return -ENOMEM;
	}
	if (sets) {
		memset(n->sets, 0, (nsets + 1) * sizeof(*n->sets));
		for (i = 0; i < nsets; i++)
			for (p = 0; p < 256; p++)
				if (sets[i * FTSW_AR_SET_BYTES + p / 8] >>
				    (p % 8) & 1)
					__set_bit(p, n->sets[i + 1]);
		for (i = 0; i < n->size; i++)
			if (n->grp[i] > nsets)
				n->grp[i] = 0;
	}
	if (len)
		memcpy(n->grp + first, data, len);
	if (n != *staged) {
		ftsw_ar_free(*staged);
		*staged = n;
	}
	return 0;
}

/* Set @k of @ar in netlink's form (FTSW_AR_SET_BYTES bytes). */
void ftsw_ar_set_bytes(const struct ftsw_ar *ar, u16 k, u8 *out)
{
	unsigned int p;

	memset(out, 0, FTSW_AR_SET_BYTES);
	for_each_set_bit(p, ar->sets[k], 256)
		out[p / 8] |= 1u << (p % 8);
}
