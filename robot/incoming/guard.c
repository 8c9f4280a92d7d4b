// SPDX-License-Identifier: GPL-2.0-only
/*
 * guard.c: the mails robot does not answer (guard.h).
 */
#include "robot/util/common.h"
#include "robot/incoming/followup.h"
#include "robot/incoming/guard.h"
#include "robot/delivery/record.h"
#include "config/config.h"

#include <strings.h>

/* Whether the mailbox text `box` ("Name <a@b>" or "a@b") is `addr`. */
static int same_mailbox(const char *box, const char *addr)
{
	struct hdr_addr_list l = HDR_ADDR_LIST_INIT;
	struct strbuf why = STRBUF_INIT;
	int ret = 0;
	size_t i;

	if (box && !hdr_parse_addresses(&l, box, &why))
		for (i = 0; i < l.nr; i++)
			if (!strcasecmp(l.v[i].addr, addr))
				ret = 1;
	hdr_addr_list_release(&l);
	strbuf_release(&why);
	return ret;
}

int guard_is_robot(const struct robot_config *cfg, const char *extra,
		   const char *addr)
{
	size_t i;

	if (!addr || !*addr)
		return 0;
	if (same_mailbox(cfg->from, addr) || same_mailbox(extra, addr))
		return 1;
	for (i = 0; i < cfg->robot_addresses.n; i++)
		if (same_mailbox(cfg->robot_addresses.v[i], addr))
			return 1;
	return 0;
}

/* An address on the allowlist: itself, or "@domain" (and subdomains). */
static int allowed(const struct robot_config *cfg, const char *addr)
{
	const char *at = strrchr(addr, '@');
	size_t i;

	if (!cfg->reply_allow.n)
		return 1;
	for (i = 0; i < cfg->reply_allow.n; i++) {
		const char *a = cfg->reply_allow.v[i];

		if (a[0] != '@') {
			if (same_mailbox(a, addr))
				return 1;
			continue;
		}
		if (at) {
			size_t dl = strlen(at + 1), al = strlen(a + 1);

			if (!strcasecmp(at + 1, a + 1) ||
			    (dl > al && at[1 + dl - al - 1] == '.' &&
			     !strcasecmp(at + 1 + dl - al, a + 1)))
				return 1;
		}
	}
	return 0;
}

int guard_may_copy(const struct robot_config *cfg, const char *extra,
		   const char *addr)
{
	size_t i;

	if (guard_is_robot(cfg, extra, addr) || allowed(cfg, addr))
		return 1;
	for (i = 0; i < cfg->cc.n; i++)
		if (same_mailbox(cfg->cc.v[i], addr))
			return 1;
	return 0;
}

/*
 * reply_allow holds for every From address and every address the answer
 * goes To (Mail-Followup-To, Reply-To): 1 with the reason when one is
 * not allowed.
 */
static int not_allowed(const struct followup *f, const struct robot_config *cfg,
		       const char *extra, struct strbuf *why)
{
	const struct hdr_addr_list *lists[] = { &f->from, &f->reply_to,
						&f->followup_to };
	static const char *const names[] = { "From", "Reply-To",
					     "Mail-Followup-To" };
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(lists); i++)
		for (j = 0; j < lists[i]->nr; j++) {
			const char *a = lists[i]->v[j].addr;

			if (i && guard_is_robot(cfg, extra, a))
				continue;
			if (allowed(cfg, a))
				continue;
			if (!i && lists[i]->nr == 1)
				strbuf_addf(why,
					    "its sender %s is not in "
					    "reply_allow",
					    a);
			else
				strbuf_addf(why,
					    "its %s address %s is not in "
					    "reply_allow",
					    names[i], a);
			return 1;
		}
	return 0;
}

static int addresses_robot(const struct followup *f,
			   const struct robot_config *cfg, const char *extra)
{
	const struct hdr_addr_list *lists[] = { &f->to, &f->cc };
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(lists); i++)
		for (j = 0; j < lists[i]->nr; j++)
			if (guard_is_robot(cfg, extra, lists[i]->v[j].addr))
				return 1;
	return 0;
}

