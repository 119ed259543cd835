/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * /etc/mdboost/mdboostd.conf: "key = value" lines, "#" comments. Every key
 * is optional; docs/mdboostd.md lists them with their defaults.
 */

#include <stddef.h>
#include <stdint.h>

#include "policy.h"
#include "profiles.h"

#define CONFIG_DEFAULT_PATH "/etc/mdboost/mdboostd.conf"

typedef struct config {
        profile_settings profiles;
        uint64_t poll_active_ms;   /* while an operation runs or a boost is in place */
        uint64_t poll_idle_ms;     /* otherwise, where the kernel does not notify (a test tree) */
        uint64_t poll_notified_ms; /* otherwise, where it does: a read now and then anyway */
        uint64_t reshape_stuck_ms; /* a reshape held at sync_max with nothing driving it this long is stuck */
        policy_set policies;       /* policy_rebuild, policy_check (none), policy_escalate (max), .UUID forms */
        char event_command[256];   /* run with each event (event-command.h); "" none */
        uint64_t event_command_timeout_ms;
} config;

#define CONFIG_DEFAULT                                                                                                 \
        ((config){ .profiles = PROFILE_SETTINGS_DEFAULT,                                                               \
                   .poll_active_ms = 1000,                                                                             \
                   .poll_idle_ms = 5000,                                                                               \
                   .poll_notified_ms = 600000,                                                                         \
                   .reshape_stuck_ms = 60000,                                                                          \
                   .event_command_timeout_ms = 60000,                                                                  \
                   .policies = { .defaults = { [POLICY_ESCALATE] = { .kind = POLICY_MAX },                             \
                                               [POLICY_CHECK_WINDOW] = { .kind = POLICY_WINDOWS },                     \
                                               [POLICY_CHECK_BUSY] = { .kind = POLICY_RUN } } } })

/* Parses @text over @c's current values. -EINVAL/-ERANGE name the line in @errbuf. */
int config_parse(const char *text, config *c, char *errbuf, size_t errlen);

/* Reads @path; a missing file is fine (0, defaults kept) unless @required. */
int config_load(const char *path, int required, config *c, char *errbuf, size_t errlen);
