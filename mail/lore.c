// SPDX-License-Identifier: GPL-2.0-only
/*
 * lore.c: a public-inbox archive over HTTP (see lore.h), through the
 * shared libcurl set-up of net.h.
 *
 * One request is: the cache, else (unless offline) the rate limit, the
 * transfer, the cache again; then the answer is unpacked (the archive
 * gzips its mboxes) and split into messages.  The handle is opened on the
 * first request that needs the network, so a run answered by the cache
 * never starts libcurl.
 */
#include "robot/util/common.h"
#include "robot/util/dir.h"
#include "robot/util/gz.h"
#include "robot/util/utf8.h"
#include "mail/inmsg.h"
#include "mail/lore.h"
#include "mail/valid.h"
#include "mail/net.h"

#include <fcntl.h>
#include <strings.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define CACHE_MAGIC "robot lore cache 1\n"

struct lore {
	struct lore_opts o;
	char *url, *cache_dir, *where;
	struct net net;
	int net_up;
	size_t requests;
	double last; /* when the last request went out (no cache dir) */
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void sleep_for(double s)
{
	struct timespec ts;

	if (s <= 0)
		return;
	ts.tv_sec = (time_t)s;
	ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

int lore_open(struct lore **out, const struct lore_opts *o)
{
	struct strbuf why = STRBUF_INIT, url = STRBUF_INIT;
	struct lore *l;

	*out = NULL;
	if (!o->url || !*o->url)
		return error("%s: lore_url: not set (a public-inbox base URL, "
			     "e.g. https://lore.kernel.org/all/)",
			     o->where);
	if (net_url_check(o->url, "http,https", &why)) {
		error("%s: lore_url: '%s': %s", o->where, o->url, why.buf);
		strbuf_release(&why);
		return -1;
	}
	strbuf_addstr(&url, o->url);
	if (url.buf[url.len - 1] != '/')
		strbuf_addch(&url, '/');
	l = xcalloc(1, sizeof(*l));
	l->o = *o;
	l->url = strbuf_detach(&url, NULL);
	l->cache_dir = o->cache_dir ? xstrdup(o->cache_dir) : NULL;
	l->where = xstrdup(o->where);
	l->o.url = l->url;
	l->o.cache_dir = l->cache_dir;
	l->o.where = l->where;
	*out = l;
	return 0;
}

const char *lore_base_url(const struct lore *l)
{
	return l->url;
}

void lore_close(struct lore *l)
{
	if (!l)
		return;
	if (l->net_up)
		net_close(&l->net);
	free(l->url);
	free(l->cache_dir);
	free(l->where);
	free(l);
}

size_t lore_requests(const struct lore *l)
{
	return l->requests;
}

/* RFC 3986 unreserved characters, plus '@' as b4 and lore write ids. */
static int path_safe(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || strchr("-._~@", c);
}

void lore_encode_msgid(struct strbuf *out, const char *msgid)
{
	size_t len = strlen(msgid), i;

	if (len >= 2 && msgid[0] == '<' && msgid[len - 1] == '>') {
		msgid++;
		len -= 2;
	}
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)msgid[i];

		if (c && path_safe(c))
			strbuf_addch(out, c);
		else
			strbuf_addf(out, "%%%02X", c);
	}
}

void lore_msg_url(struct strbuf *out, const struct lore *l, const char *msgid)
{
	strbuf_addstr(out, l->url);
	lore_encode_msgid(out, msgid);
	strbuf_addch(out, '/');
}

/* Query strings: everything but the unreserved characters is %XX. */
static void encode_query(struct strbuf *out, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (path_safe(c) && c != '@')
			strbuf_addch(out, c);
		else
			strbuf_addf(out, "%%%02X", c);
	}
}

/* ---- the cache ---- */

static void cache_path(struct strbuf *out, const struct lore *l,
		       const char *key)
{
	strbuf_addf(out, "%s/%016llx", l->cache_dir,
		    (unsigned long long)fnv1a64(FNV64_INIT, key, strlen(key)));
}

/*
 * The cached answer to `key`: 1 with *status and body filled, or 0 when
 * there is none (or it is too old and we may ask the network).
 */
static int cache_get(const struct lore *l, const char *key, long *status,
		     struct strbuf *body)
{
	struct strbuf path = STRBUF_INIT, data = STRBUF_INIT;
	const char *p, *nl;
	long long when;
	int found = 0;

