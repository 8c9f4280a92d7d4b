// SPDX-License-Identifier: GPL-2.0-only
/*
 * matrix.c: matrix.json, read in one streaming pass.
 *
 * yajl tokenises the text chunk by chunk (read(2), or gz.c's reader for .gz)
 * and calls back for every key, number and string; the callbacks check
 * the shape ({ "stat": [numbers...], "stats_source": [strings...] }) as
 * it goes and append names and samples to flat arrays.  The first problem
 * cancels the parse, so a broken matrix costs no more than its broken
 * prefix.
 *
 * Numbers reach robot as text (yajl's number callback), so the integer or
 * real decision is the token's: no '.', 'e' or 'E' makes an integer,
 * which must fit 64 bits; a real must be finite.  Decimals of up to 19
 * significant digits that fit 2^53 and have at most 22 fraction digits are
 * converted as one correctly rounded division of two exact doubles, which
 * is what strtod() gives; everything else goes through strtod() itself.
 *
 * Memory: samples, names, the stat index and stats_source are charged to
 * one budget shared by every matrix loaded at the same time
 * (MATRIX_MEM_MAX).  yajl's own buffers grow only with the longest token;
 * its allocations are counted and a token beyond MATRIX_TOKEN_MAX stops
 * the parse at the next chunk.  Nesting deeper than a matrix has is
 * refused in the callback that opens it.
 *
 * Errors that have a place in the text say FILE:LINE:COLUMN (the column
 * counts characters, from 1); the place is found by reading the file again
 * up to the byte yajl stopped at, so the fast path counts no lines.
 */
#include "robot/util/common.h"
#include "robot/util/gz.h"
#include "robot/engine/matrix.h"
#include "robot/engine/results.h"

#include <fcntl.h>
#include <math.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <yajl/yajl_parse.h>

#include "robot/util/dl.h"

/*
 * yajl is loaded when robot first reads a matrix (robot/util/dl.h): its
 * functions are called through yajl_lib()'s table, under their own names.
 */
// clang-format off
#define MATRIX_YAJL_FUNCS(X) \
	X(yajl_alloc) \
	X(yajl_complete_parse) \
	X(yajl_free) \
	X(yajl_free_error) \
	X(yajl_get_bytes_consumed) \
	X(yajl_get_error) \
	X(yajl_parse)
// clang-format on

struct yajl_lib {
	MATRIX_YAJL_FUNCS(DL_POINTER)
};

_Static_assert(sizeof(ROBOT_YAJL_SONAME) > 1, "the Makefile found no yajl");

static const struct yajl_lib *yajl_lib(void);
#define yajl_alloc		(*yajl_lib()->p_yajl_alloc)
#define yajl_complete_parse	(*yajl_lib()->p_yajl_complete_parse)
#define yajl_free		(*yajl_lib()->p_yajl_free)
#define yajl_free_error		(*yajl_lib()->p_yajl_free_error)
#define yajl_get_bytes_consumed (*yajl_lib()->p_yajl_get_bytes_consumed)
#define yajl_get_error		(*yajl_lib()->p_yajl_get_error)
#define yajl_parse		(*yajl_lib()->p_yajl_parse)

/* The most matrix text robot reads, after decompression: a time bound. */
#define TEXT_MAX ((uint64_t)1 << 30)
#define CHUNK	 ((size_t)1 << 17)
/* How far a gzip stream is read past a JSON error, for its own errors. */
#define DRAIN_MAX ((uint64_t)16 << 20)

static const char SRC_KEY[] = "stats_source";

static size_t held; /* bytes held by every loaded matrix */

/* The arrays are page-mapped (xmap_resize): they grow without copies. */
struct matrix_store {
	char *names;	       /* every name, NUL-terminated */
	double *val;	       /* nstats * nruns */
	unsigned char *is_int; /* nstats * nruns */
	uint32_t *hash;	       /* per stat */
	uint32_t *slot;	       /* stat index + 1; 0 is empty */
	size_t nslots;	       /* a power of two */
	size_t names_cap, val_cap, hash_cap, stats_cap; /* their sizes */
	size_t mem; /* bytes charged to `held` */
};

/* ------------------------------------------------------------- input */

struct source {
	const char *path;
	int fd;
	struct gz_reader *gz;
	uint64_t total;
	uint64_t expect; /* the text's size if known (a guess for .gz), or 0 */
};

/* A gzip file's trailer gives the text's size modulo 2^32; 0 if unsure. */
static uint64_t gz_size(int fd, const struct stat *st)
{
	unsigned char b[4];

	if (st->st_size < 18 || pread(fd, b, 4, st->st_size - 4) != 4)
		return 0;
	return (uint64_t)b[0] | (uint64_t)b[1] << 8 | (uint64_t)b[2] << 16 |
	       (uint64_t)b[3] << 24;
}

