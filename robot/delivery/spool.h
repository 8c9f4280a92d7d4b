/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * spool.h: the queue on disk, the boundary between composing and sending.
 *
 * A spool directory holds
 *
 *   tmp/               files being written (never a whole message)
 *   new/NAME.eml       queued: waiting for robot send
 *   sent/NAME.eml      delivered
 *   failed/NAME.eml    refused for good, expired, or unreadable
 *   hold/NAME.eml      held by the operator (robot queue hold)
 *   STATE/NAME.state   beside a message: its attempts, the server's
 *                      replies, who got it ("key: value" lines)
 *   spool.lock         every change of the spool is made holding it
 *   send.lock          held by the one robot send that runs; it names
 *                      the message being delivered at the moment
 *   rate               the times of the last hour's deliveries
 *   pause              while it exists, robot send sends nothing
 *
 * A message file holds exactly the bytes `compose --dry-run` prints (LF
 * line ends).  It is written to tmp/, fsync'd, then link()ed into new/
 * under a name derived from the report's identity, so the same report
 * composed twice finds its first copy wherever it is now.  A message only
 * ever moves by rename(), so it is always in exactly one state directory:
 * a crash can leave a stray file in tmp/ (removed by the next holder of
 * the lock), never a half message or none.
 *
 * Functions that can fail print one error line and return an exit code
 * of enum robot_exit: 78 when the spool does not exist, 75 when it cannot
 * be written (permissions, read-only, full) or is busy, 1 otherwise.
 */
#ifndef ROBOT_SPOOL_H
#define ROBOT_SPOOL_H

#include <stddef.h>
#include <time.h>

struct msgindex;
struct strbuf;

enum spool_state {
	SPOOL_NEW,
	SPOOL_SENT,
	SPOOL_FAILED,
	SPOOL_HOLD,
	SPOOL_NSTATES,
};

/* "new", "sent", "failed", "hold" */
const char *spool_state_dir(enum spool_state st);

struct spool {
	char *dir;
	long pid; /* robot's own, for the names of its files in tmp/ */
	int lock_fd, send_fd;
	int locked, sending;
	size_t send_len; /* what send.lock holds, SIZE_MAX: not known */
	int read_only;	 /* opened without create where robot cannot write */
	/* its messages by Message-ID, made by the first look-up
	 * (robot/delivery/msgindex.h) */
	struct msgindex *index;
};

/*
 * mkdir(path) 0700 whatever the umask: the spool's folders are private
 * (its messages hold Bcc lines and unsent reports).  0, or -1 (errno).
 */
int mkdir_private(const char *path);

/*
 * Opens the spool `dir`.  With `create` (compose, queue add) it is made
 * when missing, but not its parent; without, it must exist (send, queue).
 * Missing state directories are made, 0700, and every file robot
 * writes there is 0600, whatever the umask.  A spool robot cannot write
 * opens read-only without `create` (robot queue lists it).  `config` (the
 * configuration file, or NULL) is named when the spool key is wrong (exit 78).
 */
int spool_open(struct spool *s, const char *dir, int create,
	       const char *config);
void spool_close(struct spool *s);

/* Takes and drops spool.lock (waits for it: it is held briefly). */
int spool_lock(struct spool *s);
void spool_unlock(struct spool *s);

/*
 * Removes what killed processes left in tmp/.  Every writer holds the
 * lock from creating a file there to renaming it away, so whoever holds
 * the lock knows that every file in tmp/ is a stray.  With the lock held.
 */
int spool_clean_tmp(struct spool *s);

enum spool_result {
	SPOOL_QUEUED,	      /* written to new/ */
	SPOOL_ALREADY_QUEUED, /* the report waits in new/, failed/ or hold/ */
	SPOOL_ALREADY_SENT,   /* the report is in sent/ */
};

/*
 * Queues `msg` (len bytes) for the message identified by `key`.  When it
 * is already in the spool, nothing is written and `first_id` gets the
 * Message-ID of the first copy.  With the lock held.
 */
