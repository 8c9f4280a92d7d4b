// SPDX-License-Identifier: GPL-2.0-only
/*
 * dl.c: dlopen() and dlsym() for the libraries robot loads when a command
 * needs them (dl.h).
 */
#include "robot/util/common.h"
#include "robot/util/dl.h"

#include <dlfcn.h>

void *dl_open(const char *soname)
{
	void *h = dlopen(soname, RTLD_LAZY | RTLD_LOCAL);

	if (!h)
		die_with(EXIT_RUNTIME,
			 "cannot load %s (is its package installed?): %s",
			 soname, dlerror());
	return h;
}

void dl_resolve(void *h, const char *soname, const char *name, void *ptr,
		size_t size)
{
	const char *why;
	void *sym;

	dlerror();
	sym = dlsym(h, name);
	why = sym ? NULL : dlerror();
	if (!sym || size != sizeof(sym))
		die_with(EXIT_RUNTIME, "%s has no function %s: %s", soname,
			 name, why ? why : "not a function");
	/* POSIX: a function's address comes back as a void * */
	memcpy(ptr, &sym, sizeof(sym));
}