static int source_open(struct source *s, const char *path, int gz)
{
	struct stat st;

	memset(s, 0, sizeof(*s));
	s->path = path;
	/* not a symbolic link: an error would quote what it points to */
	s->fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
	if (s->fd < 0 && errno == ELOOP) {
		error("cannot read '%s': a symbolic link (robot reads no file "
		      "a result root links to)",
		      path);
		return -2;
	}
	if (s->fd < 0)
		return -1;
	if (fstat(s->fd, &st) < 0) {
		error_errno("cannot read '%s'", path);
		goto fail;
	}
	if (S_ISDIR(st.st_mode)) {
		error("cannot read '%s': Is a directory", path);
		goto fail;
	}
	/* a FIFO or a device could block or never end */
	if (!S_ISREG(st.st_mode)) {
		errno = ENOTREG;
		error_errno("cannot read '%s'", path);
		goto fail;
	}
	if (fcntl(s->fd, F_SETFL, fcntl(s->fd, F_GETFL) & ~O_NONBLOCK)) {
		error_errno("cannot read '%s'", path);
		goto fail;
	}
	if (!gz && S_ISREG(st.st_mode) && (uint64_t)st.st_size > TEXT_MAX) {
		error("'%s' is larger than 1 GiB", path);
		goto fail;
	}
	if (S_ISREG(st.st_mode))
		s->expect = gz ? gz_size(s->fd, &st) : (uint64_t)st.st_size;
	if (gz) {
		s->gz = gz_reader_open(s->fd, CHUNK);
		if (!s->gz) {
			s->fd = -1;
			error("cannot read '%s': out of memory", path);
			return -2;
		}
	}
	return 0;
fail:
	close(s->fd);
	s->fd = -1;
	return -2;
}

static int gz_fail(const struct source *s, long rc)
{
	const char *msg;

	if (rc == GZ_READ_ERRNO)
		return error_errno("cannot read '%s'", s->path);
	if (rc == GZ_READ_NOT_GZIP)
		return error("'%s' is not gzip data", s->path);
	msg = gz_reader_error(s->gz);
	return error("'%s': corrupt gzip data: %s", s->path,
		     *msg ? msg : "unknown error");
}

/* Reads up to `len` bytes; returns how many (0 at the end), or -1. */
static long source_read(struct source *s, char *buf, size_t len)
{
	long n;

	if (s->gz) {
		n = gz_reader_read(s->gz, buf, len);
		if (n < 0)
			return gz_fail(s, n);
	} else {
		do
			n = read(s->fd, buf, len);
		while (n < 0 && errno == EINTR);
		if (n < 0)
			return error_errno("cannot read '%s'", s->path);
	}
	s->total += (uint64_t)n;
	if (s->total > TEXT_MAX)
		return error(s->gz ? "'%s' is larger than 1 GiB uncompressed"
				   : "'%s' is larger than 1 GiB",
			     s->path);
	return n;
}

/* Closes the source; for gzip, also checks the trailer. */
static int source_close(struct source *s, int ret)
{
	int rc;

	if (s->gz) {
		/* this also closes fd and reports a bad trailer */
		if (gz_reader_close(s->gz, &rc) != GZ_OK && !ret)
			ret = error("'%s': corrupt gzip data (error %d)",
				    s->path, rc);
	} else if (s->fd >= 0) {
		close(s->fd);
	}
	s->gz = NULL;
	s->fd = -1;
	return ret;
}

/* The bytes of a JSON token (or of a bad one) as a message shows them. */
static int token_char(char c)
{
	return c > ' ' && c < 0x7f && !strchr(",:[]{}\"", c);
}

/*
 * The line and column (both from 1; columns count UTF-8 characters) of
 * byte `off` of the text, found by reading it again, and in `near` the
 * token that starts there (up to NEAR_MAX printable ASCII bytes; empty
 * when none does).
 */
#define NEAR_MAX 24
static void text_position(const char *path, int gz, uint64_t off, size_t *line,
			  size_t *col, char near[NEAR_MAX + 1])
{
	struct source s;
	char *buf = xmalloc(CHUNK);
	uint64_t pos = 0;
	size_t nnear = 0;
	int more = 1;
	long n;

	*line = *col = 1;
	error_quiet++;
	if (source_open(&s, path, gz) < 0)
		goto out;
	while (more && (n = source_read(&s, buf, CHUNK)) > 0) {
		for (long i = 0; i < n; i++, pos++) {
			if (pos >= off) {
				if (nnear == NEAR_MAX || !token_char(buf[i])) {
					more = 0;
					break;
				}
				near[nnear++] = buf[i];
			} else if (buf[i] == '\n') {
				++*line;
				*col = 1;
			} else if (((unsigned char)buf[i] & 0xc0) != 0x80) {
				++*col;
			}
		}
	}
	source_close(&s, -1);
out:
	near[nnear] = '\0';
	error_quiet--;
	free(buf);
}

