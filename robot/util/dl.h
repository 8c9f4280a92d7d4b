/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dl.h: the libraries loaded when a command first needs them; part
 * of the util module.
 *
 * libcurl, libgit2 and libetpan bring 40 shared libraries with them
 * (GnuTLS, Kerberos, LDAP, Berkeley DB, ...), and the dynamic loader
 * spent about 20 million instructions (7 ms) relocating them at the start
 * of every robot command, a `robot --version` as much as a `robot send`.
 * yajl, nettle, liblzma and PCRE2 are small, but each is used by one
 * module and few commands, and mapping them cost every command 0.7 ms.
 * So robot is not linked with them: the module that owns each library
 * (mail/net.h for libcurl, git/repo.c for libgit2, mail/etpan.h for
 * libetpan, robot/engine/matrix.c for yajl, git/patchid.c for nettle,
 * robot/util/xz.c for liblzma, config/rubyre.c for PCRE2) opens it
 * with dlopen() by its SONAME, which the Makefile reads off the library
 * the headers came from, the first time one of its functions is called,
 * and calls it through a table of pointers:
 *
 *	#define MY_FUNCS(X) X(lib_init) X(lib_parse)
 *	struct my_lib { MY_FUNCS(DL_POINTER) };   (before the #defines below)
 *	const struct my_lib *my_lib(void);
 *	#define lib_init (*my_lib()->p_lib_init)
 *
 * and the one definition of my_lib():
 *
 *	DL_LOADER(my_lib, my_lib, MY_FUNCS, MY_SONAME)
 *
 * The code that calls the library reads as before (lib_init(...)), its
 * types are the headers' own (__typeof__), and varargs functions keep
 * their calling convention.  A header that names its functions with
 * macros (nettle, PCRE2) gets the table of the real symbols, and the
 * macros for those.  The Debian package depends on the libraries
 * through dpkg-shlibdeps all the same (debian/rules, build/dl-libs).
 */
#ifndef ROBOT_DL_H
#define ROBOT_DL_H

/* A member of the table: a pointer to the header's function `fn`. */
#define DL_POINTER(fn) __typeof__(fn) *p_##fn;
/* Fills member p_fn of the table `l` from the handle `h` of `soname`. */
#define DL_RESOLVE(fn) dl_resolve(h, soname, #fn, &l.p_##fn, sizeof(l.p_##fn));

/*
 * Defines `const struct TYPE *NAME(void)`: the table of the functions FUNCS
 * lists, filled from the library SONAME on the first call.
 */
#define DL_LOADER(NAME, TYPE, FUNCS, SONAME)         \
	const struct TYPE *NAME(void)                \
	{                                            \
		static struct TYPE l;                \
		static void *h;                      \
                                                     \
		if (!h) {                            \
			const char *soname = SONAME; \
                                                     \
			h = dl_open(soname);         \
			FUNCS(DL_RESOLVE)            \
		}                                    \
		return &l;                           \
	}

/*
 * dlopen(soname): the handle.  A library that cannot be loaded is a broken
 * installation: one error line naming it, exit 1 (as out of memory).
 */
void *dl_open(const char *soname);
/* *(void **)ptr = dlsym(h, name), or the same error and exit. */
void dl_resolve(void *h, const char *soname, const char *name, void *ptr,
		size_t size);

#endif
