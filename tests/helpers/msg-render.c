// SPDX-License-Identifier: GPL-2.0-only
/*
 * msg-render.c: a test helper that renders a few fixed messages with
 * msg_render(), checks each with msg_lint(), and writes, for each NAME,
 *
 *   OUTDIR/NAME.eml          the message (LF line ends)
 *   OUTDIR/NAME.d/subject    the Subject and From values as given
 *   OUTDIR/NAME.d/from
 *   OUTDIR/NAME.d/body       the body as given (UTF-8)
 *   OUTDIR/NAME.d/att.N      attachment N (from 1): its bytes, and
 *   OUTDIR/NAME.d/att.N.name its file name
 *
 * so that tests/t4000-mail-python-parse.sh can check the messages with
 * other parsers (Python's email package, git mailinfo) against the
 * originals.  Exits 65 when a message fails to render or to lint.
 *
 *   msg-render OUTDIR
 */
#include "robot/util/common.h"
#include "mail/lint.h"
#include "mail/msg.h"

#include <sys/stat.h>

struct att {
	const char *name;
	const char *type;
	const char *data;
	size_t len;
};

struct sample {
	const char *name;
	const char *from;
	const char *subject;
	const char *body;
	struct att att[6];
};

static const char seed_cc[] =
	"<oe-lkp@lists.linux.dev>, <lkp@intel.com>, "
	"<linux-kernel@vger.kernel.org>, <ying.huang@intel.com>, "
	"<feng.tang@intel.com>, <fengwei.yin@intel.com>, "
	"<oliver.sang@intel.com>";

static const char job_yaml[] = "---\n"
			       "suite: stress-ng\n"
			       "testcase: stress-ng\n"
			       "nr_threads: 10%\n"
			       "testtime: 60s\n"
			       "-- \n"
			       "trailing blank above, = sign here\n";

static const char binary[] = "\x7f"
			     "ELF\x02\x01\x01\0\0\0\xff\xfe\r\n--=_robot_";

static void write_file(const char *dir, const char *name, const void *data,
		       size_t len)
{
	char *path = xasprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(data, 1, len, f) != len || fclose(f)) {
		error_errno("cannot write '%s'", path);
		exit(EXIT_RUNTIME);
	}
	free(path);
}

static void write_str(const char *dir, const char *name, const char *s)
{
	write_file(dir, name, s, strlen(s));
}

static void build(struct msg *m, const struct sample *s)
{
	size_t i;

	if (msg_add_header(m, "Date", "Wed, 7 Jun 2023 14:32:17 +0800") ||
	    msg_add_header(m, "From", s->from) ||
	    msg_add_header(m, "To",
			   "Linus Torvalds <torvalds@linux-foundation.org>") ||
	    msg_add_header(m, "CC", seed_cc) ||
	    msg_add_header(m, "Subject", s->subject) ||
	    msg_add_header(m, "Message-ID",
			   "<202306071452.887afdea-oliver.sang@intel.com>") ||
	    msg_set_body(m, s->body, strlen(s->body)))
		exit(EXIT_DATAERR);
	for (i = 0; s->att[i].name; i++)
		if (msg_add_part(m, s->att[i].name, s->att[i].type,
				 s->att[i].data, s->att[i].len))
			exit(EXIT_DATAERR);
}

static void write_sample(const char *outdir, const struct sample *s,
			 const struct strbuf *eml)
{
	char *dir = xasprintf("%s/%s.d", outdir, s->name);
	char *file = xasprintf("%s.eml", s->name);
	char name[32];
	size_t i;

	write_file(outdir, file, eml->buf, eml->len);
	if (mkdir(dir, 0777) && errno != EEXIST) {
		error_errno("cannot create '%s'", dir);
		exit(EXIT_RUNTIME);
	}
	write_str(dir, "subject", s->subject);
	write_str(dir, "from", s->from);
	write_str(dir, "body", s->body);
	for (i = 0; s->att[i].name; i++) {
		snprintf(name, sizeof(name), "att.%zu", i + 1);
		write_file(dir, name, s->att[i].data, s->att[i].len);
		snprintf(name, sizeof(name), "att.%zu.name", i + 1);
		write_str(dir, name, s->att[i].name);
	}
	free(dir);
	free(file);
}

static void render_sample(const char *outdir, const struct sample *s)
{
	struct strbuf eml = STRBUF_INIT, why = STRBUF_INIT;
	struct msg m;

	msg_init(&m);
	build(&m, s);
	if (msg_render(&eml, &m) < 0)
		exit(EXIT_DATAERR);
	if (msg_lint(eml.buf, eml.len, &why) < 0)
		die_with(EXIT_DATAERR, "%s: %s", s->name, why.buf);
	write_sample(outdir, s, &eml);
	msg_release(&m);
	strbuf_release(&eml);
	strbuf_release(&why);
}