/* ------------------------------------------------------------ parsing */

enum want { WANT_STAT, WANT_SRC };

/*
 * One stat while parsing: an offset, since the arrays still move, and its
 * number of samples (its row starts after the rows before it).  The
 * budget keeps both far below 2^32.
 */
struct pstat {
	uint32_t name; /* into names */
	uint32_t n;
};

struct parser {
	const char *file;
	struct matrix_store *st;
	char *names;
	size_t names_len, names_alloc;
	struct pstat *ps;
	size_t nps, ps_alloc;
	double *val;
	unsigned char *is_int;
	size_t nval, val_alloc;
	size_t hash_alloc;
	char **src;
	size_t nsrc, src_alloc;
	int have_src;
	int depth;
	enum want in;
	size_t mem;	   /* charged to this parse so far */
	size_t yajl_mem;   /* yajl's live allocations */
	struct strbuf err; /* the message of a cancelled parse */
	int err_at;	   /* the message wants FILE:LINE:COLUMN */
	int over_budget;
};

ROBOT_PRINTF(3, 4)
static int fail(struct parser *p, int at, const char *fmt, ...)
{
	va_list ap;

	if (p->err.len)
		return 0;
	va_start(ap, fmt);
	strbuf_vaddf(&p->err, fmt, ap);
	va_end(ap);
	p->err_at = at;
	return 0; /* yajl: cancel the parse */
}

static int over_budget(struct parser *p)
{
	p->over_budget = 1;
	return fail(p, 0,
		    "more than %zu MiB of samples and names (robot's memory "
		    "limit for the result roots of one comparison)",
		    MATRIX_MEM_MAX >> 20);
}

/*
 * Grows *ptr (capacity *alloc elements of `size` bytes) to hold `need`,
 * charging the growth to the budget.  Returns 0, or -1 when the budget
 * is spent (the message is set).
 */
static int grow(struct parser *p, void *ptr, size_t *alloc, size_t need,
		size_t size)
{
	void **pp = ptr;
	size_t n = *alloc ? *alloc : 64, extra;

	if (need <= *alloc)
		return 0;
	while (n < need) {
		if (n > SIZE_MAX / 2 / size)
			return over_budget(p) - 1;
		n *= 2;
	}
	extra = (n - *alloc) * size;
	if (held + p->mem + extra > MATRIX_MEM_MAX)
		return over_budget(p) - 1;
	*pp = xmap_resize(*pp, *alloc * size, n * size);
	p->mem += extra;
	*alloc = n;
	return 0;
}

static const char *cur_name(const struct parser *p)
{
	return p->names + p->ps[p->nps - 1].name;
}

static int cb_not_here(struct parser *p)
{
	if (!p->depth)
		return fail(p, 0, "not a JSON object");
	if (p->depth == 1)
		return p->in == WANT_SRC
			       ? fail(p, 0, "\"stats_source\" is not an array")
			       : fail(p, 0, "stat '%s' is not an array",
				      cur_name(p));
	if (p->in == WANT_SRC)
		return fail(p, 0, "stats_source[%zu] is not a string", p->nsrc);
	return fail(p, 0, "stat '%s'[%zu] is not a number", cur_name(p),
		    (size_t)p->ps[p->nps - 1].n);
}

static int cb_null(void *ctx)
{
	return cb_not_here(ctx);
}

static int cb_bool(void *ctx, int b)
{
	(void)b;
	return cb_not_here(ctx);
}

