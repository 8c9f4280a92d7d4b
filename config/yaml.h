/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * yaml.h: the one home of libyaml.  A YAML (or JSON-compatible) document is
 * loaded into robot's own tree of nodes, so no other module sees libyaml.
 *
 * Every node knows the 1-based line it started on, so callers can report
 * "file:line: key: problem".
 */
#ifndef ROBOT_CONFIG_YAML_H
#define ROBOT_CONFIG_YAML_H

#include <stddef.h>

struct strbuf;

enum ynode_type { YNODE_SCALAR, YNODE_SEQ, YNODE_MAP };

struct ynode {
	enum ynode_type type;
	size_t line;	     /* 1-based */
	char *str;	     /* SCALAR: the text, NUL-terminated */
	int quoted;	     /* SCALAR: written in quotes */
	size_t n;	     /* SEQ: items; MAP: pairs */
	char **keys;	     /* MAP: the n keys, in document order */
	struct ynode **kids; /* SEQ items, or MAP values matching keys */
};

struct ydoc {
	char *path;	    /* as given to ydoc_load_file, for messages */
	struct ynode *root; /* NULL for an empty document */
};

/*
 * robot's memory limits for one YAML file (doc/limits.md): its size, read
 * before any byte is, and its nodes (each scalar, key and collection; a
 * node costs about 100 bytes once loaded, its text aside).
 */
#define YAML_MAX_BYTES (64 << 20)
#define YAML_MAX_NODES 2000000

/*
 * Loads the first document of `path`.  Returns 0, or -1 after printing one
 * "robot: error: PATH:LINE:COL: problem" line (a missing file, bad syntax,
 * invalid UTF-8, a duplicate key, an alias or merge key, more than the
 * limits above).
 */
int ydoc_load_file(struct ydoc *doc, const char *path);
/* The same for text in memory; `name` is used in messages. */
int ydoc_load_mem(struct ydoc *doc, const char *name, const char *buf,
		  size_t len);
void ydoc_release(struct ydoc *doc);
/*
 * The plain-text value of `key` in the top-level mapping of `path`'s
 * first document, read only as far as that key (a quick look before the
 * whole file is loaded): NULL, silently, when the file cannot be read,
 * the document is no mapping, the key comes after an error or is missing,
 * or its value is no scalar or has an anchor.  Free it.
 */
char *ydoc_peek_file(const char *path, const char *key);

/*
 * Appends `s` as a YAML double-quoted scalar (JSON's escapes, which YAML
 * reads back as the same string): for the files robot writes.
 */
void yaml_quote(struct strbuf *out, const char *s);

/* Returns the value of `key` in a MAP node, or NULL (borrowed). */
const struct ynode *ynode_get(const struct ynode *map, const char *key);

#endif
