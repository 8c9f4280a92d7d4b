/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * utf8.h: UTF-8 checks shared by every module that takes text from the
 * outside (requests, commit metadata, mail headers).
 */
#ifndef ROBOT_UTF8_H
#define ROBOT_UTF8_H

#include <stddef.h>
#include <stdint.h>

struct strbuf;

/*
 * Decodes the character at s (len bytes available) into *cp.  Returns its
 * length in bytes, or 0 for an invalid sequence (RFC 3629 §3: a bad lead
 * or continuation byte, an overlong form, a surrogate, a value above
 * U+10FFFF) or len 0.
 */
size_t utf8_char(const char *s, size_t len, uint32_t *cp);
/*
 * Whether cp is a control character: C0, DEL, C1 (U+0085 NEL among them)
 * or U+2028/U+2029, all of which some reader takes for a line break.
 */
int utf8_is_control(uint32_t cp);
/* Whether the len bytes at s are valid UTF-8. */
int utf8_valid(const char *s, size_t len);
/*
 * Whether cp prints as nothing, or changes how the text around it is
 * shown without showing itself: the format characters (Unicode category
 * Cf: the bidi embeddings, overrides, isolates and marks U+061C,
 * U+200E/F, U+202A-202E, U+2066-2069; the zero-width space, joiners and
 * word joiner U+200B-200D, U+2060; the BOM U+FEFF; the soft hyphen;
 * tags), the fillers that render blank (Hangul U+115F, U+1160, U+3164,
 * U+FFA0; Khmer U+17B4/5; Mongolian U+180B-180F; U+034F) and the
 * noncharacters.  Variation selectors pass: they only pick a glyph.
 */
int utf8_is_invisible(uint32_t cp);
/* What utf8_check_text() lets pass besides visible characters. */
enum {
	UTF8_NEWLINES = 1 << 0,	 /* TAB and LF */
	UTF8_INVISIBLE = 1 << 1, /* utf8_is_invisible() (text never shown) */
};
/*
 * Visible text: valid UTF-8 without control characters (utf8_is_control)
 * and without invisible ones (utf8_is_invisible), but what `flags` lets
 * pass.  Returns 0, or -1 with the reason appended to `why` (NULL: not
 * wanted), e.g. "an invisible character (U+202E) at byte 7".
 */
int utf8_check_text(const char *s, unsigned flags, struct strbuf *why);
/* Whether s is visible text, one line or (allow_newlines) several. */
int utf8_text(const char *s, int allow_newlines);
/*
 * Appends s[0..len) as one line of visible text, blanks at its ends
 * trimmed: each control, invisible or invalid character (the tab too)
 * becomes a space, so that the result passes utf8_check_text(.., 0).
 * For what robot takes from someone's mail into a value of its own (a
 * patch's subject, its author).
 */
void utf8_add_visible(struct strbuf *out, const char *s, size_t len);

/* FNV-1a, 64 bits: deterministic names and digests, not security. */
#define FNV64_INIT  UINT64_C(0xcbf29ce484222325)
#define FNV64_PRIME UINT64_C(0x100000001b3)
uint64_t fnv1a64(uint64_t h, const void *data, size_t len);

#endif
