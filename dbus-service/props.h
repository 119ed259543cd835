/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The Manager's and the arrays' properties: one table of rows each
 * (props-table.c: name, D-Bus type, getter, how a change is noticed), and
 * here the appending of values and the change tracking behind
 * PropertiesChanged (a canonical text per value, compared with the last one
 * sent).
 */

#include <dbus/dbus.h>
#include <stdbool.h>

#include "context.h"

typedef enum obj_kind {
        OBJ_MANAGER,
        OBJ_ARRAY,
        _OBJ_KIND_MAX,
} obj_kind;

/* More than either table holds. */
#define PROPS_MAX 64

/* How a change of a property is noticed. */
typedef enum prop_change {
        PROP_POLLED, /* compared with the last value sent after every poll and write */
        PROP_CONST,  /* never changes while the service runs (introspected as EmitsChangedSignal=const) */
} prop_change;

/* Appends the value (not the variant) for @a (NULL for the Manager). */
typedef bool (*prop_get_fn)(const context *c, const md_array *a, DBusMessageIter *it);

typedef struct prop_def {
        const char *name;
        const char *signature;
        prop_get_fn get;
        prop_change change;
} prop_def;

/* The table for @k and its length. */
const prop_def *props_table(obj_kind k, unsigned *ret_n);

/* Index of @name in @k's table, or -ENOENT. */
int props_find(obj_kind k, const char *name);

/* Appends property @idx of @k (array @a for arrays) as a variant. */
bool props_append_variant(const context *c, obj_kind k, const md_array *a, unsigned idx, DBusMessageIter *it);

/* Appends one {key: variant} entry of basic @type (signature @sig) to the open a{sv} @dict. */
bool props_dict_add(DBusMessageIter *dict, const char *key, int type, const char *sig, const void *value);

/* Appends every property as the a{sv} GetAll returns. */
bool props_append_all(const context *c, obj_kind k, const md_array *a, DBusMessageIter *it);

/*
 * Compares every property with @cache, emits one PropertiesChanged on @path
 * for those that differ (none when @emit is false: a new object), and stores
 * the new values in @cache.
 */
int props_update(context *c, obj_kind k, const md_array *a, const char *path, prop_cache *cache, bool emit);

/* One canonical text per property: equal texts, equal values. */
int props_snapshot(const context *c, obj_kind k, const md_array *a, prop_cache *ret);

/* Marks in @which (one per property) what differs between two snapshots; returns how many. */
unsigned props_diff(const prop_cache *old, const prop_cache *now, bool *which);

void prop_cache_free(prop_cache *cache);

/* The journal entry of @a, or NULL when it is not boosted. */
const journal_entry *props_entry_of(const context *c, const md_array *a);