	if (!l->cache_dir)
		return 0;
	cache_path(&path, l, key);
	if (strbuf_read_file(&data, path.buf))
		goto out;
	/* CACHE_MAGIC, the key, "STATUS TIME", then the answer */
	p = data.buf;
	if (strncmp(p, CACHE_MAGIC, strlen(CACHE_MAGIC)))
		goto out;
	p += strlen(CACHE_MAGIC);
	nl = strchr(p, '\n');
	if (!nl || (size_t)(nl - p) != strlen(key) || memcmp(p, key, nl - p))
		goto out;
	p = nl + 1;
	nl = strchr(p, '\n');
	if (!nl || sscanf(p, "%ld %lld", status, &when) != 2)
		goto out;
	if (!l->o.offline &&
	    (l->o.cache_ttl <= 0 || now() - (double)when >= l->o.cache_ttl))
		goto out;
	strbuf_add(body, nl + 1, data.len - (nl + 1 - data.buf));
	found = 1;
out:
	strbuf_release(&path);
	strbuf_release(&data);
	return found;
}

/* Stores an answer; a cache that cannot be written is only a warning. */
static void cache_put(const struct lore *l, const char *key, long status,
		      const struct strbuf *body)
{
	struct strbuf path = STRBUF_INIT, tmp = STRBUF_INIT, head = STRBUF_INIT;
	FILE *f;

	if (!l->cache_dir)
		return;
	cache_path(&path, l, key);
	strbuf_addf(&tmp, "%s.%ld.tmp", path.buf, (long)getpid());
	strbuf_addf(&head, "%s%s\n%ld %lld\n", CACHE_MAGIC, key, status,
		    (long long)now());
	if (mkdir_p(l->cache_dir)) {
		warning("lore_cache: cannot create '%s': %s", l->cache_dir,
			strerror(errno));
		goto out;
	}
	f = fopen(tmp.buf, "wb");
	if (!f || fwrite(head.buf, 1, head.len, f) != head.len ||
	    fwrite(body->buf, 1, body->len, f) != body->len) {
		warning("lore_cache: cannot write '%s': %s", tmp.buf,
			strerror(errno));
		if (f)
			fclose(f);
		unlink(tmp.buf);
		goto out;
	}
	if (fclose(f) || rename(tmp.buf, path.buf)) {
		warning("lore_cache: cannot write '%s': %s", path.buf,
			strerror(errno));
		unlink(tmp.buf);
	}
out:
	strbuf_release(&path);
	strbuf_release(&tmp);
	strbuf_release(&head);
}

/* ---- politeness ---- */

/*
 * Waits until 1/rate seconds have passed since the last request, of this
 * process or, through the lock file in the cache, of any other.
 */
static void rate_wait(struct lore *l)
{
	struct strbuf path = STRBUF_INIT;
	double gap, last = l->last, t;
	char buf[64];
	ssize_t n;
	int fd = -1;

	if (l->o.rate <= 0)
		return;
	gap = 1.0 / l->o.rate;
	if (l->cache_dir && !mkdir_p(l->cache_dir)) {
		strbuf_addf(&path, "%s/rate.lock", l->cache_dir);
		fd = open(path.buf, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
		if (fd >= 0 && flock(fd, LOCK_EX)) {
			close(fd);
			fd = -1;
		}
		if (fd >= 0 && (n = pread(fd, buf, sizeof(buf) - 1, 0)) > 0) {
			buf[n] = '\0';
			t = strtod(buf, NULL);
			if (t > last)
				last = t;
		}
	}
	t = now();
	if (last > t + gap) /* the clock went back: forget */
		last = 0;
	sleep_for(last + gap - t);
	l->last = now();
	if (fd >= 0) {
		n = snprintf(buf, sizeof(buf), "%.6f\n", l->last);
		if (ftruncate(fd, 0) || pwrite(fd, buf, n, 0) != n)
			warning("lore_cache: cannot write '%s'", path.buf);
		close(fd); /* and unlock */
	}
	strbuf_release(&path);
}

/* ---- HTTP ---- */

struct sink {
	struct strbuf *sb;
	size_t max;
	int too_big;
};

static size_t sink_write(char *p, size_t size, size_t n, void *data)
{
	struct sink *s = data;

	if (s->sb->len + size * n > s->max) {
		s->too_big = 1;
		return 0; /* libcurl stops the transfer */
	}
	strbuf_add(s->sb, p, size * n);
	return size * n;
}

static int net_up(struct lore *l)
{
	struct net_opts no = { "http,https", NULL, 0, l->o.timeout };
	CURL *h;
	int bad = 0;

	if (l->net_up)
		return 0;
	if (!no.timeout)
		no.timeout = 30;
	no.connect_timeout = no.timeout;
	if (net_open(&l->net, &no))
		return -1;
	h = l->net.curl;
	/* redirects are followed by perform(), to lore_url's server only */
	bad |= curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
	bad |= curl_easy_setopt(h, CURLOPT_USERAGENT,
				"robot/" ROBOT_VERSION " (lore lookup)");
	bad |= curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "");
	bad |= curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, sink_write);
	bad |= curl_easy_setopt(h, CURLOPT_MAXFILESIZE_LARGE,
				(curl_off_t)l->o.max_bytes);
	if (bad) {
		net_close(&l->net);
		return error("libcurl refuses robot's HTTP settings");
	}
	l->net_up = 1;
	return 0;
}

