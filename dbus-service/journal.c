/* SPDX-License-Identifier: MIT */
/* The journal in memory: its entries, parsed from and formatted to JSON (journal.h). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"
#include "journal.h"
#include "policy.h"

#define JOURNAL_VERSION 1

bool journal_tval_equal(const md_tval *a, const md_tval *b) {
        if (a->kind != b->kind)
                return false;
        if (md_tval_has_number(a))
                return a->value == b->value;
        return true;
}

bool journal_entry_wrote(const journal_entry *e, md_tunable t, const md_tval *now) {
        if (journal_tval_equal(now, &e->written[t]))
                return true;
        if (e->earlier[t].kind != MD_V_ABSENT && journal_tval_equal(now, &e->earlier[t]))
                return true;
        return (t == MD_T_SYNC_SPEED_MIN || t == MD_T_SYNC_SPEED_MAX) && e->pace_high != 0 && now->kind == MD_V_LOCAL &&
               now->value >= e->pace_low && now->value <= e->pace_high;
}

journal_entry *journal_find(journal *j, const char *uuid) {
        for (unsigned i = 0; i < j->n; i++)
                if (strcmp(j->entries[i].uuid, uuid) == 0)
                        return &j->entries[i];
        return NULL;
}

int journal_put(journal *j, const journal_entry *e) {
        journal_entry *old = journal_find(j, e->uuid);

        if (old) {
                *old = *e;
                return 0;
        }
        if (j->n == j->cap) {
                unsigned cap = j->cap ? j->cap * 2 : 4;
                journal_entry *n = reallocarray(j->entries, cap, sizeof(*n));
                if (!n)
                        return -ENOMEM;
                j->entries = n;
                j->cap = cap;
        }
        j->entries[j->n++] = *e;
        return 0;
}

int journal_remove(journal *j, const char *uuid) {
        journal_entry *e = journal_find(j, uuid);

        if (!e)
                return -ENOENT;
        *e = j->entries[--j->n];
        return 0;
}

void journal_free(journal *j) {
        free(j->entries);
        *j = (journal){ .clean = j->clean };
}

/* ---- parsing ---- */

#define REJECT(why_buf, ...) (snprintf(why_buf, sizeof(((journal_reject *)0)->why), __VA_ARGS__), -EINVAL)

static int copy_word(json_object *o, const char *key, char *buf, size_t size, bool required, char *why) {
        json_object *v;
        const char *s;

        if (!json_object_object_get_ex(o, key, &v))
                return required ? REJECT(why, "no \"%s\"", key) : 0;
        if (!json_object_is_type(v, json_type_string))
                return REJECT(why, "\"%s\" is not a string", key);
        s = json_object_get_string(v);
        if (strlen(s) >= size)
                return REJECT(why, "\"%s\" is longer than %zu characters", key, size - 1);
        strcpy(buf, s);
        return 0;
}

static int parse_tvals(json_object *o, const char *key, md_tval out[_MD_T_ARRAY_MAX], char *why) {
        json_object *map;

        for (unsigned t = 0; t < _MD_T_ARRAY_MAX; t++)
                out[t] = (md_tval){ .kind = MD_V_ABSENT };
        if (!json_object_object_get_ex(o, key, &map))
                return 0;
        if (!json_object_is_type(map, json_type_object))
                return REJECT(why, "\"%s\" is not an object", key);
        json_object_object_foreach(map, name, val) {
                md_tunable t = md_tunable_from_name(name);
                const char *text;

                if (t < 0 || t >= _MD_T_ARRAY_MAX)
                        return REJECT(why, "\"%s\" names an unknown tunable \"%.32s\"", key, name);
                if (!json_object_is_type(val, json_type_string))
                        return REJECT(why, "\"%s\" of %s is not a string", key, name);
                text = json_object_get_string(val);
                if (md_parse_tval(text, strlen(text), &out[t]) < 0)
                        return REJECT(why, "\"%s\" of %s is no value md shows: \"%.24s\"", key, name, text);
        }
        return 0;
}

