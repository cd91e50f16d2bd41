/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Privilege drop and the pid file. Every privs_drop() runs in a forked
 * child that reports back through its exit status, so the test process
 * itself keeps its identity.
 */
#include <config.h>

#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/capability.h>

#include <cmocka.h>

#include "tests/lib/test_main.h"

#include "rngd/privs.h"

#define CAP_SYS_ADMIN_MASK (1ull << CAP_SYS_ADMIN)

/* Child exit codes: 0 fine, else the first check that failed. */
enum child_result {
	CHILD_OK, CHILD_DROP_FAILED, CHILD_WRONG_UID, CHILD_WRONG_GID, CHILD_WRONG_GROUPS,
	CHILD_WRONG_CAPEFF, CHILD_WRONG_CAPPRM, CHILD_WRONG_CAPBND, CHILD_WRONG_CAPAMB,
	CHILD_NO_NNP, CHILD_CAN_REGAIN_ROOT,
};

static int run_child(int (*fn)(const void *), const void *arg)
{
	int status;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0)
		_exit(fn(arg));
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

/* /proc/self/status "Key:\t<hex>" */
static unsigned long long status_hex(const char *key)
{
	char line[256];
	size_t klen = strlen(key);
	unsigned long long v = ~0ull;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return v;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, klen) && line[klen] == ':')
			v = strtoull(line + klen + 1, NULL, 16);
	(void)fclose(f);
	return v;
}

struct drop_case {
	const char *arg;
	uid_t uid;
	gid_t gid;
};

/*
 * What every successful drop leaves, whoever started it: only
 * CAP_SYS_ADMIN effective and permitted, the bounding set @bounding_after,
 * no ambient capability, no_new_privs, and no way back to root.
 */
static int child_caps_after_drop(unsigned long long bounding_after)
{
	if (status_hex("CapEff") != CAP_SYS_ADMIN_MASK)
		return CHILD_WRONG_CAPEFF;
	if (status_hex("CapPrm") != CAP_SYS_ADMIN_MASK)
		return CHILD_WRONG_CAPPRM;
	if (status_hex("CapBnd") != bounding_after)
		return CHILD_WRONG_CAPBND;
	if (status_hex("CapAmb") != 0)
		return CHILD_WRONG_CAPAMB;
	/* no_new_privs keeps execve() from using what the bounding set holds. */
	if (status_hex("NoNewPrivs") != 1)
		return CHILD_NO_NNP;
	if (setuid(0) == 0)
		return CHILD_CAN_REGAIN_ROOT;
	return CHILD_OK;
}

/* The "nobody" account as privs_drop("nobody") must leave the process. */
static void nobody_case(struct drop_case *c)
{
	struct passwd *pw = getpwnam("nobody");

	assert_non_null(pw);
	c->arg = "nobody";
	c->uid = pw->pw_uid;
	c->gid = pw->pw_gid;
}

static int child_drop(const void *p)
{
	const struct drop_case *c = p;
	gid_t groups[8];
	int n;

	/* Started with root's group only, as by hand: it is not kept. */
	if (setgroups(1, &(gid_t){ 0 }) < 0)
		return 102;
	if (privs_drop(c->arg) != 0)
		return CHILD_DROP_FAILED;
	if (getuid() != c->uid || geteuid() != c->uid)
		return CHILD_WRONG_UID;
	if (getgid() != c->gid || getegid() != c->gid)
		return CHILD_WRONG_GID;
	n = getgroups(8, groups);
	if (n != 1 || groups[0] != c->gid)
		return CHILD_WRONG_GROUPS;
	return child_caps_after_drop(CAP_SYS_ADMIN_MASK);
}

