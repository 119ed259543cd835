/* SPDX-License-Identifier: MIT */
#pragma once

#include <string.h>

/* All of mdboostd's state, in one place. */

#include <dbus/dbus.h>
#include <stdbool.h>
#include <stdint.h>

#include "array.h"
#include "checks.h"
#include "config.h"
#include "event-command.h"
#include "governor.h"
#include "journal.h"
#include "loop.h"
#include "mdstat.h"
#include "report.h"
#include "wakeup.h"
#include "root.h"
#include "syncmax.h"

/* From debian/changelog, through the Makefile: the version is written once. */
#ifndef MDBOOSTD_VERSION
#error "MDBOOSTD_VERSION is set by the Makefile"
#endif

#define BUS_NAME "org.mdboost.MdBoost1"
#define MANAGER_PATH "/org/mdboost/MdBoost1"
#define ARRAYS_PATH MANAGER_PATH "/arrays"
#define MANAGER_IFACE "org.mdboost.MdBoost1.Manager"
#define ARRAY_IFACE "org.mdboost.MdBoost1.Array"
#define ACTION_BOOST "org.mdboost.MdBoost1.boost"
#define ACTION_RESTORE "org.mdboost.MdBoost1.restore"
#define ACTION_CONFIGURE "org.mdboost.MdBoost1.configure"

#ifndef DBUS_INTERFACE_OBJECT_MANAGER
#define DBUS_INTERFACE_OBJECT_MANAGER "org.freedesktop.DBus.ObjectManager"
#endif

#define OBJECT_PATH_MAX (sizeof(ARRAYS_PATH "/") + MD_NAME_MAX)

/* What the last PropertiesChanged told clients, one canonical text per property. */
typedef struct prop_cache {
        char **values;
        unsigned n;
} prop_cache;

/* An operation the service watched end (the LastOperation property). */
typedef struct operation_record {
        char action[16];       /* "recover", "resync", ...; "" before one has ended */
        uint64_t started_usec; /* µs since the epoch it was first seen running */
        uint64_t ended_usec;   /* µs since the epoch it was first seen over */
        double progress;       /* percent, as last seen running */
        bool completed;        /* it ran to its end (md_operation_completed) */
        char outcome[16];      /* "finished", "member-failed", "interrupted", "frozen" */
        uint64_t kib;          /* KiB it moved while the service watched it */
        bool restored;         /* the service restored a boost because it ended */
} operation_record;

typedef struct array_object {
        char name[MD_NAME_MAX + 1];
        char path[OBJECT_PATH_MAX];
        prop_cache cache;
        syncmax_watch reshape;  /* is its reshape stuck at sync_max? */
        md_user_io user_io;     /* as last logged: UNKNOWN until the first poll */
        int failures_tolerated; /* md_array_failures_tolerated() as last polled; -1: no redundancy to lose */
        uint64_t exposed_usec;  /* first poll that found no redundancy left, µs since the epoch; 0 while it has some */
        /* The operation that runs, as followed from poll to poll. */
        bool op_running;
        md_sync_action op_action;
        uint64_t op_started_usec;
        uint64_t op_first_done, op_last_done, op_total; /* sectors */
        double op_progress;
        bool op_restored;               /* its boost was restored because it ended */
        bool op_frozen;                 /* it ended because md was frozen, and nothing started since */
        bool policy_declined;           /* an administrator restored its boost: no policy boosts it again */
        uint64_t policy_tried_usec;     /* op_started_usec of the operation a policy last tried to boost */
        int policy_tried;               /* the policy_class it last tried for that operation */
        int op_start_tolerated;         /* failures_tolerated when it started */
        int64_t op_start_degraded;      /* md/degraded when it started, -1 unknown */
        op_tally tally;                 /* what its report will say, so far */
        unsigned settings_logged;       /* 1 << tunable: its setting was found overridden and said so */
        uint64_t check_mark_pos;        /* a running check's position as last seen, sectors */
        uint64_t check_mark_mismatches; /* mismatch_cnt when it was first seen there */
        bool check_write_failed;        /* md refused a pause or a resume: said once, until one works */
        /* The users as check_busy sees them: the md device's counters at the last sample. */
        uint64_t users_sample_usec, users_sample_sectors, users_sample_requests, users_sample_in_flight;
        uint64_t users_busy_since_usec, users_quiet_since_usec; /* CLOCK_MONOTONIC; 0: not so now */
        operation_record last_op;
} array_object;

/*
 * What the service follows of a boost between polls that a restart need not
 * keep: one per journal entry, by UUID (service_watch).
 */
typedef struct boost_watch {
        char uuid[37];
        uint64_t since_usec; /* the journal entry's since: which boost of the array it watches */
        governor_clock governor;
        uint64_t retry_usec;    /* no automatic restore before this CLOCK_MONOTONIC time */
        unsigned missing_polls; /* polls in a row that did not find the array */
} boost_watch;

struct auth_request;

typedef struct context {
        const char *root_path;
        md_root root;
        const char *state_dir;
        int state_fd;
        config cfg;              /* cfg.policies: the configuration file's rules with the D-Bus ones on top */
        const char *policy_path; /* where the rules set over D-Bus are kept */
        const char *report_path; /* where the reports of ended operations are kept */
        report_book reports;
        event_runner events;        /* the event commands that run */
        policy_set config_policies; /* the configuration file's rules alone */
        policy_set dbus_policies;   /* the rules set over D-Bus (SetPolicy) */

        DBusConnection *bus;
        loop loop;

        md_array_set arrays;     /* the last successful read */
        md_mdstat mdstat;        /* /proc/mdstat, read while a governor follows a boost */
        bool mdstat_ok;          /* this poll's read of it worked */
        uint64_t refreshed_usec; /* CLOCK_MONOTONIC time of that read */
        wakeup_set wakeup;       /* the files md wakes the service with */
        unsigned settle_reads;   /* reads still to make soon after a notification */
        md_globals globals;
        uint64_t mem_total; /* bytes; 0 when <root>/proc/meminfo is missing */

        journal journal;
        /* Why the journal on disk is behind the one in memory, "" when it is not; retried on every poll. */
        char journal_problem[256];
        /* The persistent settings (settings.h), in their own folder: they outlive a reboot. */
        const char *settings_dir;
        int settings_fd;
        journal settings;
        bool settings_held;         /* RestoreAll put their originals back: none is written again until a restart */
        check_book checks;          /* the checks paused, or resumed and followed (checks.h) */
        bool repair_becomes_resync; /* md turned a paused repair into a resync: repairs are not paused */
        boost_watch *watches;
        unsigned n_watches;

        array_object *objects; /* one per array in @arrays, same order */
        unsigned n_objects;
        prop_cache manager_cache;

        struct auth_request *auths;
} context;

/* The D-Bus object of the array called @name, NULL before it is published. */
static inline array_object *context_object(const context *c, const char *name) {
        for (unsigned i = 0; i < c->n_objects; i++)
                if (c->objects[i].name[0] && strcmp(c->objects[i].name, name) == 0)
                        return &c->objects[i];
        return NULL;
}

/* What the service follows of the boost @e between polls, NULL before its first poll. */
static inline const boost_watch *context_watch(const context *c, const journal_entry *e) {
        for (unsigned i = 0; i < c->n_watches; i++)
                if (strcmp(c->watches[i].uuid, e->uuid) == 0 && c->watches[i].since_usec == e->since_usec)
                        return &c->watches[i];
        return NULL;
}