/* @key: a whole number @min..@max, absent: 0 (the configuration's). */
static int parse_target(json_object *o, const char *key, int64_t min, int64_t max, unsigned *ret, char *why) {
        json_object *v;
        int64_t n;

        if (!json_object_object_get_ex(o, key, &v))
                return 0;
        if (!json_object_is_type(v, json_type_int))
                return REJECT(why, "\"%s\" is not a whole number", key);
        n = json_object_get_int64(v);
        if (n < min || n > max)
                return REJECT(why, "\"%s\" is not from %" PRId64 " to %" PRId64, key, min, max);
        *ret = (unsigned)n;
        return 0;
}

/* "ceiling": a sync_speed_max as md shows it, absent: MD_V_ABSENT. */
static int parse_ceiling(json_object *o, md_tval *ret, char *why) {
        json_object *v;
        const char *text;

        if (!json_object_object_get_ex(o, "ceiling", &v))
                return 0;
        if (!json_object_is_type(v, json_type_string))
                return REJECT(why, "\"ceiling\" is not a string");
        text = json_object_get_string(v);
        if (md_parse_tval(text, strlen(text), ret) < 0 || !md_tval_has_number(ret))
                return REJECT(why, "\"ceiling\" is no limit md shows: \"%.24s\"", text);
        return 0;
}

/* "paced": {"low": N, "high": N}, 0 < low <= high, KiB/s; absent: 0, 0. */
static int parse_paced(json_object *o, uint64_t *ret_low, uint64_t *ret_high, char *why) {
        json_object *v, *low, *high;
        int64_t l, h;

        if (!json_object_object_get_ex(o, "paced", &v))
                return 0;
        if (!json_object_is_type(v, json_type_object) || !json_object_object_get_ex(v, "low", &low) ||
            !json_object_object_get_ex(v, "high", &high) || !json_object_is_type(low, json_type_int) ||
            !json_object_is_type(high, json_type_int))
                return REJECT(why, "\"paced\" is not {\"low\": N, \"high\": N}");
        l = json_object_get_int64(low);
        h = json_object_get_int64(high);
        if (l <= 0 || h < l || md_tunable_check(MD_T_SYNC_SPEED_MAX, (uint64_t)h) < 0)
                return REJECT(why, "\"paced\" is no band of limits md takes");
        *ret_low = (uint64_t)l;
        *ret_high = (uint64_t)h;
        return 0;
}

