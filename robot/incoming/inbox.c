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

void inbox_mails_release(struct inbox_mail *mails, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(mails[i].name);
		free(mails[i].raw);
		free(mails[i].why);
	}
	free(mails);
}

static struct inbox_mail *add_mail(struct inbox_mail **v, size_t *n,
				   size_t *alloc, char *name)
{
	struct inbox_mail *m;

	ALLOC_GROW(*v, *n + 1, *alloc);
	m = &(*v)[(*n)++];
	memset(m, 0, sizeof(*m));
	m->name = name;
	return m;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The regular files of DIR/sub, sorted (their paths appended to names). */
static int list_dir(const char *dir, const char *sub, char ***names, size_t *n,
		    size_t *alloc)
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

		if (de->d_name[0] == '.' ||
		    fstatat(dirfd(d), de->d_name, &st, 0) ||
		    !S_ISREG(st.st_mode))
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

static void read_one(struct inbox_mail *m, size_t max_bytes)
{
	struct stat st;

	if (stat(m->name, &st)) {
		m->why = xasprintf("cannot read: %s", strerror(errno));
		return;
	}
	if ((unsigned long long)st.st_size > max_bytes) {
		m->why = xasprintf("%lld bytes, more than mail_max_bytes (%zu)",
				   (long long)st.st_size, max_bytes);
		return;
	}
	{
		struct strbuf sb = STRBUF_INIT;

		if (strbuf_read_file(&sb, m->name)) {
			m->why = xasprintf("cannot read: %s", strerror(errno));
			strbuf_release(&sb);
			return;
		}
		m->len = sb.len;
		m->raw = strbuf_detach(&sb, NULL);
	}
}

static int read_maildir(const char *dir, size_t max_bytes,
			struct inbox_mail **mails, size_t *n)
{
	char **names = NULL;
	size_t nn = 0, alloc = 0, malloc_ = 0, i;
	int ret = list_dir(dir, "new", &names, &nn, &alloc);

	if (!ret)
		ret = list_dir(dir, "cur", &names, &nn, &alloc);
	for (i = 0; i < nn; i++) {
		if (ret) {
			free(names[i]);
			continue;
		}
		read_one(add_mail(mails, n, &malloc_, names[i]), max_bytes);
	}
	free(names);
	return ret ? EXIT_RUNTIME : 0;
}

/*
 * The bytes of the mbox from `start` on, when what it remembers still
 * holds there: a "From " line after an empty line (or the end of the
 * file); else the whole file (0 in *start).
 */
static int read_from(struct strbuf *text, const char *path, off_t *start)
{
	char prev[2];
	char from[5];
	struct stat st;
	int fd = open_regular(path, O_RDONLY), ret, e;

	if (fd < 0)
		return -1;
	if (*start > 0 &&
	    (fstat(fd, &st) || st.st_size < *start || *start < 2 ||
	     pread(fd, prev, 2, *start - 2) != 2 || prev[1] != '\n' ||
	     (st.st_size > *start &&
	      (pread(fd, from, 5, *start) != 5 || memcmp(from, "From ", 5)))))
		*start = 0; /* rewritten since: all of it again */
	ret = 0;
	if (lseek(fd, *start, SEEK_SET) < 0 || strbuf_read_fd(text, fd))
		ret = -1;
	e = errno;
	close(fd);
	errno = e;
	return ret;
}

/*
 * An mbox: a message after each "From " line that follows an empty line
 * (or starts the file), one '>' taken off ">From " lines (mboxrd).
 */
static int read_mbox(const char *path, size_t max_bytes, off_t *start,
		     struct inbox_mail **mails, size_t *n)
{
	struct strbuf text = STRBUF_INIT, one = STRBUF_INIT;
	size_t alloc = 0, nr = 0;
	const char *p, *end;
	struct inbox_mail *m = NULL;
	size_t i;
	off_t base;

	if (read_from(&text, path, start)) {
		error_errno("cannot read '%s'", path);
		strbuf_release(&text);
		return EXIT_RUNTIME;
	}
	base = *start;
	if (text.len && strncmp(text.buf, "From ", 5)) {
		error("%s: neither a Maildir nor an mbox (no \"From \" line "
		      "first)",
		      path);
		strbuf_release(&text);
		return EXIT_DATAERR;
	}
	p = text.buf;
	end = text.buf + text.len;
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		const char *e = nl ? nl + 1 : end, *q = p;

		if (!strncmp(p, "From ", 5) &&
		    (p == text.buf || (p - text.buf >= 2 && p[-2] == '\n'))) {
			/* one over mail_max_bytes keeps its why, no bytes */
			if (m && !m->why) {
				m->len = one.len;
				m->raw = strbuf_detach(&one, NULL);
			}
			strbuf_reset(&one);
			m = add_mail(mails, n, &alloc,
				     xasprintf("%s:%zu", path, ++nr));
			m->offset = base + (p - text.buf);
			p = e;
			continue;
		}
		while (q < e && *q == '>')
			q++;
		if (q > p && e - q >= 5 && !memcmp(q, "From ", 5))
			p++;
		if (m && !m->why) {
			if (one.len + (e - p) > max_bytes) {
				m->why = xasprintf("more than mail_max_bytes "
						   "(%zu)",
						   max_bytes);
				strbuf_reset(&one);
			} else {
				strbuf_add(&one, p, e - p);
			}
		}
		p = e;
	}
	if (m && !m->why) {
		m->len = one.len;
		m->raw = strbuf_detach(&one, NULL);
	}
	/* the empty line an mbox puts before each "From " */
	for (i = 0; i < *n; i++) {
		struct inbox_mail *x = &(*mails)[i];

		if (x->raw && x->len && x->raw[x->len - 1] == '\n' &&
		    x->len >= 2 && x->raw[x->len - 2] == '\n')
			x->raw[--x->len] = '\0';
	}
	*start = base + (off_t)text.len;
	strbuf_release(&text);
	strbuf_release(&one);
	return 0;
}

