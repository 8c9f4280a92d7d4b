// SPDX-License-Identifier: GPL-2.0-only
/*
 * msgindex.c: the spool's messages by Message-ID (msgindex.h).
 */
#include "robot/util/common.h"
#include "robot/util/strset.h"
#include "robot/delivery/msgindex.h"

#include <dirent.h>
#include <sys/stat.h>
#include <time.h>

/* One message file the index has seen. */
struct ix_msg {
	char *name;
	char *msgid;  /* NULL: its header has none */
	int st;	      /* its state folder, or -1: not in the spool now */
	unsigned gen; /* the read of that folder that saw it last */
	ino_t ino;    /* the file's, when its header was read (0: never) */
};

/* The messages that have had one Message-ID (some may not now). */
struct ix_group {
	size_t *v, n;
};

/* A state folder as the index last read it. */
struct ix_dir {
	int read; /* dev, ino, mtime_ns are from before that read */
	int racy; /* its mtime was too recent to show a later change */
	int err;  /* the errno of a read that failed, or 0 */
	unsigned gen;
	dev_t dev;
	ino_t ino;
	long long mtime_ns;
};

struct msgindex {
	struct ix_msg *m;
	size_t n, alloc;
	struct ix_group *g;
	size_t ng, galloc;
	struct strset names, ids; /* name -> m[], Message-ID -> g[] */
	struct ix_dir dir[SPOOL_NSTATES];
};

#define NS(ts) ((long long)(ts).tv_sec * 1000000000 + (ts).tv_nsec)
/* what a filesystem's clock may not tell apart (msgindex.h) */
#define RACY_NS 1000000000LL

static void group_add(struct msgindex *ix, const char *msgid, size_t i)
{
	struct ix_group *g;
	size_t k;

	if (strset_put(&ix->ids, msgid, ix->ng)) {
		ALLOC_GROW(ix->g, ix->ng + 1, ix->galloc);
		memset(&ix->g[ix->ng++], 0, sizeof(*ix->g));
	}
	strset_get(&ix->ids, msgid, &k);
	g = &ix->g[k];
	for (k = 0; k < g->n; k++)
		if (g->v[k] == i)
			return;
	/* nearly always one message: no room kept for more */
	g->v = xreallocarray(g->v, g->n + 1, sizeof(*g->v));
	g->v[g->n++] = i;
}

/*
 * The message file `name` of folder `st`, inode `ino`: known (the same
 * file as before: a message is written once and only renamed, so only
 * its state is noted), or its header read.  One that is gone before it
 * is read has moved on (its new folder has changed: the next update
 * reads it there).
 */
static void see(struct spool *s, struct msgindex *ix, enum spool_state st,
		const char *name, ino_t ino)
{
	struct ix_msg *m;
	char *id;
	size_t i;

	if (!strset_get(&ix->names, name, &i)) {
		ALLOC_GROW(ix->m, ix->n + 1, ix->alloc);
		i = ix->n++;
		memset(&ix->m[i], 0, sizeof(*ix->m));
		ix->m[i].name = xstrdup(name);
		ix->m[i].st = -1;
		strset_put(&ix->names, name, i);
	}
	m = &ix->m[i];
	if (!m->ino || m->ino != ino) {
		if (spool_message_id(s, st, name, &id))
			return;
		free(m->msgid);
		m->msgid = id;
		m->ino = ino;
		if (id)
			group_add(ix, id, i);
	}
	m->st = (int)st;
	m->gen = ix->dir[st].gen;
}

/*
 * Reads folder `st`: its message files, as spool_list() takes them (a
 * regular file, or a link to one, whose name ends in ".eml"), the type
 * and inode readdir() gives saving a stat of each.
 */