/* A kernel config of 400 lines, a reproduce script with a long line. */
static void make_attachments(struct strbuf *config, struct strbuf *reproduce)
{
	size_t i;

	for (i = 0; i < 400; i++)
		strbuf_addf(config, "CONFIG_OPTION_%zu=y\n", i);
	strbuf_addstr(reproduce, "#!/bin/sh\n\nexport kernel_cmdline='");
	for (i = 0; i < 120; i++)
		strbuf_addstr(reproduce, "opt=value");
	strbuf_addstr(reproduce, "'\nrun_test  \t\n-- \n");
}

int main(int argc, char **argv)
{
	static const char robot[] = "kernel test robot <oliver.sang@intel.com>";
	static const char subject[] =
		"[linus:master] [x86]  20f3337d35:  "
		"stress-ng.lockofd.ops_per_sec 3.4% improvement";
	struct strbuf config = STRBUF_INIT, reproduce = STRBUF_INIT;
	size_t i;

	if (argc != 2) {
		fprintf(stderr, "usage: msg-render OUTDIR\n");
		return EXIT_USAGE;
	}
	make_attachments(&config, &reproduce);

	{
		const struct sample samples[] = {
			{ "ascii",
			  robot,
			  subject,
			  "Hello,\n\nkernel test robot noticed a 3.4% "
			  "improvement.\n\n-- \n0-DAY CI Kernel Test Service\n",
			  { { NULL, NULL, NULL, 0 } } },
			{ "latin1",
			  robot,
			  subject,
			  "      4.25 \xc2\xb1  0%      -3.8%       4.09 "
			  "\xc2\xb1  0%  netperf.Throughput_Mbps\n",
			  { { NULL, NULL, NULL, 0 } } },
			{ "utf8",
			  "Ren\xc3\xa9 L\xc3\xa9vesque <r@x.org>",
			  "[linus:master] [sched/fair]  3edecfef02:  "
			  "Zo\xc3\xab's \xc3\xbcn\xc3\xaf"
			  "c\xc3\xb6"
			  "d\xc3\xa9 \xe2\x80\x94 \xe6\x80\xa7\xe8\x83\xbd "
			  "-9.8% regression",
			  "Hello Ren\xc3\xa9,\n\n\xe6\x80\xa7\xe8\x83\xbd "
			  "\xe2\x80\x94 a regression.\n",
			  { { NULL, NULL, NULL, 0 } } },
			{ "longname",
			  "Ren\xc3\xa9"
			  "e-\xc3\x89lisabeth L\xc3\xa9vesque de "
			  "Saint-Hilaire <rene-elisabeth.levesque@"
			  "montagne-saint-hilaire.example.org>",
			  "[linux-next:master] [mm/page_alloc]  0123456789:  "
			  "\xc3\xa9t\xc3\xa9 \xc3\xa0 la montagne: "
			  "will-it-scale.per_process_ops -12.3% r\xc3\xa9"
			  "gression \xe2\x80\x94 \xe6\x80\xa7\xe8\x83"
			  "\xbd\xe5\x9b\x9e\xe5\xbd\x92",
			  "Bonjour,\n\n\xc3\xa9t\xc3\xa9.\n",
			  { { NULL, NULL, NULL, 0 } } },
			{ "multipart",
			  robot,
			  subject,
			  "Hello,\n\n      4.25 \xc2\xb1  0%  "
			  "netperf.Throughput_Mbps\n\n-- \n",
			  { { "config-6.4.0-rc3-00001-g20f3337d350c", NULL,
			      config.buf, config.len },
			    { "job-script", "text/plain", "#!/bin/sh\n\n", 11 },
			    { "job.yaml", NULL, job_yaml,
			      sizeof(job_yaml) - 1 },
			    { "reproduce", "text/plain", reproduce.buf,
			      reproduce.len },
			    { NULL, NULL, NULL, 0 } } },
			{ "binary",
			  robot,
			  "[linus:master] binary attachment",
			  "A binary attachment follows.\n",
			  { { "r\xc3\xa9sum\xc3\xa9 \"1\".bin", NULL, binary,
			      sizeof(binary) - 1 },
			    { NULL, NULL, NULL, 0 } } },
		};

		for (i = 0; i < ARRAY_SIZE(samples); i++)
			render_sample(argv[1], &samples[i]);
	}
	strbuf_release(&config);
	strbuf_release(&reproduce);
	return EXIT_OK;
}