int inbox_read(const char *source, size_t max_bytes, off_t *offset,
	       struct inbox_mail **mails, size_t *n)
{
	struct stat st;

	*mails = NULL;
	*n = 0;
	if (stat(source, &st)) {
		error_errno("cannot read the inbox '%s'", source);
		return EXIT_RUNTIME;
	}
	if (S_ISDIR(st.st_mode)) {
		*offset = -1;
		return read_maildir(source, max_bytes, mails, n);
	}
	return read_mbox(source, max_bytes, offset, mails, n);
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

/* Appends id to the list and to the index (twice the list's size). */
static void seen_push(struct inbox_seen *s, char *id)
{
	size_t i;

	ALLOC_GROW(s->ids, s->n + 1, s->alloc);
	s->ids[s->n++] = id;
	if (2 * s->n > s->nslots) {
		free(s->slots);
		s->nslots = s->nslots ? 2 * s->nslots : 64;
		while (2 * s->n > s->nslots)
			s->nslots *= 2;
		s->slots = xcalloc(s->nslots, sizeof(*s->slots));
		for (i = 0; i < s->n; i++)
			s->slots[seen_slot(s, s->ids[i])] = i + 1;
		return;
	}
	s->slots[seen_slot(s, id)] = s->n;
}

int inbox_seen_open(struct inbox_seen *s, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	char *p, *line;

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
		if (!strncmp(p, "aside ", 6))
			p += 6;
		if (inbox_seen_has(s, p))
			continue;
		seen_push(s, xstrdup(p));
	}
	strbuf_release(&sb);
	return 0;
}

int inbox_seen_has(const struct inbox_seen *s, const char *id)
{
	return s->nslots && s->slots[seen_slot(s, id)] != 0;
}

static int seen_line(struct inbox_seen *s, const char *prefix, const char *id)
{
	char *line = xasprintf("%s%s\n", prefix, id);
	size_t len = strlen(line);
	int ret = 0;

	if (write(s->fd, line, len) != (ssize_t)len || fsync(s->fd)) {
		ret = error_errno("cannot write '%s'", s->path);
		s->broken = 1;
	}
	free(line);
	if (!ret)
		seen_push(s, xstrdup(id));
	return ret;
}

int inbox_seen_add(struct inbox_seen *s, const char *id)
{
	return seen_line(s, "", id);
}

int inbox_seen_aside(struct inbox_seen *s, const char *id)
{
	return seen_line(s, "aside ", id);
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
	ret = seen_line(s, "offset ", v);
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
