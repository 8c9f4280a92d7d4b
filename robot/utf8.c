// SPDX-License-Identifier: GPL-2.0-only
/*
 * utf8.c: one UTF-8 decoder for the whole program, and the FNV-1a hash
 * that names spool files, MIME boundaries and generated Message-IDs.
 */
#include "common.h"
#include "utf8.h"

static int is_cont(unsigned char c)
{
	return (c & 0xc0) == 0x80;
}

size_t utf8_char(const char *s, size_t len, uint32_t *cp)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n, i;
	uint32_t v, min;

	if (!len)
		return 0;
	if (p[0] < 0x80) {
		*cp = p[0];
		return 1;
	}
	if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		n = 2, v = p[0] & 0x1f, min = 0x80;
	} else if (p[0] >= 0xe0 && p[0] <= 0xef) {
		n = 3, v = p[0] & 0x0f, min = 0x800;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		n = 4, v = p[0] & 0x07, min = 0x10000;
	} else {
		return 0;
	}
	if (len < n)
		return 0;
	for (i = 1; i < n; i++) {
		if (!is_cont(p[i]))
			return 0;
		v = (v << 6) | (p[i] & 0x3f);
	}
	/* RFC 3629 §3: no overlongs, no surrogates, nothing past U+10FFFF */
	if (v < min || (v >= 0xd800 && v <= 0xdfff) || v > 0x10ffff)
		return 0;
	*cp = v;
	return n;
}

int utf8_valid(const char *s, size_t len)
{
	size_t i = 0, n;
	uint32_t cp;

	while (i < len) {
		n = utf8_char(s + i, len - i, &cp);
		if (!n)
			return 0;
		i += n;
	}
	return 1;
}

int utf8_is_control(uint32_t cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0x2028 ||
	       cp == 0x2029;
}

int utf8_text(const char *s, int allow_newlines)
{
	size_t len = strlen(s), i = 0, n;
	uint32_t cp;

	while (i < len) {
		n = utf8_char(s + i, len - i, &cp);
		if (!n)
			return 0;
		if (utf8_is_control(cp) &&
		    !(allow_newlines && (cp == '\t' || cp == '\n')))
			return 0;
		i += n;
	}
	return 1;
}

uint64_t fnv1a64(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= p[i];
		h *= UINT64_C(0x100000001b3);
	}
	return h;
}