static void test_drop_to_nobody(void **state)
{
	struct group *gr;
	struct drop_case c;
	char numeric[64];

	(void)state;
	if (geteuid() != 0)
		skip();
	nobody_case(&c);
	assert_int_equal(run_child(child_drop, &c), CHILD_OK);

	gr = getgrnam("nogroup");
	if (gr) {
		c.arg = "nobody:nogroup";
		c.gid = gr->gr_gid;
		assert_int_equal(run_child(child_drop, &c), CHILD_OK);
	}
	/* Numeric ids need no passwd entry. */
	(void)snprintf(numeric, sizeof(numeric), "%u:%u", 64123u, 64124u);
	c.arg = numeric;
	c.uid = 64123;
	c.gid = 64124;
	assert_int_equal(run_child(child_drop, &c), CHILD_OK);
}

/*
 * What a systemd unit gives rngd: root limited to the unit's
 * CapabilityBoundingSet=. rngd.service has CAP_SYS_ADMIN CAP_SETUID
 * CAP_SETGID CAP_SETPCAP; without CAP_SETPCAP the bounding set cannot be
 * trimmed, but the drop must still leave only CAP_SYS_ADMIN usable.
 */
struct unit_case {
	struct drop_case who;
	unsigned long long bounding;       /* the unit's CapabilityBoundingSet= */
	unsigned long long bounding_after; /* CapBnd once rngd dropped */
};

static int child_drop_like_a_unit(const void *p)
{
	const struct unit_case *c = p;
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2];

	for (int cap = 0; cap <= CAP_LAST_CAP; cap++)
		if (!(c->bounding & (1ull << cap)) && prctl(PR_CAPBSET_DROP, cap, 0L, 0L, 0L) < 0)
			return 110;
	memset(data, 0, sizeof(data));
	data[0].permitted = data[0].effective = (uint32_t)c->bounding;
	if (syscall(SYS_capset, &hdr, data) < 0)
		return 111;
	if (status_hex("CapBnd") != c->bounding || status_hex("CapEff") != c->bounding)
		return 112;
	if (privs_drop(c->who.arg) != 0)
		return CHILD_DROP_FAILED;
	if (getuid() != c->who.uid || getgid() != c->who.gid)
		return CHILD_WRONG_UID;
	return child_caps_after_drop(c->bounding_after);
}

static void test_drop_in_a_units_bounding_set(void **state)
{
	const unsigned long long ids = (1ull << CAP_SETUID) | (1ull << CAP_SETGID);
	struct unit_case c;

	(void)state;
	if (geteuid() != 0)
		skip();
	nobody_case(&c.who);
	/* rngd.service as shipped. */
	c.bounding = CAP_SYS_ADMIN_MASK | ids | (1ull << CAP_SETPCAP);
	c.bounding_after = CAP_SYS_ADMIN_MASK;
	assert_int_equal(run_child(child_drop_like_a_unit, &c), CHILD_OK);
	/* A drop-in without CAP_SETPCAP. */
	c.bounding = CAP_SYS_ADMIN_MASK | ids;
	c.bounding_after = c.bounding;
	assert_int_equal(run_child(child_drop_like_a_unit, &c), CHILD_OK);
}

/* Groups the service manager granted (SupplementaryGroups=tss) outlive the
 * drop; root's group 0 does not. */
#define GRANTED_GID 64125

static int child_drop_keeps_granted_groups(const void *p)
{
	const struct drop_case *c = p;
	const gid_t granted[] = { 0, GRANTED_GID };
	gid_t groups[8];
	int n;

	if (setgroups(2, granted) < 0)
		return 102;
	if (privs_drop(c->arg) != 0)
		return CHILD_DROP_FAILED;
	if (getgid() != c->gid)
		return CHILD_WRONG_GID;
	n = getgroups(8, groups);
	if (n != 2)
		return CHILD_WRONG_GROUPS;
	for (int i = 0; i < n; i++)
		if (groups[i] != c->gid && groups[i] != GRANTED_GID)
			return CHILD_WRONG_GROUPS;
	if (status_hex("CapEff") != CAP_SYS_ADMIN_MASK)
		return CHILD_WRONG_CAPEFF;
	return CHILD_OK;
}