/*
 * The request on the network, following up to 5 redirects itself: only
 * to the server lore_url names (net_same_server), so that an archive (or
 * whoever answers in its name) cannot make robot ask a host or a port of
 * its choosing.  A redirect elsewhere is not followed: its target goes
 * into `elsewhere`, and *status stays the 3xx.
 */
static CURLcode perform(struct lore *l, const char *url, int post,
			struct strbuf *body, long *status,
			struct strbuf *elsewhere)
{
	char *cur = xstrdup(url), *next = NULL;
	CURLcode rc;
	int hops = 0;

	for (;;) {
		curl_easy_setopt(l->net.curl, CURLOPT_URL, cur);
		if (post) {
			curl_easy_setopt(l->net.curl, CURLOPT_POSTFIELDS, "");
			curl_easy_setopt(l->net.curl, CURLOPT_POSTFIELDSIZE,
					 0L);
		} else {
			curl_easy_setopt(l->net.curl, CURLOPT_HTTPGET, 1L);
		}
		net_reset_error(&l->net);
		l->requests++;
		strbuf_reset(body); /* a redirect's own page is no answer */
		rc = curl_easy_perform(l->net.curl);
		*status = 0;
		curl_easy_getinfo(l->net.curl, CURLINFO_RESPONSE_CODE, status);
		next = NULL;
		if (rc != CURLE_OK || *status < 301 || *status > 308 ||
		    curl_easy_getinfo(l->net.curl, CURLINFO_REDIRECT_URL,
				      &next) ||
		    !next || hops++ >= 5)
			break;
		if (!net_same_server(next, l->url)) {
			strbuf_addstr(elsewhere, next);
			break;
		}
		/* as browsers do: 307 and 308 keep the method */
		if (*status != 307 && *status != 308)
			post = 0;
		free(cur);
		cur = xstrdup(next);
	}
	free(cur);
	return rc;
}

/*
 * One request, from the cache or the network.  Returns LORE_FOUND (200,
 * body filled), LORE_NONE (404 or 300: no such message or no match), or
 * a failure after one error line.  Without `cache_none` a 404 is neither
 * cached nor taken from the cache (a message the mail links to).
 */
static int request(struct lore *l, int post, const char *url,
		   struct strbuf *body, int cache_none)
{
	struct strbuf key = STRBUF_INIT, elsewhere = STRBUF_INIT;
	struct sink sink = { body, l->o.max_bytes, 0 };
	const char *method = post ? "POST" : "GET";
	long status = 0;
	CURLcode rc;
	int ret;

