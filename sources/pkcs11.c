/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * PKCS#11 source: C_GenerateRandom from a token (HSM, smart card) through
 * any PKCS#11 module, loaded with p11-kit.
 *
 * Off unless configured: without -O pkcs11:module:PATH the probe says so
 * and the daemon skips the source. Keys: module:PATH, token:LABEL or
 * slot:N (default: the first token that has an RNG), pin-file:PATH (the
 * PIN is never taken from the command line, and a file others may read is
 * refused), chunk:BYTES (per C_GenerateRandom call).
 *
 * Credit is 0 by default: a token's "random" is whatever its firmware
 * calls random, often a DRBG seeded once at manufacture, and PKCS#11 has
 * no way to tell. The gate still tests every block; a user who knows the
 * token's design raises the credit with -O pkcs11:entropy_per_bit:X.
 *
 * The source instance owns one session, used only by its reader thread.
 * A failed read that means the token went away (CKR_DEVICE_REMOVED,
 * CKR_TOKEN_NOT_PRESENT, CKR_SESSION_HANDLE_INVALID, ...) closes the
 * session; the daemon's re-open looks for the token again (re-initialising
 * the module once, for modules that only learn of new tokens then), so a
 * token pulled and put back is read again. A rejected PIN is never tried
 * again: tokens lock after a few wrong PINs.
 */
#include <config.h>

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <p11-kit/p11-kit.h>
#include <p11-kit/pkcs11.h>

#include "sources/close_fd.h"
#include "sources/dl.h"
#include "sources/pkcs11.h"
#include "sources/parse_num.h"
#include "sources/read_full.h"
#include "sources/source.h"

#define P11KIT_SONAME "libp11-kit.so.0"

/*
 * p11-kit's calls, dlopen()ed when a module is configured and first loaded
 * (sources/dl.h): the unconfigured default maps nothing of p11-kit.
 */
struct p11kit_lib {
	void *handle;
	CK_FUNCTION_LIST *(*module_load)(const char *path, int flags);
	CK_RV (*module_initialize)(CK_FUNCTION_LIST *module);
	CK_RV (*module_finalize)(CK_FUNCTION_LIST *module);
	void (*module_release)(CK_FUNCTION_LIST *module);
	const char *(*message)(void);
};

/* ---- 1. CKR names and the PIN file --------------------------------------- */

#define RV(name) { name, #name }
static const struct {
	CK_RV rv;
	const char *name;
} rv_names[] = {
	RV(CKR_OK), RV(CKR_CANCEL), RV(CKR_HOST_MEMORY), RV(CKR_SLOT_ID_INVALID),
	RV(CKR_GENERAL_ERROR), RV(CKR_FUNCTION_FAILED), RV(CKR_ARGUMENTS_BAD),
	RV(CKR_CANT_LOCK), RV(CKR_FUNCTION_NOT_SUPPORTED), RV(CKR_DEVICE_ERROR),
	RV(CKR_DEVICE_MEMORY), RV(CKR_DEVICE_REMOVED), RV(CKR_FUNCTION_CANCELED),
	RV(CKR_OPERATION_ACTIVE), RV(CKR_PIN_INCORRECT), RV(CKR_PIN_INVALID),
	RV(CKR_PIN_LEN_RANGE), RV(CKR_PIN_EXPIRED), RV(CKR_PIN_LOCKED),
	RV(CKR_SESSION_CLOSED), RV(CKR_SESSION_COUNT), RV(CKR_SESSION_HANDLE_INVALID),
	RV(CKR_SESSION_PARALLEL_NOT_SUPPORTED), RV(CKR_TOKEN_NOT_PRESENT),
	RV(CKR_TOKEN_NOT_RECOGNIZED), RV(CKR_USER_ALREADY_LOGGED_IN), RV(CKR_USER_NOT_LOGGED_IN),
	RV(CKR_USER_PIN_NOT_INITIALIZED), RV(CKR_USER_TYPE_INVALID),
	RV(CKR_USER_ANOTHER_ALREADY_LOGGED_IN), RV(CKR_RANDOM_SEED_NOT_SUPPORTED),
	RV(CKR_RANDOM_NO_RNG), RV(CKR_BUFFER_TOO_SMALL), RV(CKR_CRYPTOKI_NOT_INITIALIZED),
	RV(CKR_CRYPTOKI_ALREADY_INITIALIZED),
};
#undef RV

const char *pkcs11_rv_name(unsigned long rv, char *buf, size_t len)
{
	for (size_t i = 0; i < sizeof(rv_names) / sizeof(rv_names[0]); i++)
		if (rv_names[i].rv == rv)
			return rv_names[i].name;
	snprintf(buf, len, "CKR_0x%lX", rv);
	return buf;
}

