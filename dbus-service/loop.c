/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "loop.h"

/* md notifies twice for one change often: a tick at most this often for notifications. */
#define LOOP_TICK_GAP_MS 200

static uint64_t clock_usec(clockid_t id) {
        struct timespec ts;

        clock_gettime(id, &ts);
        return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

uint64_t loop_now_usec(void) {
        return clock_usec(CLOCK_MONOTONIC);
}

uint64_t loop_realtime_usec(void) {
        return clock_usec(CLOCK_REALTIME);
}

static void *grow(void *p, unsigned *cap, size_t size) {
        unsigned n = *cap ? *cap * 2 : 8;
        void *np = reallocarray(p, n, size);

        if (np)
                *cap = n;
        return np;
}

static dbus_bool_t watch_add(DBusWatch *w, void *data) {
        loop *l = data;

        if (l->n_watches == l->cap_watches) {
                DBusWatch **n = grow(l->watches, &l->cap_watches, sizeof(*n));
                if (!n)
                        return FALSE;
                l->watches = n;
        }
        l->watches[l->n_watches++] = w;
        return TRUE;
}

static void watch_remove(DBusWatch *w, void *data) {
        loop *l = data;

        for (unsigned i = 0; i < l->n_watches; i++)
                if (l->watches[i] == w) {
                        l->watches[i] = l->watches[--l->n_watches];
                        return;
                }
}

static void watch_toggled(DBusWatch *w, void *data) {
        /* Enabled state is read on every iteration. */
        (void)w;
        (void)data;
}

static void timeout_arm(loop_timeout *t) {
        t->deadline_usec = loop_now_usec() + (uint64_t)dbus_timeout_get_interval(t->timeout) * 1000u;
}

static dbus_bool_t timeout_add(DBusTimeout *t, void *data) {
        loop *l = data;

        if (l->n_timeouts == l->cap_timeouts) {
                loop_timeout *n = grow(l->timeouts, &l->cap_timeouts, sizeof(*n));
                if (!n)
                        return FALSE;
                l->timeouts = n;
        }
        l->timeouts[l->n_timeouts] = (loop_timeout){ .timeout = t };
        timeout_arm(&l->timeouts[l->n_timeouts++]);
        return TRUE;
}

static void timeout_remove(DBusTimeout *t, void *data) {
        loop *l = data;

        for (unsigned i = 0; i < l->n_timeouts; i++)
                if (l->timeouts[i].timeout == t) {
                        l->timeouts[i] = l->timeouts[--l->n_timeouts];
                        return;
                }
}

static void timeout_toggled(DBusTimeout *t, void *data) {
        loop *l = data;

        for (unsigned i = 0; i < l->n_timeouts; i++)
                if (l->timeouts[i].timeout == t)
                        timeout_arm(&l->timeouts[i]);
}

int loop_init(loop *l) {
        sigset_t mask;

        *l = (loop){ .signal_fd = -1 };
        sigemptyset(&mask);
        sigaddset(&mask, SIGTERM);
        sigaddset(&mask, SIGINT);
        if (sigprocmask(SIG_BLOCK, &mask, NULL) < 0)
                return -errno;
        l->signal_fd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
        if (l->signal_fd < 0)
                return -errno;
        signal(SIGPIPE, SIG_IGN);
        return 0;
}

int loop_attach(loop *l, DBusConnection *bus) {
        if (!dbus_connection_set_watch_functions(bus, watch_add, watch_remove, watch_toggled, l, NULL))
                return -ENOMEM;
        if (!dbus_connection_set_timeout_functions(bus, timeout_add, timeout_remove, timeout_toggled, l, NULL))
                return -ENOMEM;
        return 0;
}

void loop_free(loop *l) {
        free(l->watches);
        free(l->timeouts);
        if (l->signal_fd >= 0)
                close(l->signal_fd);
        *l = (loop){ .signal_fd = -1 };
}

void loop_set_files(loop *l, loop_count_fn count, loop_fill_fn fill, loop_take_fn take, void *userdata) {
        l->files_count = count;
        l->files_fill = fill;
        l->files_take = take;
        l->files_userdata = userdata;
}

void loop_tick_within(loop *l, uint64_t ms) {
        uint64_t at = loop_now_usec() + ms * 1000u;

        if (at < l->tick_deadline_usec)
                l->tick_deadline_usec = at;
}

static int poll_timeout_ms(const loop *l, uint64_t now) {
        uint64_t next = l->tick_deadline_usec;

        for (unsigned i = 0; i < l->n_timeouts; i++)
                if (dbus_timeout_get_enabled(l->timeouts[i].timeout) && l->timeouts[i].deadline_usec < next)
                        next = l->timeouts[i].deadline_usec;
        if (next <= now)
                return 0;
        /* Round up so a wake-up never comes a little early and spins; a day at most. */
        return (int)((next - now + 999) / 1000 > 86400000 ? 86400000 : (next - now + 999) / 1000);
}

static bool watch_still_there(const loop *l, DBusWatch *w) {
        for (unsigned i = 0; i < l->n_watches; i++)
                if (l->watches[i] == w)
                        return true;
        return false;
}

static void handle_watches(loop *l, struct pollfd *fds, DBusWatch **snap, unsigned n) {
        for (unsigned i = 0; i < n; i++) {
                unsigned flags = 0;

                if (!fds[i].revents || !watch_still_there(l, snap[i]))
                        continue;
                if (fds[i].revents & POLLIN)
                        flags |= DBUS_WATCH_READABLE;
                if (fds[i].revents & POLLOUT)
                        flags |= DBUS_WATCH_WRITABLE;
                if (fds[i].revents & POLLERR)
                        flags |= DBUS_WATCH_ERROR;
                if (fds[i].revents & POLLHUP)
                        flags |= DBUS_WATCH_HANGUP;
                dbus_watch_handle(snap[i], flags);
        }
}

static void handle_timeouts(loop *l) {
        uint64_t now = loop_now_usec();
        DBusTimeout *due[64];
        unsigned n = 0;

        for (unsigned i = 0; i < l->n_timeouts && n < 64; i++)
                if (dbus_timeout_get_enabled(l->timeouts[i].timeout) && l->timeouts[i].deadline_usec <= now)
                        due[n++] = l->timeouts[i].timeout;
        for (unsigned i = 0; i < n; i++) {
                for (unsigned j = 0; j < l->n_timeouts; j++)
                        if (l->timeouts[j].timeout == due[i]) {
                                timeout_arm(&l->timeouts[j]);
                                dbus_timeout_handle(due[i]);
                                break;
                        }
        }
}

static void handle_signal(loop *l) {
        struct signalfd_siginfo si;

        while (read(l->signal_fd, &si, sizeof(si)) == sizeof(si)) {
                log_info("received signal %u, stopping (boosts stay in place, the journal keeps them)", si.ssi_signo);
                l->quit = true;
        }
}

/* A notification brings the tick forward, never closer than LOOP_TICK_GAP_MS to the last. */
static void tick_soon(loop *l) {
        uint64_t at = l->last_tick_usec + LOOP_TICK_GAP_MS * 1000u;

        if (at < l->tick_deadline_usec)
                l->tick_deadline_usec = at;
}

/*
 * One poll(): libdbus's watches, the signalfd and the kernel's files. Its
 * table is sized here, right before it is filled, as a method call the
 * iteration dispatched may have read the arrays and opened or closed files.
 */
static int loop_wait(loop *l) {
        unsigned n = 0, n_files = l->files_count ? l->files_count(l->files_userdata) : 0;
        unsigned cap = l->n_watches + 1 + n_files;
        struct pollfd fds[cap];
        DBusWatch *snap[cap];
        int r;

        for (unsigned i = 0; i < l->n_watches; i++) {
                DBusWatch *w = l->watches[i];
                unsigned f = dbus_watch_get_flags(w);

                if (!dbus_watch_get_enabled(w))
                        continue;
                fds[n] = (struct pollfd){ .fd = dbus_watch_get_unix_fd(w) };
                if (f & DBUS_WATCH_READABLE)
                        fds[n].events |= POLLIN;
                if (f & DBUS_WATCH_WRITABLE)
                        fds[n].events |= POLLOUT;
                snap[n++] = w;
        }
        fds[n] = (struct pollfd){ .fd = l->signal_fd, .events = POLLIN };
        if (n_files)
                l->files_fill(l->files_userdata, fds + n + 1);

        r = poll(fds, n + 1 + n_files, poll_timeout_ms(l, loop_now_usec()));
        if (r < 0)
                return errno == EINTR ? 0 : -errno;
        if (fds[n].revents)
                handle_signal(l);
        if (n_files && l->files_take(l->files_userdata, fds + n + 1))
                tick_soon(l);
        handle_watches(l, fds, snap, n);
        handle_timeouts(l);
        return 0;
}

static int loop_iteration(loop *l, DBusConnection *bus, loop_tick_fn tick, void *userdata) {
        uint64_t now;

        while (dbus_connection_dispatch(bus) == DBUS_DISPATCH_DATA_REMAINS)
                ;
        if (!dbus_connection_get_is_connected(bus))
                return -ECONNRESET;

        now = loop_now_usec();
        if (now >= l->tick_deadline_usec) {
                l->last_tick_usec = now;
                l->tick_deadline_usec = now + tick(userdata) * 1000u;
        }
        /* The tick may have sent signals: get them out before sleeping. */
        while (dbus_connection_dispatch(bus) == DBUS_DISPATCH_DATA_REMAINS)
                ;
        return loop_wait(l);
}

int loop_run(loop *l, DBusConnection *bus, loop_tick_fn tick, void *userdata) {
        while (!l->quit) {
                int r = loop_iteration(l, bus, tick, userdata);
                if (r < 0)
                        return r;
        }
        return 0;
}
