// SPDX-License-Identifier: GPL-2.0-only
/*
 * patchid.c: `git patch-id --stable` over a diff text (see patchid.h for
 * which lines count).  SHA-1 comes from nettle, GnuTLS's crypto library
 * (libcurl's TLS uses it too); only this file uses it.
 *
 * The parser is git's small state machine: `before` and `after` count the
 * old and new lines a hunk still has to show (-1 while in a file's
 * header); when both reach 0, the next line is a hunk header, the next
 * file's "diff" line, or the end of the patch.  Each file's lines go into
 * one SHA-1, and the digests are added as 20-byte little-endian numbers
 * with carry, so the file order does not change the sum.
 */
#include "robot/util/common.h"
#include "git/patchid.h"
#include "git/repo.h"

#include <ctype.h>
#include <nettle/sha1.h>
#include <nettle/sha2.h>

#include "robot/util/dl.h"

/*
 * nettle is loaded when robot first hashes (robot/util/dl.h).  Its
 * headers name the functions with macros (sha1_init is nettle_sha1_init),
 * so the table holds the library's own names, and these are the macros
 * that call through it.
 */
// clang-format off
#define PATCHID_NETTLE_FUNCS(X) \
	X(nettle_sha1_digest) \
	X(nettle_sha1_init) \
	X(nettle_sha1_update) \
	X(nettle_sha256_digest) \
	X(nettle_sha256_init) \
	X(nettle_sha256_update)
// clang-format on

struct nettle_lib {
	PATCHID_NETTLE_FUNCS(DL_POINTER)
};

_Static_assert(sizeof(ROBOT_NETTLE_SONAME) > 1, "the Makefile found no nettle");

static const struct nettle_lib *nettle_lib(void);
#define nettle_sha1_digest   (*nettle_lib()->p_nettle_sha1_digest)
#define nettle_sha1_init     (*nettle_lib()->p_nettle_sha1_init)
#define nettle_sha1_update   (*nettle_lib()->p_nettle_sha1_update)
#define nettle_sha256_digest (*nettle_lib()->p_nettle_sha256_digest)
#define nettle_sha256_init   (*nettle_lib()->p_nettle_sha256_init)
#define nettle_sha256_update (*nettle_lib()->p_nettle_sha256_update)

struct patch_id {
	struct sha1_ctx ctx;
	uint8_t sum[SHA1_DIGEST_SIZE];
	size_t hashed; /* bytes hashed: 0 means no patch yet */
};

/* Adds the current file's digest to the sum and starts the next file. */
static void flush_file(struct patch_id *pid)
{
	uint8_t d[SHA1_DIGEST_SIZE];
	unsigned carry = 0;
	size_t i;

	sha1_digest(&pid->ctx, sizeof(d), d); /* also resets the context */
	for (i = 0; i < sizeof(d); i++) {
		carry += pid->sum[i] + d[i];
		pid->sum[i] = (uint8_t)carry;
		carry >>= 8;
	}
}

/* Hashes a line with every blank removed, as git's remove_space(). */
static void hash_squeezed(struct patch_id *pid, const char *line, size_t len)
{
	char buf[256];
	size_t i, n = 0;

	for (i = 0; i < len; i++) {
		if (isspace((unsigned char)line[i]))
			continue;
		buf[n++] = line[i];
		if (n == sizeof(buf)) {
			sha1_update(&pid->ctx, n, (const uint8_t *)buf);
			pid->hashed += n;
			n = 0;
		}
	}
	sha1_update(&pid->ctx, n, (const uint8_t *)buf);
	pid->hashed += n;
}

static int starts_with(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && !memcmp(s, prefix, n);
}

static int is_hex40(const char *s, size_t len)
{
	size_t i;

	if (len < PATCH_ID_HEXSZ)
		return 0;
	for (i = 0; i < PATCH_ID_HEXSZ; i++)
		if (!isxdigit((unsigned char)s[i]))
			return 0;
	return 1;
}

/* A count of "@@ -a,b +c,d @@": b (1 when ",b" is left out). */
static const char *hunk_count(const char *p, const char *end, int *count)
{
	long n;

	while (p < end && isdigit((unsigned char)*p))
		p++;
	*count = 1;
	if (p < end && *p == ',') {
		n = 0;
		for (p++; p < end && isdigit((unsigned char)*p); p++)
			n = n < 100000000 ? n * 10 + (*p - '0') : n;
		*count = (int)n;
	}
	return p;
}