/* The PIN of the open pin-file @fd (named @path in messages; @st its
 * fstat(), so a rename in between cannot slip past the checks), read from
 * its start: 0, or -errno with why set (-EPERM: readable by others). */
static int pin_from_fd(int fd, const struct stat *st, const char *path, char *pin, size_t pin_len, char *why,
		       size_t why_len)
{
	ssize_t n;
	size_t eol;
	bool too_long;

	if (!S_ISREG(st->st_mode)) {
		snprintf(why, why_len, "pin-file %s: not a regular file", path);
		return -EINVAL;
	}
	if (st->st_mode & S_IROTH) {
		snprintf(why, why_len, "pin-file %s is readable by others (mode %04o): chmod o-r it",
			 path, (unsigned)(st->st_mode & 07777));
		return -EPERM;
	}
	if (lseek(fd, 0, SEEK_SET) < 0) {
		int err = -errno;

		snprintf(why, why_len, "pin-file %s: %s", path, strerror(-err));
		return err;
	}
	n = rng_read_full(fd, pin, pin_len - 1);
	if (n < 0) {
		explicit_bzero(pin, pin_len);   /* a part may have been read */
		snprintf(why, why_len, "pin-file %s: %s", path, strerror((int)-n));
		return (int)n;
	}
	pin[n] = '\0';
	eol = strcspn(pin, "\r\n");
	/* Only the first line counts: what follows its end may be any length,
	 * but a first line that fills the buffer may go on beyond it. */
	too_long = eol == (size_t)n && (size_t)n == pin_len - 1;
	pin[eol] = '\0';
	if (!pin[0] || too_long) {
		explicit_bzero(pin, pin_len);
		snprintf(why, why_len, "pin-file %s: %s", path, too_long ? "PIN too long" : "no PIN on its first line");
		return -EINVAL;
	}
	return 0;
}

int pkcs11_read_pin_file(const char *path, char *pin, size_t pin_len, char *why, size_t why_len)
{
	int fd RNG_CLOSE_ON_RETURN = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	struct stat st;

	if (fd < 0 || fstat(fd, &st) < 0) {
		int err = -errno;

		snprintf(why, why_len, "pin-file %s: %s", path, strerror(-err));
		return err;
	}
	return pin_from_fd(fd, &st, path, pin, pin_len, why, why_len);
}

/* ---- 2. State and options ----------------------------------------------- */

struct pkcs11_state {
	char module_path[PATH_MAX];
	char token_label[33];          /* empty: any token */
	long slot;                     /* -1: any slot */
	char pin_file[PATH_MAX];       /* empty: no login */
	size_t chunk;

	struct p11kit_lib p11kit;
	CK_FUNCTION_LIST *module;      /* loaded and C_Initialize'd, or NULL */
	CK_SESSION_HANDLE session;
	int have_session;
	CK_SLOT_ID slot_id;
	/*
	 * The pin-file as last opened, kept: after -D the rngd user may not
	 * open a root-only file again, and every SIGHUP re-opens the source.
	 */
	int pin_fd;
	/* A PIN the token refused is never presented again (tokens lock after
	 * a few tries): the file that held it, as it was then, is refused
	 * until it changes. Nothing derived from the PIN is kept. */
	bool pin_rejected;
	struct stat rejected_file;
};

static const struct pkcs11_state pkcs11_defaults = {
	.slot = -1,
	.chunk = PKCS11_CHUNK_DEFAULT,
	.pin_fd = -1,
};

static int copy_value(struct rng_source *src, const char *key, char *dst, size_t len, const char *value)
{
	if (!value[0] || strlen(value) >= len)
		return rng_source_why(src, -EINVAL, "%s: '%s' is empty or too long", key, value);
	memcpy(dst, value, strlen(value) + 1);
	return 0;
}

static int pkcs11_set_option(struct rng_source *src, const char *key, const char *value)
{
	struct pkcs11_state *st = src->priv;
	char *end;

	if (strcmp(key, "module") == 0)
		return copy_value(src, key, st->module_path, sizeof(st->module_path), value);
	if (strcmp(key, "token") == 0)
		return copy_value(src, key, st->token_label, sizeof(st->token_label), value);
	if (strcmp(key, "pin-file") == 0)
		return copy_value(src, key, st->pin_file, sizeof(st->pin_file), value);
	if (strcmp(key, "slot") == 0) {
		long v;

		errno = 0;
		v = strtol(value, &end, 10);
		if (errno || *end || !value[0] || v < 0)
			return rng_source_why(src, -EINVAL, "slot '%s' is not a slot number", value);
		st->slot = v;
		return 0;
	}
	if (strcmp(key, "chunk") == 0) {
		unsigned long v;

		if (rng_parse_uint(value, 1, PKCS11_CHUNK_MAX, &v) < 0)
			return rng_source_why(src, -EINVAL, "chunk '%s' is not 1..%d bytes", value, PKCS11_CHUNK_MAX);
		st->chunk = v;
		return 0;
	}
	return rng_source_why(src, -EINVAL, "unknown option '%s' (known: module, token, slot, pin-file, chunk)", key);
}

