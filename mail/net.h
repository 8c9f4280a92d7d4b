/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * net.h: the one place robot sets libcurl up, for SMTP (mail/smtp.c) and
 * lore HTTP.  Only the sources of mail/ include this header; robot sees
 * only the transports' own types.
 *
 * A `struct net` is one libcurl easy handle.  Kept for a whole run, it
 * keeps its connection open between transfers (libcurl reuses it, and
 * reconnects by itself when the server has closed it), so a run of a
 * thousand mails costs one TCP and TLS handshake.  Every handle gets the
 * same safe defaults:
 *
 *   - TCP_NODELAY (without it, a client that writes twice before it reads
 *     waits for the peer's delayed ACK: 40 ms a mail);
 *   - certificate and host name verification on; `ca_file` adds a CA
 *     bundle, nothing turns verification off;
 *   - only the protocols the caller names (no redirect to file://);
 *   - connect and transfer timeouts, no signals (NOSIGNAL).
 */
#ifndef ROBOT_MAIL_NET_H
#define ROBOT_MAIL_NET_H

#include <curl/curl.h>

#include "robot/util/dl.h"

/*
 * libcurl is loaded when a transport first needs it (robot/util/dl.h): its
 * functions are called through net_curl()'s table, under their own names.
 */
// clang-format off
#define NET_CURL_FUNCS(X) \
	X(curl_global_init) \
	X(curl_global_cleanup) \
	X(curl_easy_init) \
	X(curl_easy_cleanup) \
	X(curl_easy_setopt) \
	X(curl_easy_perform) \
	X(curl_easy_getinfo) \
	X(curl_easy_strerror) \
	X(curl_free) \
	X(curl_slist_append) \
	X(curl_slist_free_all) \
	X(curl_url) \
	X(curl_url_cleanup) \
	X(curl_url_get) \
	X(curl_url_set)
// clang-format on

struct net_curl {
	NET_CURL_FUNCS(DL_POINTER)
};
/* The table; libcurl is loaded on the first call (or robot exits 1). */
const struct net_curl *net_curl(void);

/* curl.h's type-checking wrappers call the names directly */
#undef curl_easy_setopt
#undef curl_easy_getinfo
#define curl_global_init    (*net_curl()->p_curl_global_init)
#define curl_global_cleanup (*net_curl()->p_curl_global_cleanup)
#define curl_easy_init	    (*net_curl()->p_curl_easy_init)
#define curl_easy_cleanup   (*net_curl()->p_curl_easy_cleanup)
#define curl_easy_setopt    (*net_curl()->p_curl_easy_setopt)
#define curl_easy_perform   (*net_curl()->p_curl_easy_perform)
#define curl_easy_getinfo   (*net_curl()->p_curl_easy_getinfo)
#define curl_easy_strerror  (*net_curl()->p_curl_easy_strerror)
#define curl_free	    (*net_curl()->p_curl_free)
#define curl_slist_append   (*net_curl()->p_curl_slist_append)
#define curl_slist_free_all (*net_curl()->p_curl_slist_free_all)
#define curl_url	    (*net_curl()->p_curl_url)
#define curl_url_cleanup    (*net_curl()->p_curl_url_cleanup)
#define curl_url_get	    (*net_curl()->p_curl_url_get)
#define curl_url_set	    (*net_curl()->p_curl_url_set)

struct strbuf;

struct net_opts {
	const char *protocols; /* libcurl's list: "smtp,smtps", "http,https" */
	const char *ca_file;   /* a PEM CA bundle, or NULL for the system's */
	long connect_timeout;  /* seconds; 0 = 30 */
	long timeout;	       /* seconds for one transfer; 0 = 300 */
};

struct net {
	CURL *curl;
	char errbuf[CURL_ERROR_SIZE]; /* libcurl's detail of the last error */
	char words[CURL_ERROR_SIZE + 64]; /* net_strerror()'s text */
};

/*
 * Initialises libcurl once per process (curl_global_cleanup() runs at
 * exit) and sets up `n` with the defaults above.  Returns 0, or -1 after
 * error().
 */
int net_open(struct net *n, const struct net_opts *o);
/* Closes the connection (SMTP: QUIT) and frees the handle. */
void net_close(struct net *n);

/*
 * Clears the error detail before a transfer; net_strerror() then tells
 * what went wrong: libcurl's detail when it gave one, else the generic
 * text of `rc`.
 */
void net_reset_error(struct net *n);
/* libcurl's "(errno: 115)" is given in words ("Operation now in
 * progress"). */
const char *net_strerror(struct net *n, CURLcode rc);

/* What a failed transfer means for the caller. */
enum net_class {
	NET_TEMPORARY, /* network down, refused, timed out: retry later */
	NET_CONFIG,    /* login refused, no TLS, bad certificate or URL */
	NET_RUNTIME,   /* out of memory and the like */
};
enum net_class net_classify(CURLcode rc);

/*
 * Checks that `url` parses and its scheme is one of `schemes` (a list
 * separated by commas, "smtp,smtps") with a host.  Returns 0, or -1 with
 * the reason in `why`.
 */
int net_url_check(const char *url, const char *schemes, struct strbuf *why);

/*
 * Whether `url` is on the server `base` names: the same host (letters in
 * any case) and port, with the port each scheme implies when none is
 * written; going from http to https on the same host counts too (from
 * port 80 to 443).  0 for anything else, and for a URL that does not
 * parse.
 */
int net_same_server(const char *url, const char *base);

#endif
