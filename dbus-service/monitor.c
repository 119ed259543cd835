/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "errors.h"
#include "log.h"
#include "monitor.h"
#include "predict.h"
#include "props.h"
#include "report-io.h"
#include "restore.h"
#include "service.h"

/* How long an automatic restore that the kernel refused waits before the next try. */
#define AUTO_RESTORE_RETRY_USEC (60ull * 1000000ull)

/*
 * Polls in a row that must miss a boosted array before its entry is dropped.
 * One poll can miss an array that is there: its uuid unreadable for a
 * moment, or md half-way through creating its sysfs folder at assembly.
 */
#define GONE_POLLS 3

/* Reads a poll_active_ms apart after each notification (files_take). */
#define SETTLE_READS 3

static const char *const std_ifaces[] = {
        DBUS_INTERFACE_PROPERTIES,
        DBUS_INTERFACE_INTROSPECTABLE,
        DBUS_INTERFACE_PEER,
};

/* {interface: {property: value}} for one array object, as ObjectManager sends it. */
bool monitor_append_object(const context *c, const md_array *a, DBusMessageIter *it) {
        DBusMessageIter dict, e, empty;
        const char *iface = ARRAY_IFACE;

        if (!dbus_message_iter_open_container(it, DBUS_TYPE_ARRAY, "{sa{sv}}", &dict) ||
            !dbus_message_iter_open_container(&dict, DBUS_TYPE_DICT_ENTRY, NULL, &e) ||
            !dbus_message_iter_append_basic(&e, DBUS_TYPE_STRING, &iface) || !props_append_all(c, OBJ_ARRAY, a, &e) ||
            !dbus_message_iter_close_container(&dict, &e))
                return false;
        for (size_t i = 0; i < sizeof(std_ifaces) / sizeof(std_ifaces[0]); i++) {
                if (!dbus_message_iter_open_container(&dict, DBUS_TYPE_DICT_ENTRY, NULL, &e) ||
                    !dbus_message_iter_append_basic(&e, DBUS_TYPE_STRING, &std_ifaces[i]) ||
                    !dbus_message_iter_open_container(&e, DBUS_TYPE_ARRAY, "{sv}", &empty) ||
                    !dbus_message_iter_close_container(&e, &empty) || !dbus_message_iter_close_container(&dict, &e))
                        return false;
        }
        return dbus_message_iter_close_container(it, &dict);
}

static void emit_added(context *c, const array_object *o, const md_array *a) {
        DBusMessage *m = dbus_message_new_signal(MANAGER_PATH, DBUS_INTERFACE_OBJECT_MANAGER, "InterfacesAdded");
        DBusMessageIter it;
        const char *path = o->path;

        if (!m)
                return;
        dbus_message_iter_init_append(m, &it);
        if (dbus_message_iter_append_basic(&it, DBUS_TYPE_OBJECT_PATH, &path) && monitor_append_object(c, a, &it))
                dbus_connection_send(c->bus, m, NULL);
        dbus_message_unref(m);
}

static void emit_removed(context *c, const array_object *o) {
        DBusMessage *m = dbus_message_new_signal(MANAGER_PATH, DBUS_INTERFACE_OBJECT_MANAGER, "InterfacesRemoved");
        DBusMessageIter it, arr;
        const char *path = o->path, *iface = ARRAY_IFACE;
        bool ok;

        if (!m)
                return;
        dbus_message_iter_init_append(m, &it);
        ok = dbus_message_iter_append_basic(&it, DBUS_TYPE_OBJECT_PATH, &path) &&
             dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "s", &arr) &&
             dbus_message_iter_append_basic(&arr, DBUS_TYPE_STRING, &iface);
        for (size_t i = 0; ok && i < sizeof(std_ifaces) / sizeof(std_ifaces[0]); i++)
                ok = dbus_message_iter_append_basic(&arr, DBUS_TYPE_STRING, &std_ifaces[i]);
        if (ok && dbus_message_iter_close_container(&it, &arr))
                dbus_connection_send(c->bus, m, NULL);
        dbus_message_unref(m);
}

/* A reshape held at sync_max with nothing driving it: said once in the log, shown in Stuck. */
static void watch_reshape(context *c, const md_array *a, array_object *o) {
        char backup[PATH_MAX];
        const char *file = NULL;
        int mdadm = 0;

        /* Only an array held at its limit is worth a look at /proc and mdadm's link. */
        if (syncmax_at_limit(a)) {
                mdadm = syncmax_mdadm_running(&c->root);
                if (syncmax_backup_file(&c->root, a->name, backup, sizeof(backup)) == 0)
                        file = backup;
        }
        if (!syncmax_watch_update(&o->reshape, a, mdadm, file, loop_now_usec(), c->cfg.reshape_stuck_ms * 1000))
                return;
        if (o->reshape.stuck[0])
                log_warning("%s", o->reshape.stuck);
        else
                log_notice("the reshape of %s is no longer stuck", a->name);
}