int spool_enqueue(struct spool *s, const char *key, const char *msg, size_t len,
		  enum spool_result *res, struct strbuf *first_id);

/*
 * Whether the message identified by `key` is in the spool: 1, with `res`
 * (already queued or sent) and its Message-ID in `first_id`; else 0.
 */
int spool_find(struct spool *s, const char *key, enum spool_result *res,
	       struct strbuf *first_id);

/* A hex digest of `key` (32 digits), the file name of its message. */
void spool_key_name(struct strbuf *out, const char *key);

/* A list of strings; it owns them. */
struct spool_strs {
	char **v;
	size_t n;
};

/* The state file beside a message: what happened to it so far. */
struct spool_meta {
	int attempts;
	time_t last_attempt, next_attempt, done; /* 0 = never */
	char *reply; /* the last server reply, or why it failed */
	char *via;   /* where it went: smtp://host:port or mbox:PATH */
	struct spool_strs sent_to;  /* "addr" */
	struct spool_strs refused;  /* "addr reply" */
	struct spool_strs deferred; /* "addr reply" */
};

void spool_strs_add(struct spool_strs *l, const char *s);
void spool_strs_release(struct spool_strs *l);
void spool_meta_release(struct spool_meta *m);

struct spool_msg {
	char *name; /* 32 hex digits */
	enum spool_state state;
	char *message_id, *subject; /* from its header; NULL if none */
	time_t queued;		    /* when it entered the state (mtime) */
	long long queued_ns;	    /* the same in nanoseconds, for order */
	long long size;
	int has_meta;
	int corrupt; /* its state file is corrupt (spool_read_meta: -1) */
	struct spool_meta meta;
};

/*
 * The messages of state `st`, oldest first, with their Message-ID,
 * Subject and state file.
 */
int spool_list(struct spool *s, enum spool_state st, struct spool_msg **out,
	       size_t *n);
void spool_msgs_release(struct spool_msg *v, size_t n);

/*
 * The state file of a message: 0, 1 when there is none (m zeroed), or -1
 * after one error line naming the file and the key when it is not one
 * robot wrote (m zeroed): attempts not a count from 0 to 100000, a date
 * that is none, a next-attempt more than a day after the last attempt,
 * sent-to lines on a message still queued with nobody deferred, more
 * than SPOOL_STATE_MAX bytes.  Such a message is kept where it is: never
 * sent, parked or called delivered.
 */
int spool_read_meta(struct spool *s, enum spool_state st, const char *name,
		    struct spool_meta *m);
/*
 * Whether every sent-to, refused and deferred address of `m` is one of
 * the message's recipients rcpt[0..n) (or `also`, the staging_to): 0, or
 * -1 after one error line naming the state file and the key.
 */
int spool_check_meta(struct spool *s, enum spool_state st, const char *name,
		     const struct spool_meta *m, char *const *rcpt, size_t n,
		     const char *also);
/* Writes it (whole, by rename).  With the lock held. */
int spool_write_meta(struct spool *s, enum spool_state st, const char *name,
		     const char *message_id, const struct spool_meta *m);

/*
 * The largest message robot queues (robot queue add) and reads back to
 * send, and the largest state file it reads (one robot writes holds a
 * few lines a recipient): doc/limits.md.
 */
#define SPOOL_MESSAGE_MAX ((size_t)256 << 20)
#define SPOOL_STATE_MAX	  ((size_t)1 << 20)

/*
 * Whether the message is within SPOOL_MESSAGE_MAX (a message that cannot
 * be looked at passes: reading it will say why); spool_too_big says why
 * not.
 */
int spool_message_fits(struct spool *s, enum spool_state st, const char *name);
extern const char spool_too_big[];

/*
 * 1 when a folder entry's name `fname` is a message file's ("NAME.eml"),
 * with *stem = strlen(NAME); spool_list() and the index take the same.
 */
int spool_msg_stem(const char *fname, size_t *stem);

/*
 * The Message-ID in the header of a message (NULL when it has none)
 * into *id (caller frees): 0, or -1 when the file cannot be opened (it
 * moved, errno says).
 */
