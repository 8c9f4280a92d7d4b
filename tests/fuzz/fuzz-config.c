// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz-config.c: config_load() on any bytes, as `robot -c FILE` reads the
 * configuration.
 */
#include "robot/util/common.h"
#include "tests/fuzz/fuzz.h"
#include "config/config.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_init();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *path = fuzz_write("robot.yaml", data, size);
	struct robot_config cfg;

	config_load(&cfg, path);
	config_release(&cfg);
	free(path);
	return 0;
}