/*
 * Accounting off on the md device: said once in the log, shown in UserIo.
 * It is per boot and on by default, so something on this machine (a udev
 * rule, a tuning profile) turned it off; the fix is one write.
 */
static void watch_user_io(const md_array *a, array_object *o, bool just_appeared) {
        md_user_io now = md_array_user_io(a), was = o->user_io;

        if (now == MD_USER_IO_UNKNOWN || now == was)
                return;
        /* md assembles an array with iostats 0 and sets it a moment later: a new array waits for the next read. */
        if (now != MD_USER_IO_COUNTED && just_appeared)
                return;
        o->user_io = now;
        if (now == MD_USER_IO_UNSEEN)
                log_warning("%s: I/O accounting is off (queue/iostats is 0), so md's rebuild throttle sees no users: "
                            "the rebuild runs at its ceiling whatever they do, and the fast profile cannot hold for "
                            "them. Turn it back on with: echo 1 > /sys/block/%s/queue/iostats",
                            a->name, a->name);
        else if (now == MD_USER_IO_UNCOUNTED)
                log_warning("%s: I/O accounting is off (queue/iostats is 0): md still yields to users it sees on the "
                            "member disks, but the fast profile cannot see them to hold its ceiling. Turn it back on "
                            "with: echo 1 > /sys/block/%s/queue/iostats",
                            a->name, a->name);
        else if (was != MD_USER_IO_UNKNOWN)
                log_notice("%s: I/O accounting is on again; md and the fast profile see its users", a->name);
}

/* The administrator's event command with @event, if there is one (event-command.h). */
static void run_event(context *c, const char *event, const md_array *a, const char *action, const char *outcome,
                      double progress, const char *summary) {
        event_info ev = { .event = event,
                          .array = a->name,
                          .uuid = a->uuid,
                          .action = action ?: "",
                          .outcome = outcome ?: "",
                          .progress = progress,
                          .summary = summary ?: "" };
        int r;

        if (!c->cfg.event_command[0])
                return;
        r = event_command_start(&c->events, c->cfg.event_command, &ev, loop_now_usec());
        if (r == -EAGAIN)
                log_warning("%s: %u event commands still run; the one for %s is left out", a->name,
                            EVENT_COMMAND_RUNNING_MAX, event);
        else if (r < 0)
                log_warning("%s: could not start the event command for %s: %s", a->name, event, strerror(-r));
}

/*
 * No redundancy left (a raid5 with a slot missing or being rebuilt, a raid6
 * with two): one more failed member loses the array. Said once in the log
 * and to the event command (RedundancyLost, RedundancyRegained) when it
 * starts and when it ends, as at start-up for an array that has none;
 * NoRedundancySince says from when, as far as the service has seen (it
 * starts with the first call, or at boot).
 */
static void watch_redundancy(context *c, const md_array *a, array_object *o) {
        md_disk_counts dc;
        unsigned tolerated;

        md_array_disk_counts(a, &dc);
        if (a->state == MD_ARRAY_INACTIVE || md_array_failures_tolerated(a, &dc, &tolerated) < 0) {
                o->failures_tolerated = -1;
                o->exposed_usec = 0;
                return;
        }
        o->failures_tolerated = (int)tolerated;
        if (tolerated > 0) {
                if (o->exposed_usec) {
                        log_notice("%s has redundancy again: it survives %u more failed member%s", a->name, tolerated,
                                   tolerated == 1 ? "" : "s");
                        run_event(c, "RedundancyRegained", a, NULL, NULL, -1, NULL);
                }
                o->exposed_usec = 0;
                return;
        }
        if (o->exposed_usec)
                return;
        o->exposed_usec = loop_realtime_usec();
        log_warning("%s has no redundancy left: one more failed member loses the array", a->name);
        run_event(c, "RedundancyLost", a, NULL, NULL, -1, NULL);
}

/*
 * OperationStarted(action) and OperationEnded(action, outcome, started,
 * ended, progress) on the array's object: what mdadm's RebuildStarted and
 * RebuildFinished say, with "finished or aborted" told apart.
 */
static void emit_operation(context *c, const array_object *o, const operation_record *r, const char *action) {
        DBusMessage *m = dbus_message_new_signal(o->path, ARRAY_IFACE, r ? "OperationEnded" : "OperationStarted");
        bool ok;

        if (!m)
                return;
        if (r) {
                const char *outcome = r->outcome;
                dbus_uint64_t started = r->started_usec, ended = r->ended_usec;
                double progress = r->progress;

                ok = dbus_message_append_args(m, DBUS_TYPE_STRING, &action, DBUS_TYPE_STRING, &outcome,
                                              DBUS_TYPE_UINT64, &started, DBUS_TYPE_UINT64, &ended, DBUS_TYPE_DOUBLE,
                                              &progress, DBUS_TYPE_INVALID);
        } else
                ok = dbus_message_append_args(m, DBUS_TYPE_STRING, &action, DBUS_TYPE_INVALID);
        if (ok)
                dbus_connection_send(c->bus, m, NULL);
        dbus_message_unref(m);
}

