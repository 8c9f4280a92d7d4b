// SPDX-License-Identifier: GPL-2.0-only
/*
 * spool.c: the queue on disk (see spool.h), never losing or doubling a
 * message.
 *
 * Queueing is the maildir recipe: the bytes go to tmp/<name>.<pid>, are
 * fsync'd, then link()ed to new/<name>.eml, which fails if another writer
 * got there first, and the directory is fsync'd before success is
 * reported.  The name is a digest of the message's identity, so finding an
 * earlier copy is a stat() in each state directory.  Every change (a
 * queueing, a move, a state file) is made holding spool.lock, so that two
 * composes of the same report cannot both pass that check, and a move
 * back to new/ (release, retry) cannot slip between a compose's checks.
 */
#include "robot/util/common.h"
#include "robot/delivery/spool.h"
#include "robot/delivery/msgindex.h"
#include "robot/util/utf8.h"
#include "mail/envelope.h"

#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const state_dirs[] = { "new", "sent", "failed", "hold" };

const char *spool_state_dir(enum spool_state st)
{
	return st < SPOOL_NSTATES ? state_dirs[st] : "?";
}

int spool_errno_exit(int errnum)
{
	switch (errnum) {
	case EACCES:
	case EPERM:
	case EROFS:
	case ENOSPC:
	case EDQUOT:
	case EIO:
	case EFBIG:
	case EMFILE:
	case ENFILE:
	case ENOMEM:
	case EAGAIN:
	case EBUSY:
	case ETXTBSY:
		return EXIT_TEMPFAIL;
	default:
		return EXIT_RUNTIME;
	}
}

/* error_errno() for a failed call on the spool, giving its exit code. */
static int fail_errno;
#define fail(...)                                                          \
	(fail_errno = errno, error_errno(__VA_ARGS__), errno = fail_errno, \
	 spool_errno_exit(fail_errno))

void spool_key_name(struct strbuf *out, const char *key)
{
	size_t len = strlen(key);

	/* two seeds give 128 bits of name */
	strbuf_addf(out, "%016llx%016llx",
		    (unsigned long long)fnv1a64(FNV64_INIT, key, len),
		    (unsigned long long)fnv1a64(UINT64_C(0x84222325cbf29ce4),
						key, len));
}

/* DIR/SUB[/NAME][EXT], pieced together (a few a message: no printf) */
static char *path_of(const struct spool *s, const char *sub, const char *name,
		     const char *ext)
{
	struct strbuf p = STRBUF_INIT;

	strbuf_grow(&p, strlen(s->dir) + 64);
	strbuf_addstr(&p, s->dir);
	strbuf_addch(&p, '/');
	strbuf_addstr(&p, sub);
	if (name) {
		strbuf_addch(&p, '/');
		strbuf_addstr(&p, name);
	}
	if (ext)
		strbuf_addstr(&p, ext);
	return strbuf_detach(&p, NULL);
}

/* ---- opening and locking ---- */

/* A spool path that names no directory: the configuration's fault. */
static int bad_spool(const char *config, const char *dir, const char *what)
{
	if (config && strcmp(config, "(built-in)"))
		error("%s: spool: '%s' %s", config, dir, what);
	else /* the built-in defaults: most likely a forgotten -c */
		error("(built-in): spool: '%s' %s, and no configuration was "
		      "found: give one with -c FILE or $ROBOT_CONFIG, or "
		      "install /etc/robot/robot.yaml",
		      dir, what);
	return EXIT_CONFIG;
}

