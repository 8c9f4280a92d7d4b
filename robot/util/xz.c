// SPDX-License-Identifier: GPL-2.0-only
/*
 * xz.c: the one module that talks to liblzma (lzma.h).
 *
 * Reading: lzma_stream_decoder with LZMA_CONCATENATED (xz(1) accepts
 * concatenated streams, and so do we) and a memory limit; a file without
 * the 6-byte xz magic is passed through.  Writing: lzma_easy_encoder at a
 * fixed preset with a CRC64 check, xz(1)'s default check, single-threaded
 * so that the output depends only on the input.
 *
 * liblzma is loaded (robot/util/dl.h) only when a file really is xz data
 * or is to be compressed: reading a plain file never loads it.
 */
#include "robot/util/common.h"
#include "robot/util/xz.h"

#include <lzma.h>

#include "robot/util/dl.h"

// clang-format off
#define XZ_LZMA_FUNCS(X) \
	X(lzma_code) \
	X(lzma_easy_encoder) \
	X(lzma_end) \
	X(lzma_stream_decoder)
// clang-format on

struct lzma_lib {
	XZ_LZMA_FUNCS(DL_POINTER)
};

_Static_assert(sizeof(ROBOT_LZMA_SONAME) > 1, "the Makefile found no liblzma");

static const struct lzma_lib *lzma_lib(void);
#define lzma_code	    (*lzma_lib()->p_lzma_code)
#define lzma_easy_encoder   (*lzma_lib()->p_lzma_easy_encoder)
#define lzma_end	    (*lzma_lib()->p_lzma_end)
#define lzma_stream_decoder (*lzma_lib()->p_lzma_stream_decoder)

/* The decoder may use this much memory (xz -9 streams need 65 MiB). */
#define XZ_MEMLIMIT (80u << 20)
/* Preset 6 is xz(1)'s default; its encoder needs ~94 MiB.  Logs compress
 * nearly as well at 2 with a sixth of the memory. */
#define XZ_PRESET 2
#define CHUNK	  65536

static const unsigned char xz_magic[6] = { 0xfd, '7', 'z', 'X', 'Z', 0 };

struct xz_reader {
	FILE *f;
	char *path;
	int xz, eof_in, done;
	size_t max_out, produced;
	lzma_stream strm;
	unsigned char in[CHUNK];
	/* the first bytes read to look for the magic, handed out first */
	unsigned char head[sizeof(xz_magic)];
	size_t nhead, head_at;
};

static const char *lzma_why(lzma_ret ret)
{
	switch (ret) {
	case LZMA_MEM_ERROR:
		return "out of memory";
	case LZMA_MEMLIMIT_ERROR:
		return "needs more memory than allowed";
	case LZMA_FORMAT_ERROR:
		return "not xz data";
	case LZMA_OPTIONS_ERROR:
		return "unsupported xz options";
	case LZMA_DATA_ERROR:
		return "corrupt xz data";
	case LZMA_BUF_ERROR:
		return "truncated xz data";
	default:
		return "xz error";
	}
}

struct xz_reader *xz_open(const char *path, size_t max_out)
{
	struct xz_reader *r = xcalloc(1, sizeof(*r));
	lzma_stream init = LZMA_STREAM_INIT;
	lzma_ret ret;

	r->f = fopen(path, "rb");
	if (!r->f) {
		error_errno("cannot open '%s'", path);
		free(r);
		return NULL;
	}
	r->path = xstrdup(path);
	r->max_out = max_out;
	r->strm = init;
	r->nhead = fread(r->head, 1, sizeof(r->head), r->f);
	if (ferror(r->f)) {
		error_errno("cannot read '%s'", path);
		xz_close(r);
		return NULL;
	}
	if (r->nhead == sizeof(xz_magic) &&
	    !memcmp(r->head, xz_magic, sizeof(xz_magic))) {
		r->xz = 1;
		ret = lzma_stream_decoder(&r->strm, XZ_MEMLIMIT,
					  LZMA_CONCATENATED);
		if (ret != LZMA_OK) {
			error("%s: %s", path, lzma_why(ret));
			xz_close(r);
			return NULL;
		}
		/* the magic goes to the decoder with the rest */
		memcpy(r->in, r->head, r->nhead);
		r->strm.next_in = r->in;
		r->strm.avail_in = r->nhead;
		r->nhead = 0;
	}
	return r;
}

int xz_is_compressed(const struct xz_reader *r)
{
	return r->xz;
}

static ssize_t too_much(struct xz_reader *r)
{
	error("%s: more than %zu bytes of data", r->path, r->max_out);
	return -1;
}