/*
 * md can end a check or repair on a member's failure as if it were done: it
 * skips to the end and sync_min reads 0. One during which the array became
 * more degraded than when it started did not finish.
 */
static bool check_cut_short(const md_array *a, const array_object *o) {
        return (o->op_action == MD_SYNC_CHECK || o->op_action == MD_SYNC_REPAIR) && o->op_start_degraded >= 0 &&
               a->degraded.kind == MD_V_NUMBER && a->degraded.value > (uint64_t)o->op_start_degraded;
}

/*
 * How an operation that is over ended, from what md leaves behind: it ran
 * to its end (md_operation_completed); a member failed while it ran
 * (the array survives fewer failures than when it started: md stops a
 * recovery whose source fails, and a resync or check on an array that lost
 * a member); else someone stopped it (`echo idle`, mdadm --stop or --fail of
 * the member being rebuilt, which md reports as an interruption too).
 */
static const char *operation_outcome(const md_array *a, const array_object *o, bool completed) {
        if (completed)
                return "finished";
        if (check_cut_short(a, o) ||
            (o->op_start_tolerated >= 0 && o->failures_tolerated >= 0 && o->failures_tolerated < o->op_start_tolerated))
                return "member-failed";
        return "interrupted";
}

/*
 * The running operation's live position, KiB: mdstat's, as sysfs'
 * sync_completed moves only at md's checkpoints. Read only while a boost is
 * governed; false when unknown.
 */
static bool live_position(const context *c, const md_array *a, uint64_t *ret_kib) {
        const md_mdstat_entry *m = c->mdstat_ok ? md_mdstat_find(c->mdstat.entries, c->mdstat.n, a->name) : NULL;

        if (!m || m->op < MD_MDSTAT_RESYNC || m->op > MD_MDSTAT_RESHAPE)
                return false;
        *ret_kib = m->done_kib;
        return true;
}

/* What the tally is told of the boost in place now, if any. */
static void tally_sample(context *c, const md_array *a, array_object *o) {
        const journal_entry *e = journal_find(&c->journal, a->uuid);
        const boost_watch *w = e ? context_watch(c, e) : NULL;
        tally_boost b;
        char target[GOVERNOR_TARGET_NAME_MAX];

        if (e) {
                governor_target_name(&c->cfg.profiles, e, target);
                b = (tally_boost){ .profile = e->profile,
                                   .policy = e->policy,
                                   .users_alone_kibs = w ? w->governor.baseline_kibs : 0,
                                   .steering = e->fit == GOVERNOR_STEERING,
                                   .target = target,
                                   .lifted = e->fit == GOVERNOR_FREE };
                b.position_known = (b.steering || b.lifted) && live_position(c, a, &b.position_kib);
        }
        report_tally_sample(&o->tally, &c->cfg.profiles, a, loop_now_usec(), e ? &b : NULL, o->failures_tolerated == 0);
}

/* The report of the operation that just ended (o->last_op), kept and saved; its line in @line. */
static void keep_report(context *c, const md_array *a, array_object *o, char *line, size_t size) {
        const operation_record *r = &o->last_op;
        const op_tally *t = &o->tally;
        op_report rep = {
                .started_usec = r->started_usec,
                .ended_usec = r->ended_usec,
                .progress = r->progress,
                .kib = r->kib,
                .peak_kibs = t->peak_kibs,
                .whole_kibs = t->whole_kibs,
                .whole_capped = t->whole_capped,
                .steered_kibs = report_tally_steered_kibs(t),
                .boosted_usec = t->boosted_usec,
                .exposed_usec = t->exposed_usec,
                .users_kib = t->users_kib,
                .users_busy_usec = t->users_busy_usec,
                .users_alone_kibs = t->users_alone_kibs,
        };
        int k;

        snprintf(rep.uuid, sizeof(rep.uuid), "%s", a->uuid);
        snprintf(rep.array, sizeof(rep.array), "%s", a->name);
        snprintf(rep.action, sizeof(rep.action), "%s", r->action);
        snprintf(rep.outcome, sizeof(rep.outcome), "%s", r->outcome);
        snprintf(rep.onto, sizeof(rep.onto), "%s", t->onto);
        snprintf(rep.boost, sizeof(rep.boost), "%s", t->boost);
        snprintf(rep.policy, sizeof(rep.policy), "%s", t->policy);
        if (rep.steered_kibs)
                snprintf(rep.steered_target, sizeof(rep.steered_target), "%s", t->steered_target);
        snprintf(rep.restored, sizeof(rep.restored), "%s",
                 !t->boosted_usec                     ? ""
                 : journal_find(&c->journal, a->uuid) ? "in-place"
                 : o->op_restored                     ? "automatically"
                                                      : "by-request");
        report_summary(&rep, line, size);
        log_info("%s: %s", a->name, line);
        if (!a->uuid[0])
                return; /* no superblock: nothing to find it by later */
        if (report_book_add(&c->reports, &rep) < 0)
                return;
        k = report_file_save(c->report_path, &c->reports);
        if (k < 0)
                log_warning("could not write %s: %s; the report is kept until the service stops", c->report_path,
                            strerror(-k));
}

