/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Start-up files: the config loader reads only a regular file
 * of at most 1 MiB (CRLF tolerated, a leading BOM skipped, NUL refused);
 * the pid file must be a regular file holding a pid or nothing; -D names
 * are resolved with "user" or "group" named when one does not exist.
 */
#include <config.h>

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "tests/lib/test_main.h"

#include "rngd/options.h"
#include "rngd/privs.h"

#define MIB (1024 * 1024)

static char dir[] = "/tmp/test_startup_files.XXXXXX";

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static const char *path_of(const char *name)
{
	static char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return path;
}

static const char *write_file(const char *name, const void *data, size_t len)
{
	const char *path = path_of(name);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, len), (ssize_t)len);
	assert_int_equal(close(fd), 0);
	return path;
}

static int load(struct rngd_options *o, const char *path, char err[RNGD_ERR_MAX])
{
	rngd_options_init(o);
	err[0] = '\0';
	return rngd_config_load(o, path, true, err);
}

static void test_crlf_and_bom(void **state)
{
	static const char text[] = "\xEF\xBB\xBF# edited elsewhere\r\nrandom-step = 100\r\n\r\non-fail = mix\r\n";
	struct rngd_options o;
	char err[RNGD_ERR_MAX];

	(void)state;
	assert_int_equal(load(&o, write_file("dos.conf", text, sizeof(text) - 1), err), 0);
	assert_int_equal(o.random_step, 100);
	assert_int_equal(o.on_fail, RNGD_ON_FAIL_MIX);
	rngd_options_free(&o);
	/* A BOM anywhere but the start is part of the key. */
	static const char late[] = "quiet = yes\n\xEF\xBB\xBFquiet = yes\n";
	assert_int_equal(load(&o, write_file("late.conf", late, sizeof(late) - 1), err), -EINVAL);
	assert_non_null(strstr(err, ":2: unknown key '\xEF\xBB\xBFquiet'"));
	rngd_options_free(&o);
}

static void test_nul_byte(void **state)
{
	static const char text[] = "quiet = yes\nrandom-step = 1\0""00\n";
	struct rngd_options o;
	char err[RNGD_ERR_MAX];

	(void)state;
	/* Reading up to the NUL would have set random-step to 1. */
	assert_int_equal(load(&o, write_file("nul.conf", text, sizeof(text) - 1), err), -EINVAL);
	assert_non_null(strstr(err, "nul.conf:2: a NUL byte"));
	rngd_options_free(&o);
}

static void test_size_bound(void **state)
{
	char *text = malloc(MIB + 1);
	struct rngd_options o;
	char err[RNGD_ERR_MAX];

	(void)state;
	assert_non_null(text);
	memset(text, '\n', MIB + 1);
	memcpy(text + MIB - 16, "random-step = 7\n", 16);
	assert_int_equal(load(&o, write_file("mib.conf", text, MIB), err), 0);
	assert_int_equal(o.random_step, 7);
	rngd_options_free(&o);
	assert_int_equal(load(&o, write_file("big.conf", text, MIB + 1), err), -EFBIG);
	assert_non_null(strstr(err, "is 1048577 bytes, more than the 1048576 (1 MiB)"));
	rngd_options_free(&o);
	free(text);
}

static void test_long_line(void **state)
{
	char text[5002];
	struct rngd_options o;
	char err[RNGD_ERR_MAX];

	(void)state;
	memset(text, 'x', sizeof(text));
	text[0] = '#';
	text[sizeof(text) - 1] = '\n';
	assert_int_equal(load(&o, write_file("long.conf", text, sizeof(text)), err), -EINVAL);
	assert_non_null(strstr(err, "long.conf:1: line longer than 4096 bytes"));
	rngd_options_free(&o);
}

static void test_not_regular(void **state)
{
	struct rngd_options o;
	char err[RNGD_ERR_MAX];
	const char *fifo = path_of("fifo");

	(void)state;
	assert_int_equal(load(&o, dir, err), -EISDIR);
	assert_non_null(strstr(err, ": is a directory, not a config file"));
	rngd_options_free(&o);
	/* Never opened: nobody writes it, and the load must not wait. */
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(load(&o, fifo, err), -EINVAL);
	assert_non_null(strstr(err, ": is a FIFO, not a config file"));
	rngd_options_free(&o);
	assert_int_equal(load(&o, "/dev/zero", err), -EINVAL);
	assert_string_equal(err, "/dev/zero: is a character device, not a config file (rngd reads only a regular file)");
	rngd_options_free(&o);
	assert_int_equal(load(&o, "/proc/version", err), -EINVAL);
	assert_string_equal(err, "/proc/version: is a kernel file (procfs), not a config file");
	rngd_options_free(&o);
	assert_int_equal(load(&o, "/dev/null", err), 0);
	rngd_options_free(&o);
	assert_int_equal(load(&o, "", err), -EINVAL);
	assert_non_null(strstr(err, "the config file name is empty"));
	rngd_options_free(&o);
}

