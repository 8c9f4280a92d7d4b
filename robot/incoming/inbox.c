// SPDX-License-Identifier: GPL-2.0-only
/*
 * inbox.c: the robot's incoming mail and what it has seen (inbox.h).
 */
#include "robot/util/common.h"
#include "robot/incoming/inbox.h"
#include "robot/util/utf8.h"
#include "git/patchid.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

void inbox_mail_release(struct inbox_mail *m)
{
	free(m->name);
	free(m->raw);
	free(m->why);
	memset(m, 0, sizeof(*m));
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The seen file's line of a Maildir file: "file " and its unique part. */
static char *file_key(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t n;
	char *key;

	base = base ? base + 1 : path;
	n = strcspn(base, ":");
	key = xmalloc(n + 6);
	memcpy(key, "file ", 5);
	memcpy(key + 5, base, n);
	key[n + 5] = '\0';
	return key;
}

static int seen_file(const struct inbox_seen *seen, const char *name)
{
	char *key;
	int has;

	if (!seen || !seen->nslots)
		return 0;
	key = file_key(name);
	has = inbox_seen_has(seen, key);
	free(key);
	return has;
}

/*
 * The regular files of DIR/sub that `seen` does not name, sorted (their
 * paths appended to names).
 */
static int list_dir(const char *dir, const char *sub, char ***names, size_t *n,
		    size_t *alloc, const struct inbox_seen *seen)
{
	char *path = xasprintf("%s/%s", dir, sub);
	size_t first = *n;
	struct dirent *de;
	DIR *d = opendir(path);

	if (!d) {
		int ret = errno == ENOENT
				  ? 0
				  : error_errno("cannot read '%s'", path);

		free(path);
		return ret;
	}
	while ((de = readdir(d))) {
		struct stat st;

		if (de->d_name[0] == '.' || seen_file(seen, de->d_name))
			continue;
		/* the type readdir gives, else (a link, unknown) stat's */
		if (de->d_type != DT_REG &&
		    (!(de->d_type == DT_LNK || de->d_type == DT_UNKNOWN) ||
		     fstatat(dirfd(d), de->d_name, &st, 0) ||
		     !S_ISREG(st.st_mode)))
			continue;
		ALLOC_GROW(*names, *n + 1, *alloc);
		(*names)[(*n)++] = xasprintf("%s/%s", path, de->d_name);
	}
	closedir(d);
	free(path);
	if (*n > first)
		qsort(*names + first, *n - first, sizeof(**names), cmp_str);
	return 0;
}

/*
 * Reads at most max_bytes of fd into m->raw, or says why not: a file
 * that grew past the limit since it was listed is refused the same.
 */
static void read_capped(struct inbox_mail *m, int fd, off_t at, size_t len,
			size_t max_bytes)
{
	struct strbuf sb = STRBUF_INIT;
	char buf[65536];
	ssize_t n;

	if (len > max_bytes) {
		m->why = xasprintf("%llu bytes, more than mail_max_bytes (%zu)",
				   (unsigned long long)len, max_bytes);
		return;
	}
	while (sb.len < len) {
		size_t want =
			len - sb.len < sizeof(buf) ? len - sb.len : sizeof(buf);

		n = pread(fd, buf, want, at + (off_t)sb.len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			m->why = xasprintf("cannot read: %s",
					   n ? strerror(errno) : "cut short");
			strbuf_release(&sb);
			return;
		}
		strbuf_add(&sb, buf, n);
	}
	m->len = sb.len;
	m->raw = strbuf_detach(&sb, NULL);
}

static void read_one(struct inbox_mail *m, size_t max_bytes)
{
	struct stat st;
	int fd = open_regular(m->name, O_RDONLY);

	if (fd < 0 || fstat(fd, &st)) {
		m->why = xasprintf("cannot read: %s", robot_strerror(errno));
		if (fd >= 0)
			close(fd);
		return;
	}
	read_capped(m, fd, 0, (size_t)st.st_size, max_bytes);
	close(fd);
}

/*
 * Where an mbox still holds what was remembered of it: `start` (a
 * "From " line after an empty line, or the end of the file), else 0.
 */
static off_t check_start(int fd, off_t size, off_t start)
{
	char prev[2], from[5];

	if (start <= 0 || size < start || start < 2 ||
	    pread(fd, prev, 2, start - 2) != 2 || prev[1] != '\n' ||
	    (size > start &&
	     (pread(fd, from, 5, start) != 5 || memcmp(from, "From ", 5))))
		return 0; /* rewritten since: all of it again */
	return start;
}

int inbox_open(struct inbox_reader *r, const char *source, size_t max_bytes,
	       off_t *offset, const struct inbox_seen *seen)
{
	struct stat st;
	char from[5];

	memset(r, 0, sizeof(*r));
	r->fd = -1;
	r->max_bytes = max_bytes;
	r->path = xstrdup(source);
	if (stat(source, &st))
		return error_errno("cannot read the inbox '%s'", source),
		       EXIT_RUNTIME;
	if (S_ISDIR(st.st_mode)) {
		size_t alloc = 0;

		*offset = -1;
		if (list_dir(source, "new", &r->names, &r->n, &alloc, seen) ||
		    list_dir(source, "cur", &r->names, &r->n, &alloc, seen))
			return EXIT_RUNTIME;
		return 0;
	}
	r->fd = open_regular(source, O_RDONLY);
	if (r->fd < 0 || fstat(r->fd, &st))
		return error_errno("cannot read '%s'", source), EXIT_RUNTIME;
	/* the mbox as it is now: what is appended later is the next run's */
	r->end = st.st_size;
	r->pos = *offset = check_start(r->fd, r->end, *offset);
	if (r->pos < r->end &&
	    (pread(r->fd, from, 5, r->pos) != 5 || memcmp(from, "From ", 5))) {
		error("%s: neither a Maildir nor an mbox (no \"From \" line "
		      "first)",
		      source);
		return EXIT_DATAERR;
	}
	return 0;
}

/*
 * The next "From " line of the mbox that follows an empty line, from
 * `off` on (just past a "From " line), or the end: one pass over the
 * bytes with a fixed buffer, whatever the length of a line.  -1 after a
 * read error (errno).
 */
static off_t next_from(const struct inbox_reader *r, off_t off)
{
	char buf[65536], head[5];
	int prev_empty = 0;
	size_t col = 0, i;
	ssize_t n;

	for (; off < r->end; off += n) {
		off_t left = r->end - off;

		n = pread(r->fd, buf,
			  left < (off_t)sizeof(buf) ? (size_t)left
						    : sizeof(buf),
			  off);
		if (n < 0 && errno == EINTR) {
			n = 0;
			continue;
		}
		if (n <= 0)
			return n ? -1 : r->end;
		for (i = 0; i < (size_t)n; i++) {
			if (col < 5)
				head[col] = buf[i];
			if (col == 4 && prev_empty && !memcmp(head, "From ", 5))
				return off + (off_t)i - 4;
			if (buf[i] == '\n') {
				prev_empty = !col;
				col = 0;
			} else {
				col++;
			}
		}
	}
	return r->end;
}

/* m->raw with one '>' taken off each ">+From " line (mboxrd). */
static void unquote(struct inbox_mail *m)
{
	struct strbuf out = STRBUF_INIT;
	const char *p = m->raw, *end = m->raw + m->len;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		const char *e = nl ? nl + 1 : end, *q = p;

		while (q < e && *q == '>')
			q++;
		if (q > p && e - q >= 5 && !memcmp(q, "From ", 5))
			p++;
		strbuf_add(&out, p, e - p);
		p = e;
	}
	/* the empty line an mbox puts before each "From " */
	if (out.len >= 2 && out.buf[out.len - 1] == '\n' &&
	    out.buf[out.len - 2] == '\n')
		strbuf_setlen(&out, out.len - 1);
	free(m->raw);
	m->len = out.len;
	m->raw = strbuf_detach(&out, NULL);
}

