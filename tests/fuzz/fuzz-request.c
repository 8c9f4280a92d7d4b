// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz-request.c: request_kind() and request_load() on any bytes, as
 * `robot compose` reads the REQUEST.yaml it is given: the quick look at
 * its kind, then the whole file.
 */
#include "robot/util/common.h"
#include "tests/fuzz/fuzz.h"
#include "config/request.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_init();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *path = fuzz_write("request.yaml", data, size);
	struct request req;

	free(request_kind(path));
	request_load(&req, path);
	request_release(&req);
	free(path);
	return 0;
}
