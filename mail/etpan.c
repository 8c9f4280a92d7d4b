// SPDX-License-Identifier: GPL-2.0-only
/*
 * etpan.c: libetpan, loaded when the mail parsers first need it (etpan.h).
 */
#include "robot/util/common.h"
#include "mail/etpan.h"

_Static_assert(sizeof(ROBOT_ETPAN_SONAME) > 1,
	       "the Makefile found no libetpan");

DL_LOADER(mail_etpan, mail_etpan, MAIL_ETPAN_FUNCS, ROBOT_ETPAN_SONAME)