/* ---- 3. Module, token and session --------------------------------------- */

static int rv_fail(struct rng_source *src, int err, const char *call, CK_RV rv, const char *more)
{
	char buf[32];

	return rng_source_why(src, err, "%s: %s%s", call, pkcs11_rv_name(rv, buf, sizeof(buf)), more);
}

static void module_unload(struct pkcs11_state *st)
{
	if (!st->module)
		return;
	(void)st->p11kit.module_finalize(st->module);
	st->p11kit.module_release(st->module);
	st->module = NULL;
}

static int module_load(struct rng_source *src, struct pkcs11_state *st)
{
	struct p11kit_lib *l = &st->p11kit;
	const struct rng_dl_sym syms[] = {
		RNG_DL_SYM(l, module_load, p11_kit_module_load),
		RNG_DL_SYM(l, module_initialize, p11_kit_module_initialize),
		RNG_DL_SYM(l, module_finalize, p11_kit_module_finalize),
		RNG_DL_SYM(l, module_release, p11_kit_module_release),
		RNG_DL_SYM(l, message, p11_kit_message),
	};
	struct stat sb;
	CK_RV rv;
	int err;

	if (st->module)
		return 0;
	/* A bare name is p11-kit's to find in its module folder; a path is checked here. */
	if (strchr(st->module_path, '/')) {
		if (stat(st->module_path, &sb) < 0)
			return rng_source_why(src, -ENODEV, "module %s: %s", st->module_path, strerror(errno));
		if (!S_ISREG(sb.st_mode) || access(st->module_path, R_OK) < 0)
			return rng_source_why(src, -ENODEV, "module %s: not a readable file", st->module_path);
	}
	err = rng_dl_load(src, P11KIT_SONAME, &l->handle, syms, sizeof(syms) / sizeof(syms[0]));
	if (err < 0)
		return err;
	st->module = st->p11kit.module_load(st->module_path, 0);
	if (!st->module)
		return rng_source_why(src, -ENODEV, "module %s: cannot load: %s", st->module_path,
				      st->p11kit.message() ? st->p11kit.message() : "unknown error");
	rv = st->p11kit.module_initialize(st->module);
	if (rv != CKR_OK) {
		st->p11kit.module_release(st->module);
		st->module = NULL;
		return rv_fail(src, -ENODEV, "C_Initialize", rv, "");
	}
	return 0;
}

/* A blank-padded CK_UTF8CHAR[32] label as a C string. */
static void label_of(const CK_TOKEN_INFO *ti, char out[33])
{
	size_t n = sizeof(ti->label);

	memcpy(out, ti->label, n);
	while (n > 0 && out[n - 1] == ' ')
		n--;
	out[n] = '\0';
}

/* The slot holding the configured token, or -ENODEV with why. */
static int find_slot(struct rng_source *src, struct pkcs11_state *st)
{
	CK_SLOT_ID slots[64];
	CK_ULONG count = sizeof(slots) / sizeof(slots[0]);
	CK_RV rv = st->module->C_GetSlotList(CK_TRUE, slots, &count);

	if (rv != CKR_OK)
		return rv_fail(src, -ENODEV, "C_GetSlotList", rv, "");
	for (CK_ULONG i = 0; i < count; i++) {
		CK_TOKEN_INFO ti;
		char label[33];

		if (st->slot >= 0 && slots[i] != (CK_SLOT_ID)st->slot)
			continue;
		if (st->module->C_GetTokenInfo(slots[i], &ti) != CKR_OK)
			continue;
		label_of(&ti, label);
		if (st->token_label[0] && strcmp(label, st->token_label) != 0)
			continue;
		if (!(ti.flags & CKF_RNG)) {
			if (st->token_label[0] || st->slot >= 0)
				return rng_source_why(src, -ENODEV, "token '%s' has no RNG (CKF_RNG not set)", label);
			continue;
		}
		/* A blank token (a free SoftHSM slot, a fresh card) cannot open sessions. */
		if (!(ti.flags & CKF_TOKEN_INITIALIZED) && st->slot < 0)
			continue;
		st->slot_id = slots[i];
		return 0;
	}
	if (st->token_label[0] && st->slot >= 0)
		return rng_source_why(src, -ENODEV, "no token labelled '%s' in slot %ld (token: and slot: must both match)",
				      st->token_label, st->slot);
	if (st->token_label[0])
		return rng_source_why(src, -ENODEV, "no token labelled '%s' (%lu token%s present)", st->token_label,
				      (unsigned long)count, count == 1 ? "" : "s");
	if (st->slot >= 0)
		return rng_source_why(src, -ENODEV, "no token in slot %ld", st->slot);
	return rng_source_why(src, -ENODEV, "no initialised token with an RNG (%lu token%s present)", (unsigned long)count,
			      count == 1 ? "" : "s");
}

