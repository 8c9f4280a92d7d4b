// SPDX-License-Identifier: GPL-2.0-only
/*
 * rubyre.c: Ruby regexps through PCRE2.
 *
 * PCRE2 with its JIT was measured against Oniguruma (Ruby syntax natively)
 * on the 23 versions of the lkp-tests tables and 32,866 stat names (from
 * the corpus mails and derived from the patterns): both gave the answers
 * of the old translator, and of Ruby itself on 6 of the dates, and PCRE2
 * matched 2.7 to 35 times faster.  Only the sets matched for every stat are
 * compiled to machine code; the rest (the long first-match tables) stay
 * interpreted, which halves the load time.  Even those are compiled to
 * machine code only when they have been matched RUBY_RE_JIT_AFTER times:
 * compiling every set's code costs more than a compose matches with them
 * (8 of the 20 million instructions of loading the tables), and a regexp
 * gives the same answers interpreted or compiled.
 *
 * Text is matched in UTF mode, so '.' is one character as in Ruby; text
 * that is not valid UTF-8 still matches (PCRE2_MATCH_INVALID_UTF).
 */
#include "robot/util/common.h"
#include "config/rubyre.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "robot/util/dl.h"

/*
 * PCRE2 is loaded when robot first compiles a regexp (robot/util/dl.h).
 * Its header names the functions with macros (pcre2_compile is
 * pcre2_compile_8 for 8-bit text), so the table holds the library's own
 * names, and these are the macros that call through it.
 */
// clang-format off
#define RUBYRE_PCRE2_FUNCS(X) \
	X(pcre2_code_free_8) \
	X(pcre2_compile_8) \
	X(pcre2_get_error_message_8) \
	X(pcre2_jit_compile_8) \
	X(pcre2_match_8) \
	X(pcre2_match_data_create_8) \
	X(pcre2_match_data_free_8)
// clang-format on

struct pcre2_lib {
	RUBYRE_PCRE2_FUNCS(DL_POINTER)
};

_Static_assert(sizeof(ROBOT_PCRE2_SONAME) > 1, "the Makefile found no PCRE2");

static const struct pcre2_lib *pcre2_lib(void);
#define pcre2_code_free_8	  (*pcre2_lib()->p_pcre2_code_free_8)
#define pcre2_compile_8		  (*pcre2_lib()->p_pcre2_compile_8)
#define pcre2_get_error_message_8 (*pcre2_lib()->p_pcre2_get_error_message_8)
#define pcre2_jit_compile_8	  (*pcre2_lib()->p_pcre2_jit_compile_8)
#define pcre2_match_8		  (*pcre2_lib()->p_pcre2_match_8)
#define pcre2_match_data_create_8 (*pcre2_lib()->p_pcre2_match_data_create_8)
#define pcre2_match_data_free_8	  (*pcre2_lib()->p_pcre2_match_data_free_8)

/* Matches of an RUBY_RE_OFTEN regexp before it is compiled to machine code */
#define RUBY_RE_JIT_AFTER 64

struct ruby_re {
	pcre2_code *code;
	pcre2_match_data *md;
	unsigned tries; /* RUBY_RE_OFTEN: matches until the JIT; else 0 */
};

/* Where Ruby and PCRE2 read src differently: a message, or NULL. */
static const char *ruby_only(const char *src, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (src[i] == '\\' && i + 1 < len) {
			if (src[i + 1] == 'h' || src[i + 1] == 'H')
				return "\\h and \\H mean hex digits in Ruby, "
				       "not in PCRE2: write [0-9a-fA-F]";
			i++;
		} else if (src[i] == '{' && i + 1 < len && src[i + 1] == ',') {
			return "{,n} is {0,n} in Ruby, text in PCRE2: write "
			       "{0,n}";
		} else if (src[i] == '(' && i + 1 < len && src[i + 1] == '?') {
			size_t j = i + 2;

			while (j < len && src[j] && strchr("imsx-", src[j]))
				j++;
			if (j < len && (src[j] == ')' || src[j] == ':') &&
			    (memchr(src + i + 2, 'm', j - i - 2) ||
			     memchr(src + i + 2, 's', j - i - 2)))
				return "inline option m or s: Ruby's m is "
				       "PCRE2's s";
		}
	}
	return NULL;
}

struct ruby_re *ruby_re_compile(const char *src, size_t len, unsigned flags,
				const char **why)
{
	static char msg[256];
	uint32_t options = PCRE2_UTF | PCRE2_MATCH_INVALID_UTF;
	struct ruby_re *re;
	PCRE2_SIZE off;
	int err;

	*why = ruby_only(src, len);
	if (*why)
		return NULL;
	if (flags & RUBY_RE_ANCHORED)
		options |= PCRE2_ANCHORED;
	re = xcalloc(1, sizeof(*re));
	re->code =
		pcre2_compile((PCRE2_SPTR)src, len, options, &err, &off, NULL);
	if (!re->code) {
		pcre2_get_error_message(err, (PCRE2_UCHAR *)msg, sizeof(msg));
		*why = msg;
		free(re);
		return NULL;
	}
	if (flags & RUBY_RE_OFTEN)
		re->tries = RUBY_RE_JIT_AFTER;
	re->md = pcre2_match_data_create(1, NULL);
	if (!re->md)
		die("out of memory");
	return re;
}

int ruby_re_match(struct ruby_re *re, const char *s, size_t len)
{
	int rc;

	/* without JIT (no executable memory) pcre2_match() interprets */
	if (re->tries && !--re->tries)
		pcre2_jit_compile(re->code, PCRE2_JIT_COMPLETE);
	rc = pcre2_match(re->code, (PCRE2_SPTR)s, len, 0, 0, re->md, NULL);

	if (rc >= 0)
		return 1;
	return rc == PCRE2_ERROR_NOMATCH ? 0 : -1;
}

void ruby_re_free(struct ruby_re *re)
{
	if (!re)
		return;
	pcre2_match_data_free(re->md);
	pcre2_code_free(re->code);
	free(re);
}

/* pcre2_lib(), declared at the top: the one loader of the library */
static DL_LOADER(pcre2_lib, pcre2_lib, RUBYRE_PCRE2_FUNCS, ROBOT_PCRE2_SONAME)