static void hunk_header(const char *line, const char *end, int *before,
			int *after)
{
	const char *p = hunk_count(line + 4, end, before);

	if (end - p >= 2 && p[0] == ' ' && p[1] == '+')
		hunk_count(p + 2, end, after);
}

/* An index line's two ids, "index OLD..NEW[ MODE]", as git keeps them. */
static void index_ids(const char *line, const char *end, struct strbuf *pre,
		      struct strbuf *post)
{
	const char *p = line + 6, *dots = NULL, *q, *stop;

	for (q = p; q + 1 < end; q++)
		if (q[0] == '.' && q[1] == '.') {
			dots = q;
			break;
		}
	if (!dots)
		return;
	stop = memchr(dots, ' ', end - dots);
	if (!stop)
		stop = end[-1] == '\n' ? end - 1 : end;
	strbuf_reset(pre);
	strbuf_add(pre, p, dots - p);
	strbuf_reset(post);
	strbuf_add(post, dots + 2, stop - (dots + 2));
}

/* What the loop of patch_id_stable() does after a line. */
enum step { STEP_ON, STEP_NEXT, STEP_END };

/*
 * A line of a file's header, before its "--- " line: a binary file's
 * marker (its ids hashed, the file flushed), its "index" line, or a line
 * of the extended header; anything else ends the patch.
 */
static enum step file_header(struct patch_id *pid, const char *line,
			     const char *eol, struct strbuf *pre,
			     struct strbuf *post, int *before, int *after,
			     int *binary)
{
	size_t n = eol - line;

	if (starts_with(line, n, "GIT binary patch") ||
	    starts_with(line, n, "Binary files")) {
		*binary = 1;
		*before = 0;
		sha1_update(&pid->ctx, pre->len, (const uint8_t *)pre->buf);
		sha1_update(&pid->ctx, post->len, (const uint8_t *)post->buf);
		flush_file(pid);
		return STEP_NEXT;
	}
	if (starts_with(line, n, "index ")) {
		index_ids(line, eol, pre, post);
		return STEP_NEXT;
	}
	if (starts_with(line, n, "--- "))
		*before = *after = 1;
	else if (!isalpha((unsigned char)line[0]))
		return STEP_END;
	return STEP_ON;
}

int patch_id_stable(const char *text, size_t len, char hex[PATCH_ID_HEXSZ + 1])
{
	struct strbuf pre = STRBUF_INIT, post = STRBUF_INIT;
	const char *p = text, *end = text + len;
	struct patch_id pid = { 0 };
	int before = -1, after = -1, binary = 0;
	size_t i;

	sha1_init(&pid.ctx);
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		const char *line = p, *eol = nl ? nl + 1 : end;
		size_t n = eol - line;
		const char *id = line;

		p = eol;
		if (starts_with(line, n, "\\ ") && n > 12)
			continue; /* "\ No newline at end of file" */
		/* a "From <id>" or "commit <id>" line starts the next patch */
		if (starts_with(line, n, "commit "))
			id = line + 7;
		else if (starts_with(line, n, "From "))
			id = line + 5;
		if (is_hex40(id, eol - id)) {
			if (pid.hashed)
				break;
			continue;
		}
		if (!pid.hashed && !starts_with(line, n, "diff "))
			continue; /* the commit message */
		if (before == -1) {
			enum step st = file_header(&pid, line, eol, &pre, &post,
						   &before, &after, &binary);

			if (st == STEP_END)
				break;
			if (st == STEP_NEXT)
				continue;
		}
		if (binary) {
			/* git hashes not even the next file's "diff" line */
			if (starts_with(line, n, "diff ")) {
				binary = 0;
				before = -1;
			}
			continue;
		}
		if (before == 0 && after == 0) {
			if (starts_with(line, n, "@@ -")) {
				hunk_header(line, eol, &before, &after);
				continue;
			}
			if (!starts_with(line, n, "diff "))
				break; /* the end of the patch: "-- " */
			flush_file(&pid);
			before = after = -1;
		}
		if (line[0] == '-' || line[0] == ' ')
			before--;
		if (line[0] == '+' || line[0] == ' ')
			after--;
		hash_squeezed(&pid, line, n);
	}
	flush_file(&pid);
	strbuf_release(&pre);
	strbuf_release(&post);
	if (!pid.hashed)
		return 0;
	for (i = 0; i < sizeof(pid.sum); i++)
		snprintf(hex + 2 * i, 3, "%02x", pid.sum[i]);
	return 1;
}

