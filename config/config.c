// SPDX-License-Identifier: GPL-2.0-only
/*
 * config.c: robot.yaml.  The same schema loader as requests, so a typo in
 * a key is an error naming file:line rather than a silently ignored line.
 */
#include "robot/util/common.h"
#include "config/config.h"
#include "config/yaml.h"
#include "mail/valid.h"

#include <strings.h>
#include <unistd.h>

#define C(key, kind, member)                                           \
	{                                                              \
		key, kind, offsetof(struct robot_config, member), NULL \
	}

static const struct field config_fields[] = {
	C("spool", FIELD_PATH, spool),
	C("archive_dir", FIELD_PATH, archive_dir),
	C("archive_url", FIELD_STR, archive_url),
	C("list_archive_url", FIELD_STR, list_archive_url),
	C("disclaimer", FIELD_TEXT, disclaimer),
	C("signature", FIELD_TEXT, signature),
	C("from", FIELD_MAILBOX, from),
	C("cc", FIELD_MAILBOXES, cc),
	C("timezone", FIELD_STR, timezone),
	C("message_id_user", FIELD_STR, message_id_user),
	C("message_id_domain", FIELD_STR, message_id_domain),
	C("reported_by", FIELD_MAILBOX, reported_by),
	C("sender_name", FIELD_STR, sender_name),
	C("smtp_url", FIELD_STR, smtp_url),
	C("sendmail_cmd", FIELD_STR, sendmail_cmd),
	C("mbox", FIELD_PATH, mbox),
	C("smtp_user", FIELD_STR, smtp_user),
	C("smtp_password_file", FIELD_PATH, smtp_password_file),
	C("smtp_starttls", FIELD_STR, smtp_starttls),
	C("smtp_ca_file", FIELD_PATH, smtp_ca_file),
	C("smtp_timeout", FIELD_STR, smtp_timeout_text),
	C("envelope_from", FIELD_STR, envelope_from),
	C("staging_to", FIELD_STR, staging_to),
	C("max_per_run", FIELD_STR, max_per_run_text),
	C("max_per_hour", FIELD_STR, max_per_hour_text),
	C("max_age", FIELD_STR, max_age_text),
	C("lore_url", FIELD_STR, lore_url),
	C("lore_cache", FIELD_PATH, lore_cache),
	C("lore_cache_ttl", FIELD_STR, lore_cache_ttl_text),
	C("lore_rate", FIELD_STR, lore_rate_text),
	C("lore_timeout", FIELD_STR, lore_timeout_text),
	C("lore_max_bytes", FIELD_STR, lore_max_bytes_text),
	C("thread_lookup", FIELD_BOOL, thread_lookup),
	C("robot_addresses", FIELD_MAILBOXES, robot_addresses),
	C("reply_allow", FIELD_STRS, reply_allow),
	C("inbox", FIELD_PATH, inbox),
	C("inbox_seen", FIELD_PATH, inbox_seen),
	C("inbox_out", FIELD_PATH, inbox_out),
	C("mail_max_bytes", FIELD_STR, mail_max_bytes_text),
};

static const struct schema config_schema = { "configuration", config_fields,
					     ARRAY_SIZE(config_fields),
					     sizeof(struct robot_config) };

/*
 * The built-in defaults are neutral: robot sends as itself, from this
 * host, and links nowhere public.  The 0-day robot's identity is
 * examples/0day.yaml.  HOST stands for the host's name; `from` and
 * `message_id_domain` come first, as the later defaults derive from
 * them (FROM: the From, NAME: its display name).
 */
static const struct {
	size_t offset;
	const char *value;
} defaults[] = {
	{ offsetof(struct robot_config, spool), "/var/spool/robot" },
	{ offsetof(struct robot_config, archive_dir),
	  "/var/lib/robot/archive" },
	{ offsetof(struct robot_config, from), "robot <robot@HOST>" },
	{ offsetof(struct robot_config, timezone), "+0000" },
	{ offsetof(struct robot_config, message_id_user), "robot" },
	{ offsetof(struct robot_config, message_id_domain), "HOST" },
	{ offsetof(struct robot_config, reported_by), "FROM" },
	{ offsetof(struct robot_config, sender_name), "NAME" },
	{ offsetof(struct robot_config, smtp_starttls), "required" },
	{ offsetof(struct robot_config, max_age_text), "5d" },
	{ offsetof(struct robot_config, smtp_timeout_text), "300" },
	{ offsetof(struct robot_config, lore_url),
	  "https://lore.kernel.org/all/" },
	{ offsetof(struct robot_config, lore_cache_ttl_text), "3600" },
	{ offsetof(struct robot_config, lore_rate_text), "1" },
	{ offsetof(struct robot_config, lore_timeout_text), "30" },
	{ offsetof(struct robot_config, lore_max_bytes_text), "8388608" },
	{ offsetof(struct robot_config, mail_max_bytes_text), "16777216" },
};