/*
 * A recovery whose member being rebuilt failed leaves no member rebuilding
 * either, but the array is as degraded as when it started: not finished.
 */
static bool rebuilt_nothing(const md_array *a, const array_object *o) {
        return o->op_action == MD_SYNC_RECOVER && o->op_start_degraded >= 0 && a->degraded.kind == MD_V_NUMBER &&
               a->degraded.value >= (uint64_t)o->op_start_degraded;
}

/* The operation followed ended (md is idle or frozen, or stopped and started it again). */
static void end_operation(context *c, const md_array *a, array_object *o, bool emit, bool frozen, bool restarted) {
        operation_record *r = &o->last_op;
        char line[512];

        o->op_running = false;
        o->op_frozen = frozen;
        if (!frozen)
                o->policy_declined = false;
        *r = (operation_record){
                .started_usec = o->op_started_usec,
                .ended_usec = loop_realtime_usec(),
                .progress = o->op_progress,
                .completed = !frozen && !restarted && md_operation_completed(a, o->op_action) &&
                             !rebuilt_nothing(a, o) && !check_cut_short(a, o),
                .restored = o->op_restored,
        };
        snprintf(r->action, sizeof(r->action), "%s", md_sync_action_to_string(o->op_action) ?: "");
        snprintf(r->outcome, sizeof(r->outcome), "%s", frozen ? "frozen" : operation_outcome(a, o, r->completed));
        if (r->completed)
                r->progress = 100;
        r->kib = ((r->completed ? o->op_total : o->op_last_done) - o->op_first_done) / 2;
        log_info("%s: %s %s after %" PRIu64 " s, %.1f %% done", a->name, r->action,
                 r->completed                               ? "finished"
                 : strcmp(r->outcome, "member-failed") == 0 ? "stopped: a member failed"
                 : frozen                                   ? "frozen before its end"
                                                            : "stopped before its end",
                 (r->ended_usec - r->started_usec) / 1000000, r->progress);
        tally_sample(c, a, o);
        keep_report(c, a, o, line, sizeof(line));
        if (emit) {
                emit_operation(c, o, r, r->action);
                run_event(c, "OperationEnded", a, r->action, r->outcome, r->progress, line);
        }
}

static void start_operation(context *c, const md_array *a, array_object *o, bool emit) {
        bool thawed = o->op_frozen && o->op_action == a->sync_action;
        double pct;

        o->op_running = true;
        o->op_frozen = false;
        o->op_action = a->sync_action;
        o->op_started_usec = loop_realtime_usec();
        o->op_first_done = a->progress.done;
        o->op_restored = false;
        if (!thawed)
                o->policy_declined = false;
        o->op_start_tolerated = o->failures_tolerated;
        o->op_start_degraded = a->degraded.kind == MD_V_NUMBER ? (int64_t)a->degraded.value : -1;
        report_tally_start(&o->tally, a, loop_now_usec());
        /* At start-up it was running already: it did not start now. */
        log_info("%s: %s %s at %.1f %%", a->name, md_sync_action_to_string(a->sync_action),
                 emit ? "started" : "is running", md_array_progress_percent(a, &pct) == 0 ? pct : 0.0);
        if (emit) {
                emit_operation(c, o, NULL, md_sync_action_to_string(a->sync_action));
                run_event(c, "OperationStarted", a, md_sync_action_to_string(a->sync_action), NULL,
                          md_array_progress_percent(a, &pct) == 0 ? pct : -1, NULL);
        }
}

/*
 * Follows the operation that runs from poll to poll, and keeps a record of
 * the last one that ended (LastOperation): when it was first seen running,
 * when first seen over, how far it got, whether it ran to its end (what md
 * leaves behind, md_operation_completed), what it moved meanwhile.
 * Delayed, it has not ended. Frozen (`echo frozen > sync_action`, as mdadm
 * and admins do to hold md back), md has stopped its sync thread: that ends
 * it, "frozen"; when md goes on after the thaw it is a new start, though the
 * same operation for the policy (an administrator's restore still holds).
 *
 * When a member fails during a recovery, md stops it and starts it again
 * at once, from its checkpoint, often between two reads: the array
 * surviving fewer failures than when the operation started says it ended
 * (member-failed) and a new one started, with the risk it now runs at.
 * When the member being rebuilt fails and a spare (or a disk added at
 * once) takes its place, md starts the recovery again from the start, as
 * degraded as before: the position going back says it.
 */