static void session_close(struct pkcs11_state *st)
{
	if (st->have_session && st->module)
		(void)st->module->C_CloseSession(st->session);
	st->have_session = 0;
}

/* The same file, unchanged since @then was taken. */
static bool same_file(const struct stat *now, const struct stat *then)
{
	return now->st_dev == then->st_dev && now->st_ino == then->st_ino && now->st_size == then->st_size &&
	       now->st_mtim.tv_sec == then->st_mtim.tv_sec && now->st_mtim.tv_nsec == then->st_mtim.tv_nsec &&
	       now->st_ctim.tv_sec == then->st_ctim.tv_sec && now->st_ctim.tv_nsec == then->st_ctim.tv_nsec;
}

/* The pin-file opened afresh (a new PIN, a replaced file), else, when the
 * rngd user may not open it, as it was opened before -D. */
static int pin_file_fd(struct rng_source *src, struct pkcs11_state *st)
{
	int fd = open(st->pin_file, O_RDONLY | O_CLOEXEC | O_NOCTTY);

	if (fd >= 0) {
		rng_close_fd(&st->pin_fd);
		st->pin_fd = fd;
		return 0;
	}
	if ((errno == EACCES || errno == EPERM) && st->pin_fd >= 0)
		return 0;
	return rng_source_why(src, -errno, "pin-file %s: %s", st->pin_file, strerror(errno));
}

static int login(struct rng_source *src, struct pkcs11_state *st)
{
	char pin[PKCS11_PIN_MAX];
	struct stat file;
	CK_RV rv;
	int err;

	if (!st->pin_file[0])
		return 0;
	err = pin_file_fd(src, st);
	if (err < 0)
		return err;
	if (fstat(st->pin_fd, &file) < 0)
		return rng_source_why(src, -errno, "pin-file %s: %s", st->pin_file, strerror(errno));
	if (st->pin_rejected && same_file(&file, &st->rejected_file))
		return rng_source_why(src, -EINVAL, "the token rejected the PIN in %s before; not tried again until "
				      "the file changes", st->pin_file);
	err = pin_from_fd(st->pin_fd, &file, st->pin_file, pin, sizeof(pin), src->why, sizeof(src->why));
	if (err < 0)
		return err == -EPERM ? -EINVAL : err;
	rv = st->module->C_Login(st->session, CKU_USER, (CK_UTF8CHAR_PTR)pin, strlen(pin));
	explicit_bzero(pin, sizeof(pin));
	if (rv == CKR_OK || rv == CKR_USER_ALREADY_LOGGED_IN) {
		st->pin_rejected = false;
		return 0;
	}
	if (rv == CKR_PIN_INCORRECT || rv == CKR_PIN_INVALID || rv == CKR_PIN_LEN_RANGE || rv == CKR_PIN_LOCKED ||
	    rv == CKR_PIN_EXPIRED) {
		st->pin_rejected = true;
		st->rejected_file = file;
		return rv_fail(src, -EINVAL, "C_Login", rv,
			       " (PIN from the pin-file); not tried again until the file changes");
	}
	return rv_fail(src, -EIO, "C_Login", rv, "");
}

/* Load, find, open a session, log in: everything up to the first read. */
static int session_open(struct rng_source *src, struct pkcs11_state *st)
{
	CK_RV rv;
	int err;

	if (st->have_session)
		return 0;
	if (!st->module_path[0])
		return rng_source_why(src, -ENODEV, "off: no module configured (-O pkcs11:module:PATH)");
	err = module_load(src, st);
	if (err < 0)
		return err;
	err = find_slot(src, st);
	if (err == -ENODEV) {
		/* Some modules only see a re-inserted token after C_Finalize/C_Initialize. */
		module_unload(st);
		err = module_load(src, st);
		if (err == 0)
			err = find_slot(src, st);
	}
	if (err < 0)
		return err;
	rv = st->module->C_OpenSession(st->slot_id, CKF_SERIAL_SESSION, NULL, NULL, &st->session);
	if (rv != CKR_OK)
		return rv_fail(src, rv == CKR_TOKEN_NOT_PRESENT || rv == CKR_DEVICE_REMOVED ? -ENODEV : -EIO,
			       "C_OpenSession", rv, "");
	st->have_session = 1;
	err = login(src, st);
	if (err < 0) {
		session_close(st);
		return err;
	}
	return 0;
}

