/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lint.h: the last check before a message is queued.  It reads the
 * rendered bytes (LF line ends, as msg_render() writes them), so it also
 * judges a message that came from somewhere else.
 */
#ifndef ROBOT_MAIL_LINT_H
#define ROBOT_MAIL_LINT_H

#include <stddef.h>

struct strbuf;

/*
 * Returns 0 when the message is fit to queue.  Otherwise returns -1 and
 * appends every reason found to `why`, separated by "; " (nothing is
 * printed; the caller reports it).  A message fails when
 *
 *   - it holds a NUL byte or a CR (the spool form has LF line ends);
 *   - any line is over 998 bytes (RFC 5322 §2.1.1);
 *   - the header does not parse (libetpan's RFC 5322 parser and robot's
 *     own), or a structured field in it does not;
 *   - it has not exactly one Date, From and Message-ID (RFC 5322 §3.6);
 *   - From, To or Cc hold something that is not an address, or To and Cc
 *     hold no recipient at all;
 *   - the Subject is missing or blank, or the body is;
 *   - it is multipart and the MIME structure does not parse, lacks its
 *     closing delimiter, or has an empty part.
 */
int msg_lint(const char *bytes, size_t len, struct strbuf *why);

#endif
