/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Privileges and the pid file.
 *
 * rngd opens every device and sysfs file as root, then becomes the -D
 * user keeping only CAP_SYS_ADMIN, which RNDADDENTROPY and RNDRESEEDCRNG
 * check. The supplementary groups rngd was started with (systemd's
 * SupplementaryGroups=, e.g. tss for the TPM 2.0 nodes) are kept, with the
 * user's own, so a source re-opened later can still reach what the unit
 * granted; root's group 0 is never kept. The pid file is held with flock(): the lock follows the open
 * file description, so it survives a fork() into the background and dies
 * with the last holder, never leaving a stale lock behind.
 */
#include <config.h>

#include <linux/capability.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rngd/file_kind.h"
#include "rngd/privs.h"

#define PRIVS_NAME_MAX 256
#define PRIVS_NSS_BUF 16384
/* A second rngd may look while the first is writing its pid: wait this long. */
#define PIDFILE_READ_TRIES 20
#define PIDFILE_READ_PAUSE_NS 5000000L
/* A pid file holds a pid and a newline; anything longer is something else. */
#define PIDFILE_TEXT_MAX 32

/* ---- names to ids ---------------------------------------------------- */

static bool parse_id(const char *text, unsigned long *id)
{
	char *end;

	if (!*text || *text == '-' || *text == '+')
		return false;
	errno = 0;
	*id = strtoul(text, &end, 10);
	return !errno && !*end && *id < (unsigned long)(uid_t)-1;
}

/*
 * A user's uid and primary group, or with @group a group's gid (in both
 * @id and @gid); a name no entry has, as a bare number, is its own id and
 * group. Else -ESRCH for "none", or the lookup's error. Start-up only, on
 * the main thread: the NSS buffer lives on the stack.
 */
static int lookup_id(const char *name, bool group, unsigned long *id, gid_t *gid)
{
	char buf[PRIVS_NSS_BUF];
	struct passwd pw, *user = NULL;
	struct group gr, *grp = NULL;
	int r = group ? getgrnam_r(name, &gr, buf, sizeof(buf), &grp) : getpwnam_r(name, &pw, buf, sizeof(buf), &user);

	if (!r && (user || grp)) {
		*id = user ? pw.pw_uid : gr.gr_gid;
		*gid = user ? pw.pw_gid : gr.gr_gid;
		return 0;
	}
	if (parse_id(name, id)) {
		*gid = (gid_t)*id;
		return 0;
	}
	return r > 0 ? -r : -ESRCH;
}

/* getpwnam_r(3): besides 0 with no entry, these also mean "no such name". */
static bool means_not_found(int r)
{
	return r == -ENOENT || r == -ESRCH || r == -EBADF || r == -EPERM;
}

/* A lookup's failure: -ESRCH with *unknown @what when the name does not
 * exist, else the name service's error. */
static int lookup_failed(int r, const char *what, const char **unknown)
{
	if (!means_not_found(r))
		return r;
	*unknown = what;
	return -ESRCH;
}

/* privs_resolve(), also handing back the user's name (for getgrouplist()). */
static int resolve_user_group(const char *user_group, char user[PRIVS_NAME_MAX], uid_t *uid, gid_t *gid,
			      const char **unknown)
{
	const char *colon = strchr(user_group, ':');
	size_t user_len = colon ? (size_t)(colon - user_group) : strlen(user_group);
	unsigned long id;
	int r;

	*unknown = NULL;
	if (user_len == 0 || user_len >= PRIVS_NAME_MAX || (colon && !colon[1]))
		return -EINVAL;
	memcpy(user, user_group, user_len);
	user[user_len] = '\0';
	r = lookup_id(user, false, &id, gid);
	if (r < 0)
		return lookup_failed(r, "user", unknown);
	*uid = (uid_t)id;
	if (colon) {
		r = lookup_id(colon + 1, true, &id, gid);
		if (r < 0)
			return lookup_failed(r, "group", unknown);
	}
	return 0;
}

int privs_resolve(const char *user_group, uid_t *uid, gid_t *gid, const char **unknown)
{
	char user[PRIVS_NAME_MAX];

	return resolve_user_group(user_group, user, uid, gid, unknown);
}

/* ---- capabilities ---------------------------------------------------- */

/*
 * The capability sets through capget(2)/capset(2) and prctl(2) directly:
 * five calls did not justify libcap, a library mapped into the daemon for
 * good (40 kB resident) and a package to depend on.
 */
typedef struct __user_cap_data_struct cap_words[_LINUX_CAPABILITY_U32S_3];

static int caps_read(cap_words words)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };

	return syscall(SYS_capget, &h, words) < 0 ? -errno : 0;
}