int spool_open(struct spool *s, const char *dir, int create, const char *config)
{
	struct stat st;
	size_t i;
	char *p;
	int ret;

	memset(s, 0, sizeof(*s));
	s->lock_fd = s->send_fd = -1;
	s->pid = (long)getpid();
	s->send_len = SIZE_MAX;
	s->dir = xstrdup(dir);
	if (!stat(dir, &st) && !S_ISDIR(st.st_mode)) {
		ret = bad_spool(config, dir, "is not a directory");
		goto err;
	}
	if (!stat(dir, &st)) {
		/* there */
	} else if (errno == ENOTDIR) {
		ret = bad_spool(config, dir,
				"is under a file, not a directory");
		goto err;
	} else if (errno != ENOENT) {
		ret = fail("cannot open spool '%s'", dir);
		goto err;
	} else if (!create) {
		ret = bad_spool(config, dir, "does not exist");
		goto err;
	} else if (mkdir_private(dir) && errno != EEXIST) {
		if (errno == ENOENT)
			ret = bad_spool(config, dir,
					"cannot be created: its parent "
					"directory does not exist");
		else
			ret = fail("cannot create spool '%s'", dir);
		goto err;
	}
	for (i = 0; i <= SPOOL_NSTATES; i++) {
		p = path_of(s, i < SPOOL_NSTATES ? state_dirs[i] : "tmp", NULL,
			    NULL);
		if (mkdir_private(p) && errno != EEXIST) {
			ret = fail("cannot create '%s'", p);
			free(p);
			goto err;
		}
		free(p);
	}
	p = path_of(s, "spool.lock", NULL, NULL);
	s->lock_fd = open(p, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	/* a spool robot may not write (robot queue lists it): no lock */
	if (s->lock_fd < 0 && !create && (errno == EACCES || errno == EROFS)) {
		s->lock_fd = open(p, O_RDONLY | O_CLOEXEC);
		if (s->lock_fd < 0)
			s->lock_fd = open(s->dir, O_RDONLY | O_CLOEXEC);
		s->read_only = s->lock_fd >= 0;
	}
	if (s->lock_fd < 0) {
		ret = fail("cannot open '%s'", p);
		free(p);
		goto err;
	}
	free(p);
	return 0;
err:
	spool_close(s);
	return ret;
}

void spool_close(struct spool *s)
{
	msgindex_free(s->index);
	if (s->lock_fd >= 0)
		close(s->lock_fd);
	if (s->send_fd >= 0)
		close(s->send_fd);
	free(s->dir);
	memset(s, 0, sizeof(*s));
	s->lock_fd = s->send_fd = -1;
	s->send_len = SIZE_MAX;
}

int spool_lock(struct spool *s)
{
	while (flock(s->lock_fd, LOCK_EX)) {
		if (errno == EINTR)
			continue;
		error_errno("cannot lock spool '%s'", s->dir);
		return EXIT_RUNTIME;
	}
	s->locked = 1;
	return 0;
}

void spool_unlock(struct spool *s)
{
	if (s->locked)
		flock(s->lock_fd, LOCK_UN);
	s->locked = 0;
}

int spool_clean_tmp(struct spool *s)
{
	char *dir = path_of(s, "tmp", NULL, NULL);
	struct dirent *de;
	DIR *d = opendir(dir);
	int ret = 0;

	if (!s->locked)
		BUG("spool_clean_tmp without the lock");
	if (!d) {
		ret = fail("cannot read '%s'", dir);
		free(dir);
		return ret;
	}
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") &&
		    unlinkat(dirfd(d), de->d_name, 0) && errno != ENOENT) {
			ret = fail("cannot remove a stray file in '%s'", dir);
			break;
		}
	closedir(d);
	free(dir);
	return ret;
}

/* ---- files ---- */

int mkdir_private(const char *path)
{
	if (mkdir(path, 0700))
		return -1;
	return chmod(path, 0700);
}

static int fsync_dir(const char *path)
{
	int fd = open(path, O_DIRECTORY | O_RDONLY | O_CLOEXEC);
	int ret = 0;

	if (fd < 0)
		return fail("cannot open '%s'", path);
	if (fsync(fd) && errno != EINVAL)
		ret = fail("cannot fsync '%s'", path);
	close(fd);
	return ret;
}

/*
 * Writes a new file whole; `durable` fsyncs it.  `path` is in tmp/ (the
 * spool lock held): one there of that name is a killed writer's, and
 * replaced.
 */
static int write_file(const char *path, const char *data, size_t len,
		      int durable)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	size_t done = 0;
	int e;

	if (fd < 0 && errno == EEXIST && !unlink(path))
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return fail("cannot create '%s'", path);
	/* private whatever the umask: Bcc lines, unsent reports */
	if (fchmod(fd, 0600))
		goto err;
	while (done < len) {
		ssize_t n = write(fd, data + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			goto err;
		done += (size_t)n;
	}
	if (durable && fsync(fd))
		goto err;
	if (close(fd)) {
		fd = -1;
		goto err;
	}
	return 0;
err:
	e = errno;
	if (fd >= 0)
		close(fd);
	unlink(path);
	errno = e;
	return fail("cannot write '%s'", path);
}

/* The header section of a file (at most 64 KiB of it). */
static int read_head(struct strbuf *out, const char *path)
{
	char buf[8192];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	while (out->len < 65536 && (n = read(fd, buf, sizeof(buf))) > 0) {
		strbuf_add(out, buf, n);
		if (memmem(out->buf, out->len, "\n\n", 2))
			break;
	}
	close(fd);
	return 0;
}

