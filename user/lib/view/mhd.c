// SPDX-License-Identifier: GPL-2.0
/* libmicrohttpd loaded on first use (mhd.h says why). */
#include <dlfcn.h>
#include <stddef.h>
#include <string.h>

#include "view/mhd.h"

#define FN(name) { "MHD_" #name, offsetof(struct ftsw_mhd, name) }

static const struct {
	const char *sym;
	size_t off;
} mhd_fns[] = {
	FN(start_daemon),
	FN(stop_daemon),
	FN(run),
	FN(get_timeout),
	FN(get_daemon_info),
	FN(suspend_connection),
	FN(resume_connection),
	FN(lookup_connection_value),
	FN(create_response_from_buffer),
	FN(create_response_from_buffer_with_free_callback_cls),
	FN(create_response_from_callback),
	FN(add_response_header),
	FN(queue_response),
	FN(destroy_response),
};

const struct ftsw_mhd *ftsw_mhd_load(struct ftsw_err *err)
{
	static struct ftsw_mhd mhd;
	static void *lib;
	struct ftsw_mhd fns;
	const char *e;
	size_t i;
	void *h;

	if (lib)
		return &mhd;
	h = dlopen(FTSW_MHD_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		e = dlerror();
		ftsw_err_set(err, "the HTTP server's library: %s", e ? e :
			     FTSW_MHD_SONAME " not found");
		return NULL;
	}
	for (i = 0; i < sizeof(mhd_fns) / sizeof(mhd_fns[0]); i++) {
		void *p = dlsym(h, mhd_fns[i].sym);

		if (!p) {
			ftsw_err_set(err, "the HTTP server's library %s has no %s",
				     FTSW_MHD_SONAME, mhd_fns[i].sym);
			dlclose(h);
			return NULL;
		}
		/* POSIX: a dlsym() result converts to a function pointer */
		memcpy((char *)&fns + mhd_fns[i].off, &p, sizeof(p));
	}
	mhd = fns;
	lib = h;
	return &mhd;
}
