// SPDX-License-Identifier: GPL-2.0-only
/*
 * gz.c: gunzip in memory, with a cap on the unpacked size so that a small
 * answer cannot unpack into gigabytes.
 */
#include "common.h"
#include "gz.h"

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
