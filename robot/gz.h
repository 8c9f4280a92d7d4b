/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gz.h: gunzip in memory (zlib), for answers that arrive gzipped (a
 * public-inbox archive's mboxes).  Part of the util module.
 */
#ifndef ROBOT_GZ_H
#define ROBOT_GZ_H

#include <stddef.h>

struct strbuf;

enum gz_result {
	GZ_OK = 0,
	GZ_CORRUPT = -1, /* not gzip, damaged, or cut short */
	GZ_TOO_BIG = -2, /* more than `max` bytes once unpacked */
};

/*
 * Appends the data of the gzip stream(s) in[0..len) to out, at most `max`
 * bytes of it.  Returns GZ_OK, or GZ_CORRUPT / GZ_TOO_BIG with out
 * restored to its old length.
 */
enum gz_result gunzip_mem(struct strbuf *out, const void *in, size_t len,
			  size_t max);

/* Whether data starts like a gzip stream (1f 8b). */
int gz_magic(const void *data, size_t len);

#endif
