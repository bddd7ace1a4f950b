// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw: compact linear forwarding tables. Pure logic, compiled into both
 * ftsw.ko and the KUnit module.
 */
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/vmalloc.h>
#include <linux/rcupdate.h>
#include <linux/overflow.h>
#include <linux/string.h>
#include <linux/bitmap.h>
#include "lft.h"

/* Tables grow in steps of at least this many LIDs. */
#define FTSW_LFT_GRAIN	64

/*
 * The entry array is sized to what the allocator really hands out, so no
 * byte is wasted: up to a page, the kmalloc bucket; beyond, whole pages of
 * vmalloc (kmalloc would round a 48 KiB table up to 64 KiB). A full table
 * of 0xC000 LIDs is exactly 12 pages: one byte per entry.
 */
static u32 ftsw_lft_round(u32 size)
{
	size = round_up(max_t(u32, size, 1), FTSW_LFT_GRAIN);
	if (size <= PAGE_SIZE)
		size = kmalloc_size_roundup(size);
	else
		size = PAGE_ALIGN(size);
	return min_t(u32, size, FTSW_LFT_SIZE);
}

/*
 * Allocate a table of at least @size entries (at most FTSW_LFT_SIZE), every
 * entry "no route", then copy @from if given.
 */
static struct ftsw_lft *__ftsw_lft_alloc(u32 size, const struct ftsw_lft *from,
					 bool atomic)
{
	gfp_t gfp = atomic ? GFP_ATOMIC | __GFP_ACCOUNT : GFP_KERNEL_ACCOUNT;
	struct ftsw_lft *lft;

	if (from && from->size > size)
		size = from->size;
	size = ftsw_lft_round(size);
	lft = kmalloc(sizeof(*lft), gfp);
	if (!lft)
		return NULL;
	if (size <= PAGE_SIZE || atomic)
		lft->port = kmalloc(size, gfp | (atomic ? __GFP_NOWARN : 0));
	else
		lft->port = __vmalloc(size, gfp);
	if (!lft->port) {
		kfree(lft);
		return NULL;
	}
	lft->size = size;
	lft->set = NULL;
	memset(lft->port, FTSW_NO_ROUTE, size);
	if (from)
		memcpy(lft->port, from->port, from->size);
	return lft;
}

struct ftsw_lft *ftsw_lft_alloc(u32 size, const struct ftsw_lft *from)
{
	return __ftsw_lft_alloc(size, from, false);
}

/*
 * The same from softirq (an SMP's LFT block, sma.c): kmalloc only, which
 * may fail for a large table; the SMP is then answered busy.
 */
struct ftsw_lft *ftsw_lft_alloc_atomic(u32 size, const struct ftsw_lft *from)
{
	return __ftsw_lft_alloc(size, from, true);
}

void ftsw_lft_free(struct ftsw_lft *lft)
{
	if (!lft)
		return;
	bitmap_free(lft->set);
	kvfree(lft->port);
	kfree(lft);
}

static void ftsw_lft_free_rcu(struct rcu_head *head)
{
	ftsw_lft_free(container_of(head, struct ftsw_lft, rcu));
}

/* Free a table once every reader is done with it. */
void ftsw_lft_free_deferred(struct ftsw_lft *lft)
{
	if (lft)
		call_rcu(&lft->rcu, ftsw_lft_free_rcu);
}

/* Kernel memory held by a table: its entries plus a small header. */
size_t ftsw_lft_bytes(const struct ftsw_lft *lft)
{
	return lft ? sizeof(*lft) + lft->size : 0;
}

/*
 * Check a block before anything is written: it must fit the LID space and
 * name only ports of the switch (0 = the switch itself, 255 = no route).
 */
int ftsw_lft_check_block(u32 first, const u8 *data, u32 len, u8 nports,
			 const char **msg)
{
	u32 i;

	if (!len) {
		*msg = "empty LFT block";
		return -EINVAL;
	}
	if (first > FTSW_MAX_LID || len > FTSW_LFT_SIZE - first) {
		*msg = "LFT block runs past LID 0xBFFF";
		return -ERANGE;
	}
	for (i = 0; i < len; i++) {
		if (data[i] != FTSW_NO_ROUTE && data[i] > nports) {
			*msg = "LFT entry names a port the switch does not have";
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * A staged table of at least @size entries: a copy of @cur (the staged
 * table so far, whose written entries it keeps marked) or, for the first
 * block, of @active. Returns NULL without memory; @cur is left alone.
 */
struct ftsw_lft *ftsw_lft_grow(const struct ftsw_lft *cur,
			       const struct ftsw_lft *active, u32 size)
{
	struct ftsw_lft *n = ftsw_lft_alloc(size, cur ? cur : active);

	if (!n)
		return NULL;
	n->set = bitmap_zalloc(n->size, GFP_KERNEL_ACCOUNT);
	if (!n->set) {
		ftsw_lft_free(n);
		return NULL;
	}
	if (cur && cur->set)
		bitmap_copy(n->set, cur->set, cur->size);
	return n;
}

/*
 * Write a checked block into the staged table, creating it as a copy of the
 * active table (or growing it) first, and mark its entries as written: a
 * commit applies those (ftsw_lft_merge). On failure nothing has changed.
 */
int ftsw_lft_stage(struct ftsw_lft **staged, const struct ftsw_lft *active,
		   u32 first, const u8 *data, u32 len)
{
	struct ftsw_lft *cur = *staged;
	u32 end = first + len;

	if (!cur || cur->size < end) {
		struct ftsw_lft *n = ftsw_lft_grow(cur, active, end);

		if (!n)
			return -ENOMEM;
		ftsw_lft_free(cur);
		*staged = n;
		cur = n;
	}
	memcpy(cur->port + first, data, len);
	bitmap_set(cur->set, first, len);
	return 0;
}

/*
 * Make staged table @st the table to publish at commit: every entry
 * netlink did not write takes the value it has in @live now (an SMP may
 * have written it since the staging), so a commit applies exactly the
 * entries that were staged, over whatever the live table holds. Runs
 * where nothing can publish another table (fn->sma_lock). False if @live
 * is larger than @st: the caller grows @st and tries again, or, with
 * @prefix, only @live's first st->size entries are taken.
 */
bool ftsw_lft_merge(struct ftsw_lft *st, const struct ftsw_lft *live,
		    bool prefix)
{
	u32 lsize = live ? live->size : 0, i = 0, end, n;

	if (lsize > st->size && !prefix)
		return false;
	lsize = min(lsize, st->size);
	if (!st->set)
		return true;
	while ((i = find_next_zero_bit(st->set, st->size, i)) < st->size) {
		end = find_next_bit(st->set, st->size, i);
		n = min(end, max(lsize, i));
		if (n > i)
			memcpy(st->port + i, live->port + i, n - i);
		if (end > n)
			memset(st->port + n, FTSW_NO_ROUTE, end - n);
		i = end;
	}
	return true;
}
