/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * A small poll(2) main loop for one libdbus connection: libdbus's watches
 * and timeouts, a signalfd for SIGTERM/SIGINT, and one periodic tick (the
 * sysfs poll). It sleeps in poll() until one of them is due, so an idle
 * daemon costs nothing.
 */

#include <dbus/dbus.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct loop_timeout {
        DBusTimeout *timeout;
        uint64_t deadline_usec;
} loop_timeout;

typedef struct loop {
        DBusWatch **watches;
        unsigned n_watches, cap_watches;
        loop_timeout *timeouts;
        unsigned n_timeouts, cap_timeouts;
        int signal_fd;
        uint64_t tick_deadline_usec;
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

/* Brings the next tick forward to at most @ms from now. */
void loop_tick_within(loop *l, uint64_t ms);

/* Runs until SIGTERM/SIGINT (0) or the bus goes away (-ECONNRESET). */
int loop_run(loop *l, DBusConnection *bus, loop_tick_fn tick, void *userdata);