static void test_drop_keeps_granted_groups(void **state)
{
	struct drop_case c;

	(void)state;
	if (geteuid() != 0)
		skip();
	nobody_case(&c);
	assert_int_equal(run_child(child_drop_keeps_granted_groups, &c), CHILD_OK);
}

static int child_drop_expect(const void *p)
{
	const char *arg = p;
	int r = privs_drop(arg);

	/* Refused before anything changed: still root. */
	if (getuid() != 0 || status_hex("CapEff") == CAP_SYS_ADMIN_MASK)
		return 100;
	return -r;
}

static void test_drop_bad_arguments(void **state)
{
	char longname[400];

	(void)state;
	if (geteuid() != 0)
		skip();
	assert_int_equal(run_child(child_drop_expect, ""), EINVAL);
	assert_int_equal(run_child(child_drop_expect, ":nogroup"), EINVAL);
	assert_int_equal(run_child(child_drop_expect, "nobody:"), EINVAL);
	assert_int_equal(run_child(child_drop_expect, "no-such-user-ksink"), ESRCH);
	assert_int_equal(run_child(child_drop_expect, "nobody:no-such-group-ksink"), ESRCH);
	assert_int_equal(run_child(child_drop_expect, "-1"), ESRCH);
	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	assert_int_equal(run_child(child_drop_expect, longname), EINVAL);
}

static int child_drop_unprivileged(const void *p)
{
	(void)p;
	/* First become nobody with nothing, then try again: it must fail. */
	if (setgroups(0, NULL) < 0 || setgid(65534) < 0 || setuid(65534) < 0)
		return 101;
	return -privs_drop("root");
}

static void test_drop_without_privileges_fails(void **state)
{
	(void)state;
	if (geteuid() != 0)
		skip();
	assert_int_equal(run_child(child_drop_unprivileged, NULL), EPERM);
}

/* ---- pid file ------------------------------------------------------------- */

static char pid_path[64];

static int setup_pidfile(void **state)
{
	int fd;

	(void)state;
	(void)snprintf(pid_path, sizeof(pid_path), "/tmp/ksink-pid-XXXXXX");
	fd = mkstemp(pid_path);
	assert_true(fd >= 0);
	(void)close(fd);
	assert_int_equal(unlink(pid_path), 0);
	return 0;
}

static int teardown_pidfile(void **state)
{
	(void)state;
	(void)unlink(pid_path);
	return 0;
}

static pid_t read_pidfile(void)
{
	char text[32] = "";
	FILE *f = fopen(pid_path, "r");

	assert_non_null(f);
	assert_non_null(fgets(text, sizeof(text), f));
	(void)fclose(f);
	return (pid_t)atol(text);
}

/*
 * The other process a second rngd meets: a child that has done one step
 * with the pid file (taken its lock, or taken it over) and holds on to it
 * until let go.
 */
struct holding_child {
	pid_t pid;
	int ready[2], go[2];
};

/* Forks a child that runs @step (0: done) and holds; the test fails unless the step was done. */
static void holding_child_start(struct holding_child *c, int (*step)(const void *), const void *arg)
{
	char byte = 0;

	assert_int_equal(pipe(c->ready), 0);
	assert_int_equal(pipe(c->go), 0);
	c->pid = fork();
	assert_true(c->pid >= 0);
	if (c->pid == 0) {
		int r;

		/* Only the test's ends left open: should it fail, its exit lets us go. */
		(void)close(c->ready[0]);
		(void)close(c->go[1]);
		r = step(arg);

		byte = r == 0 ? 'y' : 'n';
		if (write(c->ready[1], &byte, 1) != 1 || read(c->go[0], &byte, 1) != 1)
			_exit(2);
		_exit(r == 0 ? 0 : 1);
	}
	assert_int_equal(read(c->ready[0], &byte, 1), 1);
	assert_int_equal(byte, 'y');
}

