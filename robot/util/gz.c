// SPDX-License-Identifier: GPL-2.0-only
/*
 * gz.c: gunzip in memory, with a cap on the unpacked size so that a small
 * answer cannot unpack into gigabytes; and a streaming reader of gzip
 * files, whose callers bound what they keep.
 */
#include "robot/util/common.h"
#include "robot/util/gz.h"

#include <unistd.h>
#include <zlib.h>

int gz_magic(const void *data, size_t len)
{
	const unsigned char *p = data;

	return len >= 2 && p[0] == 0x1f && p[1] == 0x8b;
}

enum gz_result gunzip_mem(struct strbuf *out, const void *in, size_t len,
			  size_t max)
{
	size_t old = out->len;
	z_stream z;
	int zr = Z_OK;

	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, 15 + 16) != Z_OK)
		return GZ_CORRUPT;
	z.next_in = (Bytef *)(uintptr_t)in;
	z.avail_in = (uInt)(len < UINT_MAX ? len : UINT_MAX);
	for (;;) {
		size_t room;

		strbuf_grow(out, 65536);
		room = out->alloc - out->len - 1;
		z.next_out = (Bytef *)out->buf + out->len;
		z.avail_out = (uInt)(room < UINT_MAX ? room : UINT_MAX);
		zr = inflate(&z, Z_NO_FLUSH);
		strbuf_setlen(out, (size_t)((char *)z.next_out - out->buf));
		if (out->len - old > max) {
			zr = Z_MEM_ERROR;
			break;
		}
		if (zr == Z_STREAM_END) {
			/* concatenated members: gzip -c a b */
			if (!z.avail_in)
				break;
			if (inflateReset(&z) != Z_OK)
				break;
			continue;
		}
		if (zr != Z_OK)
			break;
		if (!z.avail_in && z.avail_out) {
			zr = Z_DATA_ERROR; /* cut short */
			break;
		}
	}
	inflateEnd(&z);
	if (zr == Z_STREAM_END)
		return GZ_OK;
	strbuf_setlen(out, old);
	return zr == Z_MEM_ERROR ? GZ_TOO_BIG : GZ_CORRUPT;
}

struct gz_reader {
	gzFile gz;
};

struct gz_reader *gz_reader_open(int fd, size_t bufsize)
{
	struct gz_reader *r = xmalloc(sizeof(*r));

	r->gz = gzdopen(fd, "rb");
	if (!r->gz) {
		close(fd);
		free(r);
		return NULL;
	}
	gzbuffer(r->gz, (unsigned)(bufsize < UINT_MAX ? bufsize : UINT_MAX));
	return r;
}

long gz_reader_read(struct gz_reader *r, void *buf, size_t len)
{
	int n, errnum;

	n = gzread(r->gz, buf, (unsigned)(len < INT_MAX ? len : INT_MAX));
	if (n < 0) {
		gzerror(r->gz, &errnum);
		return errnum == Z_ERRNO ? GZ_READ_ERRNO : GZ_READ_CORRUPT;
	}
	if (n && gzdirect(r->gz))
		return GZ_READ_NOT_GZIP;
	/* a truncated stream ends without an error of gzread() */
	if (!n && (gzerror(r->gz, &errnum), errnum != Z_OK))
		return errnum == Z_ERRNO ? GZ_READ_ERRNO : GZ_READ_CORRUPT;
	return n;
}

const char *gz_reader_error(struct gz_reader *r)
{
	int errnum;
	const char *msg = gzerror(r->gz, &errnum);

	return msg ? msg : "";
}

int gz_reader_close(struct gz_reader *r, int *code)
{
	int rc;

	if (!r)
		return GZ_OK;
	/* gzclose_r() also closes the fd and reports a bad trailer */
	rc = gzclose_r(r->gz);
	free(r);
	if (code)
		*code = rc;
	return rc == Z_OK ? GZ_OK : GZ_CORRUPT;
}