/* The value of a field, trimmed, lower case, into `out` ("" if none). */
static void field_lc(const struct followup *f, const char *name,
		     struct strbuf *out)
{
	const char *v = inmsg_get(&f->msg, name), *e;

	strbuf_reset(out);
	if (!v)
		return;
	v += strspn(v, " \t");
	e = v + strlen(v);
	while (e > v && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	for (; v < e; v++)
		strbuf_addch(out, *v >= 'A' && *v <= 'Z' ? *v + 32 : *v);
}

/* An X-Loop field naming one of robot's addresses (into `v`). */
static int loops(const struct followup *f, const struct robot_config *cfg,
		 const char *extra, struct strbuf *v)
{
	size_t i;

	for (i = 0; i < f->msg.nr; i++) {
		const char *val = f->msg.f[i].value, *a;
		char *addr;
		size_t len;
		int ret;

		if (strcasecmp(f->msg.f[i].name, "X-Loop"))
			continue;
		a = val + strspn(val, " \t<");
		len = strcspn(a, " \t>");
		addr = xstrndup(a, len);
		ret = guard_is_robot(cfg, extra, addr);
		if (ret) {
			strbuf_reset(v);
			strbuf_addstr(v, addr);
		}
		free(addr);
		if (ret)
			return 1;
	}
	return 0;
}

int guard_check(const struct followup *f, const struct robot_config *cfg,
		const char *extra, struct spool *spool, struct strbuf *why)
{
	const char *sender = followup_sender(f);
	struct strbuf v = STRBUF_INIT;
	int ret = 1;

	if (!*sender) {
		strbuf_addstr(why, "it has no From address to answer");
		goto out;
	}
	if (guard_is_robot(cfg, extra, sender)) {
		strbuf_addf(why, "it is robot's own mail (From: %s)", sender);
		goto out;
	}
	if (spool && f->message_id &&
	    record_find_message(spool, f->message_id, NULL, NULL) > 0) {
		strbuf_addf(why, "it is robot's own mail (%s is in the spool)",
			    f->message_id);
		goto out;
	}
	field_lc(f, "Auto-Submitted", &v);
	if (v.len && strcmp(v.buf, "no") && strncmp(v.buf, "no;", 3) &&
	    strncmp(v.buf, "no ", 3)) {
		/* a header's value, at most 80 bytes of it in the line */
		strbuf_addf(why,
			    "it is an automatic mail (Auto-Submitted: %.80s)",
			    v.buf);
		goto out;
	}
	field_lc(f, "Precedence", &v);
	if (!strcmp(v.buf, "bulk") || !strcmp(v.buf, "list") ||
	    !strcmp(v.buf, "junk")) {
		strbuf_addf(why, "it is a %s mail (Precedence: %s)", v.buf,
			    v.buf);
		goto out;
	}
	field_lc(f, "Return-Path", &v);
	if (!strcmp(v.buf, "<>") || strstr(v.buf, "mailer-daemon")) {
		strbuf_addf(why,
			    "it comes from a mailer daemon (Return-Path: "
			    "%.80s)",
			    v.buf);
		goto out;
	}
	if (!strncasecmp(sender, "mailer-daemon@", 14)) {
		strbuf_addf(why, "it comes from a mailer daemon (From: %s)",
			    sender);
		goto out;
	}
	field_lc(f, "X-Autoreply", &v);
	if (v.len && strcmp(v.buf, "no")) {
		strbuf_addf(why, "it is an automatic mail (X-Autoreply: %.40s)",
			    v.buf);
		goto out;
	}
	if (loops(f, cfg, extra, &v)) {
		strbuf_addf(why, "it has been through robot (X-Loop: %s)",
			    v.buf);
		goto out;
	}
	if (!addresses_robot(f, cfg, extra)) {
		strbuf_addstr(why, "it is not addressed to robot (none of its "
				   "addresses is in To or Cc)");
		goto out;
	}
	if (not_allowed(f, cfg, extra, why))
		goto out;
	ret = 0;
out:
	strbuf_release(&v);
	return ret;
}
