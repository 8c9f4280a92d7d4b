// SPDX-License-Identifier: GPL-2.0-only
/*
 * request.c: the schema of a report request.  The top-level test's keys
 * (result_roots, kpi, ...) sit beside the mail's keys, so the request of
 * a one-test report reads flat; further tests reuse the same sub-schema.
 */
#include "robot/util/common.h"
#include "config/request.h"
#include "config/yaml.h"

#define F(key, kind, type, member, sub)                \
	{                                              \
		key, kind, offsetof(type, member), sub \
	}

static const struct field test_fields[] = {
	F("result_roots", FIELD_PATHS, struct req_test, result_roots, NULL),
	F("kpi", FIELD_STR, struct req_test, kpi, NULL),
	F("test_description", FIELD_TEXT, struct req_test, test_description,
	  NULL),
	F("test_url", FIELD_STR, struct req_test, test_url, NULL),
	F("machine", FIELD_STR, struct req_test, machine, NULL),
	F("all_stats", FIELD_BOOL, struct req_test, all_stats, NULL),
	F("no_section", FIELD_BOOL, struct req_test, no_section, NULL),
	F("view", FIELD_STR, struct req_test, view, NULL),
};
static const struct schema test_schema = { "test", test_fields,
					   ARRAY_SIZE(test_fields),
					   sizeof(struct req_test) };

static const struct field still_fields[] = {
	F("tree", FIELD_STR, struct req_still, tree, NULL),
	F("commit", FIELD_STR, struct req_still, commit, NULL),
	F("failed", FIELD_BOOL, struct req_still, failed, NULL),
	F("revert", FIELD_BOOL, struct req_still, revert, NULL),
};
static const struct schema still_schema = { "still", still_fields,
					    ARRAY_SIZE(still_fields),
					    sizeof(struct req_still) };

static const struct field patch_fields[] = {
	F("url", FIELD_STR, struct req_patch, url, NULL),
	F("base", FIELD_STR, struct req_patch, base, NULL),
	F("link", FIELD_STR, struct req_patch, link, NULL),
	F("subject", FIELD_STR, struct req_patch, subject, NULL),
};
static const struct schema patch_schema = { "patch", patch_fields,
					    ARRAY_SIZE(patch_fields),
					    sizeof(struct req_patch) };

static const struct field applied_fields[] = {
	F("file", FIELD_PATH, struct req_applied, file, NULL),
	F("subject", FIELD_STR, struct req_applied, subject, NULL),
	F("message_id", FIELD_MSGID, struct req_applied, message_id, NULL),
	F("link", FIELD_STR, struct req_applied, link, NULL),
	F("author", FIELD_MAILBOX, struct req_applied, author, NULL),
};
static const struct schema applied_schema = { "applied", applied_fields,
					      ARRAY_SIZE(applied_fields),
					      sizeof(struct req_applied) };

static const struct field bisect_fields[] = {
	F("good", FIELD_PATHS, struct req_bisect, good, NULL),
	F("bad", FIELD_PATHS, struct req_bisect, bad, NULL),
	F("stats", FIELD_STRS, struct req_bisect, stats, NULL),
};
static const struct schema bisect_schema = { "bisect", bisect_fields,
					     ARRAY_SIZE(bisect_fields),
					     sizeof(struct req_bisect) };

static const struct field attachment_fields[] = {
	F("path", FIELD_PATH, struct req_attachment, path, NULL),
	F("name", FIELD_FILENAME, struct req_attachment, name, NULL),
	F("kind", FIELD_STR, struct req_attachment, kind, NULL),
};
static const struct schema attachment_schema = {
	"attachment", attachment_fields, ARRAY_SIZE(attachment_fields),
	sizeof(struct req_attachment)
};

static const struct field evidence_fields[] = {
	F("file", FIELD_STR, struct req_evidence, file, NULL),
	F("run", FIELD_STR, struct req_evidence, run, NULL),
	F("before", FIELD_COUNT, struct req_evidence, before, NULL),
	F("after", FIELD_COUNT, struct req_evidence, after, NULL),
	F("from", FIELD_COUNT, struct req_evidence, from, NULL),
	F("lines", FIELD_COUNT, struct req_evidence, lines, NULL),
	F("max_lines", FIELD_COUNT, struct req_evidence, max_lines, NULL),
	F("max_bytes", FIELD_COUNT, struct req_evidence, max_bytes, NULL),
	F("text", FIELD_TEXT, struct req_evidence, text, NULL),
	F("fail_runs", FIELD_BOOL, struct req_evidence, fail_runs, NULL),
	F("axes", FIELD_BOOL, struct req_evidence, axes, NULL),
	F("stats", FIELD_STRS, struct req_evidence, stats, NULL),
};
static const struct schema evidence_schema = { "evidence", evidence_fields,
					       ARRAY_SIZE(evidence_fields),
					       sizeof(struct req_evidence) };