static int parse_entry(const char *uuid, json_object *o, journal_entry *ret, char *why) {
        journal_entry e = {};
        char fit[JOURNAL_WORD_MAX] = "";
        json_object *since;
        int64_t s;
        int r;

        if (strlen(uuid) != 36 || md_parse_uuid(uuid, strlen(uuid), e.uuid) < 0)
                return REJECT(why, "the key is not an array UUID");
        if (!json_object_is_type(o, json_type_object))
                return REJECT(why, "the entry is not an object");
        r = copy_word(o, "array", e.array, sizeof(e.array), true, why);
        if (r < 0)
                return r;
        if (!md_name_valid(e.array))
                return REJECT(why, "\"array\" is not an md device name");
        r = copy_word(o, "profile", e.profile, sizeof(e.profile), true, why);
        if (r == 0)
                r = copy_word(o, "operation", e.operation, sizeof(e.operation), true, why);
        if (r < 0)
                return r;
        if (!json_object_object_get_ex(o, "since", &since) || !json_object_is_type(since, json_type_int))
                return REJECT(why, "no whole number \"since\"");
        s = json_object_get_int64(since);
        if (s < 0)
                return REJECT(why, "\"since\" is negative");
        e.since_usec = (uint64_t)s;
        r = parse_tvals(o, "originals", e.originals, why);
        if (r == 0)
                r = parse_tvals(o, "written", e.written, why);
        if (r == 0)
                r = parse_tvals(o, "earlier", e.earlier, why);
        if (r == 0)
                r = copy_word(o, "fit", fit, sizeof(fit), false, why);
        if (r < 0)
                return r;
        e.fit = governor_state_from_string(fit);
        if (e.fit < 0)
                return REJECT(why, "\"fit\" is an unknown state \"%s\"", fit);
        r = copy_word(o, "policy", e.policy, sizeof(e.policy), false, why);
        if (r == 0 && e.policy[0] && policy_class_from_string(e.policy) < 0)
                return REJECT(why, "\"policy\" is an unknown rule \"%s\"", e.policy);
        if (r == 0)
                r = parse_target(o, "users_share", 1, 100, &e.users_share, why);
        if (r == 0)
                r = parse_target(o, "users_latency_ms", 1, GOVERNOR_LATENCY_MAX_MS, &e.users_latency_ms, why);
        if (r == 0 && e.users_share && e.users_latency_ms)
                return REJECT(why, "\"users_share\" and \"users_latency_ms\" exclude each other");
        if (r == 0)
                r = parse_ceiling(o, &e.lift_ceiling, why);
        if (r == 0)
                r = parse_paced(o, &e.pace_low, &e.pace_high, why);
        if (r == 0)
                r = parse_target(o, "cache_low", md_tunable_get(MD_T_STRIPE_CACHE_SIZE)->min,
                                 md_tunable_get(MD_T_STRIPE_CACHE_SIZE)->max, &e.cache_low, why);
        if (r < 0)
                return r;
        *ret = e;
        return 0;
}

static void note_reject(journal_load_report *report, const char *key, json_object *entry, const char *why) {
        journal_reject *k;

        if (report->n_rejected++ >= JOURNAL_REJECT_MAX)
                return;
        k = &report->rejected[report->n_rejected - 1];
        snprintf(k->key, sizeof(k->key), "%s", key);
        /* The key is the file's own text, not escaped like the JSON below: keep the log one line. */
        for (char *p = k->key; *p; p++)
                if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f)
                        *p = '?';
        snprintf(k->why, sizeof(k->why), "%s", why);
        snprintf(k->held, sizeof(k->held), "%s", json_object_to_json_string_ext(entry, JSON_C_TO_STRING_PLAIN));
}

static int parse_object(json_object *root, const char *section, journal *j, journal_load_report *report) {
        json_object *v, *boosts;

        if (!json_object_is_type(root, json_type_object))
                return -EINVAL;
        if (!json_object_object_get_ex(root, "version", &v) || !json_object_is_type(v, json_type_int) ||
            json_object_get_int(v) != JOURNAL_VERSION)
                return -EINVAL;
        if (!json_object_object_get_ex(root, "clean", &v) || !json_object_is_type(v, json_type_boolean))
                return -EINVAL;
        j->clean = json_object_get_boolean(v);
        if (!json_object_object_get_ex(root, section, &boosts) || !json_object_is_type(boosts, json_type_object))
                return -EINVAL;
        json_object_object_foreach(boosts, uuid, entry) {
                char why[sizeof(((journal_reject *)0)->why)] = "";
                journal_entry e;
                int r = parse_entry(uuid, entry, &e, why);

                if (r < 0 && !report)
                        return r;
                if (r < 0) {
                        note_reject(report, uuid, entry, why);
                        continue;
                }
                /* The same array twice: neither can be trusted to be its originals. */
                if (journal_find(j, e.uuid)) {
                        if (!report)
                                return -EINVAL;
                        note_reject(report, uuid, entry, "a second entry for the same array");
                        continue;
                }
                r = journal_put(j, &e);
                if (r < 0)
                        return r;
        }
        return 0;
}

int journal_parse(const char *text, journal *ret, journal_load_report *report) {
        return journal_parse_section(text, JOURNAL_SECTION, ret, report);
}