/* The host's name, as a mail domain: "localhost" when it has none. */
static char *host_name(void)
{
	char buf[256];
	size_t i;

	if (gethostname(buf, sizeof(buf) - 1))
		return xstrdup("localhost");
	buf[sizeof(buf) - 1] = '\0';
	for (i = 0; buf[i]; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyz"
			    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-",
			    buf[i]))
			break;
	if (!i || buf[i] || buf[0] == '.' || buf[0] == '-' || buf[i - 1] == '.')
		return xstrdup("localhost");
	return xstrdup(buf);
}

/* The display name of "Name <addr>", else the address's local part. */
static char *display_name(const char *mailbox)
{
	const char *lt = strchr(mailbox, '<'), *at;
	size_t len;

	if (lt && lt > mailbox) {
		len = (size_t)(lt - mailbox);
		while (len && mailbox[len - 1] == ' ')
			len--;
		if (len >= 2 && mailbox[0] == '"' && mailbox[len - 1] == '"')
			return xstrndup(mailbox + 1, len - 2);
		if (len)
			return xstrndup(mailbox, len);
	}
	mailbox = lt ? lt + 1 : mailbox;
	at = strchr(mailbox, '@');
	return xstrndup(mailbox,
			at ? (size_t)(at - mailbox) : strcspn(mailbox, ">"));
}

/* A default's value: HOST, FROM and NAME replaced (see defaults[]). */
static char *default_value(const struct robot_config *cfg, const char *v)
{
	struct strbuf sb = STRBUF_INIT;
	const char *at;
	char *host = NULL;

	if (!strcmp(v, "FROM"))
		return xstrdup(cfg->from);
	if (!strcmp(v, "NAME"))
		return display_name(cfg->from);
	while ((at = strstr(v, "HOST"))) {
		if (!host)
			host = host_name();
		strbuf_add(&sb, v, (size_t)(at - v));
		strbuf_addstr(&sb, host);
		v = at + 4;
	}
	strbuf_addstr(&sb, v);
	free(host);
	return strbuf_detach(&sb, NULL);
}

static int valid_tz(const char *tz)
{
	return strlen(tz) == 5 && (tz[0] == '+' || tz[0] == '-') &&
	       strspn(tz + 1, "0123456789") == 4 && atoi(tz + 3) < 60 &&
	       (tz[1] - '0') * 10 + (tz[2] - '0') < 15;
}

/* A positive count: "100".  Returns 0 or -1 after an error naming key. */
static int parse_count(long *out, const char *text, const char *file,
		       const char *key)
{
	char *end;
	long v;

	if (!text)
		return 0;
	errno = 0;
	v = strtol(text, &end, 10);
	if (errno || end == text || *end || v <= 0 || text[0] == '+')
		return error("%s: %s: '%s' is not a positive whole number",
			     file, key, text);
	*out = v;
	return 0;
}

/* A duration: "90", "90s", "30m", "12h", "5d".  In seconds. */
static int parse_duration(long *out, const char *text, const char *file,
			  const char *key)
{
	static const struct {
		char unit;
		long seconds;
	} units[] = { { 's', 1 }, { 'm', 60 }, { 'h', 3600 }, { 'd', 86400 } };
	char *end;
	long v, mul = 1;
	size_t i;

	errno = 0;
	v = strtol(text, &end, 10);
	if (!errno && end != text && text[0] != '+' && end[0] && !end[1])
		for (i = 0, mul = 0; i < ARRAY_SIZE(units); i++)
			if (units[i].unit == end[0]) {
				mul = units[i].seconds;
				end++;
			}
	if (errno || end == text || *end || v <= 0 || !mul ||
	    v > LONG_MAX / mul)
		return error("%s: %s: '%s' is not a duration (want a number "
			     "with s, m, h or d, as 5d)",
			     file, key, text);
	*out = v * mul;
	return 0;
}