static void head_field(char **dst, const struct strbuf *head, const char *f)
{
	struct strbuf v = STRBUF_INIT;

	if (!envelope_field(head->buf, head->len, f, &v))
		*dst = strbuf_detach(&v, NULL);
	strbuf_release(&v);
}

int spool_message_id(struct spool *s, enum spool_state st, const char *name,
		     char **id)
{
	struct strbuf head = STRBUF_INIT;
	char *p = path_of(s, state_dirs[st], name, ".eml");
	int ret = read_head(&head, p);

	*id = NULL;
	if (!ret)
		head_field(id, &head, "Message-ID");
	strbuf_release(&head);
	free(p);
	return ret;
}

const char spool_too_big[] = "more than 256 MiB, the largest message robot "
			     "sends";

int spool_message_fits(struct spool *s, enum spool_state st, const char *name)
{
	char *p = path_of(s, state_dirs[st], name, ".eml");
	struct stat sb;
	int ret = stat(p, &sb) || (size_t)sb.st_size <= SPOOL_MESSAGE_MAX;

	free(p);
	return ret;
}

int spool_read(struct spool *s, enum spool_state st, const char *name,
	       struct strbuf *out)
{
	char *p = path_of(s, state_dirs[st], name, ".eml");
	int ret = strbuf_read_file_max(out, p, SPOOL_MESSAGE_MAX);

	if (ret > 0) {
		error("'%s': %s", p, spool_too_big);
		ret = EXIT_DATAERR;
	} else if (ret) {
		ret = fail("cannot read '%s'", p);
	}
	free(p);
	return ret;
}

int spool_has(struct spool *s, enum spool_state st, const char *name)
{
	char *p = path_of(s, state_dirs[st], name, ".eml");
	struct stat sb;
	int ret = !stat(p, &sb);

	free(p);
	return ret;
}

/* ---- queueing ---- */

/* Looks for an earlier copy of the message in the state directories. */
static int find_copy(struct spool *s, const char *name, enum spool_result *res,
		     struct strbuf *first_id)
{
	size_t i;

	for (i = 0; i < SPOOL_NSTATES; i++) {
		char *p, *id = NULL;
		struct strbuf head = STRBUF_INIT;

		if (!spool_has(s, i, name))
			continue;
		*res = i == SPOOL_SENT ? SPOOL_ALREADY_SENT
				       : SPOOL_ALREADY_QUEUED;
		p = path_of(s, state_dirs[i], name, ".eml");
		read_head(&head, p);
		head_field(&id, &head, "Message-ID");
		if (id)
			strbuf_addstr(first_id, id);
		free(id);
		free(p);
		strbuf_release(&head);
		return 1;
	}
	return 0;
}

int spool_enqueue(struct spool *s, const char *key, const char *msg, size_t len,
		  enum spool_result *res, struct strbuf *first_id)
{
	struct strbuf name = STRBUF_INIT;
	char *tmp = NULL, *dst = NULL, *dir = NULL;
	int ret;

	if (!s->locked)
		BUG("spool_enqueue without the lock");
	/* what a killed compose left, even a file under our own pid */
	ret = spool_clean_tmp(s);
	if (ret)
		goto out;
	spool_key_name(&name, key);
	if (find_copy(s, name.buf, res, first_id))
		goto out;
	tmp = xasprintf("%s/tmp/%s.%ld", s->dir, name.buf, s->pid);
	dst = path_of(s, "new", name.buf, ".eml");
	ret = write_file(tmp, msg, len, 1);
	if (ret)
		goto out;
	if (link(tmp, dst)) {
		ret = fail("cannot queue '%s'", dst);
		unlink(tmp);
		goto out;
	}
	unlink(tmp);
	dir = path_of(s, "new", NULL, NULL);
	ret = fsync_dir(dir);
	if (!ret)
		*res = SPOOL_QUEUED;
out:
	strbuf_release(&name);
	free(tmp);
	free(dst);
	free(dir);
	return ret;
}

int spool_find(struct spool *s, const char *key, enum spool_result *res,
	       struct strbuf *first_id)
{
	struct strbuf name = STRBUF_INIT;
	int found;

	spool_key_name(&name, key);
	found = find_copy(s, name.buf, res, first_id);
	strbuf_release(&name);
	return found;
}

/* ---- state files ---- */

void spool_strs_add(struct spool_strs *l, const char *str)
{
	l->v = xreallocarray(l->v, l->n + 1, sizeof(*l->v));
	l->v[l->n++] = xstrdup(str);
}