static const double pow10_exact[] = {
	1e0,  1e1,  1e2,  1e3,	1e4,  1e5,  1e6,  1e7,	1e8,  1e9,  1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/*
 * Converts one JSON number token.  Returns 0, or -1 when it does not fit
 * (an integer beyond 64 bits, a real beyond DBL_MAX).
 */
static int convert(const char *s, size_t len, double *v, unsigned char *is_int)
{
	uint64_t m = 0;
	size_t i = 0, digits = 0, frac = 0;
	int neg = s[0] == '-', real = 0, bad;
	char stack[64], *buf = stack, *end;

	i = neg;
	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++, digits++)
		m = m * 10 + (uint64_t)(s[i] - '0');
	if (i < len && s[i] == '.') {
		real = 1;
		for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++, frac++)
			m = m * 10 + (uint64_t)(s[i] - '0');
	}
	*is_int = !real && i == len;
	if (i == len && digits + frac <= 19) {
		if (!real && digits <= 18) {
			*v = (double)(neg ? -(long long)m : (long long)m);
			return 0;
		}
		if (real && m <= (UINT64_C(1) << 53) &&
		    frac < ARRAY_SIZE(pow10_exact)) {
			*v = (double)m / pow10_exact[frac];
			if (neg)
				*v = -*v;
			return 0;
		}
	}
	/* the general case: the C library, on a NUL-terminated copy */
	if (len >= sizeof(stack))
		buf = xmalloc(len + 1);
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	if (*is_int) {
		long long ll = strtoll(buf, &end, 10);

		*v = (double)ll;
	} else {
		*v = strtod(buf, &end);
		/* an underflow to 0 or a denormal is fine, as in jansson */
		if (errno == ERANGE && *v != HUGE_VAL && *v != -HUGE_VAL)
			errno = 0;
	}
	bad = errno == ERANGE || *end;
	if (buf != stack)
		free(buf);
	return bad ? -1 : 0;
}

static int cb_number(void *ctx, const char *s, size_t len)
{
	struct parser *p = ctx;
	struct pstat *ps;
	unsigned char is_int;
	double v;

	if (p->depth != 2 || p->in != WANT_STAT)
		return cb_not_here(p);
	ps = &p->ps[p->nps - 1];
	if (convert(s, len, &v, &is_int) < 0)
		return fail(p, 1, "invalid JSON: number %.*s is out of range",
			    len > 40 ? 40 : (int)len, s);
	if (p->nval == p->val_alloc) {
		size_t a = p->val_alloc;

		if (grow(p, &p->val, &p->val_alloc, p->nval + 1,
			 sizeof(*p->val)) < 0 ||
		    grow(p, &p->is_int, &a, p->nval + 1, 1) < 0)
			return 0;
	}
	p->val[p->nval] = v;
	p->is_int[p->nval++] = is_int;
	ps->n++;
	return 1;
}

static int cb_string(void *ctx, const unsigned char *s, size_t len)
{
	struct parser *p = ctx;

	if (p->depth != 2 || p->in != WANT_SRC)
		return cb_not_here(p);
	if (memchr(s, '\0', len))
		return fail(p, 1, "invalid JSON: \\u0000 in a string");
	/* the caller frees them: malloc's; charged with its overhead */
	if (held + p->mem + len + 48 > MATRIX_MEM_MAX)
		return over_budget(p);
	p->mem += len + 48;
	ALLOC_GROW(p->src, p->nsrc + 1, p->src_alloc);
	p->src[p->nsrc++] = xstrndup((const char *)s, len);
	return 1;
}

/*
 * The stat index's hash: 8 bytes at a time, keyed by a seed drawn once per
 * process, so that no matrix can be written to make the index quadratic.
 * Only the index's layout depends on it, never an answer.  The fuzz build
 * fixes it: the code a given input runs must not change from run to run.
 */
static uint32_t hash_name(const char *s, size_t len)
{
	static uint64_t seed;
	uint64_t h, w;

#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
	seed = UINT64_C(0x9e3779b97f4a7c15);
#endif
	if (!seed && getrandom(&seed, sizeof(seed), GRND_NONBLOCK) !=
			     (ssize_t)sizeof(seed))
		seed = (uint64_t)(uintptr_t)&seed ^ (uint64_t)time(NULL);
	seed |= 1;
	h = seed ^ len;
	for (; len >= 8; s += 8, len -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * UINT64_C(0xff51afd7ed558ccd);
		h ^= h >> 32;
	}
	w = 0;
	memcpy(&w, s, len);
	h = (h ^ w) * UINT64_C(0xc4ceb9fe1a85ec53);
	h ^= h >> 29;
	return (uint32_t)h;
}

/* The slot of `name` in the stat index, or the empty slot it would take. */
static size_t find_slot(const struct matrix_store *st, const char *names,
			const struct pstat *ps, uint32_t h, const char *name)
{
	size_t mask = st->nslots - 1, i = h & mask;

	for (; st->slot[i]; i = (i + 1) & mask) {
		uint32_t k = st->slot[i] - 1;

		if (st->hash[k] == h && !strcmp(names + ps[k].name, name))
			break;
	}
	return i;
}

