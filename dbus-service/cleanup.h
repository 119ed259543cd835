/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Scope-bound cleanup, as systemd's CODING_STYLE.md has it: a variable
 * declared _cleanup_free_ (or _cleanup_close_, _cleanup_fclose_,
 * _cleanup_message_, _cleanup_json_) is released when it goes out of scope,
 * on every return. TAKE_PTR / TAKE_FD hand it over instead, leaving nothing
 * behind to release.
 */

#include <dbus/dbus.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define _cleanup_(f) __attribute__((cleanup(f)))

static inline void freep(void *p) {
        free(*(void **)p);
}

static inline void closep(int *fd) {
        if (*fd >= 0)
                close(*fd);
}

static inline void fclosep(FILE **f) {
        if (*f)
                fclose(*f);
}

static inline void dbus_message_unrefp(DBusMessage **m) {
        if (*m)
                dbus_message_unref(*m);
}

static inline void json_object_putp(json_object **o) {
        json_object_put(*o); /* NULL is fine */
}

#define _cleanup_free_ _cleanup_(freep)
#define _cleanup_close_ _cleanup_(closep)
#define _cleanup_fclose_ _cleanup_(fclosep)
#define _cleanup_message_ _cleanup_(dbus_message_unrefp)
#define _cleanup_json_ _cleanup_(json_object_putp)

/* The value of @p, which is then NULL: the caller owns it now. */
#define TAKE_PTR(p)                                                                                                    \
        ({                                                                                                             \
                __typeof__(p) _taken = (p);                                                                            \
                (p) = NULL;                                                                                            \
                _taken;                                                                                                \
        })

/* The descriptor @fd, which is then -1. */
#define TAKE_FD(fd)                                                                                                    \
        ({                                                                                                             \
                int _taken = (fd);                                                                                     \
                (fd) = -1;                                                                                             \
                _taken;                                                                                                \
        })
