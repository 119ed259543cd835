/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>

#include "governor.h"
#include "policy.h"

static const char *const class_words[_POLICY_CLASS_MAX] = {
        [POLICY_REBUILD] = "rebuild",           [POLICY_CHECK] = "check",           [POLICY_ESCALATE] = "escalate",
        [POLICY_CHECK_WINDOW] = "check_window", [POLICY_CHECK_BUSY] = "check_busy",
};

const char *policy_class_to_string(policy_class k) {
        if (k < 0 || k >= _POLICY_CLASS_MAX)
                return NULL;
        return class_words[k];
}

policy_class policy_class_from_string(const char *s) {
        for (int k = 0; s && k < _POLICY_CLASS_MAX; k++)
                if (strcmp(s, class_words[k]) == 0)
                        return (policy_class)k;
        return _POLICY_CLASS_INVALID;
}

/*
 * A resync (after an unclean stop or on a new array), a recovery onto a
 * spare and a reshape restore or change the array's redundancy; a check and
 * a repair only read it and fix what disagrees. They are asked for apart.
 */
policy_class policy_class_of(md_sync_action a) {
        switch (a) {
        case MD_SYNC_RESYNC:
        case MD_SYNC_RECOVER:
        case MD_SYNC_RESHAPE:
                return POLICY_REBUILD;
        case MD_SYNC_CHECK:
        case MD_SYNC_REPAIR:
                return POLICY_CHECK;
        default:
                return _POLICY_CLASS_INVALID;
        }
}

int policy_rule_parse(policy_class k, const char *text, policy_rule *ret) {
        policy_rule r = {};

        if (!text)
                return -EINVAL;
        if (k == POLICY_CHECK_WINDOW) {
                int e = check_windows_parse(text, &r.windows);

                if (e < 0)
                        return e;
                r.kind = POLICY_WINDOWS;
                *ret = r;
                return 0;
        }
        if (k == POLICY_CHECK_BUSY) {
                if (strcmp(text, "run") == 0)
                        r.kind = POLICY_RUN;
                else if (strcmp(text, "pause") == 0)
                        r.kind = POLICY_PAUSE;
                else
                        return -EINVAL;
                *ret = r;
                return 0;
        }
        if (strcmp(text, "none") == 0)
                r.kind = POLICY_NONE;
        else if (strcmp(text, "max") == 0)
                r.kind = POLICY_MAX;
        else if (strcmp(text, "fast") == 0)
                r.kind = POLICY_FAST;
        else if (strncmp(text, "fast:", 5) == 0) {
                const char *p = text + 5;
                unsigned v = 0;

                if (*p < '0' || *p > '9')
                        return -EINVAL;
                for (; *p >= '0' && *p <= '9'; p++) {
                        v = v * 10 + (unsigned)(*p - '0');
                        if (v > GOVERNOR_LATENCY_MAX_MS * 10u)
                                return -ERANGE;
                }
                r.kind = POLICY_FAST;
                if (strcmp(p, "ms") == 0) {
                        /* "fast:20ms": the users' latency bound */
                        if (v < 1 || v > GOVERNOR_LATENCY_MAX_MS)
                                return -ERANGE;
                        r.users_latency_ms = v;
                } else if (*p)
                        return -EINVAL;
                else if (v < 1 || v > 100)
                        return -ERANGE;
                else
                        r.users_share = v;
        } else
                return -EINVAL;
        *ret = r;
        return 0;
}

void policy_rule_format(const policy_rule *r, char *buf, size_t size) {
        if (r->kind == POLICY_WINDOWS) {
                check_windows_format(&r->windows, buf, size);
                return;
        }
        if (r->kind == POLICY_RUN || r->kind == POLICY_PAUSE) {
                snprintf(buf, size, "%s", r->kind == POLICY_RUN ? "run" : "pause");
                return;
        }
        if (r->kind == POLICY_FAST && r->users_share)
                snprintf(buf, size, "fast:%u", r->users_share);
        else if (r->kind == POLICY_FAST && r->users_latency_ms)
                snprintf(buf, size, "fast:%ums", r->users_latency_ms);
        else
                snprintf(buf, size, "%s", r->kind == POLICY_FAST ? "fast" : r->kind == POLICY_MAX ? "max" : "none");
}

