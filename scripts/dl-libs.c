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

int main(int argc, char **argv)
{
	(void)argv;
	if (argc > 1) {
		curl_version();
		git_libgit2_init();
		mailmime_content_free(NULL);
	}
	return 0;
}