/* A whole number in [min, max] (a `key` of `file`); 0 or -1. */
static int lore_number(const char *text, long min, long max, long *out,
		       const char *file, const char *key)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(text, &end, 10);
	if (!*text || *end || errno || v < min || v > max)
		return error("%s: %s: '%s' is not a whole number from %ld "
			     "to %ld",
			     file, key, text, min, max);
	*out = v;
	return 0;
}

/* The lore lookup's numbers, and the cache's default place. */
static int lore_settings(struct robot_config *cfg, const char *file)
{
	const char *url = cfg->lore_url, *host;
	long max_bytes;
	char *end;

	host = !strncmp(url, "http://", 7)    ? url + 7
	       : !strncmp(url, "https://", 8) ? url + 8
					      : NULL;
	if (!host || !*host || *host == '/')
		return error("%s: lore_url: '%s' is not an http:// or "
			     "https:// URL",
			     file, url);
	if (lore_number(cfg->lore_cache_ttl_text, 0, 100L * 365 * 86400,
			&cfg->lore_cache_ttl, file, "lore_cache_ttl") ||
	    lore_number(cfg->lore_timeout_text, 1, 3600, &cfg->lore_timeout,
			file, "lore_timeout") ||
	    lore_number(cfg->smtp_timeout_text, 1, 3600, &cfg->smtp_timeout,
			file, "smtp_timeout") ||
	    lore_number(cfg->lore_max_bytes_text, 4096, 1L << 30, &max_bytes,
			file, "lore_max_bytes"))
		return -1;
	cfg->lore_max_bytes = (size_t)max_bytes;
	errno = 0;
	cfg->lore_rate = strtod(cfg->lore_rate_text, &end);
	if (!*cfg->lore_rate_text || *end || errno || !(cfg->lore_rate >= 0) ||
	    cfg->lore_rate > 1e6)
		return error("%s: lore_rate: '%s' is not a number of requests "
			     "a second (0: no limit)",
			     file, cfg->lore_rate_text);
	if (!cfg->lore_cache)
		cfg->lore_cache = xasprintf("%s/lore-cache", cfg->spool);
	return 0;
}

/*
 * The keys of the follow-ups: the size limit, the senders answered (an
 * address, or "@domain" for a domain and its subdomains), the places.
 */
static int reply_settings(struct robot_config *cfg, const char *file)
{
	struct strbuf why = STRBUF_INIT;
	long max_bytes;
	size_t i;
	int ret = 0;

	if (lore_number(cfg->mail_max_bytes_text, 1024, 1L << 30, &max_bytes,
			file, "mail_max_bytes"))
		return -1;
	cfg->mail_max_bytes = (size_t)max_bytes;
	for (i = 0; i < cfg->reply_allow.n && !ret; i++) {
		const char *a = cfg->reply_allow.v[i];

		strbuf_reset(&why);
		if (a[0] == '@'
			    ? !a[1] || strchr(a + 1, '@') || strpbrk(a, " <>,")
			    : valid_mailbox(a, &why) || strchr(a, '<'))
			ret = error("%s: reply_allow[%zu]: '%s' is neither an "
				    "address nor @domain",
				    file, i, a);
	}
	strbuf_release(&why);
	if (!cfg->inbox_seen)
		cfg->inbox_seen = xasprintf("%s/inbox.seen", cfg->spool);
	if (!cfg->inbox_out)
		cfg->inbox_out = xasprintf("%s/requests", cfg->spool);
	return ret;
}

/* The delivery keys that take more than a string. */
static int check_delivery(struct robot_config *cfg, const char *file)
{
	if (strcmp(cfg->smtp_starttls, "required") &&
	    strcmp(cfg->smtp_starttls, "opportunistic"))
		return error("%s: smtp_starttls: '%s' is not required or "
			     "opportunistic",
			     file, cfg->smtp_starttls);
	cfg->starttls_required = !strcmp(cfg->smtp_starttls, "required");
	return parse_count(&cfg->max_per_run, cfg->max_per_run_text, file,
			   "max_per_run") ||
	       parse_count(&cfg->max_per_hour, cfg->max_per_hour_text, file,
			   "max_per_hour") ||
	       parse_duration(&cfg->max_age, cfg->max_age_text, file,
			      "max_age");
}