static policy_array *find(const policy_set *s, const char *uuid) {
        for (unsigned i = 0; uuid && i < s->n; i++)
                if (strcmp(s->arrays[i].uuid, uuid) == 0)
                        return (policy_array *)&s->arrays[i];
        return NULL;
}

const policy_rule *policy_lookup(const policy_set *s, const char *uuid, policy_class k, bool *ret_own) {
        const policy_array *a = find(s, uuid);
        bool own = a && a->set[k];

        if (ret_own)
                *ret_own = own;
        return own ? &a->rules[k] : &s->defaults[k];
}

int policy_set_rule(policy_set *s, const char *uuid, policy_class k, const policy_rule *r) {
        policy_array *a;

        if (!uuid) {
                s->defaults[k] = *r;
                s->defaults_set[k] = true;
                return 0;
        }
        a = find(s, uuid);
        if (!a) {
                if (s->n >= POLICY_ARRAYS_MAX)
                        return -ENOSPC;
                a = &s->arrays[s->n++];
                *a = (policy_array){};
                snprintf(a->uuid, sizeof(a->uuid), "%s", uuid);
        }
        a->set[k] = true;
        a->rules[k] = *r;
        return 0;
}

void policy_unset_rule(policy_set *s, const char *uuid, policy_class k) {
        policy_array *a = find(s, uuid);
        bool any = false;

        if (!a)
                return;
        a->set[k] = false;
        for (int i = 0; i < _POLICY_CLASS_MAX; i++)
                any = any || a->set[i];
        if (!any) {
                /* No rule left: the slot goes, the last one takes its place. */
                *a = s->arrays[s->n - 1];
                s->n--;
        }
}

int policy_overlay(policy_set *s, const policy_set *over) {
        policy_set n = *s;

        for (int k = 0; k < _POLICY_CLASS_MAX; k++)
                if (over->defaults_set[k])
                        (void)policy_set_rule(&n, NULL, (policy_class)k, &over->defaults[k]);
        for (unsigned i = 0; i < over->n; i++)
                for (int k = 0; k < _POLICY_CLASS_MAX; k++)
                        if (over->arrays[i].set[k] &&
                            policy_set_rule(&n, over->arrays[i].uuid, (policy_class)k, &over->arrays[i].rules[k]) < 0)
                                return -ENOSPC;
        *s = n;
        return 0;
}

static int append_line(char *buf, size_t size, size_t *len, policy_class k, const char *uuid, const policy_rule *r) {
        char words[POLICY_RULE_TEXT_MAX];
        int n;

        policy_rule_format(r, words, sizeof(words));
        n = snprintf(buf + *len, size - *len, "policy_%s%s%s = %s\n", policy_class_to_string(k), uuid ? "." : "",
                     uuid ?: "", words);
        if (n < 0 || (size_t)n >= size - *len)
                return -ENOBUFS;
        *len += (size_t)n;
        return 0;
}

int policy_format_lines(const policy_set *s, char *buf, size_t size) {
        size_t len = 0;

        if (size == 0)
                return -ENOBUFS;
        buf[0] = 0;
        for (int k = 0; k < _POLICY_CLASS_MAX; k++)
                if (s->defaults_set[k] && append_line(buf, size, &len, (policy_class)k, NULL, &s->defaults[k]) < 0)
                        return -ENOBUFS;
        for (unsigned i = 0; i < s->n; i++)
                for (int k = 0; k < _POLICY_CLASS_MAX; k++)
                        if (s->arrays[i].set[k] && append_line(buf, size, &len, (policy_class)k, s->arrays[i].uuid,
                                                               &s->arrays[i].rules[k]) < 0)
                                return -ENOBUFS;
        return 0;
}
