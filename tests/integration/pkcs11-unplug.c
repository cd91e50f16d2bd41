/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pkcs11-unplug.so: a PKCS#11 module that forwards to another one
 * ($PKCS11_UNPLUG_MODULE, e.g. SoftHSM2) and pretends its token is pulled
 * out while the file $PKCS11_UNPLUG_FLAG exists: C_GenerateRandom fails
 * with CKR_DEVICE_REMOVED, the slot list shows no token and sessions
 * cannot be opened. Removing the file puts the token back, and, as with
 * a real token, every session opened before is gone (so is the login).
 * Lets tests/integration/source-pkcs11.sh unplug a token mid-run.
 */
#include <dlfcn.h>
#include <stdlib.h>
#include <unistd.h>

#include <p11-kit/pkcs11.h>

CK_RV C_GetFunctionList(CK_FUNCTION_LIST_PTR_PTR list);

static CK_FUNCTION_LIST real;    /* the wrapped module's table */
static CK_FUNCTION_LIST wrapped; /* ours: real's with four entries replaced */

static int was_unplugged; /* seen unplugged since the last put-back */

/* Whether the token is out now; on the first call after it is back, the old sessions die. */
static int unplugged(void)
{
	const char *flag = getenv("PKCS11_UNPLUG_FLAG");
	CK_SLOT_ID slots[16];
	CK_ULONG n = 16;

	if (flag && access(flag, F_OK) == 0) {
		was_unplugged = 1;
		return 1;
	}
	if (was_unplugged) {
		was_unplugged = 0;
		if (real.C_GetSlotList(CK_FALSE, slots, &n) == CKR_OK)
			for (CK_ULONG i = 0; i < n; i++)
				(void)real.C_CloseAllSessions(slots[i]);
	}
	return 0;
}

static CK_RV unplug_GetSlotList(CK_BBOOL token_present, CK_SLOT_ID_PTR slots, CK_ULONG_PTR count)
{
	if (token_present && unplugged()) {
		*count = 0;
		return CKR_OK;
	}
	return real.C_GetSlotList(token_present, slots, count);
}

static CK_RV unplug_GetTokenInfo(CK_SLOT_ID slot, CK_TOKEN_INFO_PTR info)
{
	return unplugged() ? CKR_TOKEN_NOT_PRESENT : real.C_GetTokenInfo(slot, info);
}

static CK_RV unplug_OpenSession(CK_SLOT_ID slot, CK_FLAGS flags, CK_VOID_PTR app, CK_NOTIFY notify,
				CK_SESSION_HANDLE_PTR session)
{
	return unplugged() ? CKR_TOKEN_NOT_PRESENT : real.C_OpenSession(slot, flags, app, notify, session);
}

static CK_RV unplug_GenerateRandom(CK_SESSION_HANDLE session, CK_BYTE_PTR buf, CK_ULONG len)
{
	return unplugged() ? CKR_DEVICE_REMOVED : real.C_GenerateRandom(session, buf, len);
}

CK_RV C_GetFunctionList(CK_FUNCTION_LIST_PTR_PTR list)
{
	const char *path = getenv("PKCS11_UNPLUG_MODULE");
	CK_C_GetFunctionList get;
	CK_FUNCTION_LIST_PTR inner;
	void *h;

	if (!path || !(h = dlopen(path, RTLD_NOW | RTLD_LOCAL)))
		return CKR_GENERAL_ERROR;
	get = (CK_C_GetFunctionList)dlsym(h, "C_GetFunctionList");
	if (!get || get(&inner) != CKR_OK)
		return CKR_GENERAL_ERROR;
	real = *inner;
	wrapped = real;
	wrapped.C_GetSlotList = unplug_GetSlotList;
	wrapped.C_GetTokenInfo = unplug_GetTokenInfo;
	wrapped.C_OpenSession = unplug_OpenSession;
	wrapped.C_GenerateRandom = unplug_GenerateRandom;
	*list = &wrapped;
	return CKR_OK;
}