int spool_message_id(struct spool *s, enum spool_state st, const char *name,
		     char **id);

/*
 * The message's bytes.  Returns 0, an exit code after an error line, or
 * EXIT_DATAERR after one when it is larger than SPOOL_MESSAGE_MAX (not
 * read).
 */
int spool_read(struct spool *s, enum spool_state st, const char *name,
	       struct strbuf *out);

/*
 * Moves a message and its state file to another state; `touch` 1
 * restarts its queue time (release, retry); SPOOL_MOVE_KEEP_META: the
 * state file in `to` was written already (spool_write_meta), the one in
 * `from` is removed instead of moved.  The message file moves first: it
 * is where the message is.  With the lock held.
 */
#define SPOOL_MOVE_KEEP_META 2
int spool_move(struct spool *s, const char *name, enum spool_state from,
	       enum spool_state to, int touch);
/* Deletes a message and its state file.  With the lock held. */
int spool_remove(struct spool *s, enum spool_state st, const char *name);
/* Deletes only the state file (if any).  With the lock held. */
int spool_remove_meta(struct spool *s, enum spool_state st, const char *name);
/* 1 if the message is in state st. */
int spool_has(struct spool *s, enum spool_state st, const char *name);

/*
 * robot send: takes send.lock for the whole run (75 when another send
 * holds it), and names in it the message being delivered (NULL: none).
 */
int spool_send_begin(struct spool *s);
void spool_send_claim(struct spool *s, const char *name);
/* 1 when a running robot send is delivering `name` right now. */
int spool_in_flight(struct spool *s, const char *name);
/*
 * The message a robot send that died was delivering: send.lock names it
 * but no run holds the lock.  The server may have it (killed after its
 * 250, before the record): robot queue calls it "possibly sent" until
 * the next run sends it again.  1 with its name in `name`, else 0.
 */
int spool_crashed_claim(struct spool *s, struct strbuf *name);

/* The pause file: 1 if it exists (its text in `reason`), else 0. */
int spool_paused(struct spool *s, struct strbuf *reason);
int spool_pause(struct spool *s, const char *reason);
int spool_resume(struct spool *s);

/*
 * The deliveries of the last hour before `now`, from the rate file (which
 * drops older ones); spool_rate_add() records one.  With the lock held.
 */
long spool_rate_recent(struct spool *s, time_t now);
void spool_rate_add(struct spool *s, time_t now);

/* Makes the renames of a run durable: fsyncs the state directories. */
int spool_sync(struct spool *s);

/* "2026-12-01T09:10:00Z"; and back (0 when it is not that form). */
void spool_time_format(struct strbuf *out, time_t t);
time_t spool_time_parse(const char *s);
/* The same as a JSON string, or null for 0 (no such time). */
void spool_time_json(struct strbuf *out, time_t t);

/*
 * The exit code a failed system call on the spool deserves: 75 for a
 * spool that cannot be written now (EACCES, EROFS, ENOSPC, ...), else 1.
 */
int spool_errno_exit(int errnum);

/*
 * Test-only (the test build, -DROBOT_TEST_HOOKS): when $ROBOT_TEST_CRASH is
 * `point` or `point:N`, the process kills itself with SIGKILL at that point
 * (its Nth passage), as a crash there would.  The points: "publish" (a material
 * written, not renamed), "claim" (a message claimed, nothing sent), "after-250"
 * (the server accepted a message, the spool does not know yet), "mbox" (half a
 * message appended to the local mailbox).
 */
#ifdef ROBOT_TEST_HOOKS
void test_crash_point(const char *point);
/* 1 when the process is to die at this passage (it then must). */
int test_crash_due(const char *point);
#else
/*
 * The real binary has no crash points: only the test build
 * (build/tests/robot-crash, compiled with -DROBOT_TEST_HOOKS) reads
 * $ROBOT_TEST_CRASH.
 */
static inline void test_crash_point(const char *point)
{
	(void)point;
}

static inline int test_crash_due(const char *point)
{
	(void)point;
	return 0;
}
#endif

#endif
