// SPDX-License-Identifier: GPL-2.0-only
/*
 * valid.c: the validators of mail/valid.h.  They are stricter than RFC
 * 5322 where robot never needs its freedom: no quoted local parts, no
 * domain literals in addresses, no comments, no obsolete forms, no
 * non-ASCII addresses.  What they accept, robot writes as it came.
 */
#include "robot/util/common.h"
#include "robot/util/utf8.h"
#include "mail/header.h"
#include "mail/valid.h"

/* RFC 5322 §3.2.3 atext */
static int is_atext(int c)
{
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9'))
		return 1;
	return c && strchr("!#$%&'*+-/=?^_`{|}~", c) != NULL;
}

static int is_alnum(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

/*
 * RFC 5322 §3.2.3 dot-atom-text: atext runs joined by single dots.
 * Returns NULL or what is wrong with s[0..len).
 */
static const char *dot_atom_text(const char *s, size_t len)
{
	size_t i;

	if (!len)
		return "is empty";
	if (s[0] == '.' || s[len - 1] == '.')
		return "starts or ends with a dot";
	for (i = 0; i < len; i++) {
		if (s[i] == '.' && s[i + 1] == '.')
			return "has two dots in a row";
		if (s[i] != '.' && !is_atext((unsigned char)s[i]))
			return "has a character that needs quoting";
	}
	if (memmem(s, len, "=?", 2))
		return "holds \"=?\", which mail readers decode as an "
		       "encoded-word";
	return NULL;
}

/* A host name: labels of letters, digits and inner hyphens (RFC 1123). */
static const char *host_name(const char *s, size_t len)
{
	size_t i, start = 0;

	if (!len)
		return "is empty";
	if (len > 253)
		return "is longer than 253 characters";
	for (i = 0; i <= len; i++) {
		if (i < len && s[i] != '.') {
			if (!is_alnum((unsigned char)s[i]) && s[i] != '-')
				return "has a character a host name cannot "
				       "have";
			continue;
		}
		if (i == start)
			return "has an empty label";
		if (s[start] == '-' || s[i - 1] == '-')
			return "has a label that starts or ends with '-'";
		if (i - start > 63)
			return "has a label longer than 63 characters";
		start = i + 1;
	}
	return NULL;
}

int valid_addr_spec(const char *s, size_t len, struct strbuf *why)
{
	const char *at = memchr(s, '@', len), *bad = NULL, *part = "it ";

	if (!at) {
		bad = "has no '@'";
	} else if (memchr(at + 1, '@', s + len - at - 1)) {
		bad = "has more than one '@'";
	} else if ((bad = dot_atom_text(s, at - s))) {
		part = "its local part ";
	} else if (at - s > 64) {
		part = "its local part ";
		bad = "is longer than 64 characters";
	} else if ((bad = host_name(at + 1, s + len - at - 1))) {
		part = "its domain ";
	}
	if (!bad)
		return 0;
	if (why)
		strbuf_addf(why, "'%.*s' is not an address: %s%s", (int)len, s,
			    part, bad);
	return -1;
}

int valid_display_name(const char *s, struct strbuf *why)
{
	struct strbuf sb = STRBUF_INIT;

	if (!utf8_check_text(s, 0, &sb)) {
		strbuf_release(&sb);
		return 0;
	}
	if (why)
		strbuf_addf(why, "the name '%s' is not visible text: %s",
			    utf8_valid(s, strlen(s)) ? s : "(invalid UTF-8)",
			    sb.buf);
	strbuf_release(&sb);
	return -1;
}

/*
 * Parses s as a mailbox list and checks every display name; `n` gets the
 * number of mailboxes.
 */
static int check_list(const char *s, struct strbuf *why, size_t *n)
{
	struct hdr_addr_list list = HDR_ADDR_LIST_INIT;
	struct strbuf sb = STRBUF_INIT;
	size_t i;
	int ret = 0;

	*n = 0;
	if (utf8_check_text(s, 0, &sb)) {
		if (why)
			strbuf_addf(
				why,
				"must be one line of visible UTF-8 text (%s)",
				sb.buf);
		strbuf_release(&sb);
		return -1;
	}
	if (hdr_parse_addresses(&list, s, why ? why : &sb) < 0)
		ret = -1;
	for (i = 0; !ret && i < list.nr; i++)
		if (list.v[i].display)
			ret = valid_display_name(list.v[i].display, why);
	*n = list.nr;
	hdr_addr_list_release(&list);
	strbuf_release(&sb);
	return ret;
}

int valid_mailbox(const char *s, struct strbuf *why)
{
	size_t n;

	if (check_list(s, why, &n))
		return -1;
	if (n == 1)
		return 0;
	if (why)
		strbuf_addf(why,
			    "'%s' holds %zu addresses, not one (a list takes "
			    "one address per item)",
			    s, n);
	return -1;
}

int valid_mailbox_list(const char *s, struct strbuf *why)
{
	size_t n;

	return check_list(s, why, &n);
}

/* RFC 5322 §3.6.4 no-fold-literal: "[" *dtext "]" */
static int no_fold_literal(const char *s, size_t len)
{
	size_t i;

	if (len < 2 || s[0] != '[' || s[len - 1] != ']')
		return 0;
	for (i = 1; i + 1 < len; i++)
		if ((unsigned char)s[i] < 33 || (unsigned char)s[i] > 126 ||
		    s[i] == '[' || s[i] == ']' || s[i] == '\\')
			return 0;
	return 1;
}

int valid_msgid(const char *s, size_t len, struct strbuf *why)
{
	const char *at, *bad = NULL, *part = "";
	size_t right;

	if (len < 2 || s[0] != '<' || s[len - 1] != '>') {
		bad = "is not in angle brackets";
	} else if (!(at = memchr(s, '@', len))) {
		bad = "has no '@'";
	} else if ((bad = dot_atom_text(s + 1, at - s - 1))) {
		part = "the part before '@' ";
	} else {
		right = s + len - 1 - (at + 1);
		if (!no_fold_literal(at + 1, right) &&
		    (bad = dot_atom_text(at + 1, right)))
			part = "the part after '@' ";
	}
	if (!bad)
		return 0;
	if (why)
		strbuf_addf(why, "'%.*s' is not one <id@host>: %s%s%s",
			    (int)len, s, part, *part ? "" : "it ", bad);
	return -1;
}

int valid_file_name(const char *s, struct strbuf *why)
{
	struct strbuf sb = STRBUF_INIT;
	const char *bad = NULL;
	size_t len = strlen(s);

	if (utf8_check_text(s, 0, &sb)) {
		if (why)
			strbuf_addf(why,
				    "the file name is not visible text: %s",
				    sb.buf);
		strbuf_release(&sb);
		return -1;
	}
	if (!len)
		bad = "is empty";
	else if (len > VALID_FILE_NAME_MAX)
		bad = "is longer than 255 bytes";
	else if (strchr(s, '/') || strchr(s, '\\'))
		bad = "is not a base name: it has a '/' or '\\'";
	else if (!strcmp(s, ".") || !strcmp(s, ".."))
		bad = "is not a base name";
	if (!bad)
		return 0;
	if (why)
		strbuf_addf(why, "the file name '%s' %s", s, bad);
	return -1;
}
