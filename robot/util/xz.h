/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xz.h: reading and writing .xz files (liblzma lives here and nowhere else).
 *
 * LKP keeps a run's kernel log as `dmesg` or `dmesg.xz` (`kmsg`, `kmsg.xz`),
 * and the 2019-2022 reports attach it compressed.  A reader opens either
 * form and hands out the plain bytes; it tells the two apart by the xz
 * magic, not by the name.  Both directions are bounded: a reader stops
 * with an error once it has produced `max_out` bytes (a 2 KiB file that
 * decompresses to gigabytes is bad input, not work), and the decoder's
 * memory is capped.
 */
#ifndef ROBOT_XZ_H
#define ROBOT_XZ_H

#include <stddef.h>
#include <sys/types.h>

struct strbuf;
struct xz_reader;

/*
 * Opens `path`, plain or xz.  Returns NULL after an error naming the file.
 * A reader produces at most `max_out` bytes (0: no limit).
 */
struct xz_reader *xz_open(const char *path, size_t max_out);
/*
 * Reads up to `len` bytes.  Returns how many (0 at the end of the data),
 * or -1 after an error naming the file (corrupt or truncated xz data, a
 * read error, more than max_out bytes).
 */
ssize_t xz_read(struct xz_reader *r, void *buf, size_t len);
/* Whether the file is xz-compressed. */
int xz_is_compressed(const struct xz_reader *r);
void xz_close(struct xz_reader *r);

/*
 * Appends the xz compression of the plain content of `path` (read through
 * xz_open, so an .xz file is recompressed as it is) to out.  Refuses
 * content over max_in bytes.  Deterministic: the same bytes always give
 * the same file.  Returns 0, or -1 after an error.
 */
int xz_compress_file(struct strbuf *out, const char *path, size_t max_in);

#endif
