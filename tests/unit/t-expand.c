// SPDX-License-Identifier: GPL-2.0-only
/*
 * t-expand.c: the template expander, every path of it.
 *
 * Each case expands a text with a small lookup that knows a few names,
 * and checks both the output and what went to stderr: nothing on
 * success, exactly one `robot: error: FILE:LINE: ...` line on failure,
 * with the output buffer left as it was before the call.
 */
#include "robot/util/common.h"
#include "templates/expand.h"
#include "tests/unit/check.h"

#include <unistd.h>

/* A lookup: "name" and "host.nr_cpu" are known, "fail" fails. */
static int lookup(void *ctx, const char *name, struct strbuf *out)
{
	int *calls = ctx;

	(*calls)++;
	if (!strcmp(name, "name"))
		strbuf_addstr(out, "NAME");
	else if (!strcmp(name, "host.nr_cpu"))
		strbuf_addstr(out, "64");
	else if (!strcmp(name, "a_1"))
		strbuf_addstr(out, "{x}");
	else if (!strcmp(name, "empty"))
		; /* a known name whose value is the empty string */
	else if (!strcmp(name, "fail"))
		return error("lookup of '%s' failed", name);
	else
		return 1;
	return 0;
}

struct result {
	int ret, calls;
	struct strbuf out, err;
};

/* Expands `text` after "PRE:" and captures stderr. */
static void run(struct result *res, const char *text)
{
	FILE *tmp = tmpfile();
	int saved = dup(2);

	memset(res, 0, sizeof(*res));
	strbuf_init(&res->out, 0);
	strbuf_init(&res->err, 0);
	strbuf_addstr(&res->out, "PRE:");
	fflush(stderr);
	dup2(fileno(tmp), 2);
	res->ret = tmpl_expand(&res->out, text, "t/x", lookup, &res->calls);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	for (int c; (c = fgetc(tmp)) != EOF;)
		strbuf_addch(&res->err, c);
	fclose(tmp);
}

static void result_release(struct result *res)
{
	strbuf_release(&res->out);
	strbuf_release(&res->err);
}

static void good(const char *text, const char *want, const char *desc)
{
	struct result res;
	char *full = xasprintf("PRE:%s", want);

	run(&res, text);
	CHECK(res.ret == 0 && !res.err.len, "%s: succeeds silently", desc);
	CHECK_STREQ(res.out.buf, full, "%s: output", desc);
	free(full);
	result_release(&res);
}

static void bad(const char *text, const char *msg, const char *desc)
{
	struct result res;
	char *line = xasprintf("robot: error: %s\n", msg);

	run(&res, text);
	CHECK(res.ret == -1, "%s: fails", desc);
	CHECK_STREQ(res.out.buf, "PRE:", "%s: output left as it was", desc);
	CHECK_STREQ(res.err.buf, line, "%s: one error line", desc);
	free(line);
	result_release(&res);
}

static void check_good(void)
{
	good("", "", "empty text");
	good("plain text\nline two\n", "plain text\nline two\n", "no braces");
	good("{name}", "NAME", "one placeholder");
	good("a {name} b {host.nr_cpu} c", "a NAME b 64 c",
	     "placeholders in text, dots in names");
	good("{name}{name}{empty}{name}", "NAMENAMENAME",
	     "adjacent placeholders and an empty value");
	good("{a_1}", "{x}", "values are not expanded again");
	good("{{name}} {{ }} }}{{", "{name} { } }{", "doubled braces");
	good("{{{name}}}", "{NAME}", "a placeholder between literal braces");
	good("x\n\n{name}\n", "x\n\nNAME\n", "newlines kept");
}

static void check_bad(void)
{
	bad("a\nb\n{foo} x", "t/x:3: unknown placeholder '{foo}'",
	    "unknown name, on line 3");
	bad("{name}{nope}", "t/x:1: unknown placeholder '{nope}'",
	    "unknown after a good one");
	bad("text {name", "t/x:1: unterminated placeholder '{name'",
	    "unterminated at the end");
	bad("\n{name\n}", "t/x:2: unterminated placeholder '{name'",
	    "unterminated at a newline");
	bad("{", "t/x:1: unterminated placeholder '{'", "a lone '{'");
	bad("{}", "t/x:1: bad placeholder name '{}'", "empty name");
	bad("{Name}", "t/x:1: bad placeholder name '{Name}'", "capitals");
	bad("{a b}", "t/x:1: bad placeholder name '{a b}'", "a blank");
	bad("{a-b}", "t/x:1: bad placeholder name '{a-b}'", "a dash");
	bad("{a{b}", "t/x:1: bad placeholder name '{a{b}'", "a brace");
	bad("x\n}", "t/x:2: stray '}' (write '}}' for a brace)", "a stray '}'");
	bad("{name} }", "t/x:1: stray '}' (write '}}' for a brace)",
	    "a stray '}' after a placeholder");
	bad("{fail}", "lookup of 'fail' failed",
	    "a lookup error is reported once, by the lookup");
}

static void check_calls(void)
{
	struct result res;

	run(&res, "{name} {{name}} {host.nr_cpu}");
	CHECK(res.calls == 2, "the lookup runs once per placeholder");
	result_release(&res);
	run(&res, "{nope} {name}");
	CHECK(res.calls == 1, "expansion stops at the first error");
	result_release(&res);
}

int main(void)
{
	check_good();
	check_bad();
	check_calls();
	return check_done();
}
