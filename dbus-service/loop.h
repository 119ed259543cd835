/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * A small poll(2) main loop for one libdbus connection: libdbus's watches
 * and timeouts, a signalfd for SIGTERM/SIGINT, the files the kernel
 * notifies, and one tick (the read of every array) when it is due. It sleeps
 * in poll() until one of them is, so an idle daemon costs nothing.
 */

#include <dbus/dbus.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct loop_timeout {
        DBusTimeout *timeout;
        uint64_t deadline_usec;
} loop_timeout;

/* How many descriptors the files have now, then fill that many with what poll() waits for. */
typedef unsigned (*loop_count_fn)(void *userdata);
typedef void (*loop_fill_fn)(void *userdata, struct pollfd *fds);
/* Takes what poll() reported in them; true when a change is worth a tick. */
typedef bool (*loop_take_fn)(void *userdata, const struct pollfd *fds);

typedef struct loop {
        DBusWatch **watches;
        unsigned n_watches, cap_watches;
        loop_timeout *timeouts;
        unsigned n_timeouts, cap_timeouts;
        int signal_fd;
        uint64_t tick_deadline_usec;
        uint64_t last_tick_usec;
        /* Files the kernel wakes the service with (loop_set_files). */
        loop_count_fn files_count;
        loop_fill_fn files_fill;
        loop_take_fn files_take;
        void *files_userdata;
        bool quit;
} loop;

/* Returns milliseconds until the next tick. */
typedef uint64_t (*loop_tick_fn)(void *userdata);

uint64_t loop_now_usec(void);
/* Microseconds since the epoch, for what the service shows or keeps as a date. */
uint64_t loop_realtime_usec(void);

int loop_init(loop *l);
int loop_attach(loop *l, DBusConnection *bus);
void loop_free(loop *l);

/*
 * Also waits on the files these describe: a change in one brings the tick
 * forward, though never closer than LOOP_TICK_GAP_MS to the last one, as md
 * often notifies twice for one change.
 */
void loop_set_files(loop *l, loop_count_fn count, loop_fill_fn fill, loop_take_fn take, void *userdata);

/* Brings the next tick forward to at most @ms from now. */
void loop_tick_within(loop *l, uint64_t ms);

/* Runs until SIGTERM/SIGINT (0) or the bus goes away (-ECONNRESET). */
int loop_run(loop *l, DBusConnection *bus, loop_tick_fn tick, void *userdata);