/* Gives the stat index n slots (a power of two, more than it has). */
static int index_resize(struct parser *p, size_t n)
{
	struct matrix_store *st = p->st;
	size_t bytes, i;
	uint32_t *slot;

	if (n > UINT32_MAX)
		return over_budget(p) - 1;
	bytes = n * sizeof(*slot);
	if (held + p->mem + bytes > MATRIX_MEM_MAX)
		return over_budget(p) - 1;
	slot = xmap_resize(NULL, 0, bytes);
	for (i = 0; i < st->nslots; i++) {
		uint32_t k = st->slot[i];
		size_t j;

		if (!k)
			continue;
		for (j = st->hash[k - 1] & (n - 1); slot[j];
		     j = (j + 1) & (n - 1))
			;
		slot[j] = k;
	}
	p->mem += bytes;
	p->mem -= st->nslots * sizeof(*slot);
	xmap_resize(st->slot, st->nslots * sizeof(*slot), 0);
	st->slot = slot;
	st->nslots = n;
	return 0;
}

/* Doubles the stat index (or makes it), keeping the load below 1/2. */
static int grow_index(struct parser *p)
{
	return index_resize(p, p->st->nslots ? p->st->nslots * 2 : 1024);
}

/*
 * Sizes the index at once for about `expect` stats, if that is a modest
 * part of the budget: saves rehashing it ten times as it grows.
 */
static void index_reserve(struct parser *p, uint64_t expect)
{
	size_t n = p->st->nslots ? p->st->nslots : 1024;

	while (n < expect * 2 && n < MATRIX_MEM_MAX / 64)
		n *= 2;
	if (n > p->st->nslots && held + p->mem + n * 4 < MATRIX_MEM_MAX / 2)
		index_resize(p, n);
}

static int add_stat(struct parser *p, const char *key, size_t len);

/*
 * Printable ASCII, which rt_check_stat_name() passes: the names of nearly
 * every stat, checked without decoding UTF-8.
 */
static int ascii_visible(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)s[i] - 0x20u > 0x7eu - 0x20u)
			return 0;
	return len > 0;
}

static int cb_key(void *ctx, const unsigned char *s, size_t len)
{
	struct parser *p = ctx;
	const char *key = (const char *)s;
	struct strbuf why = STRBUF_INIT;
	char name_buf[256], *name;

	if (memchr(s, '\0', len))
		return fail(p, 1, "invalid JSON: \\u0000 in a string");
	if (len == sizeof(SRC_KEY) - 1 && !memcmp(key, SRC_KEY, len)) {
		if (p->have_src)
			return fail(p, 1, "duplicate key 'stats_source'");
		p->have_src = 1;
		p->in = WANT_SRC;
		return 1;
	}
	p->in = WANT_STAT;
	if (ascii_visible(key, len))
		return add_stat(p, key, len);
	if (len < sizeof(name_buf)) {
		/* rt_check_stat_name() wants a string */
		memcpy(name_buf, key, len);
		name_buf[len] = '\0';
		name = name_buf;
	} else {
		name = xstrndup(key, len);
	}
	if (rt_check_stat_name(name, &why))
		fail(p, 0, "%s", why.buf);
	if (name != name_buf)
		free(name);
	strbuf_release(&why);
	return p->err.len ? 0 : add_stat(p, key, len);
}

/* Adds stat `key` with no samples yet; 0 (message set) for a duplicate. */
static int add_stat(struct parser *p, const char *key, size_t len)
{
	struct matrix_store *st = p->st;
	struct pstat *ps;
	size_t i, a;
	uint32_t h;

	if ((p->nps + 1) * 2 > st->nslots && grow_index(p) < 0)
		return 0;
	a = p->hash_alloc;
	if (grow(p, &p->names, &p->names_alloc, p->names_len + len + 1, 1) <
		    0 ||
	    grow(p, &p->ps, &p->ps_alloc, p->nps + 1, sizeof(*p->ps)) < 0 ||
	    grow(p, &st->hash, &a, p->nps + 1, sizeof(*st->hash)) < 0)
		return 0;
	p->hash_alloc = a;
	memcpy(p->names + p->names_len, key, len);
	p->names[p->names_len + len] = '\0';
	h = hash_name(key, len);
	i = find_slot(st, p->names, p->ps, h, p->names + p->names_len);
	if (st->slot[i])
		return fail(p, 1, "duplicate key '%s'",
			    p->names + p->names_len);
	st->slot[i] = (uint32_t)p->nps + 1;
	st->hash[p->nps] = h;
	ps = &p->ps[p->nps++];
	ps->name = (uint32_t)p->names_len;
	ps->n = 0;
	p->names_len += len + 1;
	return 1;
}

static int cb_start_map(void *ctx)
{
	struct parser *p = ctx;

	if (p->depth)
		return cb_not_here(p);
	p->depth = 1;
	return 1;
}

static int cb_end_map(void *ctx)
{
	((struct parser *)ctx)->depth = 0;
	return 1;
}

static int cb_start_array(void *ctx)
{
	struct parser *p = ctx;

	if (p->depth != 1)
		return cb_not_here(p);
	p->depth = 2;
	return 1;
}