/*
 * Empty the bounding set but for CAP_SYS_ADMIN. That needs CAP_SETPCAP;
 * without it (a systemd unit whose CapabilityBoundingSet= already holds
 * little) the bounding set is left as it is: no_new_privs below means no
 * execve() can raise anything from it anyway. The kernel's highest
 * capability is the first for which PR_CAPBSET_READ says EINVAL.
 */
static int drop_bounding_set(void)
{
	cap_words now;
	int r = caps_read(now);

	if (r < 0)
		return r;
	if (!(now[CAP_TO_INDEX(CAP_SETPCAP)].effective & CAP_TO_MASK(CAP_SETPCAP)))
		return 0;
	for (int c = 0; c < 64; c++) {
		int bound = prctl(PR_CAPBSET_READ, (unsigned long)c, 0, 0, 0);

		if (bound < 0)
			break;          /* beyond the kernel's last capability */
		if (c == CAP_SYS_ADMIN || bound != 1)
			continue;
		if (prctl(PR_CAPBSET_DROP, (unsigned long)c, 0, 0, 0) < 0)
			return -errno;
	}
	return 0;
}

static int keep_only_sys_admin(void)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	cap_words keep;

	memset(keep, 0, sizeof(keep));
	keep[CAP_TO_INDEX(CAP_SYS_ADMIN)].permitted = CAP_TO_MASK(CAP_SYS_ADMIN);
	keep[CAP_TO_INDEX(CAP_SYS_ADMIN)].effective = CAP_TO_MASK(CAP_SYS_ADMIN);
	if (syscall(SYS_capset, &h, keep) < 0)
		return -errno;
	/* EINVAL: a kernel before 4.3 has no ambient set to clear. */
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0 && errno != EINVAL)
		return -errno;
	return 0;
}

/* ---- supplementary groups ---------------------------------------------- */

static bool has_gid(const gid_t *list, int n, gid_t g)
{
	for (int i = 0; i < n; i++)
		if (list[i] == g)
			return true;
	return false;
}

/*
 * @gid, the groups the process holds now but 0 (unless @gid is 0), and
 * @user's in the group database (none for a bare uid). *out is malloc'ed.
 */
static int groups_to_keep(const char *user, gid_t gid, gid_t **out, int *n_out)
{
	int held = getgroups(0, NULL);
	int member = 0;
	gid_t *list, *db = NULL;
	int n = 0;

	if (held < 0)
		return -errno;
	/* getgrouplist() says how many it would need when given too few. */
	(void)getgrouplist(user, gid, NULL, &member);
	if (member > 0) {
		db = calloc((size_t)member, sizeof(*db));
		if (!db || getgrouplist(user, gid, db, &member) < 0)
			member = 0;
	}
	list = calloc((size_t)held + (size_t)member + 1, sizeof(*list));
	if (!list) {
		free(db);
		return -ENOMEM;
	}
	list[n++] = gid;
	if (held > 0) {
		gid_t *now = list + 1;
		int got = getgroups(held, now);

		if (got < 0) {
			free(db);
			free(list);
			return -errno;
		}
		/* Compact in place: drop root's group and duplicates. */
		for (int i = 0; i < got; i++)
			if ((now[i] != 0 || gid == 0) && !has_gid(list, n, now[i]))
				list[n++] = now[i];
	}
	for (int i = 0; i < member; i++)
		if ((db[i] != 0 || gid == 0) && !has_gid(list, n, db[i]))
			list[n++] = db[i];
	free(db);
	*out = list;
	*n_out = n;
	return 0;
}

/* ---- privs_drop -------------------------------------------------------- */

int privs_drop(const char *user_group)
{
	char user[PRIVS_NAME_MAX];
	const char *unknown;
	/* -1 is no one: what a lookup that somehow set nothing would leave. */
	uid_t uid = (uid_t)-1;
	gid_t gid = (gid_t)-1;
	gid_t *groups = NULL;
	int n_groups = 0;
	int r;

	r = resolve_user_group(user_group, user, &uid, &gid, &unknown);
	if (r < 0)
		return r;
	if (uid == (uid_t)-1 || gid == (gid_t)-1)
		return -ESRCH;

	r = drop_bounding_set();
	if (r < 0)
		return r;
	/* Keep the permitted set across setuid() so CAP_SYS_ADMIN survives it. */
	if (prctl(PR_SET_KEEPCAPS, 1L, 0L, 0L, 0L) < 0)
		return -errno;
	r = groups_to_keep(user, gid, &groups, &n_groups);
	if (r < 0)
		return r;
	r = setgroups((size_t)n_groups, groups) < 0 ? -errno : 0;
	free(groups);
	if (r < 0)
		return r;
	if (setresgid(gid, gid, gid) < 0 || setresuid(uid, uid, uid) < 0)
		return -errno;
	r = keep_only_sys_admin();
	if (r < 0)
		return r;
	if (prctl(PR_SET_KEEPCAPS, 0L, 0L, 0L, 0L) < 0 ||
	    prctl(PR_SET_NO_NEW_PRIVS, 1L, 0L, 0L, 0L) < 0)
		return -errno;
	/* Paranoia pays here: a silent half-drop would be worse than failing. */
	if (getuid() != uid || geteuid() != uid || getgid() != gid || getegid() != gid)
		return -EPERM;
	return 0;
}