static void test_pidfile_kinds(void **state)
{
	static const char passwd[] = "root:x:0:0:root:/root:/bin/bash\n";
	char why[160], back[sizeof(passwd)];
	pid_t holder;
	int fd;

	(void)state;
	assert_int_equal(pidfile_lock_why(dir, &holder, why, sizeof(why)), -EISDIR);
	assert_string_equal(why, "is a directory, not a regular file");
	assert_int_equal(pidfile_lock_why("/dev/null", &holder, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "is a character device, not a regular file");
	/* Read-only for all: only root gets as far as looking at what it is. */
	if (geteuid() == 0) {
		assert_int_equal(pidfile_lock_why("/proc/version", &holder, why, sizeof(why)), -EINVAL);
		assert_string_equal(why, "is a kernel file (procfs), not a pid file");
	} else {
		assert_int_equal(pidfile_lock_why("/proc/version", &holder, why, sizeof(why)), -EACCES);
	}
	write_file("passwd", passwd, sizeof(passwd) - 1);
	assert_int_equal(pidfile_lock_why(path_of("passwd"), &holder, why, sizeof(why)), -ENOTEMPTY);
	assert_string_equal(why, "holds something other than a pid; not overwriting it");
	fd = open(path_of("passwd"), O_RDONLY);
	assert_int_equal(read(fd, back, sizeof(back)), (ssize_t)sizeof(passwd) - 1);
	assert_memory_equal(back, passwd, sizeof(passwd) - 1);
	(void)close(fd);
	/* A stale pid from a dead rngd is ours to overwrite. */
	write_file("stale.pid", "4242\n", 5);
	fd = pidfile_lock_why(path_of("stale.pid"), &holder, why, sizeof(why));
	assert_true(fd >= 0);
	(void)close(fd);
}

static void test_privs_resolve_names_missing_user_or_group_and_rejects_empty(void **state)
{
	const char *unknown;
	uid_t uid;
	gid_t gid;

	(void)state;
	assert_int_equal(privs_resolve("root", &uid, &gid, &unknown), 0);
	assert_int_equal(uid, 0);
	assert_int_equal(privs_resolve("nosuchuser-rngd", &uid, &gid, &unknown), -ESRCH);
	assert_string_equal(unknown, "user");
	assert_int_equal(privs_resolve("root:nosuchgroup-rngd", &uid, &gid, &unknown), -ESRCH);
	assert_string_equal(unknown, "group");
	assert_int_equal(privs_resolve("root:", &uid, &gid, &unknown), -EINVAL);
	assert_int_equal(privs_resolve(":root", &uid, &gid, &unknown), -EINVAL);
}

/* A user brings its primary group; a group given after ':' replaces it; a
 * number no entry has is its own id (and, for a user, its group). */
static void test_privs_resolve_ids_from_names_and_bare_numbers(void **state)
{
	static const struct {
		const char *user_group;
		uid_t uid;
		gid_t gid;
	} cases[] = {
		{ "daemon", 1, 1 },            /* Debian's base-passwd: daemon is 1:1 */
		{ "daemon:root", 1, 0 },
		{ "4242", 4242, 4242 },
		{ "4242:daemon", 4242, 1 },
		{ "root:4243", 0, 4243 },
	};
	const char *unknown;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uid_t uid = 7;
		gid_t gid = 7;

		if (privs_resolve(cases[i].user_group, &uid, &gid, &unknown) != 0 || uid != cases[i].uid ||
		    gid != cases[i].gid)
			fail_msg("%s: %u:%u, want %u:%u", cases[i].user_group, (unsigned)uid, (unsigned)gid,
				 (unsigned)cases[i].uid, (unsigned)cases[i].gid);
	}
}

RNGD_TEST_MAIN_WITH(setup, teardown,
	cmocka_unit_test(test_crlf_and_bom),
	cmocka_unit_test(test_nul_byte),
	cmocka_unit_test(test_size_bound),
	cmocka_unit_test(test_long_line),
	cmocka_unit_test(test_not_regular),
	cmocka_unit_test(test_pidfile_kinds),
	cmocka_unit_test(test_privs_resolve_names_missing_user_or_group_and_rejects_empty),
	cmocka_unit_test(test_privs_resolve_ids_from_names_and_bare_numbers)
)
