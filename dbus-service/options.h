/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The a{sv} options of Boost and Restore, parsed into a struct before
 * anything else happens. Pure: no I/O, no logging.
 */

#include <dbus/dbus.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tunables.h"

typedef struct boost_options {
        bool dry_run;
        bool set[_MD_T_ARRAY_MAX]; /* the caller asked for this exact value */
        uint64_t value[_MD_T_ARRAY_MAX];
        unsigned users_share;      /* percent the users keep while the governor steers; 0: not given */
        unsigned users_latency_ms; /* instead: the bound on their 99th percentile latency, ms; 0: not given */
        bool while_running;        /* only an operation that still runs (a policy's boost): never one for the next */
} boost_options;

/* True for the tunables an option may set: sync_speed_min/max, stripe_cache_size, read_ahead_kb, sync_io_depth. */
bool options_tunable_settable(md_tunable t);

/*
 * Parses the a{sv} at @iter (which must point at it). Unknown keys, repeated
 * keys, wrong types and numbers outside the kernel's range give -EINVAL or
 * -ERANGE with a sentence in @errbuf. Numbers are "u" or "t".
 */
int options_parse_boost(DBusMessageIter *iter, boost_options *ret, char *errbuf, size_t errlen);

/* Restore takes no options yet: an empty dict is 0, any key -EINVAL. */
int options_parse_restore(DBusMessageIter *iter, char *errbuf, size_t errlen);

/*
 * RestoreAll's: "settings" (b), also put back the originals of the
 * persistent settings (settings.h) in @ret_settings; any other key -EINVAL.
 */
int options_parse_restore_all(DBusMessageIter *iter, bool *ret_settings, char *errbuf, size_t errlen);