static const struct field note_fields[] = {
	F("at", FIELD_STR, struct req_note, at, NULL),
	F("text", FIELD_TEXT, struct req_note, text, NULL),
	F("fail_runs", FIELD_BOOL, struct req_note, fail_runs, NULL),
	F("axes", FIELD_BOOL, struct req_note, axes, NULL),
	F("stats", FIELD_STRS, struct req_note, stats, NULL),
	F("row", FIELD_STR, struct req_note, row, NULL),
	F("table", FIELD_PATHS, struct req_note, table, NULL),
};
static const struct schema note_schema = { "note", note_fields,
					   ARRAY_SIZE(note_fields),
					   sizeof(struct req_note) };

static const struct field note_part_fields[] = {
	F("text", FIELD_TEXT, struct req_note_part, text, NULL),
	F("rows", FIELD_STRS, struct req_note_part, rows, NULL),
};
static const struct schema note_part_schema = { "note part", note_part_fields,
						ARRAY_SIZE(note_part_fields),
						sizeof(struct req_note_part) };

#define T(key, kind, member)	  F(key, kind, struct request, test.member, NULL)
#define R(key, kind, member, sub) F(key, kind, struct request, member, sub)

static const struct field request_fields[] = {
	R("date", FIELD_STR, date, NULL),
	R("style", FIELD_STR, style, NULL),
	R("message_id", FIELD_MSGID, message_id, NULL),
	R("in_reply_to", FIELD_MSGID, in_reply_to, NULL),
	R("references", FIELD_STRS, references, NULL),
	R("reply", FIELD_BOOL, reply, NULL),
	R("thread_lookup", FIELD_BOOL, thread_lookup, NULL),
	R("from", FIELD_MAILBOX, from, NULL),
	R("to", FIELD_MAILBOXES, to, NULL),
	R("cc", FIELD_MAILBOXES, cc, NULL),
	R("tree", FIELD_STR, tree, NULL),
	R("repo_url", FIELD_STR, repo_url, NULL),
	R("branch", FIELD_STR, branch, NULL),
	R("commit", FIELD_STR, commit, NULL),
	R("commits", FIELD_PATH, commits, NULL),
	R("repo", FIELD_PATH, repo, NULL),
	R("preface", FIELD_TEXT, preface, NULL),
	R("intro", FIELD_TEXT, intro, NULL),
	R("note", FIELD_TEXT, note, NULL),
	R("note_parts", FIELD_OBJS, note_parts, &note_part_schema),
	R("show", FIELD_STRS, show, NULL),
	R("append", FIELD_STRS, append, NULL),
	T("result_roots", FIELD_PATHS, result_roots),
	T("kpi", FIELD_STR, kpi),
	T("test_description", FIELD_TEXT, test_description),
	T("test_url", FIELD_STR, test_url),
	T("machine", FIELD_STR, machine),
	T("all_stats", FIELD_BOOL, all_stats),
	T("view", FIELD_STR, view),
	R("still", FIELD_OBJS, still, &still_schema),
	R("still_checked", FIELD_BOOL, still_checked, NULL),
	R("patch", FIELD_OBJ, patch, &patch_schema),
	R("sections", FIELD_OBJS, sections, &test_schema),
	R("additions", FIELD_OBJS, additions, &test_schema),
	R("bisect", FIELD_OBJ, bisect, &bisect_schema),
	R("attachments", FIELD_OBJS, attachments, &attachment_schema),
	R("reported_by", FIELD_MAILBOX, reported_by, NULL),
	R("no_tags", FIELD_BOOL, no_tags, NULL),
	R("no_repro", FIELD_BOOL, no_repro, NULL),
	R("earlier", FIELD_MSGID, earlier, NULL),
	R("sender_name", FIELD_STR, sender_name, NULL),
	R("confidence", FIELD_STR, confidence, NULL),
	R("layout", FIELD_STRS, layout, NULL),
	R("evidence", FIELD_OBJS, evidence, &evidence_schema),
	R("no_evidence", FIELD_BOOL, no_evidence, NULL),
	R("evidence_at", FIELD_STR, evidence_at, NULL),
	R("notes", FIELD_OBJS, notes, &note_schema),
	R("result_table", FIELD_STRS, result_table, NULL),
	R("no_result_table", FIELD_BOOL, no_result_table, NULL),
	R("report", FIELD_MSGID, report, NULL),
	R("base", FIELD_STR, base, NULL),
	R("applied", FIELD_OBJ, applied, &applied_schema),
	R("tested_by", FIELD_MAILBOX, tested_by, NULL),
	R("remark", FIELD_TEXT, remark, NULL),
	R("statement", FIELD_TEXT, statement, NULL),
};

static const struct schema request_schema = { "request", request_fields,
					      ARRAY_SIZE(request_fields),
					      sizeof(struct request) };

char *request_kind(const char *path)
{
	/* the kind chooses the loader, which reads the whole file (and says
	 * what is wrong with it): only as far as `kind:` here */
	return ydoc_peek_file(path, "kind");
}

int request_load(struct request *req, const char *path)
{
	memset(req, 0, sizeof(*req));
	req->file = xstrdup(path);
	req->thread_lookup = -1; /* absent: the configuration decides */
	req->still_checked = -1; /* absent: the report's kind decides */
	return schema_load_file(req, &request_schema, path);
}

void request_release(struct request *req)
{
	/* the flat test keys are released through their own offsets */
	free(req->file);
	schema_release(req, &request_schema);
}