int journal_parse_section(const char *text, const char *section, journal *ret, journal_load_report *report) {
        enum json_tokener_error jerr;
        journal_load_report rep = {};
        journal j = {};
        json_object *root;
        int r;

        root = json_tokener_parse_verbose(text, &jerr);
        if (!root)
                return -EINVAL;
        r = parse_object(root, section, &j, report ? &rep : NULL);
        json_object_put(root);
        if (r < 0) {
                journal_free(&j);
                return r;
        }
        if (report)
                *report = rep;
        *ret = j;
        return 0;
}

/* ---- formatting ---- */

static int add_tvals(json_object *o, const char *key, const md_tval vals[_MD_T_ARRAY_MAX]) {
        json_object *map = json_object_new_object();

        if (!map)
                return -ENOMEM;
        for (unsigned t = 0; t < _MD_T_ARRAY_MAX; t++) {
                char text[64];

                if (vals[t].kind == MD_V_ABSENT)
                        continue;
                if (md_tval_format(&vals[t], text, sizeof(text)) < 0)
                        continue;
                json_object_object_add(map, md_tunable_get(t)->name, json_object_new_string(text));
        }
        json_object_object_add(o, key, map);
        return 0;
}

static json_object *format_entry(const journal_entry *e) {
        _cleanup_json_ json_object *o = json_object_new_object();

        if (!o)
                return NULL;
        json_object_object_add(o, "array", json_object_new_string(e->array));
        json_object_object_add(o, "profile", json_object_new_string(e->profile));
        json_object_object_add(o, "since", json_object_new_int64((int64_t)e->since_usec));
        json_object_object_add(o, "operation", json_object_new_string(e->operation));
        if (add_tvals(o, "originals", e->originals) < 0 || add_tvals(o, "written", e->written) < 0)
                return NULL;
        if (e->fit != GOVERNOR_OFF)
                json_object_object_add(o, "fit", json_object_new_string(governor_state_to_string(e->fit)));
        if (e->policy[0])
                json_object_object_add(o, "policy", json_object_new_string(e->policy));
        if (e->users_share)
                json_object_object_add(o, "users_share", json_object_new_int((int)e->users_share));
        if (e->users_latency_ms)
                json_object_object_add(o, "users_latency_ms", json_object_new_int((int)e->users_latency_ms));
        if (e->lift_ceiling.kind != MD_V_ABSENT) {
                char text[64];

                if (md_tval_format(&e->lift_ceiling, text, sizeof(text)) == 0)
                        json_object_object_add(o, "ceiling", json_object_new_string(text));
        }
        if (e->cache_low)
                json_object_object_add(o, "cache_low", json_object_new_int64((int64_t)e->cache_low));
        if (e->pace_high) {
                json_object *band = json_object_new_object();

                if (!band)
                        return NULL;
                json_object_object_add(band, "low", json_object_new_int64((int64_t)e->pace_low));
                json_object_object_add(band, "high", json_object_new_int64((int64_t)e->pace_high));
                json_object_object_add(o, "paced", band);
        }
        for (unsigned t = 0; t < _MD_T_ARRAY_MAX; t++)
                if (e->earlier[t].kind != MD_V_ABSENT) {
                        if (add_tvals(o, "earlier", e->earlier) < 0)
                                return NULL;
                        break;
                }
        return TAKE_PTR(o);
}

char *journal_format(const journal *j) {
        return journal_format_section(j, JOURNAL_SECTION);
}

char *journal_format_section(const journal *j, const char *section) {
        _cleanup_json_ json_object *root = json_object_new_object(), *boosts = json_object_new_object();

        if (!root || !boosts)
                return NULL;
        json_object_object_add(root, "version", json_object_new_int(JOURNAL_VERSION));
        json_object_object_add(root, "clean", json_object_new_boolean(j->clean));
        for (unsigned i = 0; i < j->n; i++) {
                json_object *e = format_entry(&j->entries[i]);
                if (!e)
                        return NULL;
                json_object_object_add(boosts, j->entries[i].uuid, e);
        }
        json_object_object_add(root, section, TAKE_PTR(boosts));
        return strdup(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY));
}
