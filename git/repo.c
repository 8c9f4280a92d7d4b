// SPDX-License-Identifier: GPL-2.0-only
/*
 * repo.c: the one file that talks to libgit2.  It turns a commit of a real
 * repository into robot's struct commit_info (see repo.h for what each
 * field means), so the rest of robot never sees a libgit2 type.
 *
 * Every libgit2 object is owned by exactly one function and freed on the
 * way out of it, whatever happened; ci is filled as we go and released on
 * any error, so a caller gets either a complete, checked commit_info or a
 * zeroed one and one error line.
 *
 * The kernel release needs two things libgit2 does not know about: the
 * version variables of the top-level Makefile, read from the commit's own
 * tree (not the work tree, which may be checked out elsewhere), and the
 * setlocalversion suffix, built from git_describe_commit()'s count.  The
 * describe result is formatted in long form ("tag-N-gHEX") and parsed from
 * the right, because tag names may themselves contain "-".
 */
#include "robot/util/common.h"
#include "git/repo.h"

#include <dlfcn.h>
#include <git2.h>

#include "robot/util/dl.h"

/*
 * libgit2 is loaded when robot first reads a repository
 * (robot/util/dl.h): its functions are called through git_lib()'s table,
 * under their own names.
 */
// clang-format off
#define REPO_GIT_FUNCS(X) \
	X(git_blob_free) \
	X(git_blob_lookup) \
	X(git_blob_rawcontent) \
	X(git_blob_rawsize) \
	X(git_buf_dispose) \
	X(git_commit_author) \
	X(git_commit_body) \
	X(git_commit_committer) \
	X(git_commit_free) \
	X(git_commit_id) \
	X(git_commit_message) \
	X(git_commit_parent) \
	X(git_commit_parent_id) \
	X(git_commit_parentcount) \
	X(git_commit_summary) \
	X(git_commit_tree) \
	X(git_describe_commit) \
	X(git_describe_format) \
	X(git_describe_format_options_init) \
	X(git_describe_options_init) \
	X(git_describe_result_free) \
	X(git_diff_find_options_init) \
	X(git_diff_find_similar) \
	X(git_diff_free) \
	X(git_diff_options_init) \
	X(git_diff_print) \
	X(git_diff_tree_to_tree) \
	X(git_error_clear) \
	X(git_error_last) \
	X(git_libgit2_init) \
	X(git_libgit2_opts) \
	X(git_libgit2_shutdown) \
	X(git_message_trailer_array_free) \
	X(git_message_trailers) \
	X(git_object_free) \
	X(git_object_id) \
	X(git_object_lookup) \
	X(git_object_peel) \
	X(git_object_type) \
	X(git_oid_equal) \
	X(git_oid_tostr) \
	X(git_repository_free) \
	X(git_repository_open_ext) \
	X(git_revparse_single) \
	X(git_tag_foreach) \
	X(git_tree_entry_byname) \
	X(git_tree_entry_bypath) \
	X(git_tree_entry_filemode) \
	X(git_tree_entry_free) \
	X(git_tree_entry_id) \
	X(git_tree_entry_type) \
	X(git_tree_free)
// clang-format on

struct git_lib {
	REPO_GIT_FUNCS(DL_POINTER)
};

_Static_assert(sizeof(ROBOT_GIT2_SONAME) > 1, "the Makefile found no libgit2");

static DL_LOADER(git_lib, git_lib, REPO_GIT_FUNCS, ROBOT_GIT2_SONAME)
#define git_blob_free	       (*git_lib()->p_git_blob_free)
#define git_blob_lookup	       (*git_lib()->p_git_blob_lookup)
#define git_blob_rawcontent    (*git_lib()->p_git_blob_rawcontent)
#define git_blob_rawsize       (*git_lib()->p_git_blob_rawsize)
#define git_buf_dispose	       (*git_lib()->p_git_buf_dispose)
#define git_commit_author      (*git_lib()->p_git_commit_author)
#define git_commit_body	       (*git_lib()->p_git_commit_body)
#define git_commit_committer   (*git_lib()->p_git_commit_committer)
#define git_commit_free	       (*git_lib()->p_git_commit_free)
#define git_commit_id	       (*git_lib()->p_git_commit_id)
#define git_commit_message     (*git_lib()->p_git_commit_message)
#define git_commit_parent      (*git_lib()->p_git_commit_parent)
#define git_commit_parent_id   (*git_lib()->p_git_commit_parent_id)
#define git_commit_parentcount (*git_lib()->p_git_commit_parentcount)
#define git_commit_summary     (*git_lib()->p_git_commit_summary)
#define git_commit_tree	       (*git_lib()->p_git_commit_tree)
#define git_describe_commit    (*git_lib()->p_git_describe_commit)
#define git_describe_format    (*git_lib()->p_git_describe_format)
#define git_describe_format_options_init \
	(*git_lib()->p_git_describe_format_options_init)
