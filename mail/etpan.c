// SPDX-License-Identifier: GPL-2.0-only
/*
 * etpan.c: libetpan, loaded when the mail parsers first need it (etpan.h).
 */
#include "robot/util/common.h"
#include "mail/etpan.h"

_Static_assert(sizeof(ROBOT_ETPAN_SONAME) > 1,
	       "the Makefile found no libetpan");

const struct mail_etpan *mail_etpan(void)
{
	static struct mail_etpan l;
	static void *h;

	if (!h) {
		const char *soname = ROBOT_ETPAN_SONAME;

		h = dl_open(soname);
		MAIL_ETPAN_FUNCS(DL_RESOLVE)
	}
	return &l;
}