static int cb_end_array(void *ctx)
{
	((struct parser *)ctx)->depth = 1;
	return 1;
}

static const yajl_callbacks callbacks = {
	.yajl_null = cb_null,
	.yajl_boolean = cb_bool,
	.yajl_number = cb_number,
	.yajl_string = cb_string,
	.yajl_start_map = cb_start_map,
	.yajl_map_key = cb_key,
	.yajl_end_map = cb_end_map,
	.yajl_start_array = cb_start_array,
	.yajl_end_array = cb_end_array,
};

/* yajl's allocations, counted in a header before each block. */
#define HDR 16

static void *ya_malloc(void *ctx, size_t n)
{
	struct parser *p = ctx;
	char *b = xmalloc(n + HDR);

	memcpy(b, &n, sizeof(n));
	p->yajl_mem += n;
	return b + HDR;
}

static void ya_free(void *ctx, void *ptr)
{
	struct parser *p = ctx;
	char *b = ptr;
	size_t n;

	if (!b)
		return;
	memcpy(&n, b - HDR, sizeof(n));
	p->yajl_mem -= n;
	free(b - HDR);
}

static void *ya_realloc(void *ctx, void *ptr, size_t n)
{
	struct parser *p = ctx;
	char *b;
	size_t old;

	if (!ptr)
		return ya_malloc(ctx, n);
	b = (char *)ptr - HDR;
	memcpy(&old, b, sizeof(old));
	b = xrealloc(b, n + HDR);
	memcpy(b, &n, sizeof(n));
	p->yajl_mem += n - old;
	return b + HDR;
}

/* Prints the parse's error; `off` is the byte yajl stopped at. */
static int report(struct parser *p, yajl_handle h, int status, int gz,
		  uint64_t off)
{
	size_t line, col;
	unsigned char *msg;
	size_t len;
	char near[NEAR_MAX + 1];

	if (status == yajl_status_client_canceled && !p->err_at)
		return error("%s: %s", p->file, p->err.buf);
	/* the place of the last byte yajl read */
	text_position(p->file, gz, off ? off - 1 : 0, &line, &col, near);
	if (status == yajl_status_client_canceled || p->err.len)
		return error("%s:%zu:%zu: %s", p->file, line, col, p->err.buf);
	msg = yajl_get_error(h, 0, NULL, 0);
	len = msg ? strlen((char *)msg) : 0;
	while (len && (msg[len - 1] == '\n' || msg[len - 1] == '.'))
		len--;
	error("%s:%zu:%zu: invalid JSON: %.*s%s%s%s", p->file, line, col,
	      (int)len, msg ? (char *)msg : "syntax error",
	      *near ? ", near '" : "", near, *near ? "'" : "");
	if (msg)
		yajl_free_error(h, msg);
	return -1;
}

/* Feeds the whole source to yajl.  Returns 0 or -1 (error printed). */
static int parse(struct parser *p, struct source *s, int gz)
{
	yajl_alloc_funcs af = { ya_malloc, ya_realloc, ya_free, p };
	char *buf = xmalloc(CHUNK);
	uint64_t before = 0;
	yajl_handle h;
	yajl_status status = yajl_status_ok;
	long n;
	int ret = 0;

	h = yajl_alloc(&callbacks, &af, p);
	for (;;) {
		n = source_read(s, buf, CHUNK);
		if (n < 0) {
			ret = -1;
			break;
		}
		if (!n) {
			status = yajl_complete_parse(h);
			if (status != yajl_status_ok)
				ret = report(p, h, status, gz, s->total);
			break;
		}
		status = yajl_parse(h, (unsigned char *)buf, (size_t)n);
		if (status != yajl_status_ok) {
			uint64_t off = before + yajl_get_bytes_consumed(h);

			/*
			 * Bad gzip data is the better explanation, if the
			 * stream shows it soon enough.
			 */
			if (status == yajl_status_error && s->gz) {
				uint64_t end = s->total + DRAIN_MAX;

				while (s->total < end &&
				       (n = source_read(s, buf, CHUNK)) > 0)
					;
				if (n < 0) {
					ret = -1;
					break;
				}
			}
			ret = report(p, h, status, gz, off);
			break;
		}
		/* the first chunk tells how many stats the rest holds */
		if (!before && s->expect > (uint64_t)n && p->nps)
			index_reserve(p, p->nps * s->expect / (uint64_t)n);
		before += (uint64_t)n;
		if (p->yajl_mem > 2 * MATRIX_TOKEN_MAX) {
			fail(p, 1,
			     "a JSON string or number longer than %zu KiB "
			     "(robot's memory limit)",
			     MATRIX_TOKEN_MAX >> 10);
			ret = report(p, h, yajl_status_client_canceled, gz,
				     before);
			break;
		}
	}
	yajl_free(h);
	free(buf);
	return ret;
}