#define git_describe_options_init  (*git_lib()->p_git_describe_options_init)
#define git_describe_result_free   (*git_lib()->p_git_describe_result_free)
#define git_diff_find_options_init (*git_lib()->p_git_diff_find_options_init)
#define git_diff_find_similar	   (*git_lib()->p_git_diff_find_similar)
#define git_diff_free		   (*git_lib()->p_git_diff_free)
#define git_diff_options_init	   (*git_lib()->p_git_diff_options_init)
#define git_diff_print		   (*git_lib()->p_git_diff_print)
#define git_diff_tree_to_tree	   (*git_lib()->p_git_diff_tree_to_tree)
#define git_error_clear		   (*git_lib()->p_git_error_clear)
#define git_error_last		   (*git_lib()->p_git_error_last)
#define git_libgit2_init	   (*git_lib()->p_git_libgit2_init)
#define git_libgit2_opts	   (*git_lib()->p_git_libgit2_opts)
#define git_libgit2_shutdown	   (*git_lib()->p_git_libgit2_shutdown)
#define git_message_trailer_array_free \
	(*git_lib()->p_git_message_trailer_array_free)
#define git_message_trailers	(*git_lib()->p_git_message_trailers)
#define git_object_free		(*git_lib()->p_git_object_free)
#define git_object_id		(*git_lib()->p_git_object_id)
#define git_object_lookup	(*git_lib()->p_git_object_lookup)
#define git_object_peel		(*git_lib()->p_git_object_peel)
#define git_object_type		(*git_lib()->p_git_object_type)
#define git_oid_equal		(*git_lib()->p_git_oid_equal)
#define git_oid_tostr		(*git_lib()->p_git_oid_tostr)
#define git_repository_free	(*git_lib()->p_git_repository_free)
#define git_repository_open_ext (*git_lib()->p_git_repository_open_ext)
#define git_revparse_single	(*git_lib()->p_git_revparse_single)
#define git_tag_foreach		(*git_lib()->p_git_tag_foreach)
#define git_tree_entry_byname	(*git_lib()->p_git_tree_entry_byname)
#define git_tree_entry_bypath	(*git_lib()->p_git_tree_entry_bypath)
#define git_tree_entry_filemode (*git_lib()->p_git_tree_entry_filemode)
#define git_tree_entry_free	(*git_lib()->p_git_tree_entry_free)
#define git_tree_entry_id	(*git_lib()->p_git_tree_entry_id)
#define git_tree_entry_type	(*git_lib()->p_git_tree_entry_type)
#define git_tree_free		(*git_lib()->p_git_tree_free)

	struct repo {
	git_repository *git;
	char *dir;
};

static const char *git_message(void)
{
	const git_error *e = git_error_last();

	return e && e->message ? e->message : "unknown libgit2 error";
}

/*
 * Debian's libgit2 1.5, built on mbedTLS, parses the system's whole CA
 * bundle in git_libgit2_init(): 54 of the 85 million instructions of a
 * build report, a quarter of a warm robot thread.  robot opens local
 * repositories only and never lets libgit2 speak TLS, and libgit2 has no
 * option to skip that load before its init.  So the executable defines
 * the one mbedTLS function libgit2 calls for it, exported
 * (-Wl,--export-dynamic-symbol in the Makefile), which the dynamic loader
 * finds before mbedTLS's own: while libgit2_up() runs the init it loads
 * no certificate (libgit2 then holds an empty chain, which would verify
 * no server: it fails closed); at any other moment it hands the call to
 * mbedTLS's own function.
 */
static int in_git_init;

