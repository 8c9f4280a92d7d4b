/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rubyre.h: one compiled Ruby regexp; the one home of the regex library.
 *
 * lkp-tests' tables are Ruby regexps, which robot hands to PCRE2 as they
 * are: the two agree on everything the tables use (\d \w \s ASCII-only,
 * lazy quantifiers, lookahead and lookbehind, (?: groups, POSIX classes).
 * Where they read the same text differently, the pattern is refused
 * instead: \h and \H (a hex digit in Ruby, horizontal space in PCRE2), the
 * {,n} interval (PCRE2 10.42 reads it as text) and inline options with m
 * or s (Ruby's m is PCRE2's s).
 */
#ifndef ROBOT_CONFIG_RUBYRE_H
#define ROBOT_CONFIG_RUBYRE_H

#include <stddef.h>

struct ruby_re;

enum ruby_re_flags {
	RUBY_RE_ANCHORED = 1 << 0, /* match only at the start of the text */
	RUBY_RE_OFTEN = 1 << 1,	   /* matched often: compile to machine code
				      once it has been matched a few times */
};

/*
 * Compiles the Ruby regexp src[0..len) (text, UTF-8).  Returns NULL and
 * points *why at a message on error.
 */
struct ruby_re *ruby_re_compile(const char *src, size_t len, unsigned flags,
				const char **why);
/* 1 if the regexp matches s[0..len), 0 if not, -1 if the engine gave up. */
int ruby_re_match(struct ruby_re *re, const char *s, size_t len);
void ruby_re_free(struct ruby_re *re);

#endif
