/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The D-Bus interface, as one table: every method with its arguments'
 * names and types, its handler and the polkit action it needs, and every
 * signal. The dispatcher finds a call's row here and checks its signature
 * against the row's input arguments; Introspect writes its XML from the
 * same rows (and from props_table() for the properties), so the two cannot
 * disagree.
 */

#include <stddef.h>
#include <stdio.h>

#include "dispatch.h"

#define T_NODE (1u << TARGET_NODE)
#define T_MANAGER (1u << TARGET_MANAGER)
#define T_ARRAY (1u << TARGET_ARRAY)
#define T_ALL (T_NODE | T_MANAGER | T_ARRAY)

/* One argument: its name in the introspection data and its D-Bus type. */
typedef struct iface_arg {
        const char *name;
        const char *type;
} iface_arg;

/* Where a row's polkit details come from. */
enum {
        ARG_NONE = -1,   /* no such detail */
        ARG_OBJECT = -2, /* the array object the call was made on */
        ARG_ALL = -3,    /* every boosted array */
};

typedef struct method {
        unsigned targets; /* T_* the method is on */
        const char *interface;
        const char *member;
        const iface_arg *in;  /* ends with a NULL name */
        const iface_arg *out; /* ends with a NULL name */
        method_fn handler;    /* NULL: libdbus answers it itself (Peer) */
        const char *action;   /* polkit action, NULL: anyone */
        int array_arg;        /* the argument naming the array, or ARG_* */
        int profile_arg;      /* the argument naming the profile, or ARG_NONE */
} method;

/* The row for (@iface, @member) on an object of @kind; @iface NULL matches any. NULL when none. */
const method *interface_find_method(target kind, const char *iface, const char *member);

/* The signature @mt takes: its input arguments' types, in order. -ENOBUFS when @size is too small. */
int interface_signature(const method *mt, char *buf, size_t size);

/* Whether @iface is the service's own (errors then carry its names and hints). */
bool interface_is_own(const char *iface);

/* Writes the <interface> elements of an object of @kind to @f. */
void interface_write_xml(FILE *f, target kind);
