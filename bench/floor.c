// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench/floor.c: the floor of bench/run's workloads, the least any
 * program can do to answer them: start, read every input, tokenise and
 * convert its numbers, decompress what is compressed, list what is
 * listed.  Nothing is computed from what it read (a checksum is printed
 * so that nothing is optimised away), nothing written but that line.
 *
 *   floor [--list DIR]... FILE...
 *
 * A FILE ending in .json has each number token converted with strtod
 * (strings skipped, escapes included): what a matrix.json costs to read.
 * A FILE ending in .xz is decompressed with liblzma (a kernel log).  Any
 * other FILE is read.  --list DIR reads the names of DIR (readdir, as a
 * Maildir is listed).  Not part of robot.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static unsigned long long sum;

static char *slurp(const char *path, size_t *len)
{
	struct stat st;
	int fd = open(path, O_RDONLY);
	char *buf;
	size_t off = 0;

	if (fd < 0 || fstat(fd, &st)) {
		perror(path);
		exit(1);
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf)
		exit(1);
	while (off < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + off, (size_t)st.st_size - off);

		if (n <= 0) {
			perror(path);
			exit(1);
		}
		off += (size_t)n;
	}
	close(fd);
	buf[off] = '\0';
	*len = off;
	return buf;
}

static int ends(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

static void numbers(char *p, char *end)
{
	double total = 0;

	while (p < end) {
		if (*p == '"') {
			for (p++; p < end && *p != '"'; p++)
				if (*p == '\\')
					p++;
			p++;
		} else if ((*p >= '0' && *p <= '9') || *p == '-') {
			char *e;

			total += strtod(p, &e);
			sum++;
			p = e > p ? e : p + 1;
		} else {
			p++;
		}
	}
	sum += (unsigned long long)total;
}

static void unxz(const unsigned char *in, size_t len)
{
	static unsigned char out[1 << 16];
	lzma_stream s = LZMA_STREAM_INIT;
	lzma_ret r;

	if (lzma_stream_decoder(&s, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK)
		exit(1);
	s.next_in = in;
	s.avail_in = len;
	do {
		s.next_out = out;
		s.avail_out = sizeof(out);
		r = lzma_code(&s, LZMA_FINISH);
		sum += out[0] + sizeof(out) - s.avail_out;
	} while (r == LZMA_OK);
	if (r != LZMA_STREAM_END) {
		fprintf(stderr, "floor: bad xz data\n");
		exit(1);
	}
	lzma_end(&s);
}

static void list(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d) {
		perror(dir);
		exit(1);
	}
	while ((de = readdir(d)))
		sum += (unsigned char)de->d_name[0];
	closedir(d);
}

int main(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		size_t len;
		char *buf;

		if (!strcmp(argv[i], "--list") && i + 1 < argc) {
			list(argv[++i]);
			continue;
		}
		buf = slurp(argv[i], &len);
		if (ends(argv[i], ".json"))
			numbers(buf, buf + len);
		else if (ends(argv[i], ".xz"))
			unxz((unsigned char *)buf, len);
		else
			sum += len + (unsigned char)buf[0];
		free(buf);
	}
	printf("%llu\n", sum);
	return 0;
}
