// SPDX-License-Identifier: GPL-2.0-only
/*
 * dl-libs.c: a program linked with the libraries robot loads with
 * dlopen() (robot/util/dl.h), calling one function of each, so that
 * dpkg-shlibdeps gives the package its dependencies on them (debian/rules).
 * Built as build-install/dl-libs by make install-build; never installed.
 */
#include <curl/curl.h>
#include <git2.h>
#include <libetpan/libetpan.h>
#include <lzma.h>
#include <nettle/sha1.h>
#include <yajl/yajl_parse.h>
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

int main(int argc, char **argv)
{
	struct sha1_ctx sha1;

	(void)argv;
	if (argc > 1) {
		curl_version();
		git_libgit2_init();
		mailmime_content_free(NULL);
		yajl_free(NULL);
		sha1_init(&sha1);
		lzma_end(NULL);
		pcre2_code_free(NULL);
	}
	return 0;
}
