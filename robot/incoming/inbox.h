/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * inbox.h: reading the robot's incoming mail (robot inbox): a Maildir
 * (the files of new/ and cur/, in name order; robot reads them and moves
 * nothing, the mail system owns them) or an mbox file, and the record of
 * the mails already seen, so that each is worked on once: a request that
 * arrives twice, to the robot and through a list, has one Message-ID.
 */
#ifndef ROBOT_INBOX_H
#define ROBOT_INBOX_H

#include <stddef.h>
#include <sys/types.h>

struct inbox_mail {
	char *name; /* the file, or "MBOX:N" (from 1) */
	char *raw;  /* NULL when it was too big (`why` says so) */
	size_t len;
	char *why;
	off_t offset; /* an mbox's: where its "From " line starts */
	int maildir;  /* a file of a Maildir */
};

struct inbox_seen;

/*
 * The mails of `source`, one at a time, so that robot holds one mail,
 * whatever the size of the mailbox: a Maildir directory (its files are
 * listed when it is opened, each read when it is its turn; *offset set
 * to -1), or an mbox file read from *offset on when the bytes there
 * still start a message after an empty line, else from its start
 * (*offset is set to where reading starts).  The mbox is read as it is
 * when opened: mails appended after are the next run's.  A mail larger
 * than `max_bytes` comes with raw NULL and its reason, without being
 * read.  inbox_open() returns 0, or an exit code after an error (source
 * unreadable: 1, not a Maildir nor an mbox: 65); inbox_next() 1 with the
 * next mail in *m (release it with inbox_mail_release), 0 at the end, or
 * an exit code after an error.  inbox_end() is where an mbox was read
 * to (-1 for a Maildir).  A Maildir's files that `seen` (or NULL) names
 * are not listed (inbox_seen_file()).
 */
struct inbox_reader {
	char *path;
	char **names; /* a Maildir's files, in order */
	size_t n, next;
	int fd;		  /* an mbox, or -1 */
	off_t pos, end;	  /* its next "From " line; its size when opened */
	size_t nr;	  /* mails read so far (names "MBOX:N") */
	size_t max_bytes; /* mail_max_bytes */
};

int inbox_open(struct inbox_reader *r, const char *source, size_t max_bytes,
	       off_t *offset, const struct inbox_seen *seen);
int inbox_next(struct inbox_reader *r, struct inbox_mail *m);
off_t inbox_end(const struct inbox_reader *r);
void inbox_close(struct inbox_reader *r);
void inbox_mail_release(struct inbox_mail *m);

/*
 * The seen file: one id a line ("<Message-ID>", or "sha:HEX" of a mail
 * without one; "aside ID" for one set aside), appended to and fsync'd as
 * mails are done.  While open it
 * is locked: a second robot inbox gets 75.
 */
struct inbox_seen {
	char *path;
	int fd;
	int broken; /* a line could not be written: stop */
	char *mbox; /* "offset N PATH": the mbox read last, and N */
	off_t mbox_offset;
	char **ids;
	unsigned char *aside; /* ids[i] was set aside (and never done) */
	size_t n, alloc;
	/* an open-addressing index of ids: slot = 1 + index, 0 = empty */
	size_t *slots, nslots;
};

int inbox_seen_open(struct inbox_seen *s, const char *path);
int inbox_seen_has(const struct inbox_seen *s, const char *id);
int inbox_seen_add(struct inbox_seen *s, const char *id);
/*
 * Sets a mail aside: robot could not work on it (its error line said
 * why).  The line is "aside ID"; has() knows the id from then on, so no
 * later run stops on it; removing the line has it tried again.
 */
int inbox_seen_aside(struct inbox_seen *s, const char *id);
/*
 * Where robot inbox left the mbox `mbox` (0: from the start), and
 * remembering it (a line "offset N PATH"): every mail before N is done
 * or set aside, so the next run reads the file from there.
 */
off_t inbox_seen_offset(const struct inbox_seen *s, const char *mbox);
int inbox_seen_set_offset(struct inbox_seen *s, const char *mbox, off_t off);
void inbox_seen_close(struct inbox_seen *s);
/* 1 when id is remembered as done: seen, and not (only) set aside. */
int inbox_seen_done(const struct inbox_seen *s, const char *id);
/*
 * Remembers the Maildir file of a mail that is done ("file UNIQUE", the
 * name up to its ':', which stays when the mail moves to cur/ or its flags
 * change), so that the next run does not read it again; not fsync'd,
 * since a line lost only costs that read.  0 for an mbox's mail.
 */
int inbox_seen_file(struct inbox_seen *s, const struct inbox_mail *m);

/* The id a mail is remembered by: its Message-ID, else a digest. */
char *inbox_mail_id(const char *message_id, const char *raw, size_t len);

/*
 * The folder name of a mail's request (caller frees), one per id and at
 * most 200 bytes: the id without its <>, when it is at most
 * INBOX_DIR_PLAIN_MAX letters, digits and ". @ _ - + =" and does not
 * start with '.'; else its first INBOX_DIR_PREFIX_MAX characters with
 * every other character made '_', '~' and the first 32 hex digits of the
 * SHA-256 of the exact id ("<col/x@e.org>": "col_x@e.org~3c1f...").  A
 * plain name has no '~', so no id's name is another's.
 */
#define INBOX_DIR_PLAIN_MAX  160
#define INBOX_DIR_PREFIX_MAX 64
char *inbox_dir_name(const char *id);

#endif