/* ------------------------------------------------------------ loading */

static void store_free(struct matrix_store *st)
{
	if (!st)
		return;
	xmap_resize(st->names, st->names_cap, 0);
	xmap_resize(st->val, st->val_cap * sizeof(*st->val), 0);
	xmap_resize(st->is_int, st->val_cap, 0);
	xmap_resize(st->hash, st->hash_cap * sizeof(*st->hash), 0);
	xmap_resize(st->slot, st->nslots * sizeof(*st->slot), 0);
	free(st);
}

static void parser_release(struct parser *p)
{
	for (size_t i = 0; i < p->nsrc; i++)
		free(p->src[i]);
	free(p->src);
	xmap_resize(p->names, p->names_alloc, 0);
	xmap_resize(p->ps, p->ps_alloc * sizeof(*p->ps), 0);
	xmap_resize(p->val, p->val_alloc * sizeof(*p->val), 0);
	xmap_resize(p->is_int, p->val_alloc, 0);
	if (p->st && p->hash_alloc) {
		/* a store still being built: its index is the parser's */
		xmap_resize(p->st->hash, p->hash_alloc * sizeof(*p->st->hash),
			    0);
		p->st->hash = NULL;
	}
	strbuf_release(&p->err);
	store_free(p->st);
	p->st = NULL;
}

/*
 * Lays the samples out as nstats rows of nruns, padding short rows with
 * integer zeros; when every row is full they are already.
 */
static int layout(struct parser *p, struct result_root *rt)
{
	struct matrix_store *st = p->st;
	size_t nruns = rt->nruns, total, i, first;
	double *val;
	unsigned char *is_int;

	for (i = 0; i < p->nps; i++)
		if (p->ps[i].n > nruns)
			return error("%s: stat '%s' has %zu values, but "
				     "stats_source lists %zu runs",
				     p->file, p->names + p->ps[i].name,
				     (size_t)p->ps[i].n, nruns);
	if (__builtin_mul_overflow(p->nps, nruns, &total) ||
	    total > MATRIX_MEM_MAX) {
		over_budget(p);
		return error("%s: %s", p->file, p->err.buf);
	}
	if (p->nval == total) {
		/* every row is full, so row i starts at i * nruns */
		st->val = p->val;
		st->is_int = p->is_int;
		st->val_cap = p->val_alloc;
		p->val = NULL;
		p->is_int = NULL;
		p->val_alloc = 0;
		return 0;
	}
	if (held + p->mem + total * (sizeof(*val) + 1) > MATRIX_MEM_MAX) {
		over_budget(p);
		return error("%s: %s", p->file, p->err.buf);
	}
	/* fresh pages are zero: the padding's values */
	val = xmap_resize(NULL, 0, total * sizeof(*val));
	is_int = xmap_resize(NULL, 0, total);
	memset(is_int, 1, total);
	for (i = 0, first = 0; i < p->nps; first += p->ps[i++].n) {
		const struct pstat *ps = &p->ps[i];

		if (!ps->n)
			continue;
		memcpy(val + i * nruns, p->val + first, ps->n * sizeof(*val));
		memcpy(is_int + i * nruns, p->is_int + first, ps->n);
	}
	p->mem += total * (sizeof(*val) + 1);
	p->mem -= p->val_alloc * (sizeof(*val) + 1);
	xmap_resize(p->val, p->val_alloc * sizeof(*val), 0);
	xmap_resize(p->is_int, p->val_alloc, 0);
	p->val = NULL;
	p->is_int = NULL;
	p->val_alloc = p->nval = 0;
	st->val = val;
	st->is_int = is_int;
	st->val_cap = total;
	return 0;
}

static int build(struct parser *p, struct result_root *rt);

static int finish(struct parser *p, struct result_root *rt)
{
	if (!p->have_src)
		return error("%s: no \"stats_source\"", p->file);
	if (!p->nsrc)
		return error("%s: \"stats_source\" is empty", p->file);
	if (!p->nps)
		return error("%s: no stats (empty matrix)", p->file);
	rt->nruns = p->nsrc;
	return build(p, rt);
}