/* Lets the child go: it must exit cleanly, and what it held goes with it. */
static void holding_child_release(struct holding_child *c)
{
	int status;

	assert_int_equal(write(c->go[1], "x", 1), 1);
	assert_int_equal(waitpid(c->pid, &status, 0), c->pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	for (int i = 0; i < 2; i++) {
		(void)close(c->ready[i]);
		(void)close(c->go[i]);
	}
}

static int child_locks_pidfile(const void *arg)
{
	pid_t holder;

	(void)arg;
	return pidfile_lock(pid_path, &holder) >= 0 ? 0 : -1;
}

/* Daemonizing: the child takes over the lock and the pid. */
static int child_takes_over_pidfile(const void *fd)
{
	return pidfile_update(*(const int *)fd);
}

/* The pid file, locked by this process with nobody holding it before. */
static int pidfile_taken(void)
{
	pid_t holder = -1;
	int fd = pidfile_lock(pid_path, &holder);

	assert_true(fd >= 0);
	assert_int_equal(holder, 0);
	assert_int_equal(read_pidfile(), getpid());
	return fd;
}

static void test_pidfile_second_lock_names_holder(void **state)
{
	struct holding_child child;
	pid_t holder = -1;
	int fd;

	(void)state;
	holding_child_start(&child, child_locks_pidfile, NULL);

	assert_int_equal(pidfile_lock(pid_path, &holder), -EEXIST);
	assert_int_equal(holder, child.pid);
	assert_int_equal(read_pidfile(), child.pid);

	holding_child_release(&child);

	/* The holder is gone: its lock went with it. */
	fd = pidfile_taken();
	assert_int_equal(close(fd), 0);
}

static void test_pidfile_survives_fork(void **state)
{
	struct holding_child child;
	pid_t holder = -1;
	int fd;

	(void)state;
	fd = pidfile_taken();
	holding_child_start(&child, child_takes_over_pidfile, &fd);
	assert_int_equal(close(fd), 0);

	assert_int_equal(pidfile_lock(pid_path, &holder), -EEXIST);
	assert_int_equal(holder, child.pid);

	holding_child_release(&child);
	fd = pidfile_taken();
	assert_int_equal(close(fd), 0);
}

/* Released at exit: the file stays, empty, so its pid cannot name a later
 * process; the lock is gone, and the next rngd takes the empty file. */
static void test_pidfile_release_empties_it(void **state)
{
	struct stat st;
	int fd;

	(void)state;
	fd = pidfile_taken();
	assert_int_equal(pidfile_release(&fd), 0);
	assert_int_equal(fd, -1);
	assert_int_equal(stat(pid_path, &st), 0);
	assert_int_equal(st.st_size, 0);
	assert_int_equal(pidfile_release(&fd), 0);   /* twice, or never locked: nothing */

	fd = pidfile_taken();
	pidfile_release(&fd);
}

static void test_pidfile_errors(void **state)
{
	pid_t holder = -1;

	(void)state;
	assert_int_equal(pidfile_lock("/nonexistent/ksink/rngd.pid", &holder), -ENOENT);
	assert_int_equal(holder, 0);
	/* A symlink planted at the pid file's place is not followed. */
	assert_int_equal(symlink("/etc/passwd", pid_path), 0);
	assert_int_equal(pidfile_lock(pid_path, &holder), -ELOOP);
}

RNGD_TEST_MAIN(
	cmocka_unit_test(test_drop_to_nobody),
	cmocka_unit_test(test_drop_in_a_units_bounding_set),
	cmocka_unit_test(test_drop_keeps_granted_groups),
	cmocka_unit_test(test_drop_bad_arguments),
	cmocka_unit_test(test_drop_without_privileges_fails),
	cmocka_unit_test_setup_teardown(test_pidfile_second_lock_names_holder,
					setup_pidfile, teardown_pidfile),
	cmocka_unit_test_setup_teardown(test_pidfile_survives_fork, setup_pidfile,
					teardown_pidfile),
	cmocka_unit_test_setup_teardown(test_pidfile_release_empties_it, setup_pidfile, teardown_pidfile),
	cmocka_unit_test_setup_teardown(test_pidfile_errors, setup_pidfile, teardown_pidfile)
)