static void watch_operation(context *c, const md_array *a, array_object *o, bool emit) {
        bool running = a->progress.kind == MD_PROGRESS_RUNNING && a->sync_action > MD_SYNC_IDLE &&
                       a->sync_action != MD_SYNC_FROZEN;
        double pct;

        if (running) {
                if (o->op_running && o->op_action != a->sync_action)
                        end_operation(c, a, o, emit, false, true);
                else if (o->op_running && o->op_start_tolerated >= 0 && o->failures_tolerated >= 0 &&
                         o->failures_tolerated < o->op_start_tolerated)
                        end_operation(c, a, o, emit, false, true);
                else if (o->op_running && a->progress.done < o->op_last_done)
                        end_operation(c, a, o, emit, false, true);
                if (!o->op_running)
                        start_operation(c, a, o, emit);
                else
                        tally_sample(c, a, o);
                o->op_last_done = a->progress.done;
                o->op_total = a->progress.total;
                if (md_array_progress_percent(a, &pct) == 0)
                        o->op_progress = pct;
                return;
        }
        if (o->op_running && (a->sync_action == MD_SYNC_IDLE || a->sync_action == MD_SYNC_FROZEN))
                end_operation(c, a, o, emit, a->sync_action == MD_SYNC_FROZEN, false);
}

void monitor_publish(context *c, bool emit) {
        _cleanup_free_ array_object *objs = calloc(c->arrays.n ? c->arrays.n : 1, sizeof(*objs));
        _cleanup_free_ bool *is_new = calloc(c->arrays.n ? c->arrays.n : 1, sizeof(*is_new));

        if (!objs || !is_new)
                return;
        for (unsigned i = 0; i < c->arrays.n; i++) {
                const md_array *a = &c->arrays.arrays[i];
                array_object *old = context_object(c, a->name);

                if (old) {
                        objs[i] = *old;
                        old->name[0] = 0; /* moved */
                        old->cache = (prop_cache){};
                } else {
                        snprintf(objs[i].name, sizeof(objs[i].name), "%s", a->name);
                        snprintf(objs[i].path, sizeof(objs[i].path), ARRAYS_PATH "/%s", a->name);
                        is_new[i] = true;
                }
        }
        for (unsigned i = 0; i < c->n_objects; i++) {
                if (!c->objects[i].name[0])
                        continue;
                if (emit)
                        emit_removed(c, &c->objects[i]);
                prop_cache_free(&c->objects[i].cache);
        }
        free(c->objects);
        c->objects = TAKE_PTR(objs);
        c->n_objects = c->arrays.n;

        for (unsigned i = 0; i < c->n_objects; i++) {
                const md_array *a = &c->arrays.arrays[i];

                watch_reshape(c, a, &c->objects[i]);
                watch_user_io(a, &c->objects[i], is_new[i] && emit);
                watch_redundancy(c, a, &c->objects[i]);
                watch_operation(c, a, &c->objects[i], emit);
                if (is_new[i] && emit)
                        emit_added(c, &c->objects[i], a);
                props_update(c, OBJ_ARRAY, a, c->objects[i].path, &c->objects[i].cache, emit && !is_new[i]);
        }
        props_update(c, OBJ_MANAGER, NULL, MANAGER_PATH, &c->manager_cache, emit);
}

void monitor_free(context *c) {
        wakeup_free(&c->wakeup);
        for (unsigned i = 0; i < c->n_objects; i++)
                prop_cache_free(&c->objects[i].cache);
        free(c->objects);
        c->objects = NULL;
        c->n_objects = 0;
        prop_cache_free(&c->manager_cache);
        free(c->watches);
        c->watches = NULL;
        c->n_watches = 0;
}

/*
 * A boosted array this poll did not find by its UUID. It is gone only when
 * its folder is absent or holds another array (another UUID), poll after
 * poll; an array whose UUID could not be read is not gone.
 */
static bool follow_missing(context *c, journal_entry *e, boost_watch *w) {
        const md_array *same = md_array_set_find(&c->arrays, e->array);

        /* A uuid that is there but could not be read; one without a superblock is another array. */
        if (same && (same->bad & MD_ATTR_BIT(MD_ATTR_UUID))) {
                w->missing_polls = 0;
                return false;
        }
        if (++w->missing_polls < GONE_POLLS)
                return false;
        if (same)
                log_notice("array %s (uuid %s) is gone: %s now holds another array (uuid %s); dropping its boost "
                           "without writing anything",
                           e->array, e->uuid, same->name, same->uuid[0] ? same->uuid : "none");
        else
                log_notice("array %s (uuid %s) is gone; dropping its boost without writing anything", e->array,
                           e->uuid);
        journal_remove(&c->journal, e->uuid);
        return true;
}

/*
 * The rate at which the service has seen @a's rebuild run with nothing
 * holding it back, in the running operation or an earlier one of its kind,
 * KiB/s; 0 when it has not.
 */
static uint64_t whole_rate(const context *c, const md_array *a) {
        const array_object *o = context_object(c, a->name);
        prediction_input in;

        if (!o || !o->op_running)
                return 0;
        predict_input(&o->tally, &c->reports, a->uuid, md_sync_action_to_string(o->op_action) ?: "", "", &in);
        return in.whole_kibs;
}

