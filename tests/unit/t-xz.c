// SPDX-License-Identifier: GPL-2.0-only
/*
 * t-xz.c: robot/util/xz.c, the one module over liblzma: a plain file passes
 * through, an .xz file decodes, compression round-trips and is
 * deterministic, the output bound and broken data are errors.
 */
#include "robot/util/common.h"
#include "robot/util/xz.h"
#include "tests/unit/check.h"

#include <unistd.h>

static char dir[] = "/tmp/t-xz.XXXXXX";

static char *write_file(const char *name, const void *data, size_t len)
{
	char *path = xasprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "wb");

	if (f) {
		fwrite(data, 1, len, f);
		fclose(f);
	}
	return path;
}

/* All of a file through a reader; -1 on error. */
static int read_all(struct strbuf *out, const char *path, size_t max)
{
	struct xz_reader *r = xz_open(path, max);
	char buf[1000];
	ssize_t n;

	if (!r)
		return -1;
	while ((n = xz_read(r, buf, sizeof(buf))) > 0)
		strbuf_add(out, buf, (size_t)n);
	xz_close(r);
	return n < 0 ? -1 : 0;
}

int main(void)
{
	struct strbuf text = STRBUF_INIT, xz = STRBUF_INIT, xz2 = STRBUF_INIT,
		      back = STRBUF_INIT;
	char *plain, *packed, *cut, *copy, *empty;
	size_t i;

	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return check_done();
	}
	for (i = 0; i < 5000; i++)
		strbuf_addf(&text, "[ %6zu.000000] a kernel log line\n", i);
	plain = write_file("dmesg", text.buf, text.len);

	CHECK(!read_all(&back, plain, 0) && back.len == text.len &&
		      !memcmp(back.buf, text.buf, text.len),
	      "a plain file reads as it is");
	CHECK(!xz_compress_file(&xz, plain, 0) && xz.len > 6 &&
		      !memcmp(xz.buf,
			      "\xfd"
			      "7zXZ",
			      5) &&
		      xz.len < text.len / 4,
	      "compression gives a smaller .xz (%zu bytes)", xz.len);
	CHECK(!xz_compress_file(&xz2, plain, 0) && xz2.len == xz.len &&
		      !memcmp(xz.buf, xz2.buf, xz.len),
	      "compression is deterministic");
	packed = write_file("dmesg.xz", xz.buf, xz.len);
	strbuf_reset(&back);
	CHECK(!read_all(&back, packed, 0) && back.len == text.len &&
		      !memcmp(back.buf, text.buf, text.len),
	      "the .xz decodes to the text");
	strbuf_reset(&xz2);
	CHECK(!xz_compress_file(&xz2, packed, 0) && xz2.len == xz.len &&
		      !memcmp(xz.buf, xz2.buf, xz.len),
	      "an .xz file is attached as it is");
	strbuf_reset(&back);
	error_quiet++;
	CHECK(read_all(&back, packed, 1000) < 0,
	      "more output than the bound is an error");
	cut = write_file("cut.xz", xz.buf, xz.len / 2);
	strbuf_reset(&back);
	CHECK(read_all(&back, cut, 0) < 0, "a truncated .xz is an error");
	xz.buf[xz.len / 2] ^= 0x55;
	copy = write_file("bad.xz", xz.buf, xz.len);
	strbuf_reset(&back);
	CHECK(read_all(&back, copy, 0) < 0, "a corrupt .xz is an error");
	strbuf_reset(&xz2);
	CHECK(xz_compress_file(&xz2, cut, 0) < 0 && !xz2.len,
	      "a broken .xz is not attached");
	CHECK(xz_open("/nonexistent/dmesg", 0) == NULL,
	      "a missing file is an error");
	error_quiet--;
	strbuf_reset(&back);
	empty = write_file("empty", "", 0);
	CHECK(!read_all(&back, empty, 0) && !back.len,
	      "an empty file is empty");

	unlink(plain);
	unlink(packed);
	unlink(cut);
	unlink(copy);
	unlink(empty);
	rmdir(dir);
	free(empty);
	free(plain);
	free(packed);
	free(cut);
	free(copy);
	strbuf_release(&text);
	strbuf_release(&xz);
	strbuf_release(&xz2);
	strbuf_release(&back);
	return check_done();
}
