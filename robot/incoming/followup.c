// SPDX-License-Identifier: GPL-2.0-only
/*
 * followup.c: a mail answering a report, in robot's terms (followup.h).
 */
#include "robot/util/common.h"
#include "robot/util/strset.h"
#include "robot/incoming/followup.h"

#include <strings.h>

/* Adds id to the references, once (`seen` holds those added). */
static void add_ref(struct followup *f, struct strset *seen, const char *id)
{
	if (!strset_add(seen, id))
		return;
	ALLOC_GROW(f->refs, f->nrefs + 1, f->alloc_refs);
	f->refs[f->nrefs++] = xstrdup(id);
}

static char *first_id(const struct inmsg *m, const char *field)
{
	char **ids = NULL;
	size_t nr = 0, alloc = 0, i;
	char *ret = NULL;

	inmsg_msgids(m, field, &ids, &nr, &alloc);
	if (nr)
		ret = xstrdup(ids[0]);
	for (i = 0; i < nr; i++)
		free(ids[i]);
	free(ids);
	return ret;
}

/* Everything but the raw fields and parts, from them. */
static int fill(struct followup *f)
{
	struct strbuf sb = STRBUF_INIT;
	struct strset seen = STRSET_INIT;
	char **ids = NULL;
	size_t nr = 0, alloc = 0, i;

	f->message_id = first_id(&f->msg, "Message-ID");
	f->in_reply_to = first_id(&f->msg, "In-Reply-To");
	inmsg_msgids(&f->msg, "References", &ids, &nr, &alloc);
	for (i = 0; i < nr; i++) {
		add_ref(f, &seen, ids[i]);
		free(ids[i]);
	}
	free(ids);
	if (f->in_reply_to)
		add_ref(f, &seen, f->in_reply_to);
	strset_release(&seen);
	if (inmsg_text(&f->msg, "Subject", &sb))
		strbuf_reset(&sb);
	f->subject = strbuf_detach(&sb, NULL);
	inmsg_addresses(&f->msg, "From", &f->from);
	inmsg_addresses(&f->msg, "To", &f->to);
	inmsg_addresses(&f->msg, "Cc", &f->cc);
	inmsg_addresses(&f->msg, "Reply-To", &f->reply_to);
	inmsg_addresses(&f->msg, "Mail-Followup-To", &f->followup_to);
	f->has_date = !inmsg_date_zone(&f->msg, &f->date, &f->tz);
	/* the text: the first text part that is not an attachment */
	for (i = 0; i < f->mime.n; i++) {
		const struct inpart *p = &f->mime.v[i];

		if (p->attachment || strcmp(p->type, "text/plain"))
			continue;
		inpart_text(p, &sb);
		break;
	}
	f->text = strbuf_detach(&sb, NULL);
	return 0;
}

static int parsed(struct followup *f, const char *name)
{
	struct strbuf why = STRBUF_INIT;

	if (inmime_parse(&f->mime, &f->msg, &why)) {
		error("%s: malformed MIME: %s", name, why.buf);
		strbuf_release(&why);
		return EXIT_DATAERR;
	}
	strbuf_release(&why);
	return fill(f);
}

int followup_read(struct followup *f, const char *path, size_t max_bytes)
{
	struct strbuf why = STRBUF_INIT;

	memset(f, 0, sizeof(*f));
	f->path = xstrdup(path);
	if (inmsg_read_file(&f->msg, path, max_bytes, &why)) {
		int runtime = errno != 0;

		error("%s", why.buf);
		strbuf_release(&why);
		return runtime ? EXIT_RUNTIME : EXIT_DATAERR;
	}
	strbuf_release(&why);
	return parsed(f, path);
}

int followup_parse(struct followup *f, const char *name, const char *raw,
		   size_t len)
{
	struct strbuf why = STRBUF_INIT;

	memset(f, 0, sizeof(*f));
	f->path = xstrdup(name);
	if (inmsg_parse(&f->msg, raw, len, &why)) {
		error("%s: %s", name, why.buf);
		strbuf_release(&why);
		return EXIT_DATAERR;
	}
	strbuf_release(&why);
	return parsed(f, name);
}

void followup_release(struct followup *f)
{
	size_t i;

	free(f->path);
	inmsg_release(&f->msg);
	inmime_release(&f->mime);
	free(f->message_id);
	free(f->in_reply_to);
	for (i = 0; i < f->nrefs; i++)
		free(f->refs[i]);
	free(f->refs);
	free(f->subject);
	hdr_addr_list_release(&f->from);
	hdr_addr_list_release(&f->to);
	hdr_addr_list_release(&f->cc);
	hdr_addr_list_release(&f->reply_to);
	hdr_addr_list_release(&f->followup_to);
	free(f->text);
	memset(f, 0, sizeof(*f));
}

const char *followup_sender(const struct followup *f)
{
	return f->from.nr ? f->from.v[0].addr : "";
}

const char *followup_sender_name(const struct followup *f)
{
	if (!f->from.nr)
		return "";
	return f->from.v[0].display && *f->from.v[0].display
		       ? f->from.v[0].display
		       : f->from.v[0].addr;
}

void followup_first_name(const struct followup *f, struct strbuf *out)
{
	const char *d = f->from.nr ? f->from.v[0].display : NULL;
	const char *a = followup_sender(f);

	if (d && *d) {
		/* "Guittot, Vincent": the part after the comma */
		const char *comma = strchr(d, ',');

		if (comma && comma[1])
			d = comma + 1 + strspn(comma + 1, " ");
		strbuf_add(out, d, strcspn(d, " ,"));
		return;
	}
	strbuf_add(out, a, strcspn(a, "@.+"));
}
