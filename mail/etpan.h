/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * etpan.h: libetpan for the sources of mail/ that parse mail with it
 * (lint.c, inmsg.c, inmime.c); robot sees only their own types.
 *
 * libetpan is loaded when one of them first needs it (robot/util/dl.h):
 * its functions are called through mail_etpan()'s table, under their own
 * names.
 */
#ifndef ROBOT_MAIL_ETPAN_H
#define ROBOT_MAIL_ETPAN_H

#include <libetpan/libetpan.h>

#include "robot/util/dl.h"

// clang-format off
#define MAIL_ETPAN_FUNCS(X) \
	X(charconv) \
	X(mailimf_address_list_free) \
	X(mailimf_address_list_parse) \
	X(mailimf_date_time_free) \
	X(mailimf_date_time_parse) \
	X(mailimf_fields_free) \
	X(mailimf_fields_parse) \
	X(mailmime_content_charset_get) \
	X(mailmime_content_free) \
	X(mailmime_content_param_get) \
	X(mailmime_content_parse) \
	X(mailmime_decoded_part_free) \
	X(mailmime_encoded_phrase_parse) \
	X(mailmime_free) \
	X(mailmime_parse) \
	X(mailmime_part_parse) \
	X(mailmime_single_fields_init)
// clang-format on

struct mail_etpan {
	MAIL_ETPAN_FUNCS(DL_POINTER)
};
/* The table; libetpan is loaded on the first call (or robot exits 1). */
const struct mail_etpan *mail_etpan(void);

#define charconv		   (*mail_etpan()->p_charconv)
#define mailimf_address_list_free  (*mail_etpan()->p_mailimf_address_list_free)
#define mailimf_address_list_parse (*mail_etpan()->p_mailimf_address_list_parse)
#define mailimf_date_time_free	   (*mail_etpan()->p_mailimf_date_time_free)
#define mailimf_date_time_parse	   (*mail_etpan()->p_mailimf_date_time_parse)
#define mailimf_fields_free	   (*mail_etpan()->p_mailimf_fields_free)
#define mailimf_fields_parse	   (*mail_etpan()->p_mailimf_fields_parse)
#define mailmime_content_charset_get \
	(*mail_etpan()->p_mailmime_content_charset_get)
#define mailmime_content_free	   (*mail_etpan()->p_mailmime_content_free)
#define mailmime_content_param_get (*mail_etpan()->p_mailmime_content_param_get)
#define mailmime_content_parse	   (*mail_etpan()->p_mailmime_content_parse)
#define mailmime_decoded_part_free (*mail_etpan()->p_mailmime_decoded_part_free)
#define mailmime_encoded_phrase_parse \
	(*mail_etpan()->p_mailmime_encoded_phrase_parse)
#define mailmime_free	    (*mail_etpan()->p_mailmime_free)
#define mailmime_parse	    (*mail_etpan()->p_mailmime_parse)
#define mailmime_part_parse (*mail_etpan()->p_mailmime_part_parse)
#define mailmime_single_fields_init \
	(*mail_etpan()->p_mailmime_single_fields_init)

#endif
