/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * schema.h: loading YAML files into C structs through a fixed schema.
 *
 * Requests and the robot configuration are data with a fixed shape: a
 * table of fields says, for each key, its kind and where it goes in the
 * struct.  Unknown keys, a wrong kind, a value its kind's validator
 * refuses (control or invisible characters in a one-line string, invalid
 * UTF-8, an address that is not one mailbox...) are errors naming
 * file:line and the key path ("additions[1].kpi").  Free text
 * (FIELD_TEXT) may span lines.
 */
#ifndef ROBOT_CONFIG_SCHEMA_H
#define ROBOT_CONFIG_SCHEMA_H

#include <stddef.h>

struct ynode;

/* A list of strings; the struct owns them. */
struct strv {
	char **v;
	size_t n;
};

/* A list of structs described by a sub-schema. */
struct objv {
	void *v;
	size_t n;
};

/*
 * Each kind of string has one validator, which every field of the kind
 * gets (visible text: robot/util/utf8.h; the mail kinds: mail/valid.h).
 */
enum field_kind {
	FIELD_STR,     /* char *: one line of visible UTF-8 text */
	FIELD_TEXT,    /* char *: visible UTF-8 text, newlines and tabs */
	FIELD_PATH,    /* char *: a path, made relative to the file's folder */
	FIELD_STRS,    /* struct strv: a list of FIELD_STR (or one string) */
	FIELD_PATHS,   /* struct strv: a list of FIELD_PATH */
	FIELD_OBJ,     /* embedded struct of the sub-schema */
	FIELD_OBJS,    /* struct objv of the sub-schema's structs */
	FIELD_BOOL,    /* int: true or false (plain, unquoted) */
	FIELD_MAILBOX, /* char *: exactly one mailbox, "Name <a@b.c>" */
	FIELD_MAILBOXES, /* struct strv: a list of FIELD_MAILBOX */
	FIELD_MSGID,	 /* char *: one <id@host> */
	FIELD_FILENAME,	 /* char *: a base name for an attachment */
	FIELD_COUNT,	 /* long: a plain decimal 0 .. 10^9 (unquoted) */
};

struct schema;

struct field {
	const char *key;
	enum field_kind kind;
	size_t offset;
	const struct schema *sub;
};

struct schema {
	const char *name; /* for messages: "request", "config" */
	const struct field *fields;
	size_t nfields;
	size_t size; /* sizeof the struct (for FIELD_OBJS) */
};

/*
 * Fills `obj` (zeroed by the caller) from the mapping `map` of file
 * `path`.  Returns 0, or -1 after one error line; on failure whatever was
 * filled must still be released with schema_release().
 */
int schema_load(void *obj, const struct schema *s, const struct ynode *map,
		const char *path);
/*
 * The same for the YAML file `path` as a whole: one error naming the file
 * (and its line) when it cannot be read, is empty, is not a mapping, or
 * does not fit the schema.
 */
int schema_load_file(void *obj, const struct schema *s, const char *path);
void schema_release(void *obj, const struct schema *s);

#endif