	strbuf_addf(&key, "%s %s", method, url);
	if (cache_get(l, key.buf, &status, body) &&
	    (status == 200 || cache_none || l->o.offline)) {
		if (l->o.verbose)
			fprintf(stderr, "robot: lore: %s: %ld (cached)\n",
				key.buf, status);
		ret = status == 200 ? LORE_FOUND : LORE_NONE;
		goto out;
	}
	if (l->o.offline) {
		error("lore: %s is not in the cache (lore_cache), and "
		      "--dry-run asks no archive: run 'robot thread' first",
		      key.buf);
		ret = LORE_TEMPFAIL;
		goto out;
	}
	if (net_up(l)) {
		ret = LORE_ERROR;
		goto out;
	}
	rate_wait(l);
	curl_easy_setopt(l->net.curl, CURLOPT_WRITEDATA, &sink);
	rc = perform(l, url, post, body, &status, &elsewhere);
	if (l->o.verbose)
		fprintf(stderr, "robot: lore: %s: %ld, %zu bytes\n", key.buf,
			status, body->len);
	if (elsewhere.len) {
		ret = error("lore: %s: the archive redirects to %s, another "
			    "server than lore_url's: robot asks no other (%s: "
			    "lore_url)",
			    key.buf, elsewhere.buf, l->where);
	} else if (sink.too_big || rc == CURLE_FILESIZE_EXCEEDED) {
		ret = error("lore: the answer to %s is larger than %zu bytes "
			    "(%s: lore_max_bytes)",
			    key.buf, l->o.max_bytes, l->where);
	} else if (rc == CURLE_OPERATION_TIMEDOUT) {
		error("lore: %s: no answer within %ld s (%s: lore_timeout)",
		      key.buf, l->o.timeout ? l->o.timeout : 30L, l->where);
		ret = LORE_TEMPFAIL;
	} else if (rc != CURLE_OK) {
		error("lore: cannot reach %s: %s", key.buf,
		      net_strerror(&l->net, rc));
		ret = net_classify(rc) == NET_TEMPORARY ? LORE_TEMPFAIL
							: LORE_ERROR;
	} else if (status == 200 || status == 404 || status == 300) {
		/* 300: several messages have the id; b4 calls it unknown */
		if (status != 200)
			strbuf_reset(body);
		if (status == 200 || cache_none)
			cache_put(l, key.buf, status == 200 ? 200 : 404, body);
		ret = status == 200 ? LORE_FOUND : LORE_NONE;
	} else if (status == 429 || status >= 500) {
		error("lore: %s: the archive answers HTTP %ld, try later",
		      key.buf, status);
		ret = LORE_TEMPFAIL;
	} else {
		error("lore: %s: unexpected answer HTTP %ld", key.buf, status);
		ret = LORE_ERROR;
	}
out:
	if (ret != LORE_FOUND)
		strbuf_reset(body);
	strbuf_release(&key);
	strbuf_release(&elsewhere);
	return ret;
}

/* Unpacks and splits an answer into messages. */
static int answer_mbox(struct lore *l, const char *what, struct strbuf *body,
		       struct inmsg **msgs, size_t *nr)
{
	struct strbuf text = STRBUF_INIT, why = STRBUF_INIT;
	int ret = LORE_FOUND;

	if (gz_magic(body->buf, body->len)) {
		switch (gunzip_mem(&text, body->buf, body->len,
				   l->o.max_bytes)) {
		case GZ_OK:
			break;
		case GZ_TOO_BIG:
			ret = error("lore: the answer to %s unpacks to more "
				    "than %zu bytes (%s: lore_max_bytes)",
				    what, l->o.max_bytes, l->where);
			goto out;
		case GZ_CORRUPT:
			ret = error("lore: the answer to %s is corrupt gzip "
				    "data",
				    what);
			goto out;
		}
	} else {
		strbuf_addbuf(&text, body);
	}
	if (mbox_split(msgs, nr, text.buf, text.len, &why))
		ret = error("lore: the answer to %s is not a valid mbox: %s",
			    what, why.buf);
	else if (!*nr)
		ret = LORE_NONE;
out:
	strbuf_release(&text);
	strbuf_release(&why);
	return ret;
}

/* GET BASE<id>SUFFIX: an mbox of messages. */
static int get_mbox(struct lore *l, const char *msgid, const char *suffix,
		    struct inmsg **msgs, size_t *nr)
{
	struct strbuf url = STRBUF_INIT, body = STRBUF_INIT;
	int ret;

	*msgs = NULL;
	*nr = 0;
	strbuf_addstr(&url, l->url);
	lore_encode_msgid(&url, msgid);
	strbuf_addstr(&url, suffix);
	/* a message not found by /raw is a lost patch: asked again */
	ret = request(l, 0, url.buf, &body, strcmp(suffix, "/raw"));
	if (ret == LORE_FOUND)
		ret = answer_mbox(l, url.buf, &body, msgs, nr);
	strbuf_release(&url);
	strbuf_release(&body);
	return ret;
}