/* ---- pid file ---------------------------------------------------------- */

static pid_t read_pid(int fd)
{
	char text[32];
	ssize_t n = pread(fd, text, sizeof(text) - 1, 0);
	char *end;
	long pid;

	if (n <= 0)
		return 0;
	text[n] = '\0';
	errno = 0;
	pid = strtol(text, &end, 10);
	if (errno || end == text || (*end && *end != '\n') || pid <= 0 || pid > INT_MAX)
		return 0;
	return (pid_t)pid;
}

int pidfile_update(int fd)
{
	char text[32];
	int len = snprintf(text, sizeof(text), "%ld\n", (long)getpid());

	ssize_t n;

	if (ftruncate(fd, 0) < 0)
		return -errno;
	n = pwrite(fd, text, (size_t)len, 0);
	/* A short write sets no errno: whatever errno holds is stale. */
	if (n != len)
		return n < 0 ? -errno : -EIO;
	return 0;
}

int pidfile_release(int *fd)
{
	int r;

	if (*fd < 0)
		return 0;
	r = ftruncate(*fd, 0) < 0 ? -errno : 0;
	(void)close(*fd);
	*fd = -1;
	return r;
}

/* What is there is ours to overwrite: nothing yet, or a pid (maybe stale). */
static bool holds_a_pid_or_nothing(int fd)
{
	char text[PIDFILE_TEXT_MAX + 1];
	ssize_t n = pread(fd, text, sizeof(text), 0);
	ssize_t i = 0;

	if (n < 0 || n > PIDFILE_TEXT_MAX)
		return false;
	while (i < n && text[i] >= '0' && text[i] <= '9')
		i++;
	while (i < n && (text[i] == '\n' || text[i] == ' '))
		i++;
	return i == n;
}

static int pidfile_why(char *why, size_t len, int r, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int pidfile_why(char *why, size_t len, int r, const char *fmt, ...)
{
	if (why && len) {
		va_list ap;

		va_start(ap, fmt);
		(void)vsnprintf(why, len, fmt, ap);
		va_end(ap);
	}
	return r;
}

int pidfile_lock(const char *path, pid_t *holder)
{
	return pidfile_lock_why(path, holder, NULL, 0);
}

int pidfile_lock_why(const char *path, pid_t *holder, char *why, size_t why_len)
{
	const struct timespec pause = { 0, PIDFILE_READ_PAUSE_NS };
	const char *kernel_fs;
	struct stat st;
	int fd, r;

	*holder = 0;
	/* Checked before open(): opening a FIFO or a device may block or act. */
	if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return pidfile_why(why, why_len, S_ISDIR(st.st_mode) ? -EISDIR : S_ISLNK(st.st_mode) ? -ELOOP : -EINVAL,
				   "is %s, not a regular file%s", file_kind_name(st.st_mode),
				   S_ISLNK(st.st_mode) ? " (a link is never followed)" : "");
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0644);
	if (fd < 0) {
		r = -errno;
		return pidfile_why(why, why_len, r, "%s", strerror(-r));
	}
	kernel_fs = file_kind_kernel_fs(fd);
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || kernel_fs) {
		(void)close(fd);
		if (kernel_fs)
			return pidfile_why(why, why_len, -EINVAL, "is a kernel file (%s), not a pid file", kernel_fs);
		return pidfile_why(why, why_len, -EINVAL, "is %s, not a regular file", file_kind_name(st.st_mode));
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		r = errno == EWOULDBLOCK ? -EEXIST : -errno;
		/* The holder writes its pid just after locking; give it a moment. */
		for (int i = 0; r == -EEXIST && i < PIDFILE_READ_TRIES; i++) {
			*holder = read_pid(fd);
			if (*holder)
				break;
			(void)nanosleep(&pause, NULL);
		}
		(void)close(fd);
		return pidfile_why(why, why_len, r, "%s", r == -EEXIST ? "locked by another process" : strerror(-r));
	}
	/* -p /etc/passwd must not empty /etc/passwd. */
	if (!holds_a_pid_or_nothing(fd)) {
		(void)close(fd);
		return pidfile_why(why, why_len, -ENOTEMPTY,
				   "holds something other than a pid; not overwriting it");
	}
	r = pidfile_update(fd);
	if (r < 0) {
		(void)close(fd);
		return pidfile_why(why, why_len, r, "cannot write the pid: %s", strerror(-r));
	}
	return fd;
}
