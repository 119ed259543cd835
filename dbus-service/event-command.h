/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The administrator's event command (event_command in the configuration),
 * run for each event as mdadm --monitor runs its PROGRAM: the event's name,
 * the array and what is known of it as arguments and in the environment,
 * no shell, no input, its output discarded, a clean environment, as root
 * within the service's own sandbox. It never holds the service up: at most
 * EVENT_COMMAND_RUNNING_MAX run at once (an event beyond that is logged and
 * left out), and one still running after event_command_timeout_ms is
 * killed. docs/mdboostd.md says more.
 */

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define EVENT_COMMAND_RUNNING_MAX 4

typedef struct event_info {
        const char *event;   /* "OperationStarted", "OperationEnded", "RedundancyLost", "RedundancyRegained" */
        const char *array;   /* "md0" */
        const char *uuid;    /* "" without a superblock */
        const char *action;  /* "recover", ...; "" for the redundancy events */
        const char *outcome; /* OperationEnded's; "" otherwise */
        double progress;     /* percent; < 0 unknown */
        const char *summary; /* OperationEnded: the report's line; "" otherwise */
} event_info;

typedef struct event_runner {
        pid_t pid[EVENT_COMMAND_RUNNING_MAX];
        uint64_t started_usec[EVENT_COMMAND_RUNNING_MAX]; /* CLOCK_MONOTONIC */
        char event[EVENT_COMMAND_RUNNING_MAX][24];
        bool killed[EVENT_COMMAND_RUNNING_MAX];
        unsigned n;
} event_runner;

/*
 * Checks that @path can be trusted to run as root: an absolute path to a
 * regular, executable file owned by root and writable by nobody else.
 * 0, or -errno with the reason in @errbuf.
 */
int event_command_check(const char *path, char *errbuf, size_t errlen);

/* Starts @path for @ev at @now_usec; -EAGAIN when EVENT_COMMAND_RUNNING_MAX run already. */
int event_command_start(event_runner *r, const char *path, const event_info *ev, uint64_t now_usec);

/* Collects the commands that ended (logging a failure), kills those older than @timeout_usec. */
void event_command_reap(event_runner *r, uint64_t now_usec, uint64_t timeout_usec);

/* True while a command runs: the service then reads on its short timer, to collect it. */
static inline bool event_command_running(const event_runner *r) {
        return r->n > 0;
}
