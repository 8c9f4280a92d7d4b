/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rubyfmt.h: printf("%.Nf") and printf("%.Ng") of a double as Ruby prints
 * them.
 *
 * lkp-tests formats its tables with Ruby's sprintf, whose float conversion
 * (Ruby's dtoa, modes 2 and 3) differs from glibc's correctly rounded
 * printf in one place: when its quick floating-point estimate cannot tell
 * whether the dropped remainder is above or below one half, Ruby rounds
 * the last digit half-to-even instead of looking at the exact value.  So
 * Ruby prints 2.675 (really 2.67499999999999982236...) as "2.68" where
 * glibc prints "2.67".  Averages of two-decimal samples land on such
 * near-ties often enough to matter for byte-exact reports.
 */
#ifndef ROBOT_RUBYFMT_H
#define ROBOT_RUBYFMT_H

struct strbuf;

/*
 * Appends `v` formatted as Ruby's sprintf("%<flags><width>.<prec><conv>")
 * would: conv is 'f' or 'g', flags is "" or "+".  Infinity and NaN are
 * spelled "Inf" and "NaN" (with a '+' under the "+" flag), as Ruby does.
 */
void rubyfmt(struct strbuf *out, const char *flags, int width, int prec,
	     char conv, double v);
/*
 * Ruby's sprintf("%<width>d") of a Float: truncated toward zero
 * (Infinity and NaN spelled as rubyfmt() does).
 */
void rubyfmt_trunc(struct strbuf *out, int width, double v);

#endif
