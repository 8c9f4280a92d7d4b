/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * matrix.h: reading a result root's matrix.json (or matrix.json.gz).
 *
 * The file is parsed in one streaming pass (yajl, through zlib for .gz)
 * straight into the result root's per-stat arrays; no document tree is
 * built.  Every sample keeps whether JSON wrote it as an integer.
 *
 * Memory is bounded, not text: all the matrices loaded at one time hold at
 * most MATRIX_MEM_MAX bytes (samples, names and their index), and no JSON
 * string or number may exceed MATRIX_TOKEN_MAX bytes.  A matrix beyond
 * either limit is refused with an error that names the limit.
 */
#ifndef ROBOT_MATRIX_H
#define ROBOT_MATRIX_H

#include <stddef.h>

struct result_root;
struct rt_stat;
struct strbuf;

#define MATRIX_MEM_MAX	 ((size_t)128 << 20)
#define MATRIX_TOKEN_MAX ((size_t)512 << 10)

/*
 * Reads DIR/matrix.json, or DIR/matrix.json.gz when the former does not
 * exist, into rt->nruns, rt->stats (in the file's order) and rt->nstats.
 * `*src` gets the rt->nruns stats_source strings (the caller frees each
 * and the array); `file` the name of the file read, for messages.
 * Returns 0, or -1 after one "robot: error:" line naming the file (and
 * LINE:COLUMN where the problem has a place in the text).
 */
int matrix_load(struct result_root *rt, char ***src, struct strbuf *file,
		const char *dir);
/*
 * Gives rt (its nruns set) the stats names[0..n), distinct, in that order,
 * each of nruns integer zeros, stored and found as a loaded matrix's.
 * Returns 0, or -1 after an error (a duplicate name, the memory limit).
 */
int matrix_init(struct result_root *rt, const char *const *names, size_t n);
/* Frees what matrix_load() or matrix_init() gave rt; harmless on a zeroed rt.
 */
void matrix_release(struct result_root *rt);
/* The stat called `name`, or NULL (borrowed). */
const struct rt_stat *matrix_find(const struct result_root *rt,
				  const char *name);
/* The bytes the loaded matrices hold now, of MATRIX_MEM_MAX. */
size_t matrix_mem_held(void);

#endif
