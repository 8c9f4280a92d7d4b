/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fuzz.h: what the libFuzzer targets of tests/fuzz/ share.  Each target
 * feeds one input to one of robot's loaders (or to compose as a whole) the
 * way the CLI would: the loaders take paths, so the input is written to a
 * file in a scratch directory that lives as long as the process.  Errors
 * are silenced (error_quiet): a refusal is a fine outcome, a crash, a
 * leak, a hang or an allocation beyond the limits is not.
 */
#ifndef ROBOT_TESTS_FUZZ_H
#define ROBOT_TESTS_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * The scratch directory (created on first use, removed at exit) and a
 * path inside it; the caller frees the path.
 */
const char *fuzz_dir(void);
char *fuzz_path(const char *rel);
/* Writes len bytes to fuzz_dir()/rel, creating its folders; the path. */
char *fuzz_write(const char *rel, const void *data, size_t len);
/*
 * Silences robot's error messages unless $ROBOT_FUZZ_VERBOSE is set; call
 * from LLVMFuzzerInitialize.
 */
void fuzz_init(void);

/*
 * Splits the input at NUL bytes into at most `max` pieces: parts[i] and
 * lens[i] (pointing into data).  Returns how many pieces there are.
 */
size_t fuzz_split(const uint8_t *data, size_t size, const char **parts,
		  size_t *lens, size_t max);

#endif
