/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * guard.h: which mails robot answers.  A robot that answers mail must not
 * start a conversation with itself or with another robot, nor answer
 * people it was not asked to serve.  robot answers a mail only when
 *
 *   - it is not one of robot's own (its From is one of robot's addresses,
 *     or robot's spool holds its Message-ID: a copy coming back through a
 *     list);
 *   - it is no automatic mail: no Auto-Submitted other than "no"
 *     (RFC 3834), no X-Autoreply other than "no", no Precedence bulk,
 *     list or junk, not from a mailer daemon (an empty or MAILER-DAEMON
 *     Return-Path, a From of MAILER-DAEMON@...), and no X-Loop naming
 *     one of robot's addresses;
 *   - it is addressed to robot: one of robot's addresses is in To or Cc;
 *   - its senders are on the allowlist (`reply_allow`: addresses and
 *     @domains), when the configuration has one: every From address, and
 *     every address the answer would go To (Mail-Followup-To, Reply-To;
 *     robot's own left out).  The mail's To and Cc, which the answer
 *     copies, are copied only when allowed (guard_may_copy).
 *
 * robot's addresses are the configuration's `from` and `robot_addresses`,
 * and the From a request gives (the operator robot writes as).
 */
#ifndef ROBOT_GUARD_H
#define ROBOT_GUARD_H

struct followup;
struct robot_config;
struct spool;
struct strbuf;

/*
 * Whether `addr` is one of robot's addresses; `extra` is one more mailbox
 * ("Name <a@b>", a request's from), or NULL.
 */
int guard_is_robot(const struct robot_config *cfg, const char *extra,
		   const char *addr);

/*
 * Whether an answer may copy `addr` (a To or Cc of the mail answered):
 * robot's own, on reply_allow (or no reply_allow), or one of the
 * configuration's cc (the lists robot reports to).
 */
int guard_may_copy(const struct robot_config *cfg, const char *extra,
		   const char *addr);

/*
 * 0 when robot may answer `f`, else 1 with the reason appended to `why`
 * ("it is an automatic reply (Auto-Submitted: auto-replied)").  `spool`
 * (or NULL) is searched for the mail's Message-ID.
 */
int guard_check(const struct followup *f, const struct robot_config *cfg,
		const char *extra, struct spool *spool, struct strbuf *why);

#endif
