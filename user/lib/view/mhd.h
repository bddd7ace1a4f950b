/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libmicrohttpd as the view's server calls it, resolved when a view starts
 * serving rather than when a program linking libftsw starts: linked in,
 * libmicrohttpd and the nine libraries it brings (GnuTLS and its stack)
 * were mapped and relocated by every ftsw command, for a server only
 * `lab view` runs (a third of a second per command in the test VM, most
 * of what an ftsw start costs there). Each member has the type of the
 * function of <microhttpd.h> it stands for.
 */
#ifndef FTSW_VIEW_MHD_H
#define FTSW_VIEW_MHD_H

#include <microhttpd.h>

#include "util/util.h"

/* The library ftsw is built against (Debian: libmicrohttpd12). */
#define FTSW_MHD_SONAME "libmicrohttpd.so.12"

struct ftsw_mhd {
	__typeof__(MHD_start_daemon) *start_daemon;
	__typeof__(MHD_stop_daemon) *stop_daemon;
	__typeof__(MHD_run) *run;
	__typeof__(MHD_get_timeout) *get_timeout;
	__typeof__(MHD_get_daemon_info) *get_daemon_info;
	__typeof__(MHD_suspend_connection) *suspend_connection;
	__typeof__(MHD_resume_connection) *resume_connection;
	__typeof__(MHD_lookup_connection_value) *lookup_connection_value;
	__typeof__(MHD_create_response_from_buffer) *create_response_from_buffer;
	__typeof__(MHD_create_response_from_buffer_with_free_callback_cls)
		*create_response_from_buffer_with_free_callback_cls;
	__typeof__(MHD_create_response_from_callback) *create_response_from_callback;
	__typeof__(MHD_add_response_header) *add_response_header;
	__typeof__(MHD_queue_response) *queue_response;
	__typeof__(MHD_destroy_response) *destroy_response;
};

/*
 * The functions, loaded once (FTSW_MHD_SONAME, then kept for the
 * process's life); NULL with err set (the library or a function missing).
 */
const struct ftsw_mhd *ftsw_mhd_load(struct ftsw_err *err);

#endif