/* The library's own `name`, which an exported stand-in hands calls to:
 * NULL when that library is not loaded. */
static void *own_function(const char *soname, const char *name)
{
	void *h = dlopen(soname, RTLD_LAZY | RTLD_NOLOAD);

	return h ? dlsym(h, name) : NULL;
}

int mbedtls_x509_crt_parse_file(void *chain, const char *path);
int mbedtls_x509_crt_parse_file(void *chain, const char *path)
{
	static int (*real)(void *, const char *);

	if (in_git_init)
		return 0;
	if (!real)
		*(void **)&real = own_function("libmbedx509.so.1",
					       "mbedtls_x509_crt_parse_file");
	/* MBEDTLS_ERR_X509_FILE_IO_ERROR: no library, no certificate */
	return real ? real(chain, path) : -0x2900;
}

/*
 * The same for libssh2: libgit2's init calls libssh2_init(), which sets
 * up OpenSSL for SSH transports robot never opens (about 0.6 ms, 33 page
 * faults of a build report on the CI's VM).  During that init the
 * executable's own libssh2_init() (exported the same way) answers for it;
 * libssh2_exit() at libgit2's shutdown then finds nothing to undo.  At
 * any other moment the call goes to libssh2's own function; OpenSSL 3 also
 * sets itself up on first use.
 */
int libssh2_init(int flags);
int libssh2_init(int flags)
{
	static int (*real)(int);

	if (in_git_init)
		return 0;
	if (!real)
		*(void **)&real = own_function("libssh2.so.1", "libssh2_init");
	/* LIBSSH2_ERROR_ALLOC: no library to set up */
	return real ? real(flags) : -6;
}

static void libgit2_up(void)
{
	in_git_init = 1;
	git_libgit2_init();
	in_git_init = 0;
	/* See repo.h: reading objects runs nothing the repository names. */
	git_libgit2_opts(GIT_OPT_SET_OWNER_VALIDATION, 0);
	/*
	 * Keep blobs in the object cache too (libgit2 caches none by
	 * default): the patch-ids diff each commit three times.
	 */
	git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, (int)GIT_OBJECT_BLOB,
			 (size_t)256 * 1024);
}

/* Opens dir; an error names the commit `rev` too when it is given. */
static int open_repo(struct repo **out, const char *dir, const char *rev)
{
	git_repository *git = NULL;

	*out = NULL;
	libgit2_up();
	if (git_repository_open_ext(&git, dir, GIT_REPOSITORY_OPEN_NO_SEARCH,
				    NULL) < 0) {
		if (rev)
			error("cannot look up commit '%s': '%s' is not a git "
			      "repository: %s",
			      rev, dir, git_message());
		else
			error("'%s' is not a git repository: %s", dir,
			      git_message());
		git_libgit2_shutdown();
		return -1;
	}
	*out = xcalloc(1, sizeof(**out));
	(*out)->git = git;
	(*out)->dir = xstrdup(dir);
	return 0;
}

int repo_open(struct repo **out, const char *dir)
{
	return open_repo(out, dir, NULL);
}

void repo_close(struct repo *repo)
{
	if (!repo)
		return;
	git_repository_free(repo->git);
	free(repo->dir);
	free(repo);
	git_libgit2_shutdown();
}

int repo_is_repo(const char *dir)
{
	int ret;

	libgit2_up();
	ret = !git_repository_open_ext(NULL, dir, GIT_REPOSITORY_OPEN_NO_SEARCH,
				       NULL);
	git_libgit2_shutdown();
	return ret;
}

static char *oid_hex(const git_oid *oid)
{
	char hex[GIT_OID_HEXSZ + 1];

	git_oid_tostr(hex, sizeof(hex), oid);
	return xstrdup(hex);
}