/* Where the line at `off` ends (past its '\n'), or -1 (errno). */
static off_t past_line(const struct inbox_reader *r, off_t off)
{
	char buf[4096];
	const char *nl;
	ssize_t n;

	while (off < r->end) {
		off_t left = r->end - off;

		n = pread(r->fd, buf,
			  left < (off_t)sizeof(buf) ? (size_t)left
						    : sizeof(buf),
			  off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n ? -1 : r->end;
		nl = memchr(buf, '\n', n);
		if (nl)
			return off + (nl - buf) + 1;
		off += n;
	}
	return r->end;
}

/* The mbox's next mail: its "From " line at r->pos. */
static int next_mbox(struct inbox_reader *r, struct inbox_mail *m)
{
	off_t body = past_line(r, r->pos), end;

	end = body < 0 ? -1 : next_from(r, body);
	if (end < 0)
		return error_errno("cannot read '%s'", r->path), EXIT_RUNTIME;
	m->name = xasprintf("%s:%zu", r->path, ++r->nr);
	m->offset = r->pos;
	read_capped(m, r->fd, body, (size_t)(end - body), r->max_bytes);
	if (m->raw)
		unquote(m);
	r->pos = end;
	return 1;
}

int inbox_next(struct inbox_reader *r, struct inbox_mail *m)
{
	memset(m, 0, sizeof(*m));
	if (r->fd < 0) {
		if (r->next >= r->n)
			return 0;
		m->name = r->names[r->next];
		r->names[r->next++] = NULL;
		m->maildir = 1;
		read_one(m, r->max_bytes);
		return 1;
	}
	if (r->pos >= r->end)
		return 0;
	return next_mbox(r, m);
}

off_t inbox_end(const struct inbox_reader *r)
{
	return r->fd < 0 ? -1 : r->end;
}

void inbox_close(struct inbox_reader *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		free(r->names[i]);
	free(r->names);
	free(r->path);
	if (r->fd >= 0)
		close(r->fd);
	memset(r, 0, sizeof(*r));
	r->fd = -1;
}

/* ---- seen ---- */

static size_t seen_slot(const struct inbox_seen *s, const char *id)
{
	size_t mask = s->nslots - 1;
	size_t i = (size_t)fnv1a64(FNV64_INIT, id, strlen(id)) & mask;

	while (s->slots[i] && strcmp(s->ids[s->slots[i] - 1], id))
		i = (i + 1) & mask;
	return i;
}

/* Makes the index (twice the list's size) hold `n` ids without growing. */
static void seen_reserve(struct inbox_seen *s, size_t n)
{
	size_t i;

	if (2 * n <= s->nslots)
		return;
	free(s->slots);
	s->nslots = s->nslots ? 2 * s->nslots : 64;
	while (2 * n > s->nslots)
		s->nslots *= 2;
	s->slots = xcalloc(s->nslots, sizeof(*s->slots));
	for (i = 0; i < s->n; i++)
		s->slots[seen_slot(s, s->ids[i])] = i + 1;
}

/*
 * Appends id to the list and to the index; `aside` when it was set
 * aside.
 */
static void seen_push(struct inbox_seen *s, char *id, int aside)
{
	size_t a = s->alloc;

	ALLOC_GROW(s->ids, s->n + 1, s->alloc);
	if (s->alloc != a)
		s->aside = xrealloc(s->aside, s->alloc);
	s->aside[s->n] = (unsigned char)aside;
	s->ids[s->n++] = id;
	seen_reserve(s, s->n);
	s->slots[seen_slot(s, id)] = s->n;
}

int inbox_seen_open(struct inbox_seen *s, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	char *p, *line;
	size_t lines = 0;
	int aside;

	memset(s, 0, sizeof(*s));
	s->path = xstrdup(path);
	s->fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (s->fd < 0) {
		int e = errno;

		error_errno("cannot open '%s' (inbox_seen)", path);
		return e == ENOENT || e == ENOTDIR ? EXIT_CONFIG
						   : EXIT_TEMPFAIL;
	}
	if (flock(s->fd, LOCK_EX | LOCK_NB)) {
		error("'%s' is locked: another robot inbox is running; try "
		      "again later",
		      path);
		return EXIT_TEMPFAIL;
	}
	if (strbuf_read_file(&sb, path)) {
		error_errno("cannot read '%s'", path);
		return EXIT_RUNTIME;
	}
	/* one id a line at most: the index is made once */
	for (p = sb.buf; (p = memchr(p, '\n', sb.len - (size_t)(p - sb.buf)));
	     p++)
		lines++;
	seen_reserve(s, lines + 1);
	for (p = sb.buf; *p; p = line) {
		line = p + strcspn(p, "\n");
		if (*line)
			*line++ = '\0';
		if (!*p)
			continue;
		if (!strncmp(p, "offset ", 7)) {
			/* "offset N PATH": where the last run left PATH */
			char *endp;
			long long off = strtoll(p + 7, &endp, 10);

			if (*endp == ' ' && off >= 0) {
				free(s->mbox);
				s->mbox = xstrdup(endp + 1);
				s->mbox_offset = (off_t)off;
			}
			continue;
		}
		aside = !strncmp(p, "aside ", 6);
		if (aside)
			p += 6;
		if (inbox_seen_has(s, p)) {
			/* done once is done, whatever else it was */
			if (!aside)
				s->aside[s->slots[seen_slot(s, p)] - 1] = 0;
			continue;
		}
		seen_push(s, xstrdup(p), aside);
	}
	strbuf_release(&sb);
	return 0;
}

int inbox_seen_has(const struct inbox_seen *s, const char *id)
{
	return s->nslots && s->slots[seen_slot(s, id)] != 0;
}

/* Appends a line; `sync`: fsync'd (a line that only saves work is not). */
static int seen_line(struct inbox_seen *s, const char *prefix, const char *id,
		     int sync)
{
	char *line = xasprintf("%s%s\n", prefix, id);
	size_t len = strlen(line);
	int ret = 0;

	if (write(s->fd, line, len) != (ssize_t)len || (sync && fsync(s->fd))) {
		ret = error_errno("cannot write '%s'", s->path);
		s->broken = 1;
	}
	free(line);
	if (!ret)
		seen_push(s, xstrdup(id), !strcmp(prefix, "aside "));
	return ret;
}

int inbox_seen_add(struct inbox_seen *s, const char *id)
{
	return seen_line(s, "", id, 1);
}

int inbox_seen_aside(struct inbox_seen *s, const char *id)
{
	return seen_line(s, "aside ", id, 1);
}

int inbox_seen_done(const struct inbox_seen *s, const char *id)
{
	size_t i;

	if (!s->nslots)
		return 0;
	i = s->slots[seen_slot(s, id)];
	return i && !s->aside[i - 1];
}

int inbox_seen_file(struct inbox_seen *s, const struct inbox_mail *m)
{
	char *key;
	int ret;

	if (!m->maildir)
		return 0;
	key = file_key(m->name);
	ret = inbox_seen_has(s, key) ? 0 : seen_line(s, "", key, 0);
	free(key);
	return ret;
}

off_t inbox_seen_offset(const struct inbox_seen *s, const char *mbox)
{
	return s->mbox && !strcmp(s->mbox, mbox) ? s->mbox_offset : 0;
}

int inbox_seen_set_offset(struct inbox_seen *s, const char *mbox, off_t off)
{
	char *v = xasprintf("%lld %s", (long long)off, mbox);
	int ret;

	if (s->mbox && !strcmp(s->mbox, mbox) && s->mbox_offset == off) {
		free(v);
		return 0;
	}
	ret = seen_line(s, "offset ", v, 1);
	free(v);
	/* seen_line keeps it as an id too: harmless, never a Message-ID */
	free(s->mbox);
	s->mbox = xstrdup(mbox);
	s->mbox_offset = off;
	return ret;
}

void inbox_seen_close(struct inbox_seen *s)
{
	size_t i;

	if (s->fd >= 0)
		close(s->fd);
	for (i = 0; i < s->n; i++)
		free(s->ids[i]);
	free(s->ids);
	free(s->aside);
	free(s->slots);
	free(s->path);
	free(s->mbox);
	memset(s, 0, sizeof(*s));
	s->fd = -1;
}

char *inbox_mail_id(const char *message_id, const char *raw, size_t len)
{
	if (message_id)
		return xstrdup(message_id);
	return xasprintf("sha:%016llx",
			 (unsigned long long)fnv1a64(FNV64_INIT, raw, len));
}

/* The characters a folder name keeps as they are. */
static int plain_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '.' || c == '@' || c == '_' ||
	       c == '-' || c == '+' || c == '=';
}

char *inbox_dir_name(const char *id)
{
	char hex[SHA256_HEXSZ + 1];
	struct strbuf sb = STRBUF_INIT;
	size_t len = strlen(id), i;
	const char *v = id;
	int plain;

	if (len > 2 && id[0] == '<' && id[len - 1] == '>') {
		v = id + 1;
		len -= 2;
	}
	plain = len && len <= INBOX_DIR_PLAIN_MAX && v[0] != '.';
	for (i = 0; plain && i < len; i++)
		plain = plain_char((unsigned char)v[i]);
	if (plain)
		return xstrndup(v, len);
	/* a readable prefix, '~' (never in a plain name), the digest */
	for (i = 0; i < len && i < INBOX_DIR_PREFIX_MAX; i++)
		strbuf_addch(&sb, plain_char((unsigned char)v[i]) ? v[i] : '_');
	if (sb.len && sb.buf[0] == '.')
		sb.buf[0] = '_';
	sha256_hex(id, strlen(id), hex);
	strbuf_addf(&sb, "~%.32s", hex);
	return strbuf_detach(&sb, NULL);
}