static void read_dir(struct spool *s, struct msgindex *ix, enum spool_state st)
{
	char *path = xasprintf("%s/%s", s->dir, spool_state_dir(st));
	struct ix_dir *dd = &ix->dir[st];
	DIR *d = opendir(path);
	struct dirent *de;
	size_t i, stem;

	free(path);
	if (!d) {
		dd->err = errno;
		dd->read = 0;
		return;
	}
	dd->gen++;
	while ((de = readdir(d))) {
		struct stat sb;
		ino_t ino = de->d_ino;
		char *name;

		if (!spool_msg_stem(de->d_name, &stem))
			continue;
		if (de->d_type != DT_REG) {
			if ((de->d_type != DT_LNK &&
			     de->d_type != DT_UNKNOWN) ||
			    fstatat(dirfd(d), de->d_name, &sb, 0) ||
			    !S_ISREG(sb.st_mode))
				continue;
			ino = sb.st_ino;
		}
		name = xstrndup(de->d_name, stem);
		see(s, ix, st, name, ino);
		free(name);
	}
	closedir(d);
	/* what it held before and not now has left it */
	for (i = 0; i < ix->n; i++)
		if (ix->m[i].st == (int)st && ix->m[i].gen != dd->gen)
			ix->m[i].st = -1;
}

void msgindex_update(struct spool *s)
{
	struct msgindex *ix = s->index;
	enum spool_state st;

	if (!ix)
		ix = s->index = xcalloc(1, sizeof(*ix)); /* the sets empty */
	for (st = 0; st < SPOOL_NSTATES; st++) {
		struct ix_dir *dd = &ix->dir[st];
		char *path = xasprintf("%s/%s", s->dir, spool_state_dir(st));
		struct timespec now;
		struct stat sb;
		int same;

		clock_gettime(CLOCK_REALTIME, &now);
		if (stat(path, &sb)) {
			dd->err = errno;
			dd->read = 0;
			free(path);
			continue;
		}
		free(path);
		same = dd->read && !dd->racy && dd->dev == sb.st_dev &&
		       dd->ino == sb.st_ino && dd->mtime_ns == NS(sb.st_mtim);
		if (same)
			continue;
		dd->err = 0;
		dd->read = 1;
		dd->dev = sb.st_dev;
		dd->ino = sb.st_ino;
		dd->mtime_ns = NS(sb.st_mtim);
		dd->racy = NS(now) - dd->mtime_ns < RACY_NS;
		read_dir(s, ix, st);
	}
}

int msgindex_error(struct spool *s, enum spool_state st)
{
	const struct msgindex *ix = s->index;
	int e = ix ? ix->dir[st].err : 0;

	if (!e)
		return 0;
	errno = e;
	error_errno("cannot read '%s/%s'", s->dir, spool_state_dir(st));
	return spool_errno_exit(e);
}

/* When the message entered its folder (its mtime), as spool_list() has it. */
static long long queued_ns(struct spool *s, enum spool_state st,
			   const char *name)
{
	char *p = xasprintf("%s/%s/%s.eml", s->dir, spool_state_dir(st), name);
	struct stat sb;
	long long ns = stat(p, &sb) ? -1 : NS(sb.st_mtim);

	free(p);
	return ns;
}

const char *msgindex_get(struct spool *s, enum spool_state st,
			 const char *msgid)
{
	const struct msgindex *ix = s->index;
	const struct ix_msg *best = NULL;
	const struct ix_group *g;
	long long best_ns = 0, ns;
	int timed = 0;
	size_t k;

	if (!ix || !strset_get(&ix->ids, msgid, &k))
		return NULL;
	g = &ix->g[k];
	for (k = 0; k < g->n; k++) {
		const struct ix_msg *m = &ix->m[g->v[k]];

		if (m->st != (int)st || !m->msgid || strcmp(m->msgid, msgid))
			continue;
		if (!best) {
			best = m;
			continue;
		}
		/* several: spool_list()'s order, oldest first, then by name,
		 * of those still there */
		if (!timed++)
			best_ns = queued_ns(s, st, best->name);
		ns = queued_ns(s, st, m->name);
		if (ns >= 0 &&
		    (best_ns < 0 || ns < best_ns ||
		     (ns == best_ns && strcmp(m->name, best->name) < 0))) {
			best = m;
			best_ns = ns;
		}
	}
	return best ? best->name : NULL;
}

void msgindex_free(struct msgindex *ix)
{
	size_t i;

	if (!ix)
		return;
	for (i = 0; i < ix->n; i++) {
		free(ix->m[i].name);
		free(ix->m[i].msgid);
	}
	for (i = 0; i < ix->ng; i++)
		free(ix->g[i].v);
	free(ix->m);
	free(ix->g);
	strset_release(&ix->names);
	strset_release(&ix->ids);
	free(ix);
}
