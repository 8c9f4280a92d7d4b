// SPDX-License-Identifier: GPL-2.0-only
/*
 * net.c: libcurl's set-up, shared by every transport of mail/ (see net.h).
 */
#include "robot/util/common.h"
#include "mail/net.h"

_Static_assert(sizeof(ROBOT_CURL_SONAME) > 1, "the Makefile found no libcurl");

DL_LOADER(net_curl, net_curl, NET_CURL_FUNCS, ROBOT_CURL_SONAME)

static int global_state; /* 0 not yet, 1 done, -1 failed */

static void global_cleanup(void)
{
	curl_global_cleanup();
}

static int global_init(void)
{
	if (!global_state) {
		if (curl_global_init(CURL_GLOBAL_DEFAULT)) {
			global_state = -1;
		} else {
			global_state = 1;
			atexit(global_cleanup);
		}
	}
	return global_state > 0 ? 0 : error("cannot initialise libcurl");
}

int net_open(struct net *n, const struct net_opts *o)
{
	CURL *h;
	int bad = 0;

	memset(n, 0, sizeof(*n));
	if (global_init())
		return -1;
	h = curl_easy_init();
	if (!h)
		return error("cannot initialise libcurl");
	bad |= curl_easy_setopt(h, CURLOPT_ERRORBUFFER, n->errbuf);
	bad |= curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	bad |= curl_easy_setopt(h, CURLOPT_TCP_NODELAY, 1L);
	bad |= curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT,
				o->connect_timeout ? o->connect_timeout : 30L);
	bad |= curl_easy_setopt(h, CURLOPT_TIMEOUT,
				o->timeout ? o->timeout : 300L);
	bad |= curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 1L);
	bad |= curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 2L);
	bad |= curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, o->protocols);
	bad |= curl_easy_setopt(h, CURLOPT_REDIR_PROTOCOLS_STR, o->protocols);
	if (o->ca_file)
		bad |= curl_easy_setopt(h, CURLOPT_CAINFO, o->ca_file);
	if (bad) {
		curl_easy_cleanup(h);
		return error("libcurl refuses robot's settings "
			     "(protocols '%s')",
			     o->protocols);
	}
	n->curl = h;
	return 0;
}

void net_close(struct net *n)
{
	if (n->curl)
		curl_easy_cleanup(n->curl);
	n->curl = NULL;
}

void net_reset_error(struct net *n)
{
	n->errbuf[0] = '\0';
}

const char *net_strerror(struct net *n, CURLcode rc)
{
	const char *e = strstr(n->errbuf, "(errno: ");
	char *end;
	long num;

	if (!n->errbuf[0])
		return curl_easy_strerror(rc);
	if (!e)
		return n->errbuf;
	num = strtol(e + 8, &end, 10);
	if (*end != ')' || num <= 0)
		return n->errbuf;
	snprintf(n->words, sizeof(n->words), "%.*s(%s)%s", (int)(e - n->errbuf),
		 n->errbuf, strerror((int)num), end + 1);
	return n->words;
}

enum net_class net_classify(CURLcode rc)
{
	switch (rc) {
	case CURLE_UNSUPPORTED_PROTOCOL:
	case CURLE_URL_MALFORMAT:
	case CURLE_LOGIN_DENIED:
	case CURLE_USE_SSL_FAILED:
	case CURLE_PEER_FAILED_VERIFICATION:
	case CURLE_SSL_CACERT_BADFILE:
	case CURLE_SSL_CERTPROBLEM:
	case CURLE_SSL_CIPHER:
	case CURLE_SSL_ENGINE_NOTFOUND:
	case CURLE_SSL_ISSUER_ERROR:
	case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
	case CURLE_AUTH_ERROR:
		return NET_CONFIG;
	case CURLE_OUT_OF_MEMORY:
	case CURLE_FAILED_INIT:
	case CURLE_BAD_FUNCTION_ARGUMENT:
		return NET_RUNTIME;
	default:
		return NET_TEMPORARY;
	}
}

/* RFC 3986 §3.1 */
static const char scheme_chars[] = "abcdefghijklmnopqrstuvwxyz"
				   "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+.-";

int net_url_check(const char *url, const char *schemes, struct strbuf *why)
{
	CURLU *u;
	char *scheme = NULL, *host = NULL;
	const char *p;
	size_t len;
	int ret = -1;

	if (global_init()) {
		strbuf_addstr(why, "libcurl cannot start");
		return -1;
	}
	u = curl_url();
	if (!u) {
		strbuf_addstr(why, "out of memory");
		return -1;
	}
	/* no default scheme: "example.org" is not a URL */
	if (curl_url_set(u, CURLUPART_URL, url, 0) ||
	    curl_url_get(u, CURLUPART_SCHEME, &scheme, 0)) {
		p = strstr(url, "://");
		if (p && p != url &&
		    strspn(url, scheme_chars) == (size_t)(p - url))
			strbuf_addf(why, "unknown scheme '%.*s' (want %s)",
				    (int)(p - url), url, schemes);
		else
			strbuf_addf(why, "not a URL (want %s)", schemes);
		goto out;
	}
	len = strlen(scheme);
	for (p = schemes; *p; p += strcspn(p, ",") + !!p[strcspn(p, ",")])
		if (strcspn(p, ",") == len && !strncasecmp(p, scheme, len))
			break;
	if (!*p) {
		strbuf_addf(why, "unknown scheme '%s' (want %s)", scheme,
			    schemes);
		goto out;
	}
	if (curl_url_get(u, CURLUPART_HOST, &host, 0) || !*host) {
		strbuf_addstr(why, "no host");
		goto out;
	}
	ret = 0;
out:
	curl_free(scheme);
	curl_free(host);
	curl_url_cleanup(u);
	return ret;
}

/* The scheme, host and port (the scheme's default when none is written). */
static int url_parts(const char *url, char **scheme, char **host, char **port)
{
	CURLU *u = curl_url();
	int ret = -1;

	*scheme = *host = *port = NULL;
	if (u && !curl_url_set(u, CURLUPART_URL, url, 0) &&
	    !curl_url_get(u, CURLUPART_SCHEME, scheme, 0) &&
	    !curl_url_get(u, CURLUPART_HOST, host, 0) &&
	    !curl_url_get(u, CURLUPART_PORT, port, CURLU_DEFAULT_PORT))
		ret = 0;
	curl_url_cleanup(u);
	return ret;
}

int net_same_server(const char *url, const char *base)
{
	char *s1 = NULL, *h1 = NULL, *p1 = NULL;
	char *s2 = NULL, *h2 = NULL, *p2 = NULL;
	int ret = 0;

	if (global_init())
		return 0;
	if (!url_parts(url, &s1, &h1, &p1) && !url_parts(base, &s2, &h2, &p2))
		ret = !strcasecmp(h1, h2) &&
		      ((!strcasecmp(s1, s2) && !strcmp(p1, p2)) ||
		       (!strcasecmp(s2, "http") && !strcmp(p2, "80") &&
			!strcasecmp(s1, "https") && !strcmp(p1, "443")));
	curl_free(s1);
	curl_free(h1);
	curl_free(p1);
	curl_free(s2);
	curl_free(h2);
	curl_free(p2);
	return ret;
}
