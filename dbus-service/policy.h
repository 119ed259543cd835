/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * What the service does by itself when an operation starts on an array
 * (docs/policy.md): a rule for the operations that restore or change
 * redundancy (resync, recovery, reshape), one for check and repair, and
 * the escalation of the first while the array has no redundancy left (max
 * by default), per array by UUID or as the default for every array. Pure:
 * no I/O.
 *
 * A rule's words: "none", "fast", "fast:N" (fast, its governor keeping the
 * array's users N % of what they get alone), "fast:Nms" (fast, its governor
 * keeping their requests' 99th percentile under N ms), "max". The
 * check_window rule says instead when a check or a repair may run
 * (checkwindow.h): "any" by default; check_busy whether it pauses while the
 * array's users are busy: "run" (the default) or "pause".
 */

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>

#include "checkwindow.h"
#include "parse.h"

typedef enum policy_kind {
        POLICY_NONE,
        POLICY_FAST,
        POLICY_MAX,
        POLICY_WINDOWS, /* the check_window rule: when checks may run */
        POLICY_RUN,     /* the check_busy rule: checks run whatever the users do */
        POLICY_PAUSE,   /* the check_busy rule: checks pause while the users are busy */
        _POLICY_KIND_MAX,
} policy_kind;

typedef struct policy_rule {
        policy_kind kind;
        unsigned users_share;      /* FAST: 1..100, 0 for the configuration's */
        unsigned users_latency_ms; /* FAST: the latency bound ("fast:Nms"), 0 for none */
        check_windows windows;     /* WINDOWS: none ("any") or the windows */
} policy_rule;

typedef enum policy_class {
        POLICY_REBUILD,      /* resync, recover, reshape */
        POLICY_CHECK,        /* check, repair */
        POLICY_ESCALATE,     /* a rebuild the policy boosts while the array has no redundancy left */
        POLICY_CHECK_WINDOW, /* when a check or a repair may run (checkwindow.h) */
        POLICY_CHECK_BUSY,   /* whether it pauses while the array's users are busy: run, pause */
        _POLICY_CLASS_MAX,
        _POLICY_CLASS_INVALID = -EINVAL,
} policy_class;

#define POLICY_ARRAYS_MAX 64

typedef struct policy_array {
        char uuid[37];
        bool set[_POLICY_CLASS_MAX]; /* the array has its own rule for the class */
        policy_rule rules[_POLICY_CLASS_MAX];
} policy_array;

typedef struct policy_set {
        policy_rule defaults[_POLICY_CLASS_MAX]; /* every array without its own rule */
        bool defaults_set[_POLICY_CLASS_MAX];    /* the default was given (not the built-in one) */
        policy_array arrays[POLICY_ARRAYS_MAX];
        unsigned n;
} policy_set;

/* "rebuild", "check", "escalate", "check_window", "check_busy". */
const char *policy_class_to_string(policy_class k);
policy_class policy_class_from_string(const char *s);

/* The class of the operation @a (never ESCALATE), or -EINVAL for idle, frozen and unknown. */
policy_class policy_class_of(md_sync_action a);

/*
 * Parses a rule of class @k into @ret: for POLICY_CHECK_WINDOW windows
 * (checkwindow.h), for the others a boost's words. -EINVAL (anything else),
 * -ERANGE (a share outside 1..100), -E2BIG (too many windows).
 */
int policy_rule_parse(policy_class k, const char *text, policy_rule *ret);

/* The rule's words in @buf: "none", "fast", "fast:80", "fast:20ms", "max"; windows as checkwindow.h writes them. */
#define POLICY_RULE_TEXT_MAX CHECK_WINDOW_TEXT_MAX
void policy_rule_format(const policy_rule *r, char *buf, size_t size);

/*
 * The rule for class @k on the array @uuid: its own, or the default.
 * @ret_own (may be NULL) gets whether it is the array's own.
 */
const policy_rule *policy_lookup(const policy_set *s, const char *uuid, policy_class k, bool *ret_own);

/*
 * Sets the array @uuid's own rule for @k (a 36-character UUID as md shows
 * it), or the default with @uuid NULL. -ENOSPC when POLICY_ARRAYS_MAX
 * arrays have rules already.
 */
int policy_set_rule(policy_set *s, const char *uuid, policy_class k, const policy_rule *r);

/* Forgets the array @uuid's own rule for @k: it follows the default again. */
void policy_unset_rule(policy_set *s, const char *uuid, policy_class k);

/*
 * Puts every rule @over gives (its defaults that were set, its arrays' own
 * rules) on top of @s. -ENOSPC, @s unchanged, when the arrays do not fit.
 */
int policy_overlay(policy_set *s, const policy_set *over);

/*
 * The rules @s gives as configuration lines ("policy_rebuild = fast",
 * "policy_check.UUID = max", ...), for its file. -ENOBUFS when they do not
 * fit in @size.
 */
int policy_format_lines(const policy_set *s, char *buf, size_t size);

#define POLICY_FILE_DEFAULT "/var/lib/mdboost/policy.conf"

/*
 * The rules set over D-Bus (SetPolicy), kept in their own file as
 * configuration lines (policy-io.c). Load: a missing file gives no rules;
 * -EINVAL/-ERANGE name the line in @errbuf. Save: written whole, then
 * renamed over the old one, creating its folder.
 */
int policy_file_load(const char *path, policy_set *ret, char *errbuf, size_t errlen);
int policy_file_save(const char *path, const policy_set *s);
