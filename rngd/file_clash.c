/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <sys/stat.h>

#include "rngd/file_clash.h"
#include "rngd/loop_state.h"
#include "rngd/slot.h"
#include "sources/source.h"

void rngd_loop_set_sink_file(struct rngd_loop *l, const struct stat *st)
{
	l->sink_file = st && (S_ISREG(st->st_mode) || S_ISFIFO(st->st_mode));
	if (l->sink_file) {
		l->sink_dev = st->st_dev;
		l->sink_ino = st->st_ino;
	}
}

/* Another slot whose source has read the regular file @st (the mark
 * stays after a close: the file's bytes were read by it, credited once). */
static const struct rngd_slot *other_reader(struct rngd_loop *l, const struct rngd_slot *s, const struct stat *st)
{
	for (size_t i = 0; i < l->n_slots; i++) {
		struct rngd_slot *o = &l->slots[i];
		bool hit;

		if (o == s)
			continue;
		(void)pthread_mutex_lock(&o->lock);
		hit = o->file_read && o->file_dev == st->st_dev && o->file_ino == st->st_ino;
		(void)pthread_mutex_unlock(&o->lock);
		if (hit)
			return o;
	}
	return NULL;
}

static void mark_file(struct rngd_slot *s, const struct stat *st)
{
	(void)pthread_mutex_lock(&s->lock);
	s->file_read = st != NULL;
	if (st) {
		s->file_dev = st->st_dev;
		s->file_ino = st->st_ino;
	}
	(void)pthread_mutex_unlock(&s->lock);
}

int rngd_slot_open(struct rngd_loop *l, struct rngd_slot *s)
{
	struct rng_source *src = &s->src;
	const char *path = src->ops->path ? src->ops->path(src) : NULL;
	const struct rngd_slot *other;
	struct stat st;
	int r = src->ops->open(src), fd = r == 0 ? rng_source_wait_fd(src) : -1;

	if (fd < 0 || fstat(fd, &st) < 0 || !(S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode)))
		return r;
	if (l->sink_file && st.st_dev == l->sink_dev && st.st_ino == l->sink_ino) {
		src->ops->close(src);
		return rng_source_why(src, -EBUSY, "%s is the file the sink writes: not read, as rngd would credit its "
				      "own output again", path ? path : "what it opened");
	}
	if (!S_ISREG(st.st_mode))
		return 0;
	/* Marked before the others are looked at: two sources opening one
	 * file at once both see the other, and both give way. */
	mark_file(s, &st);
	other = other_reader(l, s, &st);
	if (!other)
		return 0;
	mark_file(s, NULL);
	src->ops->close(src);
	return rng_source_why(src, -EBUSY, "%s is the file %s reads: not read, as its bytes would be credited twice",
			      path ? path : "what it opened", other->src.name);
}
