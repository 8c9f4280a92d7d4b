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
		/* fnv1a64()'s step, inline: one call a byte cost more than
		 * the hash */
		h = (h ^ c) * FNV64_PRIME;
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

static void grow(struct strset *set, int vals)
{
	struct strset bigger = { NULL, set->nslots ? 2 * set->nslots : 16,
				 set->n, set->icase, NULL };
	size_t i;

	bigger.slots = xcalloc(bigger.nslots, sizeof(*bigger.slots));
	if (vals || set->vals)
		bigger.vals = xcalloc(bigger.nslots, sizeof(*bigger.vals));
	for (i = 0; i < set->nslots; i++)
		if (set->slots[i]) {
			size_t k = slot(&bigger, set->slots[i]);

			bigger.slots[k] = set->slots[i];
			if (set->vals)
				bigger.vals[k] = set->vals[i];
		}
	free(set->slots);
	free(set->vals);
	*set = bigger;
}

/* The slot of s, added when it was not there (*added says so). */
static size_t add(struct strset *set, const char *s, int vals, int *added)
{
	size_t i;

	/* at most half full: probes stay short */
	if (2 * (set->n + 1) > set->nslots || (vals && !set->vals))
		grow(set, vals);
	i = slot(set, s);
	*added = !set->slots[i];
	if (*added) {
		set->slots[i] = xstrdup(s);
		set->n++;
	}
	return i;
}

int strset_add(struct strset *set, const char *s)
{
	int added;

	add(set, s, 0, &added);
	return added;
}

int strset_put(struct strset *set, const char *s, size_t v)
{
	int added;
	size_t i = add(set, s, 1, &added);

	if (added)
		set->vals[i] = v;
	return added;
}

int strset_get(const struct strset *set, const char *s, size_t *v)
{
	size_t i;

	if (!set->nslots)
		return 0;
	i = slot(set, s);
	if (!set->slots[i])
		return 0;
	*v = set->vals ? set->vals[i] : 0;
	return 1;
}

void strset_release(struct strset *set)
{
	size_t i;

	for (i = 0; i < set->nslots; i++)
		free(set->slots[i]);
	free(set->slots);
	free(set->vals);
	set->slots = NULL;
	set->vals = NULL;
	set->nslots = set->n = 0; /* icase stays: the set can be used again */
}