void spool_strs_release(struct spool_strs *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

void spool_meta_release(struct spool_meta *m)
{
	free(m->reply);
	free(m->via);
	spool_strs_release(&m->sent_to);
	spool_strs_release(&m->refused);
	spool_strs_release(&m->deferred);
	memset(m, 0, sizeof(*m));
}

void spool_time_format(struct strbuf *out, time_t t)
{
	struct tm tm;
	char buf[32];

	gmtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	strbuf_addstr(out, buf);
}

void spool_time_json(struct strbuf *out, time_t t)
{
	struct strbuf v = STRBUF_INIT;

	if (t)
		spool_time_format(&v, t);
	strbuf_add_json_string(out, t ? v.buf : NULL);
	strbuf_release(&v);
}

time_t spool_time_parse(const char *str)
{
	struct tm tm = { 0 }, back;
	char z = 0;
	int n = 0;
	time_t t;

	if (sscanf(str, "%4d-%2d-%2dT%2d:%2d:%2d%c%n", &tm.tm_year, &tm.tm_mon,
		   &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &z,
		   &n) != 7 ||
	    z != 'Z' || str[n] || strlen(str) != 20 || tm.tm_year < 1970)
		return 0;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	back = tm;
	t = timegm(&tm);
	/* a date that is one: timegm() would make 9999-99-99 another */
	if (tm.tm_year != back.tm_year || tm.tm_mon != back.tm_mon ||
	    tm.tm_mday != back.tm_mday || tm.tm_hour != back.tm_hour ||
	    tm.tm_min != back.tm_min || tm.tm_sec != back.tm_sec)
		return 0;
	return t;
}

/* One "key: value" line; the value with any control character as '?'. */
static void meta_line(struct strbuf *sb, const char *key, const char *value)
{
	const char *p;

	if (!value)
		return;
	strbuf_addstr(sb, key);
	strbuf_addstr(sb, ": ");
	/* runs of printable bytes; a control byte becomes '?' */
	for (p = value; *p;) {
		size_t n = 0;

		while (p[n] && (unsigned char)p[n] >= 32 && p[n] != 127)
			n++;
		strbuf_add(sb, p, n);
		p += n;
		if (*p) {
			strbuf_addch(sb, '?');
			p++;
		}
	}
	strbuf_addch(sb, '\n');
}

static void meta_time(struct strbuf *sb, const char *key, time_t t)
{
	struct strbuf v = STRBUF_INIT;

	if (!t)
		return;
	spool_time_format(&v, t);
	meta_line(sb, key, v.buf);
	strbuf_release(&v);
}

int spool_write_meta(struct spool *s, enum spool_state st, const char *name,
		     const char *message_id, const struct spool_meta *m)
{
	struct strbuf sb = STRBUF_INIT;
	char *tmp, *dst;
	size_t i;
	int ret;

	if (!s->locked)
		BUG("spool_write_meta without the lock");
	meta_line(&sb, "message-id", message_id);
	strbuf_addf(&sb, "attempts: %d\n", m->attempts);
	meta_time(&sb, "last-attempt", m->last_attempt);
	meta_time(&sb, "next-attempt", m->next_attempt);
	meta_time(&sb, "done", m->done);
	meta_line(&sb, "via", m->via);
	meta_line(&sb, "reply", m->reply);
	for (i = 0; i < m->sent_to.n; i++)
		meta_line(&sb, "sent-to", m->sent_to.v[i]);
	for (i = 0; i < m->refused.n; i++)
		meta_line(&sb, "refused", m->refused.v[i]);
	for (i = 0; i < m->deferred.n; i++)
		meta_line(&sb, "deferred", m->deferred.v[i]);
	tmp = xasprintf("%s/tmp/%s.state.%ld", s->dir, name, s->pid);
	dst = path_of(s, state_dirs[st], name, ".state");
	/*
	 * On disk before it counts, and its folder after the rename: a
	 * power loss must not forget a message sent (it would go out again
	 * with the rest of the run) nor its attempts.
	 */
	ret = write_file(tmp, sb.buf, sb.len, 1);
	if (!ret && rename(tmp, dst)) {
		ret = fail("cannot write '%s'", dst);
		unlink(tmp);
	} else if (!ret) {
		char *dir = path_of(s, state_dirs[st], NULL, NULL);

		ret = fsync_dir(dir);
		free(dir);
	}
	free(tmp);
	free(dst);
	strbuf_release(&sb);
	return ret;
}

/* The longest wait robot sets before an attempt (send.c's backoff). */
#define META_MAX_WAIT	  (24 * 3600)
#define META_MAX_ATTEMPTS 100000

static int meta_time_of(const char *path, const char *key, const char *v,
			time_t *t)
{
	*t = spool_time_parse(v);
	if (*t)
		return 0;
	error("%s: %s: '%.40s' is no date robot wrote "
	      "(YYYY-MM-DDTHH:MM:SSZ); the state file is corrupt",
	      path, key, v);
	return -1;
}

static int meta_corrupt(const char *path, const char *key, const char *what)
{
	error("%s: %s: %s; the state file is corrupt", path, key, what);
	return -1;
}

int spool_read_meta(struct spool *s, enum spool_state st, const char *name,
		    struct spool_meta *m)
{
	struct strbuf sb = STRBUF_INIT;
	char *p = path_of(s, state_dirs[st], name, ".state"), *line, *next;
	int ret = strbuf_read_file_max(&sb, p, SPOOL_STATE_MAX);

	memset(m, 0, sizeof(*m));
	if (ret > 0) {
		meta_corrupt(p, "size",
			     "more than 1 MiB, not a state robot "
			     "writes");
		free(p);
		return -1;
	}
	if (ret) {
		free(p);
		strbuf_release(&sb);
		return 1;
	}
	for (line = sb.buf; *line && !ret; line = next) {
		char *colon, *v;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		else
			next = line + strlen(line);
		colon = strchr(line, ':');
		if (!colon)
			continue;
		*colon = '\0';
		v = colon + 1 + (colon[1] == ' ');
		if (!strcmp(line, "attempts")) {
			char *end;
			long n;

			errno = 0;
			n = strtol(v, &end, 10);
			if (!*v || *end || errno || n < 0 ||
			    n > META_MAX_ATTEMPTS ||
			    !isdigit((unsigned char)*v))
				ret = meta_corrupt(
					p, "attempts",
					"not a count from 0 to 100000");
			else
				m->attempts = (int)n;
		} else if (!strcmp(line, "last-attempt"))
			ret = meta_time_of(p, line, v, &m->last_attempt);
		else if (!strcmp(line, "next-attempt"))
			ret = meta_time_of(p, line, v, &m->next_attempt);
		else if (!strcmp(line, "done"))
			ret = meta_time_of(p, line, v, &m->done);
		else if (!strcmp(line, "via") && !m->via)
			m->via = xstrdup(v);
		else if (!strcmp(line, "reply") && !m->reply)
			m->reply = xstrdup(v);
		else if (!strcmp(line, "sent-to"))
			spool_strs_add(&m->sent_to, v);
		else if (!strcmp(line, "refused"))
			spool_strs_add(&m->refused, v);
		else if (!strcmp(line, "deferred"))
			spool_strs_add(&m->deferred, v);
	}
	/* robot waits at most an hour after an attempt: never a year */
	if (!ret && m->next_attempt &&
	    (!m->last_attempt ||
	     m->next_attempt > m->last_attempt + META_MAX_WAIT))
		ret = meta_corrupt(p, "next-attempt",
				   "more than a day after the last attempt "
				   "(or none), a wait robot never sets");
	if (!ret && st == SPOOL_NEW && m->sent_to.n && !m->deferred.n)
		ret = meta_corrupt(p, "sent-to",
				   "sent, yet queued with nobody deferred");
	if (ret)
		spool_meta_release(m);
	free(p);
	strbuf_release(&sb);
	return ret;
}

int spool_check_meta(struct spool *s, enum spool_state st, const char *name,
		     const struct spool_meta *m, char *const *rcpt, size_t n,
		     const char *also)
{
	const struct spool_strs *lists[] = { &m->sent_to, &m->refused,
					     &m->deferred };
	static const char *const keys[] = { "sent-to", "refused", "deferred" };
	size_t i, j, k;

	for (i = 0; i < ARRAY_SIZE(lists); i++)
		for (j = 0; j < lists[i]->n; j++) {
			/* "ADDR" or "ADDR REPLY" */
			const char *a = lists[i]->v[j];
			size_t al = strcspn(a, " ");

			for (k = 0; k < n; k++)
				if (strlen(rcpt[k]) == al &&
				    !memcmp(a, rcpt[k], al))
					break;
			if (k < n || (also && strlen(also) == al &&
				      !memcmp(a, also, al)))
				continue;
			{
				char *p = path_of(s, state_dirs[st], name,
						  ".state");
				struct strbuf what = STRBUF_INIT;

				strbuf_addf(&what,
					    "%.*s is none of the message's "
					    "recipients",
					    (int)(al < 80 ? al : 80), a);
				meta_corrupt(p, keys[i], what.buf);
				strbuf_release(&what);
				free(p);
			}
			return -1;
		}
	return 0;
}

/* ---- listing ---- */

static int cmp_msg(const void *a, const void *b)
{
	const struct spool_msg *x = a, *y = b;

	if (x->queued_ns != y->queued_ns)
		return x->queued_ns < y->queued_ns ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* qsort and bsearch over the names of a folder's state files */
static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int has_suffix(const char *s, const char *suffix, size_t *stem)
{
	size_t n = strlen(s), k = strlen(suffix);

	if (n <= k || strcmp(s + n - k, suffix))
		return 0;
	*stem = n - k;
	return 1;
}

int spool_msg_stem(const char *fname, size_t *stem)
{
	return has_suffix(fname, ".eml", stem);
}

int spool_list(struct spool *s, enum spool_state st, struct spool_msg **out,
	       size_t *n)
{
	char *dir = path_of(s, state_dirs[st], NULL, NULL);
	struct spool_msg *v = NULL;
	size_t nr = 0, alloc = 0, stem, i;
	char **states = NULL;
	size_t nstates = 0, alloc_states = 0;
	struct dirent *de;
	DIR *d = opendir(dir);
	int ret = 0;

	*out = NULL;
	*n = 0;
	if (!d) {
		ret = fail("cannot read '%s'", dir);
		free(dir);
		return ret;
	}
	while ((de = readdir(d))) {
		struct stat sb;

		if (has_suffix(de->d_name, ".state", &stem)) {
			ALLOC_GROW(states, nstates + 1, alloc_states);
			states[nstates++] = xstrndup(de->d_name, stem);
			continue;
		}
		if (!spool_msg_stem(de->d_name, &stem) ||
		    fstatat(dirfd(d), de->d_name, &sb, 0) ||
		    !S_ISREG(sb.st_mode))
			continue;
		ALLOC_GROW(v, nr + 1, alloc);
		memset(&v[nr], 0, sizeof(v[nr]));
		v[nr].name = xstrndup(de->d_name, stem);
		v[nr].state = st;
		v[nr].queued = sb.st_mtime;
		v[nr].queued_ns = (long long)sb.st_mtim.tv_sec * 1000000000 +
				  sb.st_mtim.tv_nsec;
		v[nr].size = (long long)sb.st_size;
		nr++;
	}
	closedir(d);
	if (nr)
		qsort(v, nr, sizeof(*v), cmp_msg);
	/* each message looks its state file up: n log n, not n * n */
	if (nstates)
		qsort(states, nstates, sizeof(*states), cmp_name);
	for (i = 0; i < nr; i++) {
		struct strbuf head = STRBUF_INIT;
		char *p = path_of(s, state_dirs[st], v[i].name, ".eml");

		read_head(&head, p);
		head_field(&v[i].message_id, &head, "Message-ID");
		head_field(&v[i].subject, &head, "Subject");
		strbuf_release(&head);
		free(p);
		if (nstates && bsearch(&v[i].name, states, nstates,
				       sizeof(*states), cmp_name)) {
			int r;

			/* the commands that act on it say it is corrupt */
			error_quiet++;
			r = spool_read_meta(s, st, v[i].name, &v[i].meta);
			error_quiet--;

			v[i].has_meta = !r;
			v[i].corrupt = r < 0;
		}
	}
	for (i = 0; i < nstates; i++)
		free(states[i]);
	free(states);
	free(dir);
	*out = v;
	*n = nr;
	return 0;
}

void spool_msgs_release(struct spool_msg *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].message_id);
		free(v[i].subject);
		spool_meta_release(&v[i].meta);
	}
	free(v);
}

