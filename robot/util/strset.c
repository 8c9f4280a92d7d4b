// SPDX-License-Identifier: GPL-2.0-only
/*
 * strset.c: a set of strings, hashed (strset.h).
 */
#include "robot/util/common.h"
#include "robot/util/strset.h"
#include "robot/util/utf8.h"

#include <strings.h>

static size_t hash(const char *s, int icase)
{
	uint64_t h = FNV64_INIT;

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (icase && c >= 'A' && c <= 'Z')
			c += 'a' - 'A';
		h = fnv1a64(h, &c, 1);
	}
	return (size_t)h;
}

/* The slot of s, or the empty one where it would go (nslots > 0). */
static size_t slot(const struct strset *set, const char *s)
{
	size_t mask = set->nslots - 1, i = hash(s, set->icase) & mask;

	while (set->slots[i] && (set->icase ? strcasecmp(set->slots[i], s)
					    : strcmp(set->slots[i], s)))
		i = (i + 1) & mask;
	return i;
}

int strset_has(const struct strset *set, const char *s)
{
	return set->nslots && set->slots[slot(set, s)];
}

static void grow(struct strset *set)
{
	struct strset bigger = { NULL, set->nslots ? 2 * set->nslots : 16,
				 set->n, set->icase };
	size_t i;

	bigger.slots = xcalloc(bigger.nslots, sizeof(*bigger.slots));
	for (i = 0; i < set->nslots; i++)
		if (set->slots[i])
			bigger.slots[slot(&bigger, set->slots[i])] =
				set->slots[i];
	free(set->slots);
	*set = bigger;
}

int strset_add(struct strset *set, const char *s)
{
	size_t i;

	/* at most half full: probes stay short */
	if (2 * (set->n + 1) > set->nslots)
		grow(set);
	i = slot(set, s);
	if (set->slots[i])
		return 0;
	set->slots[i] = xstrdup(s);
	set->n++;
	return 1;
}

void strset_release(struct strset *set)
{
	size_t i;

	for (i = 0; i < set->nslots; i++)
		free(set->slots[i]);
	free(set->slots);
	set->slots = NULL;
	set->nslots = set->n = 0; /* icase stays: the set can be used again */
}