static ssize_t read_plain(struct xz_reader *r, unsigned char *buf, size_t len)
{
	size_t n = 0;

	if (r->head_at < r->nhead) {
		n = r->nhead - r->head_at;
		if (n > len)
			n = len;
		memcpy(buf, r->head + r->head_at, n);
		r->head_at += n;
	}
	if (n < len) {
		n += fread(buf + n, 1, len - n, r->f);
		if (ferror(r->f)) {
			error_errno("cannot read '%s'", r->path);
			return -1;
		}
	}
	return (ssize_t)n;
}

static ssize_t read_xz(struct xz_reader *r, unsigned char *buf, size_t len)
{
	r->strm.next_out = buf;
	r->strm.avail_out = len;
	while (r->strm.avail_out && !r->done) {
		lzma_action action = LZMA_RUN;
		lzma_ret ret;

		if (!r->strm.avail_in && !r->eof_in) {
			r->strm.next_in = r->in;
			r->strm.avail_in = fread(r->in, 1, sizeof(r->in), r->f);
			if (ferror(r->f)) {
				error_errno("cannot read '%s'", r->path);
				return -1;
			}
			if (!r->strm.avail_in)
				r->eof_in = 1;
		}
		if (r->eof_in)
			action = LZMA_FINISH;
		ret = lzma_code(&r->strm, action);
		if (ret == LZMA_STREAM_END) {
			r->done = 1;
		} else if (ret != LZMA_OK) {
			error("%s: %s", r->path, lzma_why(ret));
			return -1;
		}
	}
	return (ssize_t)(len - r->strm.avail_out);
}

ssize_t xz_read(struct xz_reader *r, void *buf, size_t len)
{
	ssize_t n = r->xz ? read_xz(r, buf, len) : read_plain(r, buf, len);

	if (n < 0)
		return n;
	r->produced += (size_t)n;
	if (r->max_out && r->produced > r->max_out)
		return too_much(r);
	return n;
}

void xz_close(struct xz_reader *r)
{
	if (!r)
		return;
	if (r->f)
		fclose(r->f);
	if (r->xz) /* a plain file never loaded liblzma */
		lzma_end(&r->strm);
	free(r->path);
	free(r);
}

/* Appends the raw bytes of an .xz file after checking that they decode. */
static int copy_checked(struct strbuf *out, struct xz_reader *r,
			const char *path)
{
	unsigned char *buf = xmalloc(CHUNK);
	ssize_t n;

	while ((n = xz_read(r, buf, CHUNK)) > 0)
		;
	free(buf);
	if (n < 0)
		return -1;
	return strbuf_read_file(out, path)
		       ? error_errno("cannot read '%s'", path)
		       : 0;
}

int xz_compress_file(struct strbuf *out, const char *path, size_t max_in)
{
	struct xz_reader *r = xz_open(path, max_in);
	lzma_stream strm = LZMA_STREAM_INIT;
	unsigned char *in, *obuf;
	size_t at = out->len;
	lzma_ret ret;
	int eof = 0, err = 0;

	if (!r)
		return -1;
	if (r->xz) {
		err = copy_checked(out, r, path);
		xz_close(r);
		if (err)
			strbuf_setlen(out, at);
		return err;
	}
	ret = lzma_easy_encoder(&strm, XZ_PRESET, LZMA_CHECK_CRC64);
	if (ret != LZMA_OK) {
		xz_close(r);
		return error("%s: cannot compress: %s", path, lzma_why(ret));
	}
	in = xmalloc(CHUNK);
	obuf = xmalloc(CHUNK);
	do {
		ssize_t n = 0;

		if (!strm.avail_in && !eof) {
			n = xz_read(r, in, CHUNK);
			if (n < 0) {
				err = -1;
				break;
			}
			eof = !n;
			strm.next_in = in;
			strm.avail_in = (size_t)n;
		}
		strm.next_out = obuf;
		strm.avail_out = CHUNK;
		ret = lzma_code(&strm, eof ? LZMA_FINISH : LZMA_RUN);
		if (ret != LZMA_OK && ret != LZMA_STREAM_END) {
			err = error("%s: cannot compress: %s", path,
				    lzma_why(ret));
			break;
		}
		strbuf_add(out, obuf, CHUNK - strm.avail_out);
	} while (ret != LZMA_STREAM_END);
	lzma_end(&strm);
	free(in);
	free(obuf);
	xz_close(r);
	if (err)
		strbuf_setlen(out, at);
	return err;
}

/* lzma_lib(), declared at the top: the one loader of the library */
static DL_LOADER(lzma_lib, lzma_lib, XZ_LZMA_FUNCS, ROBOT_LZMA_SONAME)