/*
 * The Message-IDs robot generates, <YYYYMMDDhhmm.HEX-USER@DOMAIN>, must
 * be valid ones, and name a folder of the archive (no '/').
 */
static int check_message_id_parts(const struct robot_config *cfg,
				  const char *file)
{
	struct strbuf id = STRBUF_INIT, why = STRBUF_INIT;
	int ret = 0;

	strbuf_addf(&id, "<202301010000.00000000-%s@%s>", cfg->message_id_user,
		    cfg->message_id_domain);
	if (valid_msgid(id.buf, id.len, &why))
		ret = error("%s: message_id_user, message_id_domain: they "
			    "make %s",
			    file, why.buf);
	else if (strchr(id.buf, '/'))
		ret = error("%s: message_id_user, message_id_domain: '/' "
			    "cannot be in a Message-ID (it names a folder "
			    "under archive_dir)",
			    file);
	strbuf_release(&id);
	strbuf_release(&why);
	return ret;
}

/*
 * The disclaimer and the signature: unset, none (the disclaimer) and the
 * neutral "Thanks,\nNAME" (the signature); `0day`, the 0-day texts of
 * the report's period; `none`, no block at all; else the operator's own
 * text.  A word that is almost a keyword ("0-day", "None") is an error,
 * not a one-word text: it is surely a typo.
 */
static int operator_text(char **text, int *zero_day, const char *file,
			 const char *key)
{
	static const char *const near[] = { "0day", "0-day", "zeroday",
					    "zero-day", "none" };
	const char *v = *text;
	size_t i, len;

	if (!v)
		return 0;
	if (!strcmp(v, "0day") || !strcmp(v, "none")) {
		*zero_day = !strcmp(v, "0day");
		free(*text);
		/* none: no disclaimer, an empty signature */
		*text = *zero_day || !strcmp(key, "disclaimer") ? NULL
								: xstrdup("");
		return 0;
	}
	len = strspn(v, " \t\n");
	if (!v[len])
		return error("%s: %s: the text is empty (write none for no "
			     "%s, or leave the key out)",
			     file, key, key);
	for (i = 0; i < ARRAY_SIZE(near); i++)
		if (!strcasecmp(v, near[i]))
			return error("%s: %s: '%s' is not a keyword: 0day (the "
				     "0-day robot's text of the report's "
				     "period), none, or a text of your own",
				     file, key, v);
	return 0;
}

int config_load(struct robot_config *cfg, const char *path)
{
	const char *env = getenv("ROBOT_CONFIG");
	struct ydoc doc = { 0 };
	size_t i;
	int ret = 0;

	memset(cfg, 0, sizeof(*cfg));
	if (!path && env && *env)
		path = env;
	if (!path && !access("/etc/robot/robot.yaml", F_OK))
		path = "/etc/robot/robot.yaml";
	if (path) {
		if (ydoc_load_file(&doc, path))
			return -1;
		if (doc.root)
			ret = schema_load(cfg, &config_schema, doc.root, path);
		ydoc_release(&doc);
		if (ret)
			return -1;
	}
	for (i = 0; i < ARRAY_SIZE(defaults); i++) {
		char **p = (char **)((char *)cfg + defaults[i].offset);

		if (!*p)
			*p = default_value(cfg, defaults[i].value);
	}
	if (!valid_tz(cfg->timezone))
		return error("%s: timezone: '%s' is not of the form +HHMM",
			     path ? path : "(built-in)", cfg->timezone);
	if (operator_text(&cfg->disclaimer, &cfg->disclaimer_0day,
			  path ? path : "(built-in)", "disclaimer") ||
	    operator_text(&cfg->signature, &cfg->signature_0day,
			  path ? path : "(built-in)", "signature") ||
	    check_delivery(cfg, path ? path : "(built-in)") ||
	    check_message_id_parts(cfg, path ? path : "(built-in)") ||
	    lore_settings(cfg, path ? path : "(built-in)") ||
	    reply_settings(cfg, path ? path : "(built-in)"))
		return -1;
	cfg->file = xstrdup(path ? path : "(built-in)");
	return 0;
}

void config_release(struct robot_config *cfg)
{
	char *file = cfg->file;

	schema_release(cfg, &config_schema);
	free(file);
}