/*
 * Whether another diff algorithm could give another diff than myers's
 * text[0..len).  Not when every file changes in one block of at most
 * 255 lines: xdiff trims the lines the files share at both ends the same
 * way for every algorithm, so one block means myers matched nothing in
 * between, and below 256 lines its search is exact (the cost heuristic
 * starts at XDL_MAX_COST_MIN), so no line is common there: every
 * algorithm deletes and adds the same lines.  Binary files have no lines.
 */
static int may_differ(const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	int blocks = 0, in_block = 0, in_hunk = 0;
	size_t lines = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		const char *eol = nl ? nl + 1 : end;
		size_t n = eol - p;

		if (starts_with(p, n, "diff ")) {
			blocks = in_block = in_hunk = 0;
		} else if (starts_with(p, n, "@@ ")) {
			in_hunk = 1;
			in_block = 0;
		} else if (in_hunk && (*p == '-' || *p == '+')) {
			if (!in_block && ++blocks > 1)
				return 1;
			in_block = 1;
			if (++lines >= 256)
				return 1;
		} else if (in_hunk && *p == ' ') {
			in_block = 0;
		}
		p = eol;
	}
	return 0;
}

int repo_patch_ids(struct repo *repo, const char *rev,
		   char ids[PATCH_ID_MAX][PATCH_ID_HEXSZ + 1])
{
	static const enum repo_diff_algo algos[PATCH_ID_MAX] = {
		REPO_DIFF_MYERS, REPO_DIFF_PATIENCE, REPO_DIFF_MINIMAL
	};
	struct strbuf diff[PATCH_ID_MAX] = { STRBUF_INIT, STRBUF_INIT,
					     STRBUF_INIT };
	int nr = 0, ret = 0;
	size_t i, j;

	for (i = 0; i < PATCH_ID_MAX; i++) {
		char hex[PATCH_ID_HEXSZ + 1];
		int r = repo_diff_text(repo, rev, algos[i], &diff[i]);

		if (r) {
			ret = r < 0 ? -1 : 0;
			nr = 0;
			break;
		}
		for (j = 0; j < i; j++)
			if (diff[j].len == diff[i].len &&
			    !memcmp(diff[j].buf, diff[i].buf, diff[i].len))
				break;
		if (j < i)
			continue; /* the same diff as an earlier algorithm's */
		if (!patch_id_stable(diff[i].buf, diff[i].len, hex))
			break; /* nothing changed */
		if (!i && !may_differ(diff[0].buf, diff[0].len)) {
			memcpy(ids[nr++], hex, sizeof(hex));
			break;
		}
		for (j = 0; j < (size_t)nr; j++)
			if (!strcmp(ids[j], hex))
				break;
		if (j == (size_t)nr)
			memcpy(ids[nr++], hex, sizeof(hex));
	}
	for (i = 0; i < PATCH_ID_MAX; i++)
		strbuf_release(&diff[i]);
	return ret < 0 ? -1 : nr;
}

void sha256_hex(const void *data, size_t len, char hex[SHA256_HEXSZ + 1])
{
	static const char digits[] = "0123456789abcdef";
	struct sha256_ctx ctx;
	uint8_t d[SHA256_DIGEST_SIZE];
	size_t i;

	sha256_init(&ctx);
	sha256_update(&ctx, len, data);
	sha256_digest(&ctx, sizeof(d), d);
	for (i = 0; i < sizeof(d); i++) {
		hex[2 * i] = digits[d[i] >> 4];
		hex[2 * i + 1] = digits[d[i] & 15];
	}
	hex[2 * sizeof(d)] = '\0';
}

/* nettle_lib(), declared at the top: the one loader of the library */
static DL_LOADER(nettle_lib, nettle_lib, PATCHID_NETTLE_FUNCS,
		 ROBOT_NETTLE_SONAME)
