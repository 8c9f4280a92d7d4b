// SPDX-License-Identifier: GPL-2.0-only
/*
 * utf8.c: one UTF-8 decoder for the whole program, and the FNV-1a hash
 * that names spool files, MIME boundaries and generated Message-IDs.
 */
#include "robot/util/common.h"
#include "robot/util/utf8.h"

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

/* Code point ranges, inclusive, sorted; see utf8_is_invisible(). */
static const struct {
	uint32_t lo, hi;
} invisible[] = {
	{ 0x00ad, 0x00ad },   /* soft hyphen */
	{ 0x034f, 0x034f },   /* combining grapheme joiner */
	{ 0x0600, 0x0605 },   /* Arabic number signs (Cf) */
	{ 0x061c, 0x061c },   /* Arabic letter mark */
	{ 0x06dd, 0x06dd },   /* Arabic end of ayah (Cf) */
	{ 0x070f, 0x070f },   /* Syriac abbreviation mark (Cf) */
	{ 0x0890, 0x0891 },   /* Arabic pound and piastre marks (Cf) */
	{ 0x08e2, 0x08e2 },   /* Arabic disputed end of ayah (Cf) */
	{ 0x115f, 0x1160 },   /* Hangul choseong and jungseong fillers */
	{ 0x17b4, 0x17b5 },   /* Khmer inherent vowels */
	{ 0x180b, 0x180f },   /* Mongolian variation selectors, vowel sep. */
	{ 0x200b, 0x200f },   /* zero-width space, (non-)joiner, LRM, RLM */
	{ 0x202a, 0x202e },   /* bidi embeddings and overrides */
	{ 0x2060, 0x206f },   /* word joiner, invisible operators, isolates */
	{ 0x3164, 0x3164 },   /* Hangul filler */
	{ 0xfdd0, 0xfdef },   /* noncharacters */
	{ 0xfeff, 0xfeff },   /* zero-width no-break space, the BOM */
	{ 0xffa0, 0xffa0 },   /* halfwidth Hangul filler */
	{ 0xfff9, 0xfffb },   /* interlinear annotation */
	{ 0x110bd, 0x110bd }, /* Kaithi number sign (Cf) */
	{ 0x110cd, 0x110cd }, /* Kaithi number sign above (Cf) */
	{ 0x13430, 0x1343f }, /* Egyptian hieroglyph format controls */
	{ 0x1bca0, 0x1bca3 }, /* shorthand format controls */
	{ 0x1d173, 0x1d17a }, /* musical symbol format controls */
	{ 0xe0001, 0xe0001 }, /* language tag */
	{ 0xe0020, 0xe007f }, /* tags */
};

int utf8_is_invisible(uint32_t cp)
{
	size_t lo = 0, hi = ARRAY_SIZE(invisible);

	/* U+xFFFE and U+xFFFF of every plane are noncharacters */
	if ((cp & 0xfffe) == 0xfffe)
		return 1;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cp < invisible[mid].lo)
			hi = mid;
		else if (cp > invisible[mid].hi)
			lo = mid + 1;
		else
			return 1;
	}
	return 0;
}

int utf8_check_text(const char *s, unsigned flags, struct strbuf *why)
{
	size_t len = strlen(s), i = 0, n;
	uint32_t cp;

	while (i < len) {
		/* visible ASCII: no control, no invisible character */
		if ((unsigned char)s[i] >= 0x20 && (unsigned char)s[i] < 0x7f) {
			i++;
			continue;
		}
		n = utf8_char(s + i, len - i, &cp);
		if (!n) {
			if (why)
				strbuf_addf(why, "invalid UTF-8 at byte %zu",
					    i + 1);
			return -1;
		}
		if ((flags & UTF8_NEWLINES) && (cp == '\t' || cp == '\n')) {
			i += n;
			continue;
		}
		if (cp == '\n' || cp == '\r') {
			if (why)
				strbuf_addf(why, "a line break at byte %zu",
					    i + 1);
			return -1;
		}
		if (utf8_is_control(cp) ||
		    (utf8_is_invisible(cp) && !(flags & UTF8_INVISIBLE))) {
			if (why)
				strbuf_addf(
					why,
					"%s character (U+%04lX) at byte %zu",
					utf8_is_control(cp) ? "a control"
							    : "an invisible",
					(unsigned long)cp, i + 1);
			return -1;
		}
		i += n;
	}
	return 0;
}

int utf8_text(const char *s, int allow_newlines)
{
	return !utf8_check_text(s, allow_newlines ? UTF8_NEWLINES : 0, NULL);
}

void utf8_add_visible(struct strbuf *out, const char *s, size_t len)
{
	size_t i = 0, n, start = out->len;
	uint32_t cp;

	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	for (; i < len; i += n ? n : 1) {
		n = utf8_char(s + i, len - i, &cp);
		if (!n || cp == '\t' || utf8_is_control(cp) ||
		    utf8_is_invisible(cp))
			strbuf_addch(out, ' ');
		else
			strbuf_add(out, s + i, n);
	}
	while (out->len > start && out->buf[out->len - 1] == ' ')
		strbuf_setlen(out, out->len - 1);
}

uint64_t fnv1a64(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= p[i];
		h *= FNV64_PRIME;
	}
	return h;
}
