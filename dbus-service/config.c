/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "governor.h"
#include "parse.h"

typedef struct config_key {
        const char *name;
        size_t offset;
        int is_uint; /* else uint64_t */
        uint64_t min, max;
} config_key;

static const config_key config_keys[] = {
        { "fast_sync_speed_min", offsetof(config, profiles.fast_floor), 0, 1, 2000000000 },
        { "fast_stripe_cache_size", offsetof(config, profiles.fast_stripe_cache), 0, 17, 32768 },
        { "fast_floor_fit_percent", offsetof(config, profiles.fit_percent), 1, 0, 100 },
        { "fast_floor_fit_after_ms", offsetof(config, profiles.fit_after_ms), 0, 1000, 3600000 },
        { "fast_ceiling_hold", offsetof(config, profiles.hold_ceiling), 1, 0, 1 },
        { "fast_ceiling_quiet_ms", offsetof(config, profiles.quiet_ms), 0, 1000, 3600000 },
        { "fast_users_share", offsetof(config, profiles.users_share), 1, 1, 100 },
        { "fast_users_latency_ms", offsetof(config, profiles.users_latency_ms), 1, 0, GOVERNOR_LATENCY_MAX_MS },
        { "fast_governor_learn_ms", offsetof(config, profiles.learn_ms), 0, 1000, 600000 },
        { "fast_governor_relearn_ms", offsetof(config, profiles.relearn_ms), 0, 10000, 86400000 },
        { "fast_governor_step_ms", offsetof(config, profiles.step_ms), 0, 1000, 600000 },
        { "users_busy_kibs", offsetof(config, profiles.busy_kibs), 0, 1, 2000000000 },
        { "users_busy_iops", offsetof(config, profiles.busy_iops), 0, 1, 1000000 },
        { "sync_speed_max_floor", offsetof(config, profiles.ceiling), 0, 1, 2000000000 },
        { "memory_budget_percent", offsetof(config, profiles.budget_percent), 1, 0, 90 },
        { "poll_active_ms", offsetof(config, poll_active_ms), 0, 100, 60000 },
        { "poll_idle_ms", offsetof(config, poll_idle_ms), 0, 100, 600000 },
        { "poll_notified_ms", offsetof(config, poll_notified_ms), 0, 1000, 86400000 },
        { "reshape_stuck_ms", offsetof(config, reshape_stuck_ms), 0, 1000, 3600000 },
        { "event_command_timeout_ms", offsetof(config, event_command_timeout_ms), 0, 1000, 3600000 },
};

static char *strip(char *s) {
        char *end;

        while (isspace((unsigned char)*s))
                s++;
        end = s + strlen(s);
        while (end > s && isspace((unsigned char)end[-1]))
                *--end = 0;
        return s;
}

/*
 * "policy_rebuild = RULE", "policy_check = RULE": the default for every
 * array; "policy_rebuild.UUID = RULE": one array's own (its UUID as md or
 * mdadm --detail shows it). 1 when  is none of these.
 */
static int config_policy(const char *key, const char *value, unsigned lineno, config *c, char *errbuf, size_t errlen) {
        char name[32], uuid[37];
        const char *dot = strchr(key, '.');
        size_t len = dot ? (size_t)(dot - key) : strlen(key);
        policy_class k;
        policy_rule rule;
        int r;

        if (len >= sizeof(name))
                return 1;
        memcpy(name, key, len);
        name[len] = 0;
        if (strncmp(name, "policy_", 7) != 0)
                return 1;
        k = policy_class_from_string(name + 7);
        if (k < 0)
                return 1;
        if (dot && md_parse_uuid(dot + 1, strlen(dot + 1), uuid) < 0) {
                snprintf(errbuf, errlen, "line %u: '%.64s' does not name an array by its UUID", lineno, dot + 1);
                return -EINVAL;
        }
        r = policy_rule_parse(k, value, &rule);
        if (r < 0 && k == POLICY_CHECK_WINDOW) {
                snprintf(errbuf, errlen,
                         "line %u: %s must be any, or windows such as 'Mon-Fri 01:00-06:00, Sat,Sun 00:00-08:00' "
                         "(at most %u)",
                         lineno, key, CHECK_WINDOWS_MAX);
                return r;
        }
        if (r < 0 && k == POLICY_CHECK_BUSY) {
                snprintf(errbuf, errlen, "line %u: %s must be run or pause", lineno, key);
                return r;
        }
        if (r < 0) {
                snprintf(errbuf, errlen,
                         "line %u: %s must be none, fast, fast:N (N from 1 to 100), "
                         "fast:Nms (N from 1 to 60000) or max",
                         lineno, key);
                return r;
        }
        r = policy_set_rule(&c->policies, dot ? uuid : NULL, k, &rule);
        if (r < 0)
                snprintf(errbuf, errlen, "line %u: more than %u arrays have their own policy", lineno,
                         POLICY_ARRAYS_MAX);
        return r;
}

static int config_line(char *line, unsigned lineno, config *c, char *errbuf, size_t errlen) {
        char *eq, *key, *value;
        uint64_t v;

        line = strip(line);
        if (*line == 0 || *line == '#')
                return 0;
        eq = strchr(line, '=');
        if (!eq) {
                snprintf(errbuf, errlen, "line %u: expected 'key = value'", lineno);
                return -EINVAL;
        }
        *eq = 0;
        key = strip(line);
        value = strip(eq + 1);
        {
                int r = config_policy(key, value, lineno, c, errbuf, errlen);

                if (r <= 0)
                        return r;
        }
        /* A path: whether it may run as root is checked when the service starts (event_command_check). */
        if (strcmp(key, "event_command") == 0) {
                if (*value && (value[0] != '/' || strlen(value) >= sizeof(c->event_command))) {
                        snprintf(errbuf, errlen, "line %u: event_command must be an absolute path of at most %zu bytes",
                                 lineno, sizeof(c->event_command) - 1);
                        return -EINVAL;
                }
                snprintf(c->event_command, sizeof(c->event_command), "%s", value);
                return 0;
        }
        for (size_t i = 0; i < sizeof(config_keys) / sizeof(config_keys[0]); i++) {
                const config_key *k = &config_keys[i];
                int r;

                if (strcmp(k->name, key) != 0)
                        continue;
                r = md_parse_u64(value, strlen(value), &v);
                if (r == 0 && (v < k->min || v > k->max))
                        r = -ERANGE;
                if (r < 0) {
                        snprintf(errbuf, errlen, "line %u: %s must be a number from %llu to %llu", lineno, key,
                                 (unsigned long long)k->min, (unsigned long long)k->max);
                        return r;
                }
                if (k->is_uint)
                        *(unsigned *)((char *)c + k->offset) = (unsigned)v;
                else
                        *(uint64_t *)((char *)c + k->offset) = v;
                return 0;
        }
        snprintf(errbuf, errlen, "line %u: unknown key '%.64s'", lineno, key);
        return -EINVAL;
}

int config_parse(const char *text, config *c, char *errbuf, size_t errlen) {
        config n = *c;
        unsigned lineno = 0;
        char *copy, *save = NULL;
        int r = 0;

        copy = strdup(text);
        if (!copy)
                return -ENOMEM;
        /* strtok_r would skip empty lines and miscount; split by hand. */
        for (char *line = copy; line; line = save) {
                char *nl = strchr(line, '\n');
                save = nl ? nl + 1 : NULL;
                if (nl)
                        *nl = 0;
                lineno++;
                r = config_line(line, lineno, &n, errbuf, errlen);
                if (r < 0)
                        break;
        }
        free(copy);
        if (r < 0)
                return r;
        *c = n;
        return 0;
}