/* The commit `rev` names, or NULL after an error naming both. */
static git_commit *resolve(struct repo *repo, const char *rev)
{
	git_object *obj = NULL, *peeled = NULL;
	int e;

	if (!*rev) {
		error("empty revision for repository '%s'", repo->dir);
		return NULL;
	}
	e = git_revparse_single(&obj, repo->git, rev);
	/* libgit2 calls a prefix of under 4 digits ambiguous; git, unknown. */
	if (e == GIT_EAMBIGUOUS && strlen(rev) < GIT_OID_MINPREFIXLEN)
		e = GIT_ENOTFOUND;
	if (e == GIT_ENOTFOUND)
		error("commit '%s' not found in repository '%s'", rev,
		      repo->dir);
	else if (e == GIT_EAMBIGUOUS)
		error("commit '%s' is ambiguous in repository '%s'", rev,
		      repo->dir);
	else if (e < 0)
		error("cannot resolve '%s' in repository '%s': %s", rev,
		      repo->dir, git_message());
	else if (git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT) < 0)
		error("'%s' in repository '%s' is not a commit", rev,
		      repo->dir);
	git_object_free(obj);
	return (git_commit *)peeled;
}

static void set_ident(const git_signature *sig, char **name, char **email,
		      int64_t *time, int *tz)
{
	*name = xstrdup(sig->name);
	*email = xstrdup(sig->email);
	*time = sig->when.time;
	*tz = sig->when.offset;
}

static void set_body(struct commit_info *ci, const char *body)
{
	struct strbuf sb = STRBUF_INIT;

	if (!body)
		return;
	strbuf_addstr(&sb, body);
	strbuf_rtrim(&sb);
	if (sb.len)
		ci->body = strbuf_detach(&sb, NULL);
	strbuf_release(&sb);
}

/* Appends a trailer value with folded lines joined by single blanks. */
static void add_unfolded(struct strbuf *sb, const char *v)
{
	while (*v) {
		if (*v == '\n' || *v == '\r') {
			while (*v && strchr(" \t\r\n", *v))
				v++;
			if (*v)
				strbuf_addch(sb, ' ');
			continue;
		}
		strbuf_addch(sb, *v++);
	}
	strbuf_rtrim(sb);
}

static int set_trailers(struct commit_info *ci, git_commit *c)
{
	git_message_trailer_array arr = { 0 };
	size_t i;

	if (git_message_trailers(&arr, git_commit_message(c)) < 0)
		return -1;
	if (arr.count) {
		ci->trailers = xcalloc(arr.count, sizeof(*ci->trailers));
		ci->trailers_alloc = arr.count;
	}
	for (i = 0; i < arr.count; i++) {
		struct strbuf v = STRBUF_INIT;

		add_unfolded(&v, arr.trailers[i].value);
		ci->trailers[i].key = xstrdup(arr.trailers[i].key);
		ci->trailers[i].value = strbuf_detach(&v, NULL);
		ci->trailers_nr++;
	}
	git_message_trailer_array_free(&arr);
	return 0;
}

struct tag_search {
	git_repository *git;
	const git_oid *commit;
	char *best;
	int best_annotated;
	size_t commit_tags; /* tags peeling to any commit */
};

static int tag_cb(const char *refname, git_oid *oid, void *data)
{
	struct tag_search *ts = data;
	git_object *obj = NULL, *peeled = NULL;
	const char *name = refname;
	int annotated;

	if (!strncmp(name, "refs/tags/", 10))
		name += 10;
	if (git_object_lookup(&obj, ts->git, oid, GIT_OBJECT_ANY) < 0 ||
	    git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT) < 0)
		goto out;
	ts->commit_tags++;
	if (!git_oid_equal(git_object_id(peeled), ts->commit))
		goto out;
	annotated = git_object_type(obj) == GIT_OBJECT_TAG;
	if (!ts->best || annotated > ts->best_annotated ||
	    (annotated == ts->best_annotated && strcmp(name, ts->best) < 0)) {
		free(ts->best);
		ts->best = xstrdup(name);
		ts->best_annotated = annotated;
	}
out:
	git_object_free(peeled);
	git_object_free(obj);
	git_error_clear();
	return 0;
}

/* Sets ci->tag and counts the tags of commits (for describe_count). */
static int set_tag(struct commit_info *ci, struct repo *repo, git_commit *c,
		   size_t *commit_tags)
{
	struct tag_search ts = { repo->git, git_commit_id(c), NULL, 0, 0 };

	if (git_tag_foreach(repo->git, tag_cb, &ts) < 0) {
		free(ts.best);
		return -1;
	}
	ci->tag = ts.best;
	*commit_tags = ts.commit_tags;
	return 0;
}