/* Whether a boost's governor may steer, and so pace: it then needs the operation's position. */
static bool governed(const journal *j) {
        for (unsigned i = 0; i < j->n; i++)
                if (j->entries[i].fit >= GOVERNOR_FITTING && j->entries[i].fit <= GOVERNOR_STEERING)
                        return true;
        return false;
}

/* Follows one boost: drop it if its array is gone, arm it, govern it, or restore it when its operation ended. */
static bool follow_boost(context *c, const char *uuid) {
        journal_entry *e = journal_find(&c->journal, uuid);
        boost_watch *w = service_watch(c, uuid);
        governor_decision d;
        const md_array *a;
        char why[96];
        op_result res = {};
        int r;

        if (!e || !w)
                return false;
        a = md_array_set_find(&c->arrays, uuid);
        if (!a)
                return follow_missing(c, e, w);
        w->missing_polls = 0;
        if (strcmp(e->array, a->name) != 0) {
                snprintf(e->array, sizeof(e->array), "%s", a->name);
                return true;
        }
        if (a->sync_action < 0)
                return false;
        if (strcmp(e->operation, "idle") == 0) {
                /* Boosted while idle: wait for the next operation to start, then for it to end. */
                if (a->sync_action == MD_SYNC_IDLE)
                        return false;
                snprintf(e->operation, sizeof(e->operation), "%s", md_sync_action_to_string(a->sync_action));
                log_info("%s: %s started; the boost ends with it", a->name, e->operation);
                return true;
        }
        if (a->sync_action != MD_SYNC_IDLE) {
                /* Only the fit asks, and it lasts half a minute: no look through the reports on every poll. */
                if (e->fit == GOVERNOR_FITTING)
                        w->governor.whole_kibs = whole_rate(c, a);
                w->governor.position_known = live_position(c, a, &w->governor.position_kib);
                if (!w->governor.position_known)
                        w->governor.position_kib = 0;
                /* Only a step while steering may grow the stripe cache. */
                if (e->fit == GOVERNOR_STEERING)
                        w->governor.cache_high = profile_stripe_cache_most(
                                a, profile_budget_for(&c->cfg.profiles, c->mem_total, &c->arrays, a));
                governor_step(&c->cfg.profiles, a, e, &w->governor, loop_now_usec(), &d);
                return service_govern(c, a, e, &d);
        }
        if (w->retry_usec > loop_now_usec())
                return false;
        snprintf(why, sizeof(why), "after %s ended", e->operation);
        r = service_restore_array(c, a, NULL, why, &res);
        if ((r >= 0 || r == -MDB_ECONFLICT) && context_object(c, a->name))
                context_object(c, a->name)->op_restored = true;
        if (r < 0 && res.message[0])
                log_warning("automatic restore of %s: %s", a->name, res.message);
        /* A write the kernel refused stays in the journal: try again later, not on every poll. */
        w = service_find_watch(c, uuid);
        if (w && r < 0 && r != -MDB_ECONFLICT)
                w->retry_usec = loop_now_usec() + AUTO_RESTORE_RETRY_USEC;
        return false; /* service_restore_array saved the journal */
}

static void follow_boosts(context *c) {
        _cleanup_free_ char(*uuids)[37] = NULL;
        unsigned n = c->journal.n;
        bool dirty = false;

        if (n == 0)
                return;
        c->mdstat_ok = governed(&c->journal) && md_read_mdstat(&c->root, &c->mdstat) == 0;
        /* The journal changes under follow_boost: walk a copy of its keys. */
        uuids = calloc(n, sizeof(*uuids));
        if (!uuids)
                return;
        for (unsigned i = 0; i < n; i++)
                memcpy(uuids[i], c->journal.entries[i].uuid, sizeof(uuids[i]));
        for (unsigned i = 0; i < n; i++)
                dirty = follow_boost(c, uuids[i]) || dirty;
        service_prune_watches(c);
        if (dirty)
                service_save_journal(c);
}

/* Boosts the array @uuid by the rule of class @k, the caller named for the audit. */
static int policy_boost(context *c, const char *uuid, const md_array *a, policy_class k, const char *why,
                        op_result *res) {
        caller who = { .automatic = true };
        boost_options opt = {};
        const policy_rule *rule;
        char words[32]; /* a boost rule: "fast:60000ms" at most */
        bool own;

        rule = policy_lookup(&c->cfg.policies, a->uuid, k, &own);
        policy_rule_format(rule, words, sizeof(words));
        snprintf(who.policy, sizeof(who.policy), "policy_%s%s%s = %s", policy_class_to_string(k), own ? "." : "",
                 own ? a->uuid : "", words);
        snprintf(who.policy_word, sizeof(who.policy_word), "%s", policy_class_to_string(k));
        opt.users_share = rule->users_share;
        opt.users_latency_ms = rule->users_latency_ms;
        opt.while_running = true;
        log_info("%s: %s; boosting it with %s (%s)", a->name, why, words, who.policy);
        return service_boost(c, uuid, rule->kind == POLICY_MAX ? "max" : "fast", &opt, &who, res);
}