/* ---- 4. Probe, open, read, close ---------------------------------------- */

static int describe(struct rng_source *src, struct pkcs11_state *st, const char *what)
{
	CK_TOKEN_INFO ti;
	char label[33] = "?";

	if (st->module->C_GetTokenInfo(st->slot_id, &ti) == CKR_OK)
		label_of(&ti, label);
	return rng_source_why(src, 0, "%s token '%s' in slot %lu%s", what, label, (unsigned long)st->slot_id,
			      st->pin_file[0] ? ", logged in" : "");
}

/*
 * The probe opens the session for real: a wrong PIN or a missing token is
 * a configuration error that must be reported once at start, not found by
 * a reader thread retrying forever. open() then reuses that session.
 */
static int pkcs11_probe(struct rng_source *src)
{
	struct pkcs11_state *st = src->priv;
	int err;

	if (!st->module_path[0])
		return rng_source_why(src, -ENODEV, "off: no module configured (-O pkcs11:module:PATH)");
	if (st->pin_file[0] && !st->have_session) {
		char pin[PKCS11_PIN_MAX];

		err = pkcs11_read_pin_file(st->pin_file, pin, sizeof(pin), src->why, sizeof(src->why));
		explicit_bzero(pin, sizeof(pin));
		if (err == -EACCES)
			return err;     /* rngd -l as a user: root can tell */
		if (err < 0)
			return -EINVAL;
	}
	err = session_open(src, st);
	if (err < 0)
		return err;
	return describe(src, st, "C_GenerateRandom from");
}

static int pkcs11_open(struct rng_source *src)
{
	struct pkcs11_state *st = src->priv;
	int err;

	err = session_open(src, st);
	if (err < 0)
		return err;
	return describe(src, st, "reading");
}

static int token_gone(CK_RV rv)
{
	return rv == CKR_DEVICE_REMOVED || rv == CKR_TOKEN_NOT_PRESENT || rv == CKR_SESSION_HANDLE_INVALID ||
	       rv == CKR_SESSION_CLOSED || rv == CKR_DEVICE_ERROR || rv == CKR_CRYPTOKI_NOT_INITIALIZED ||
	       rv == CKR_USER_NOT_LOGGED_IN;
}

static ssize_t pkcs11_read(struct rng_source *src, void *buf, size_t len)
{
	struct pkcs11_state *st = src->priv;
	unsigned char *out = buf;
	size_t done = 0;

	if (!st->have_session)
		return rng_source_why(src, -EBADF, "read before open");
	while (done < len) {
		size_t n = len - done < st->chunk ? len - done : st->chunk;
		CK_RV rv = st->module->C_GenerateRandom(st->session, out + done, n);

		if (rv != CKR_OK) {
			explicit_bzero(out + done, n);
			/* The session is dead either way; the daemon re-opens with back-off. */
			session_close(st);
			return rv_fail(src, -EIO, "C_GenerateRandom", rv,
				       token_gone(rv) ? " (token removed?); looking for it again" : "");
		}
		done += n;
	}
	return (ssize_t)done;
}

static void pkcs11_close(struct rng_source *src)
{
	session_close(src->priv);
}

static void pkcs11_release(struct rng_source *src)
{
	struct pkcs11_state *st = src->priv;

	/* rngd -l probes (a real session, see above) and never closes. */
	session_close(st);
	rng_close_fd(&st->pin_fd);
	module_unload(st);
	rng_dl_unload(&st->p11kit.handle);
}

const struct rng_source_ops rng_source_pkcs11_ops = {
	.name = "pkcs11",
	.summary = "PKCS#11 token C_GenerateRandom (off unless -O pkcs11:module:PATH)",
	.keys = "module=(none) token slot pin-file chunk=64",
	.default_entropy_per_bit = 0.0,
	.default_priority = 1,
	.priv_size = sizeof(struct pkcs11_state),
	.priv_defaults = &pkcs11_defaults,
	.probe = pkcs11_probe,
	.open = pkcs11_open,
	.read = pkcs11_read,
	.close = pkcs11_close,
	.set_option = pkcs11_set_option,
	.release = pkcs11_release,
};