/* The value of a top-level `KEY = value` line of a Makefile, or NULL. */
static char *make_var(const char *text, size_t len, const char *key)
{
	size_t klen = strlen(key);
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *eol = memchr(p, '\n', end - p);
		const char *q = p + klen, *v;

		if (!eol)
			eol = end;
		if ((size_t)(eol - p) >= klen && !memcmp(p, key, klen)) {
			while (q < eol && (*q == ' ' || *q == '\t'))
				q++;
			if (q < eol && *q == '=') {
				for (v = q + 1; v < eol && strchr(" \t", *v);
				     v++)
					;
				q = eol;
				while (q > v && strchr(" \t\r", q[-1]))
					q--;
				return xstrndup(v, q - v);
			}
		}
		p = eol + 1;
	}
	return NULL;
}

static int all_digits(const char *s)
{
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

static int plain_word(const char *s)
{
	for (; *s; s++)
		if (*s <= ' ' || *s >= 0x7f || strchr("$()", *s))
			return 0;
	return 1;
}

/*
 * Appends the Makefile's KERNELVERSION, $(VERSION)$(if $(PATCHLEVEL),
 * .$(PATCHLEVEL)$(if $(SUBLEVEL),.$(SUBLEVEL)))$(EXTRAVERSION).  Returns 1
 * when it did, 0 when there is no such Makefile, -1 on a libgit2 error.
 */
static int kernel_version(struct strbuf *out, struct repo *repo, git_commit *c)
{
	static const char *const keys[] = { "VERSION", "PATCHLEVEL", "SUBLEVEL",
					    "EXTRAVERSION" };
	char *v[ARRAY_SIZE(keys)] = { NULL };
	const git_tree_entry *entry;
	git_tree *tree = NULL;
	git_blob *blob = NULL;
	size_t i;
	int ret = -1;

	if (git_commit_tree(&tree, c) < 0)
		goto out;
	entry = git_tree_entry_byname(tree, "Makefile");
	ret = 0;
	if (!entry ||
	    (git_tree_entry_filemode(entry) != GIT_FILEMODE_BLOB &&
	     git_tree_entry_filemode(entry) != GIT_FILEMODE_BLOB_EXECUTABLE))
		goto out;
	ret = -1;
	if (git_blob_lookup(&blob, repo->git, git_tree_entry_id(entry)) < 0)
		goto out;
	for (i = 0; i < ARRAY_SIZE(keys); i++)
		v[i] = make_var(git_blob_rawcontent(blob),
				(size_t)git_blob_rawsize(blob), keys[i]);
	ret = 0;
	if (!v[0] || !*v[0] || !all_digits(v[0]) ||
	    (v[1] && !all_digits(v[1])) || (v[2] && !all_digits(v[2])) ||
	    (v[3] && !plain_word(v[3])))
		goto out;
	strbuf_addstr(out, v[0]);
	if (v[1] && *v[1]) {
		strbuf_addf(out, ".%s", v[1]);
		if (v[2] && *v[2])
			strbuf_addf(out, ".%s", v[2]);
	}
	if (v[3])
		strbuf_addstr(out, v[3]);
	ret = 1;
out:
	for (i = 0; i < ARRAY_SIZE(keys); i++)
		free(v[i]);
	git_blob_free(blob);
	git_tree_free(tree);
	return ret;
}

/*
 * The number of commits `git describe --tags` counts from the nearest tag
 * to c: 0 when a tag is exactly at c, -1 when no tag is reachable, -2 on
 * an error.
 */
static long describe_count(git_commit *c)
{
	git_describe_options opts;
	git_describe_format_options fmt;
	git_describe_result *res = NULL;
	git_buf buf = GIT_BUF_INIT;
	const char *g, *p;
	long n = -2;
	int e;

	git_describe_options_init(&opts, GIT_DESCRIBE_OPTIONS_VERSION);
	opts.describe_strategy = GIT_DESCRIBE_TAGS;
	git_describe_format_options_init(&fmt,
					 GIT_DESCRIBE_FORMAT_OPTIONS_VERSION);
	fmt.always_use_long_format = 1;
	e = git_describe_commit(&res, (git_object *)c, &opts);
	if (e == GIT_ENOTFOUND) {
		git_error_clear();
		return -1;
	}
	if (e < 0 || git_describe_format(&buf, res, &fmt) < 0)
		goto out;
	/* "TAG-N-gHEX": find "-g" from the right, then N before it. */
	g = strrchr(buf.ptr, '-');
	if (!g || g[1] != 'g' || g == buf.ptr)
		goto out;
	for (p = g; p > buf.ptr && p[-1] >= '0' && p[-1] <= '9'; p--)
		;
	if (p == g || p == buf.ptr || p[-1] != '-')
		goto out;
	n = strtol(p, NULL, 10);
out:
	git_buf_dispose(&buf);
	git_describe_result_free(res);
	return n;
}

static int set_release(struct commit_info *ci, struct repo *repo, git_commit *c,
		       size_t commit_tags)
{
	struct strbuf sb = STRBUF_INIT;
	int r = kernel_version(&sb, repo, c);
	long n;

	if (r <= 0) {
		strbuf_release(&sb);
		return r;
	}
	/* Without tags libgit2 fails where git describe finds nothing. */
	n = commit_tags ? describe_count(c) : -1;
	if (n < -1) {
		strbuf_release(&sb);
		return -1;
	}
	if (n > 0)
		strbuf_addf(&sb, "-%05ld", n);
	if (n != 0)
		strbuf_addf(&sb, "-g%.12s", ci->id);
	ci->release = strbuf_detach(&sb, NULL);
	return 0;
}

static int fill(struct commit_info *ci, struct repo *repo, git_commit *c,
		int basic)
{
	size_t commit_tags;

	ci->id = oid_hex(git_commit_id(c));
	if (git_commit_parentcount(c))
		ci->parent = oid_hex(git_commit_parent_id(c, 0));
	if (!git_commit_summary(c))
		return -1;
	ci->subject = xstrdup(git_commit_summary(c));
	set_body(ci, git_commit_body(c));
	set_ident(git_commit_author(c), &ci->author_name, &ci->author_email,
		  &ci->author_time, &ci->author_tz);
	set_ident(git_commit_committer(c), &ci->committer_name,
		  &ci->committer_email, &ci->committer_time, &ci->committer_tz);
	if (set_trailers(ci, c))
		return -1;
	if (basic)
		return 0;
	if (set_tag(ci, repo, c, &commit_tags) ||
	    set_release(ci, repo, c, commit_tags))
		return -1;
	return 0;
}

static int lookup(struct repo *repo, struct commit_info *ci, const char *rev,
		  int basic)
{
	struct strbuf where = STRBUF_INIT;
	git_commit *c;
	int ret = 0;

	memset(ci, 0, sizeof(*ci));
	c = resolve(repo, rev);
	if (!c)
		return -1;
	strbuf_addf(&where, "commit '%s' in repository '%s'", rev, repo->dir);
	if (fill(ci, repo, c, basic))
		ret = error("cannot read %s: %s", where.buf, git_message());
	else if (commit_info_check(ci, where.buf))
		ret = -1;
	if (ret)
		commit_info_release(ci);
	git_commit_free(c);
	strbuf_release(&where);
	return ret;
}

/*
 * git_diff_print callback: the patch as git prints it.  Lines of a hunk
 * come without their origin character; headers, the "\\ No newline"
 * note and binary data come whole.
 */
static int diff_line_cb(const git_diff_delta *delta, const git_diff_hunk *hunk,
			const git_diff_line *line, void *data)
{
	struct strbuf *out = data;

	(void)delta;
	(void)hunk;
	if (line->origin == GIT_DIFF_LINE_CONTEXT ||
	    line->origin == GIT_DIFF_LINE_ADDITION ||
	    line->origin == GIT_DIFF_LINE_DELETION)
		strbuf_addch(out, line->origin);
	strbuf_add(out, line->content, line->content_len);
	return 0;
}

int repo_diff_text(struct repo *repo, const char *rev, enum repo_diff_algo algo,
		   struct strbuf *out)
{
	git_diff_options opts;
	git_diff_find_options find;
	git_tree *old = NULL, *new = NULL;
	git_commit *c, *parent = NULL;
	git_diff *diff = NULL;
	int ret = -1;

	c = resolve(repo, rev);
	if (!c)
		return -1;
	if (git_commit_parentcount(c) > 1) {
		ret = 1; /* a merge: git show prints no patch of its own */
		goto out;
	}
	git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
	/*
	 * as format-patch (and git show --binary): full ids, binary data,
	 * and git's default diff.indentHeuristic (on since git 2.14), which
	 * slides ambiguous hunks
	 */
	opts.flags = GIT_DIFF_SHOW_BINARY | GIT_DIFF_INDENT_HEURISTIC;
	if (algo == REPO_DIFF_PATIENCE)
		opts.flags |= GIT_DIFF_PATIENCE;
	else if (algo == REPO_DIFF_MINIMAL)
		opts.flags |= GIT_DIFF_MINIMAL;
	opts.id_abbrev = GIT_OID_HEXSZ;
	git_diff_find_options_init(&find, GIT_DIFF_FIND_OPTIONS_VERSION);
	find.flags = GIT_DIFF_FIND_RENAMES; /* git's diff.renames default */
	if ((git_commit_parentcount(c) &&
	     git_commit_parent(&parent, c, 0) < 0) ||
	    (parent && git_commit_tree(&old, parent) < 0) ||
	    git_commit_tree(&new, c) < 0 ||
	    git_diff_tree_to_tree(&diff, repo->git, old, new, &opts) < 0 ||
	    git_diff_find_similar(diff, &find) < 0 ||
	    git_diff_print(diff, GIT_DIFF_FORMAT_PATCH, diff_line_cb, out) <
		    0) {
		error("cannot diff commit '%s' in repository '%s': %s", rev,
		      repo->dir, git_message());
		goto out;
	}
	ret = 0;
out:
	git_diff_free(diff);
	git_tree_free(old);
	git_tree_free(new);
	git_commit_free(parent);
	git_commit_free(c);
	return ret;
}

int repo_lookup(struct repo *repo, struct commit_info *ci, const char *rev)
{
	return lookup(repo, ci, rev, 0);
}

int repo_lookup_basic(struct repo *repo, struct commit_info *ci,
		      const char *rev)
{
	return lookup(repo, ci, rev, 1);
}

int repo_commit_info(struct commit_info *ci, const char *repo_dir,
		     const char *rev)
{
	struct repo *repo;
	int ret;

	memset(ci, 0, sizeof(*ci));
	if (open_repo(&repo, repo_dir, rev))
		return -1;
	ret = repo_lookup(repo, ci, rev);
	repo_close(repo);
	return ret;
}

int repo_load_commits(struct commit_set *set, const char *repo_dir,
		      const char *const *revs, size_t nr)
{
	struct repo *repo;
	size_t i;

	memset(set, 0, sizeof(*set));
	if (repo_open(&repo, repo_dir))
		return -1;
	for (i = 0; i < nr; i++) {
		ALLOC_GROW(set->c, set->nr + 1, set->alloc);
		if (repo_lookup(repo, &set->c[set->nr], revs[i])) {
			commits_release(set);
			repo_close(repo);
			return -1;
		}
		set->nr++;
	}
	repo_close(repo);
	return 0;
}

int repo_file_at(struct repo *repo, const char *rev, const char *path,
		 struct strbuf *out)
{
	git_commit *c = resolve(repo, rev);
	git_tree *tree = NULL;
	git_tree_entry *entry = NULL;
	git_blob *blob = NULL;
	int ret = -1;

	if (!c)
		return -1;
	if (git_commit_tree(&tree, c) < 0) {
		error("%s: commit '%s': cannot read its tree: %s", repo->dir,
		      rev, git_message());
		goto out;
	}
	if (git_tree_entry_bypath(&entry, tree, path) < 0 ||
	    git_tree_entry_type(entry) != GIT_OBJECT_BLOB) {
		ret = 1;
		goto out;
	}
	if (git_blob_lookup(&blob, repo->git, git_tree_entry_id(entry)) < 0) {
		error("%s: commit '%s': cannot read '%s': %s", repo->dir, rev,
		      path, git_message());
		goto out;
	}
	strbuf_add(out, git_blob_rawcontent(blob),
		   (size_t)git_blob_rawsize(blob));
	ret = 0;
out:
	git_blob_free(blob);
	git_tree_entry_free(entry);
	git_tree_free(tree);
	git_commit_free(c);
	return ret;
}