/*
 * The rule a policy wants for the operation that runs: its class's, or,
 * for a rebuild on an array that has no redundancy left (one more failure
 * loses it), the escalation's. -EINVAL when it wants nothing.
 */
static policy_class wanted_class(const context *c, const md_array *a, const array_object *o) {
        policy_class k = policy_class_of(a->sync_action);

        if (k < 0 || policy_lookup(&c->cfg.policies, a->uuid, k, NULL)->kind == POLICY_NONE)
                return _POLICY_CLASS_INVALID;
        if (k == POLICY_REBUILD && o->failures_tolerated == 0 &&
            policy_lookup(&c->cfg.policies, a->uuid, POLICY_ESCALATE, NULL)->kind != POLICY_NONE)
                return POLICY_ESCALATE;
        return k;
}

/*
 * Boosts, by the array's policy, an operation that runs on an array nobody
 * boosted: once per operation (a refused boost is not retried on every
 * poll), never after an administrator restored a boost of the same
 * operation. The boost then ends with the operation like any other.
 *
 * A rebuild the policy boosted escalates while the array has no redundancy
 * left (policy_escalate, max by default) and steps back to its rule once it
 * has some again (a raid6 with one member still missing): max on top of
 * fast, or a restore and the rule's boost again. A boost an administrator
 * made, even on top of the policy's, is theirs: the policy leaves it.
 */
static bool apply_policy(context *c, const char *uuid) {
        const md_array *a = md_array_set_find(&c->arrays, uuid);
        array_object *o = a ? context_object(c, a->name) : NULL;
        const journal_entry *e;
        policy_class want;
        op_result res = {};
        char why[64];
        int r;

        /* Nothing is decided on a read that could not tell the array's redundancy. */
        if (!o || !o->op_running || o->policy_declined || o->failures_tolerated < 0)
                return false;
        want = wanted_class(c, a, o);
        e = journal_find(&c->journal, a->uuid);
        if (!e) {
                if (want < 0 || o->policy_tried_usec == o->op_started_usec)
                        return false;
                o->policy_tried_usec = o->op_started_usec;
                o->policy_tried = want;
                snprintf(why, sizeof(why), "%s started%s", md_sync_action_to_string(a->sync_action) ?: "an operation",
                         want == POLICY_ESCALATE ? " with no redundancy left" : "");
                r = policy_boost(c, uuid, a, want, why, &res);
                if (r < 0)
                        log_warning("%s: the policy's boost was refused: %s", o->name, res.message);
                return r >= 0;
        }
        /* Only a boost the policy made, and only between a rebuild's rule and its escalation. */
        if (want < 0 || !e->policy[0] || policy_class_from_string(e->policy) == want ||
            (want != POLICY_ESCALATE && strcmp(e->policy, "escalate") != 0))
                return false;
        /*
         * md puts the rebuilt member in sync a moment before the operation
         * reads as over: redundancy coming back at the end is not a reason
         * to step back, the end restores anyway.
         */
        if (want != POLICY_ESCALATE &&
            (a->progress.kind != MD_PROGRESS_RUNNING || a->progress.done >= a->progress.total))
                return false;
        if (o->policy_tried_usec == o->op_started_usec && o->policy_tried == want)
                return false; /* tried already and refused: not on every poll */
        o->policy_tried_usec = o->op_started_usec;
        o->policy_tried = want;
        if (want == POLICY_ESCALATE)
                r = policy_boost(c, uuid, a, want, "it has no redundancy left", &res);
        else {
                /* Profiles only raise: stepping back is the originals, then the rule's boost. */
                r = service_restore_array(c, a, NULL, "as the array has redundancy again", &res);
                a = md_array_set_find(&c->arrays, uuid);
                if (r >= 0 && a)
                        r = policy_boost(c, uuid, a, want, "it has redundancy again", &res);
        }
        if (r < 0)
                log_warning("%s: the policy's boost was refused: %s", o->name, res.message);
        return true;
}

/* True when a policy boosted an array. */
static bool apply_policies(context *c) {
        _cleanup_free_ char(*uuids)[37] = NULL;
        unsigned n = c->arrays.n;
        bool any = false;

        if (n == 0)
                return false;
        /* A boost reads the arrays again: walk a copy of their UUIDs. */
        uuids = calloc(n, sizeof(*uuids));
        if (!uuids)
                return false;
        for (unsigned i = 0; i < n; i++)
                memcpy(uuids[i], c->arrays.arrays[i].uuid, sizeof(uuids[i]));
        for (unsigned i = 0; i < n; i++)
                if (uuids[i][0])
                        any = apply_policy(c, uuids[i]) || any;
        return any;
}