int lore_thread(struct lore *l, const char *msgid, struct inmsg **msgs,
		size_t *nr)
{
	return get_mbox(l, msgid, "/t.mbox.gz", msgs, nr);
}

int lore_raw(struct lore *l, const char *msgid, struct inmsg **msgs, size_t *nr)
{
	return get_mbox(l, msgid, "/raw", msgs, nr);
}

int lore_search(struct lore *l, const char *query, int threads,
		struct inmsg **msgs, size_t *nr)
{
	struct strbuf url = STRBUF_INIT, body = STRBUF_INIT;
	int ret;

	*msgs = NULL;
	*nr = 0;
	strbuf_addf(&url, "%s?q=", l->url);
	encode_query(&url, query);
	strbuf_addstr(&url, threads ? "&x=m&t=1" : "&x=m");
	ret = request(l, 1, url.buf, &body, 1);
	if (ret == LORE_FOUND)
		ret = answer_mbox(l, url.buf, &body, msgs, nr);
	strbuf_release(&url);
	strbuf_release(&body);
	return ret;
}

/* ---- Link: trailers ---- */

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* The last path component is one of public-inbox's views, not the id. */
static int is_view(const char *s, size_t n)
{
	static const char *const views[] = { "T",	  "t",	    "raw",
					     "t.mbox.gz", "t.atom", "" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(views); i++)
		if (strlen(views[i]) == n && !memcmp(s, views[i], n))
			return 1;
	return 0;
}

/* A link's id (without <>) that is one <id@host>: "../x@y" is none. */
static int valid_link_id(const char *id)
{
	char *box = xasprintf("<%s>", id);
	int ok = !valid_msgid(box, strlen(box), NULL);

	free(box);
	return ok;
}

char *lore_link_msgid(const char *url, const char *base)
{
	struct strbuf id = STRBUF_INIT;
	const char *p = url, *host, *path, *end, *slash;
	size_t hostlen, i;

	while (*p == ' ' || *p == '<')
		p++;
	if (!strncasecmp(p, "https://", 8))
		host = p + 8;
	else if (!strncasecmp(p, "http://", 7))
		host = p + 7;
	else
		return NULL;
	path = strchr(host, '/');
	if (!path)
		return NULL;
	hostlen = path - host;
	end = path + strcspn(path, "?# >");
	if (base && !strncmp(url, base, strlen(base)) &&
	    strlen(base) > (size_t)(path - url)) {
		path = url + strlen(base) - 1; /* base ends in '/' */
	} else if ((hostlen == 15 &&
		    !strncasecmp(host, "lore.kernel.org", 15)) ||
		   (hostlen == 15 &&
		    !strncasecmp(host, "lkml.kernel.org", 15))) {
		/* /LIST/<id> or /r/<id>: drop the first component */
		slash = memchr(path + 1, '/', end - path - 1);
		if (!slash)
			return NULL;
		path = slash;
	} else if (!((hostlen == 16 &&
		      !strncasecmp(host, "patch.msgid.link", 16)) ||
		     (hostlen == 10 && !strncasecmp(host, "msgid.link", 10)))) {
		return NULL;
	}
	path++; /* after the '/' */
	/* drop trailing views ("/", "/T/", "/raw") */
	for (;;) {
		const char *last = end;

		while (last > path && last[-1] != '/')
			last--;
		if (last == path || !is_view(last, end - last))
			break;
		end = last - 1;
	}
	for (i = 0; path + i < end; i++) {
		int hi, lo;

		if (path[i] == '%' && path + i + 2 < end &&
		    (hi = hexval((unsigned char)path[i + 1])) >= 0 &&
		    (lo = hexval((unsigned char)path[i + 2])) >= 0) {
			strbuf_addch(&id, hi * 16 + lo);
			i += 2;
		} else {
			strbuf_addch(&id, path[i]);
		}
	}
	if (!id.len || !strchr(id.buf, '@') || strpbrk(id.buf, "<> \t") ||
	    !utf8_text(id.buf, 0) || !valid_link_id(id.buf)) {
		strbuf_release(&id);
		return NULL;
	}
	{
		char *ret = xasprintf("<%s>", id.buf);

		strbuf_release(&id);
		return ret;
	}
}