/* ---- moving ---- */

/*
 * rename(a, b) that never replaces b: 0, 1 when b exists, -1 (errno).
 * One renameat2() where the file system can refuse, else a stat() first.
 */
static int rename_new(const char *a, const char *b)
{
	struct stat sb;

	if (!renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_NOREPLACE))
		return 0;
	if (errno == EEXIST)
		return 1;
	if (errno != EINVAL && errno != ENOSYS)
		return -1;
	if (!stat(b, &sb))
		return 1;
	return rename(a, b) ? -1 : 0;
}

int spool_move(struct spool *s, const char *name, enum spool_state from,
	       enum spool_state to, int touch)
{
	char *a = path_of(s, state_dirs[from], name, ".eml");
	char *b = path_of(s, state_dirs[to], name, ".eml");
	int ret;

	if (!s->locked)
		BUG("spool_move without the lock");
	/* names are unique across the states: never overwrite one */
	ret = rename_new(a, b);
	if (ret > 0) {
		error("cannot move '%s': '%s' exists", a, b);
		ret = EXIT_RUNTIME;
		goto out;
	}
	if (ret) {
		ret = fail("cannot move '%s'", a);
		goto out;
	}
	if (touch & 1)
		utimensat(AT_FDCWD, b, NULL, 0);
	free(a);
	free(b);
	a = path_of(s, state_dirs[from], name, ".state");
	b = path_of(s, state_dirs[to], name, ".state");
	if (touch & SPOOL_MOVE_KEEP_META) {
		/* `to` has its new state file already: drop the old one */
		if (unlink(a) && errno != ENOENT)
			ret = fail("cannot remove '%s'", a);
	} else if (rename(a, b) && errno != ENOENT) {
		ret = fail("cannot move '%s'", a);
	}
out:
	free(a);
	free(b);
	return ret;
}

