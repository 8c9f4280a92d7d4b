// SPDX-License-Identifier: GPL-2.0-only
/*
 * t-net.c: the shared libcurl set-up of mail/net.c.  URL checks (the
 * schemes a transport accepts, the reasons given), the classes of
 * failure, and a real connection to a loopback port nobody listens on:
 * refused, a temporary failure, and the handle still usable afterwards.
 */
#include "robot/util/common.h"
#include "mail/net.h"
#include "tests/unit/check.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

static void check_url(const char *url, int want, const char *why_want)
{
	struct strbuf why = STRBUF_INIT;
	int got = net_url_check(url, "smtp,smtps", &why);

	CHECK(got == want, "'%s': %s", url, want ? "refused" : "accepted");
	if (why_want)
		CHECK_STREQ(why.buf, why_want, "'%s': the reason", url);
	strbuf_release(&why);
}

/* A loopback port that is bound but not listening: connecting is refused. */
static int closed_port(int *fd)
{
	struct sockaddr_in a = { 0 };
	socklen_t len = sizeof(a);

	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	*fd = socket(AF_INET, SOCK_STREAM, 0);
	if (*fd < 0 || bind(*fd, (struct sockaddr *)&a, sizeof(a)) ||
	    getsockname(*fd, (struct sockaddr *)&a, &len))
		return -1;
	return ntohs(a.sin_port);
}

static size_t no_read(char *b, size_t sz, size_t n, void *u)
{
	(void)b;
	(void)sz;
	(void)n;
	(void)u;
	return 0;
}

/* lore redirects: to lore_url's own server only */
static void test_same_server(void)
{
	CHECK(net_same_server("http://Lore.example.org/all/x",
			      "http://lore."
			      "example.org/all/") &&
		      net_same_server("https://lore.example.org/x",
				      "http://lore.example.org/all/") &&
		      net_same_server("http://127.0.0.1:8080/x",
				      "http://127.0.0.1:8080/all/"),
	      "net_same_server: the host in any case; http to https");
	CHECK(!net_same_server("http://127.0.0.1:8081/x",
			       "http://127.0.0.1:8080/all/") &&
		      !net_same_server("http://evil.example.org/all/",
				       "http://lore.example.org/all/") &&
		      !net_same_server("http://lore.example.org.evil.org/",
				       "http://lore.example.org/") &&
		      !net_same_server("http://lore.example.org@evil.org/",
				       "http://lore.example.org/") &&
		      !net_same_server("https://lore.example.org:8443/",
				       "http://lore.example.org/") &&
		      !net_same_server("http://lore.example.org/",
				       "https://lore.example.org/") &&
		      !net_same_server("not a url", "http://lore.example.org/"),
	      "net_same_server: another port, host, user-info trick, https "
	      "to http, no URL");
}

int main(void)
{
	const struct net_opts o = { "smtp,smtps", NULL, 5, 10 };
	struct net n;
	struct curl_slist *rcpt = NULL;
	char url[64];
	CURLcode rc;
	int fd, port;

	check_url("smtp://127.0.0.1:2525", 0, NULL);
	check_url("smtps://mail.example.org/robot.example.org", 0, NULL);
	check_url("SMTP://mail.example.org", 0, NULL);
	check_url("http://mail.example.org", -1,
		  "unknown scheme 'http' (want smtp,smtps)");
	check_url("lmtp://mail.example.org", -1,
		  "unknown scheme 'lmtp' (want smtp,smtps)");
	check_url("mail.example.org:25", -1, "not a URL (want smtp,smtps)");
	check_url("smtp://", -1, NULL);

	test_same_server();

	CHECK(net_classify(CURLE_COULDNT_CONNECT) == NET_TEMPORARY,
	      "refused: temporary");
	CHECK(net_classify(CURLE_OPERATION_TIMEDOUT) == NET_TEMPORARY,
	      "timed out: temporary");
	CHECK(net_classify(CURLE_LOGIN_DENIED) == NET_CONFIG,
	      "login denied: configuration");
	CHECK(net_classify(CURLE_PEER_FAILED_VERIFICATION) == NET_CONFIG,
	      "bad certificate: configuration");
	CHECK(net_classify(CURLE_USE_SSL_FAILED) == NET_CONFIG,
	      "no STARTTLS where required: configuration");

	CHECK(!net_open(&n, &o), "net_open");
	port = closed_port(&fd);
	CHECK(port > 0, "a closed loopback port");
	snprintf(url, sizeof(url), "smtp://127.0.0.1:%d", port);
	rcpt = curl_slist_append(rcpt, "<a@example.org>");
	curl_easy_setopt(n.curl, CURLOPT_URL, url);
	curl_easy_setopt(n.curl, CURLOPT_MAIL_FROM, "<robot@example.org>");
	curl_easy_setopt(n.curl, CURLOPT_MAIL_RCPT, rcpt);
	curl_easy_setopt(n.curl, CURLOPT_UPLOAD, 1L);
	curl_easy_setopt(n.curl, CURLOPT_READFUNCTION, no_read);
	net_reset_error(&n);
	rc = curl_easy_perform(n.curl);
	CHECK(rc == CURLE_COULDNT_CONNECT, "connecting is refused (rc %d)",
	      (int)rc);
	CHECK(net_classify(rc) == NET_TEMPORARY, "... a temporary failure");
	CHECK(strstr(net_strerror(&n, rc), "127.0.0.1") != NULL,
	      "... the detail names the host: %s", net_strerror(&n, rc));
	/* libcurl's "(errno: 115)" in words */
	snprintf(n.errbuf, sizeof(n.errbuf),
		 "response reading failed (errno: %d)", EINPROGRESS);
	CHECK(!strcmp(net_strerror(&n, CURLE_RECV_ERROR),
		      "response reading failed (Operation now in progress)"),
	      "an errno number is given in words: %s",
	      net_strerror(&n, CURLE_RECV_ERROR));
	net_reset_error(&n);
	CHECK(!strcmp(net_strerror(&n, CURLE_LOGIN_DENIED),
		      curl_easy_strerror(CURLE_LOGIN_DENIED)),
	      "no detail: the generic text");
	/* a file:// URL is not among the handle's protocols */
	curl_easy_setopt(n.curl, CURLOPT_URL, "file:///etc/passwd");
	rc = curl_easy_perform(n.curl);
	CHECK(rc == CURLE_UNSUPPORTED_PROTOCOL,
	      "file:// refused by the protocol list (rc %d)", (int)rc);
	curl_slist_free_all(rcpt);
	net_close(&n);
	close(fd);
	return check_done();
}
