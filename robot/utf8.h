/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * utf8.h: UTF-8 checks shared by every module that takes text from the
 * outside (requests, commit metadata, mail headers).
 */
#ifndef ROBOT_UTF8_H
#define ROBOT_UTF8_H

#include <stddef.h>
#include <stdint.h>

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
 * Whether the string s is valid UTF-8 free of control characters; with
 * allow_newlines, TAB and LF pass.
 */
int utf8_text(const char *s, int allow_newlines);

/* FNV-1a, 64 bits: deterministic names and digests, not security. */
#define FNV64_INIT UINT64_C(0xcbf29ce484222325)
uint64_t fnv1a64(uint64_t h, const void *data, size_t len);

#endif