int spool_remove_meta(struct spool *s, enum spool_state st, const char *name)
{
	char *p = path_of(s, state_dirs[st], name, ".state");
	int ret = 0;

	if (unlink(p) && errno != ENOENT)
		ret = fail("cannot remove '%s'", p);
	free(p);
	return ret;
}

int spool_remove(struct spool *s, enum spool_state st, const char *name)
{
	char *p = path_of(s, state_dirs[st], name, ".eml");
	int ret = 0;

	if (!s->locked)
		BUG("spool_remove without the lock");
	if (unlink(p))
		ret = fail("cannot remove '%s'", p);
	free(p);
	return ret ? ret : spool_remove_meta(s, st, name);
}

int spool_sync(struct spool *s)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < SPOOL_NSTATES && !ret; i++) {
		char *p = path_of(s, state_dirs[i], NULL, NULL);

		ret = fsync_dir(p);
		free(p);
	}
	return ret;
}

/* ---- the sender's lock ---- */

static int open_send_lock(struct spool *s, int flags)
{
	char *p;

	if (s->send_fd >= 0)
		return 0;
	p = path_of(s, "send.lock", NULL, NULL);
	s->send_fd = open(p, flags | O_CLOEXEC, 0600);
	if (s->send_fd < 0 && !(errno == ENOENT && !(flags & O_CREAT))) {
		int ret = fail("cannot open '%s'", p);

		free(p);
		return ret;
	}
	free(p);
	return 0;
}

