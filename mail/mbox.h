/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mbox.h: the local mailbox, where robot send delivers when no SMTP URL
 * is configured; `mutt -f FILE` reads it.
 *
 * Messages are appended in the mboxrd form: a "From SENDER DATE" line,
 * the message with every line that starts with ">*From " given one more
 * ">", and a blank line.  Appends hold an fcntl() lock on the whole file,
 * as mail readers do, and are fsync'd before they count as delivered.
 */
#ifndef ROBOT_MAIL_MBOX_H
#define ROBOT_MAIL_MBOX_H

#include <stddef.h>
#include <time.h>

struct strbuf;

/* Appends the mboxrd entry of msg[0..len) (LF line ends) to out. */
void mbox_entry(struct strbuf *out, const char *sender, time_t when,
		const char *msg, size_t len);

struct mbox {
	int fd;
	char *path;
};

/*
 * Opens (creates, mode 0600) the mailbox.  Returns 0, or -1 after error()
 * with errno set.
 */
int mbox_open(struct mbox *m, const char *path);
void mbox_close(struct mbox *m);

/* Locks the whole file (waiting) and tells its size, or -1. */
long long mbox_lock(struct mbox *m);
void mbox_unlock(struct mbox *m);

/*
 * Appends `len` bytes at the end (the lock held); with `sync`, fsyncs.
 * On a failure the file is cut back to where it was and -1 returned after
 * error(), with errno set.
 */
int mbox_write(struct mbox *m, const char *data, size_t len, int sync);

enum mbox_found {
	MBOX_NOTHING,  /* nothing was written at `offset` */
	MBOX_WHOLE,    /* the whole entry is there */
	MBOX_REMOVED,  /* a part of it was there, and has been cut off */
	MBOX_SOMETHING /* other bytes are there: left alone */
};

/*
 * After a crash during an append: what is at `offset` compared with the
 * entry that was being appended.  The lock held.
 */
enum mbox_found mbox_recover(struct mbox *m, long long offset,
			     const char *entry, size_t len);

#endif