/* Gives rt its stats from the parse, rt->nruns samples each. */
static int build(struct parser *p, struct result_root *rt)
{
	struct matrix_store *st = p->st;
	size_t i, total;

	if (layout(p, rt) < 0)
		return -1;
	if (held + p->mem + p->nps * sizeof(*rt->stats) > MATRIX_MEM_MAX) {
		over_budget(p);
		return error("%s: %s", p->file, p->err.buf);
	}
	p->mem += p->nps * sizeof(*rt->stats);
	rt->stats = xmap_resize(NULL, 0, p->nps * sizeof(*rt->stats));
	rt->nstats = p->nps;
	st->stats_cap = p->nps;
	/* shrink to fit: the matrix is charged what it keeps */
	total = p->nps * rt->nruns;
	st->val = xmap_resize(st->val, st->val_cap * sizeof(*st->val),
			      total * sizeof(*st->val));
	st->is_int = xmap_resize(st->is_int, st->val_cap, total);
	st->val_cap = total;
	st->names = xmap_resize(p->names, p->names_alloc, p->names_len);
	st->names_cap = p->names_len;
	st->hash = xmap_resize(st->hash, p->hash_alloc * sizeof(*st->hash),
			       p->nps * sizeof(*st->hash));
	st->hash_cap = p->nps;
	p->names = NULL;
	p->names_alloc = p->hash_alloc = 0;
	for (i = 0; i < p->nps; i++) {
		rt->stats[i].name = st->names + p->ps[i].name;
		rt->stats[i].val = st->val + i * rt->nruns;
		rt->stats[i].is_int = st->is_int + i * rt->nruns;
		rt->stats[i].order = i;
		rt->stats[i].n = p->ps[i].n;
	}
	st->mem = total * (sizeof(*st->val) + 1) + p->names_len +
		  p->nps * (sizeof(*st->hash) + sizeof(*rt->stats)) +
		  st->nslots * sizeof(*st->slot);
	return 0;
}

int matrix_load(struct result_root *rt, char ***src, struct strbuf *file,
		const char *dir)
{
	struct parser p = { .err = STRBUF_INIT };
	struct source s;
	int gz = 0, ret;

	*src = NULL;
	strbuf_addf(file, "%s/matrix.json", dir);
	ret = source_open(&s, file->buf, 0);
	if (ret == -1 && errno == ENOENT) {
		strbuf_addstr(file, ".gz");
		gz = 1;
		ret = source_open(&s, file->buf, 1);
		if (ret == -1 && errno == ENOENT)
			return error("cannot read '%s/matrix.json' (nor "
				     "matrix.json.gz): No such file or "
				     "directory",
				     dir);
	}
	if (ret == -1)
		return error_errno("cannot read '%s'", file->buf);
	if (ret < 0)
		return -1;
	p.file = file->buf;
	p.st = xcalloc(1, sizeof(*p.st));
	ret = source_close(&s, parse(&p, &s, gz));
	if (!ret)
		ret = finish(&p, rt);
	if (ret) {
		parser_release(&p);
		return -1;
	}
	held += p.st->mem;
	rt->store = p.st;
	p.st = NULL;
	*src = p.src;
	p.src = NULL;
	p.nsrc = 0;
	parser_release(&p);
	return 0;
}

int matrix_init(struct result_root *rt, const char *const *names, size_t n)
{
	struct parser p = { .err = STRBUF_INIT };
	int ret = 0;

	p.file = rt->dir ? rt->dir : "result root";
	p.st = xcalloc(1, sizeof(*p.st));
	for (size_t i = 0; !ret && i < n; i++)
		if (!add_stat(&p, names[i], strlen(names[i])))
			ret = error("%s: %s", p.file, p.err.buf);
	if (!ret)
		ret = build(&p, rt);
	if (ret) {
		parser_release(&p);
		return -1;
	}
	held += p.st->mem;
	rt->store = p.st;
	p.st = NULL;
	parser_release(&p);
	return 0;
}

void matrix_release(struct result_root *rt)
{
	if (rt->store) {
		held -= rt->store->mem;
		xmap_resize(rt->stats,
			    rt->store->stats_cap * sizeof(*rt->stats), 0);
		store_free(rt->store);
		rt->store = NULL;
	} else {
		free(rt->stats);
	}
	rt->stats = NULL;
	rt->nstats = 0;
}

const struct rt_stat *matrix_find(const struct result_root *rt,
				  const char *name)
{
	const struct matrix_store *st = rt->store;
	uint32_t h;
	size_t i, mask;

	if (!st || !st->nslots)
		return NULL;
	h = hash_name(name, strlen(name));
	mask = st->nslots - 1;
	for (i = h & mask; st->slot[i]; i = (i + 1) & mask) {
		uint32_t k = st->slot[i] - 1;

		if (st->hash[k] == h && !strcmp(rt->stats[k].name, name))
			return &rt->stats[k];
	}
	return NULL;
}

size_t matrix_mem_held(void)
{
	return held;
}

/* yajl_lib(), declared at the top: the one loader of the library */
static DL_LOADER(yajl_lib, yajl_lib, MATRIX_YAJL_FUNCS, ROBOT_YAJL_SONAME)