static void write_send_lock(struct spool *s, const char *name)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "pid %ld\n", s->pid);
	if (name)
		strbuf_addf(&sb, "sending %s\n", name);
	/* cut to its length only when it was longer (two calls a message) */
	if (pwrite(s->send_fd, sb.buf, sb.len, 0) != (ssize_t)sb.len ||
	    (sb.len < s->send_len && ftruncate(s->send_fd, sb.len))) {
		warning("cannot write '%s/send.lock': %s", s->dir,
			strerror(errno));
		s->send_len = SIZE_MAX;
	} else {
		s->send_len = sb.len;
	}
	strbuf_release(&sb);
}

static void read_send_lock(struct spool *s, struct strbuf *out)
{
	char buf[256];
	ssize_t n = pread(s->send_fd, buf, sizeof(buf) - 1, 0);

	if (n > 0)
		strbuf_add(out, buf, n);
}

int spool_send_begin(struct spool *s)
{
	struct strbuf who = STRBUF_INIT;
	int ret = open_send_lock(s, O_RDWR | O_CREAT);

	if (ret)
		return ret;
	if (flock(s->send_fd, LOCK_EX | LOCK_NB)) {
		if (errno != EWOULDBLOCK)
			return fail("cannot lock '%s/send.lock'", s->dir);
		read_send_lock(s, &who);
		error("spool '%s' is busy: another robot send (%.*s) is "
		      "delivering; try again later",
		      s->dir, (int)strcspn(who.buf, "\n"),
		      who.len ? who.buf : "pid unknown");
		strbuf_release(&who);
		return EXIT_TEMPFAIL;
	}
	s->sending = 1;
	write_send_lock(s, NULL);
	return 0;
}

void spool_send_claim(struct spool *s, const char *name)
{
	if (s->sending)
		write_send_lock(s, name);
}