static bool any_busy(const context *c) {
        if (c->journal.n > 0 || c->journal_problem[0] || event_command_running(&c->events))
                return true;
        for (unsigned i = 0; i < c->arrays.n; i++)
                if (md_array_busy(&c->arrays.arrays[i]) ||
                    (c->arrays.arrays[i].sync_action >= 0 && c->arrays.arrays[i].sync_action != MD_SYNC_IDLE))
                        return true;
        return false;
}

/*
 * Reads every array, then makes sure md wakes the service for each: a file
 * opened for an array that appeared is armed after the read that found it,
 * so the arrays are read once more to miss no change in between.
 */
static int refresh(context *c) {
        int r = service_refresh(c);

        if (r < 0)
                return r;
        if (wakeup_sync(&c->wakeup, &c->root, &c->arrays) > 0)
                r = service_refresh(c);
        c->refreshed_usec = loop_now_usec();
        return r;
}

/*
 * With nothing running and every file notified, the service sleeps until md
 * wakes it, reading everything again only every poll_notified_ms in case
 * something changed that md does not notify (a limit an administrator wrote).
 */
static uint64_t next_tick_ms(context *c) {
        if (any_busy(c))
                return c->cfg.poll_active_ms;
        /* A paused check resumes when its window opens: no notification says when. */
        if (service_checks_waiting(c))
                return c->cfg.poll_idle_ms;
        if (c->settle_reads > 0) {
                c->settle_reads--;
                return c->cfg.poll_active_ms;
        }
        if (!c->wakeup.complete)
                return c->cfg.poll_idle_ms;
        return c->cfg.poll_notified_ms;
}

uint64_t monitor_tick(void *userdata) {
        context *c = userdata;
        int r;

        r = refresh(c);
        if (r < 0) {
                log_warning("could not read the md arrays: %s", strerror(-r));
                return c->cfg.poll_idle_ms;
        }
        follow_boosts(c);
        service_retry_journal(c);
        /* Settings before policies: a policy's boost then finds them, and its restore comes back to them. */
        if (service_apply_settings(c) && service_refresh(c) < 0)
                log_warning("could not read the md arrays back after writing their settings");
        /* Checks before policies: a paused check is not boosted, a resumed one is. */
        if (service_apply_checks(c) && service_refresh(c) < 0)
                log_warning("could not read the md arrays back after pausing or resuming a check");
        monitor_publish(c, true);
        if (apply_policies(c))
                monitor_publish(c, true);
        event_command_reap(&c->events, loop_now_usec(), c->cfg.event_command_timeout_ms * 1000u);
        return next_tick_ms(c);
}

void monitor_freshen(context *c) {
        if (loop_now_usec() - c->refreshed_usec >= c->cfg.poll_active_ms * 1000u)
                (void)monitor_tick(c);
}

static unsigned files_count(void *userdata) {
        return wakeup_count(&((context *)userdata)->wakeup);
}

static void files_fill(void *userdata, struct pollfd *fds) {
        wakeup_fill(&((context *)userdata)->wakeup, fds);
}

/*
 * A change md notified may not be whole yet when the service reads it: a
 * stopped array's folder goes a moment after /proc/mdstat says so, a new
 * one's files come a moment after. SETTLE_READS reads a poll_active_ms
 * apart follow every notification.
 */
static bool files_take(void *userdata, const struct pollfd *fds) {
        context *c = userdata;

        if (!wakeup_take(&c->wakeup, fds))
                return false;
        c->settle_reads = SETTLE_READS;
        return true;
}

int monitor_startup(context *c) {
        int r;

        loop_set_files(&c->loop, files_count, files_fill, files_take, c);
        r = refresh(c);
        if (r < 0)
                log_warning("could not read the md arrays: %s", strerror(-r));
        if (r == 0 && !c->journal.clean) {
                unsigned n = c->journal.n;
                _cleanup_free_ char(*uuids)[37] = calloc(n ? n : 1, sizeof(*uuids));

                if (!uuids)
                        return -ENOMEM;
                for (unsigned i = 0; i < n; i++)
                        memcpy(uuids[i], c->journal.entries[i].uuid, sizeof(uuids[i]));
                for (unsigned i = 0; i < n; i++) {
                        const md_array *a = md_array_set_find(&c->arrays, uuids[i]);
                        op_result res = {};

                        if (!a)
                                continue;
                        log_notice("the last run of mdboostd did not stop cleanly; restoring %s", a->name);
                        if (service_restore_array(c, a, NULL, "after an unclean stop", &res) < 0 && res.message[0])
                                log_warning("restore of %s: %s", a->name, res.message);
                }
        }
        if (r == 0)
                follow_boosts(c);
        c->journal.clean = false;
        r = service_save_journal(c);
        monitor_publish(c, false);
        if (service_apply_checks(c) && service_refresh(c) == 0)
                monitor_publish(c, false);
        if (apply_policies(c))
                monitor_publish(c, false);
        return r;
}
