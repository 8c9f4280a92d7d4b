// SPDX-License-Identifier: GPL-2.0-only
/*
 * t-reply.c: the pure parts of answering a follow-up: where a unified
 * diff ends (robot/incoming/patch.h), where the patch starts in a mail's words,
 * and where the answer goes in the quote (robot/kinds/reply/reply.h).
 */
#include "robot/util/common.h"
#include "robot/incoming/patch.h"
#include "robot/kinds/reply/reply.h"
#include "tests/unit/check.h"

static const char diff[] = "diff --git a/x.c b/x.c\n"
			   "index 1111111..2222222 100644\n"
			   "--- a/x.c\n"
			   "+++ b/x.c\n"
			   "@@ -1,4 +1,4 @@\n"
			   " one\n"
			   "\n" /* a context line whose blank a mailer ate */
			   "-three\n"
			   "+THREE\n"
			   " four\n";

static void diffs(void)
{
	struct strbuf sb = STRBUF_INIT;

	CHECK(patch_diff_len(diff) == strlen(diff), "a diff: all of it");
	strbuf_addf(&sb, "%s-- \n2.39.2\n", diff);
	CHECK(patch_diff_len(sb.buf) == strlen(diff),
	      "git's signature after the diff is not part of it");
	strbuf_reset(&sb);
	strbuf_addf(&sb,
		    "%sdiff --git a/y b/y\nnew file mode 100644\n"
		    "--- /dev/null\n+++ b/y\n@@ -0,0 +1 @@\n+new\n"
		    "\\ No newline at end of file\nThanks!\n",
		    diff);
	CHECK(patch_diff_len(sb.buf) == sb.len - strlen("Thanks!\n"),
	      "two files, a new one without a final newline");
	CHECK(patch_diff_len("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n") ==
		      strlen("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n"),
	      "a diff without git's header");
	CHECK(patch_diff_len("--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n-a\n+b\n") ==
		      0,
	      "a hunk cut short is no diff");
	CHECK(patch_diff_len("diff --git a/x b/x\nsimilarity index 100%\n"
			     "rename from x\nrename to y\n") == 67,
	      "a rename without hunks");
	CHECK(patch_diff_len("Hello\n") == 0, "words are no diff");
	strbuf_release(&sb);
}

static void starts(void)
{
	const char *words = "Could you test this?\n\n";
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s-- >8 --\nSubject: x\n\n%s", words, diff);
	CHECK(patch_text_start(sb.buf) == strlen(words),
	      "the patch starts at the scissors");
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%sThe fix.\n---\n x.c | 2 +-\n\n%s", words, diff);
	CHECK(patch_text_start(sb.buf) == strlen(words) + strlen("The fix.\n"),
	      "... at git's --- before the diff");
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%s%s", words, diff);
	CHECK(patch_text_start(sb.buf) == strlen(words), "... at the diff");
	CHECK(patch_text_start(words) == strlen(words), "no patch: the end");
	strbuf_release(&sb);
}

static void split_with(const char *text, int with_patch, const char *head,
		       const char *tail, const char *what)
{
	struct strbuf h = STRBUF_INIT, t = STRBUF_INIT;

	reply_quote_split(text, with_patch, &h, &t);
	CHECK_STREQ(h.buf, head, "%s: the quote before the answer", what);
	CHECK_STREQ(t.buf, tail, "%s: the quote after it", what);
	strbuf_release(&h);
	strbuf_release(&t);
}

static void split(const char *text, const char *head, const char *tail,
		  const char *what)
{
	split_with(text, 0, head, tail, what);
}

static void quotes(void)
{
	split("> report\n\nCan you test on the tail of the series?\n\n"
	      "Thanks,\nDavid\n",
	      "> > report\n> \n> Can you test on the tail of the series?\n",
	      "> \n> Thanks,\n> David\n", "a sign-off");
	split("Hi\n\n> report\n> more\n\nI don't think so. Did you "
	      "bisect it?\n\n> the rest\n>\n",
	      "> Hi\n> \n> > report\n> > more\n> \n> I don't think so. Did "
	      "you bisect it?\n",
	      "> \n> > the rest\n> >\n", "their words between quotes");
	split("Please test.\n\n-- \nJane, Example Corp\n", "> Please test.\n",
	      "", "their signature goes");
	split("> only a quote\n", "> > only a quote\n", "", "no words");
	split("Thanks.\n", "> Thanks.\n", "", "a sign-off alone");
	split("Odd.  Can you test it?\n\n            Linus\n",
	      "> Odd.  Can you test it?\n", "> \n>             Linus\n",
	      "a name alone signs");
	split("Can you test it?\n\n-Peter\n", "> Can you test it?\n",
	      "> \n> -Peter\n", "a name after a dash signs");
	split("Can you test it?\n\nZo\xc3\xab \xc3\x9cnicode\n",
	      "> Can you test it?\n", "> \n> Zo\xc3\xab \xc3\x9cnicode\n",
	      "a name of two words signs");
	split("Can you test it?\n\nAny news\n",
	      "> Can you test it?\n> \n> Any news\n", "",
	      "words in lower case are no name");
	split("Can you test it?\n\nWhy?\n", "> Can you test it?\n> \n> Why?\n",
	      "", "a question is no name");
	split("Could you test it?\n\n-- >8 --\nSubject: x\n\ndiff\n",
	      "> Could you test it?\n", "", "the patch is not quoted");
	split_with("Fix below.\n\nThanks,\n\n  tglx\n\n8<----\n--- a/x\n"
		   "+++ b/x\n@@ -1 +1 @@\n-a\n+b\n",
		   1,
		   "> Fix below.\n> \n> Thanks,\n> \n>   tglx\n> \n> 8<----\n"
		   "> --- a/x\n> +++ b/x\n> @@ -1 +1 @@\n> -a\n> +b\n",
		   "", "with_patch: the mail quoted whole, the patch last");
}

int main(void)
{
	diffs();
	starts();
	quotes();
	return check_done();
}