int spool_in_flight(struct spool *s, const char *name)
{
	struct strbuf who = STRBUF_INIT;
	const char *p;
	int ret = 0;

	if (s->sending || open_send_lock(s, O_RDONLY) || s->send_fd < 0)
		return 0;
	if (!flock(s->send_fd, LOCK_SH | LOCK_NB)) {
		flock(s->send_fd, LOCK_UN);
		return 0;
	}
	read_send_lock(s, &who);
	p = strstr(who.buf, "\nsending ");
	ret = p && !strncmp(p + 9, name, strlen(name)) &&
	      p[9 + strlen(name)] == '\n';
	strbuf_release(&who);
	return ret;
}

int spool_crashed_claim(struct spool *s, struct strbuf *name)
{
	struct strbuf who = STRBUF_INIT;
	const char *p;
	size_t len;
	int ret = 0;

	if (s->sending || open_send_lock(s, O_RDONLY) || s->send_fd < 0)
		return 0;
	if (flock(s->send_fd, LOCK_SH | LOCK_NB))
		return 0; /* a run holds it: in flight, not crashed */
	read_send_lock(s, &who);
	flock(s->send_fd, LOCK_UN);
	p = strstr(who.buf, "\nsending ");
	if (p) {
		p += 9;
		len = strcspn(p, "\n");
		if (p[len] == '\n' && len) {
			strbuf_add(name, p, len);
			ret = 1;
		}
	}
	strbuf_release(&who);
	return ret;
}

/* ---- pause and rate ---- */

int spool_paused(struct spool *s, struct strbuf *reason)
{
	char *p = path_of(s, "pause", NULL, NULL);
	struct stat sb;
	int ret = !stat(p, &sb);

	if (ret && reason) {
		strbuf_read_file(reason, p);
		strbuf_rtrim(reason);
	}
	free(p);
	return ret;
}

int spool_pause(struct spool *s, const char *reason)
{
	char *p = path_of(s, "pause", NULL, NULL);
	char *tmp = xasprintf("%s/tmp/pause.%ld", s->dir, s->pid);
	char *text = xasprintf("%s\n", reason ? reason : "paused");
	int ret;

	unlink(tmp);
	ret = write_file(tmp, text, strlen(text), 1);
	if (!ret && rename(tmp, p))
		ret = fail("cannot write '%s'", p);
	unlink(tmp);
	free(p);
	free(tmp);
	free(text);
	return ret;
}

int spool_resume(struct spool *s)
{
	char *p = path_of(s, "pause", NULL, NULL);
	int ret = 0;

	if (unlink(p) && errno != ENOENT)
		ret = fail("cannot remove '%s'", p);
	free(p);
	return ret;
}

long spool_rate_recent(struct spool *s, time_t now)
{
	struct strbuf sb = STRBUF_INIT, keep = STRBUF_INIT;
	char *p = path_of(s, "rate", NULL, NULL), *line, *tmp;
	long n = 0;

	if (strbuf_read_file(&sb, p)) {
		free(p);
		strbuf_release(&sb);
		return 0;
	}
	for (line = sb.buf; *line;) {
		size_t len = strcspn(line, "\n");
		long long t = atoll(line);

		if (t > (long long)now - 3600 && t <= (long long)now) {
			n++;
			strbuf_add(&keep, line, len);
			strbuf_addch(&keep, '\n');
		}
		line += len + (line[len] == '\n');
	}
	if (keep.len != sb.len) {
		tmp = xasprintf("%s/tmp/rate.%ld", s->dir, s->pid);
		unlink(tmp);
		if (!write_file(tmp, keep.buf, keep.len, 0) && rename(tmp, p))
			unlink(tmp);
		free(tmp);
	}
	free(p);
	strbuf_release(&sb);
	strbuf_release(&keep);
	return n;
}

void spool_rate_add(struct spool *s, time_t now)
{
	char *p = path_of(s, "rate", NULL, NULL);
	int fd = open(p, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	char line[32];
	int len = snprintf(line, sizeof(line), "%lld\n", (long long)now);

	if (fd < 0 || write(fd, line, len) != len)
		warning("cannot record the delivery in '%s': %s", p,
			strerror(errno));
	if (fd >= 0)
		close(fd);
	free(p);
}

#ifdef ROBOT_TEST_HOOKS
int test_crash_due(const char *point)
{
	static const char *env;
	static long seen;
	static int checked;
	size_t len = strlen(point);
	long nth = 1;

	if (!checked) {
		env = getenv("ROBOT_TEST_CRASH");
		checked = 1;
	}
	if (!env || strncmp(env, point, len) || (env[len] && env[len] != ':'))
		return 0;
	if (env[len] == ':')
		nth = atol(env + len + 1);
	return ++seen == nth;
}

void test_crash_point(const char *point)
{
	if (test_crash_due(point))
		raise(SIGKILL);
}
#endif
