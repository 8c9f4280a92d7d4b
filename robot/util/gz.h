/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gz.h: gunzip (zlib), in memory for answers that arrive gzipped (a
 * public-inbox archive's mboxes), and as a stream for files read chunk by
 * chunk (matrix.json.gz).  Part of the util module, and robot's one user
 * of zlib.
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

/* A gzip file read as a stream. */
struct gz_reader;

/* What gz_reader_read() returns when it fails. */
enum gz_read_error {
	GZ_READ_ERRNO = -1,    /* a read error: errno says which */
	GZ_READ_CORRUPT = -2,  /* damaged, or cut short */
	GZ_READ_NOT_GZIP = -3, /* the file does not start like gzip */
};

/*
 * A reader of the gzip file open on fd, through a buffer of `bufsize`
 * bytes; the reader owns fd from now on.  NULL when out of memory (fd
 * closed).
 */
struct gz_reader *gz_reader_open(int fd, size_t bufsize);
/*
 * Reads up to `len` bytes of the unpacked data.  Returns how many (0 at
 * the end), or an enum gz_read_error (for GZ_READ_CORRUPT,
 * gz_reader_error() says how).
 */
long gz_reader_read(struct gz_reader *r, void *buf, size_t len);
/* zlib's words for the last GZ_READ_CORRUPT ("" when it has none). */
const char *gz_reader_error(struct gz_reader *r);
/*
 * Closes the reader and its fd.  Returns GZ_OK, or GZ_CORRUPT when the
 * trailer is bad; *code (if not NULL) gets zlib's code for it.  Harmless
 * on NULL.
 */
int gz_reader_close(struct gz_reader *r, int *code);

#endif
