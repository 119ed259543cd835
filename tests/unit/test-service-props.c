/* SPDX-License-Identifier: MIT */
/* What the objects' properties say, and which ones a change marks for PropertiesChanged. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "props.h"

static md_member members[4] = {
        { .name = "vda", .flags = MD_MEMBER_IN_SYNC, .slot = 0, .role = MD_ROLE_IN_SYNC },
        { .name = "vdb", .flags = MD_MEMBER_IN_SYNC, .slot = 1, .role = MD_ROLE_IN_SYNC },
        { .name = "vdc", .flags = MD_MEMBER_IN_SYNC | MD_MEMBER_WRITE_MOSTLY, .slot = 2, .role = MD_ROLE_IN_SYNC },
        { .name = "vdd", .flags = MD_MEMBER_SPARE, .slot = 3, .role = MD_ROLE_REBUILDING },
};

static md_array raid5(void) {
        md_array a = { .name = "md0",
                       .level = MD_LEVEL_RAID5,
                       .state = MD_ARRAY_CLEAN,
                       .uuid = "7ac7b4d7-c925-6f89-525e-4caecab28aec",
                       .size_bytes = 3214934016ull,
                       .sync_action = MD_SYNC_RECOVER,
                       .last_sync_action = MD_SYNC_RECOVER };

        a.raid_disks = (md_newold){ .kind = MD_V_NUMBER, .value = 4, .old_value = 4 };
        a.chunk_size = (md_newold){ .kind = MD_V_NUMBER, .value = 524288, .old_value = 524288 };
        a.degraded = (md_tval){ .kind = MD_V_NUMBER, .value = 1 };
        a.members = members;
        a.n_members = 4;
        a.progress = (md_progress){ .kind = MD_PROGRESS_RUNNING, .done = 261648, .total = 2093056 };
        a.sync_speed = (md_tval){ .kind = MD_V_NUMBER, .value = 10301 };
        a.mismatch_cnt = (md_tval){ .kind = MD_V_NUMBER, .value = 0 };
        for (unsigned t = 0; t < _MD_T_ARRAY_MAX; t++)
                a.tunables[t] = (md_tval){ .kind = MD_V_ABSENT };
        a.tunables[MD_T_SYNC_SPEED_MIN] = (md_tval){ .kind = MD_V_SYSTEM, .value = 1000 };
        a.tunables[MD_T_SYNC_MAX] = (md_tval){ .kind = MD_V_MAX };
        a.tunables[MD_T_STRIPE_CACHE_SIZE] = (md_tval){ .kind = MD_V_NUMBER, .value = 256 };
        return a;
}

/* Appends every property of @a to a message and finds @name's variant in it. */
typedef struct props_msg {
        DBusMessage *m;
        DBusMessageIter dict;
} props_msg;

static void props_open(const context *c, obj_kind k, const md_array *a, props_msg *p) {
        DBusMessageIter it;

        p->m = dbus_message_new_signal("/", "org.mdboost.Test", "Props");
        assert_non_null(p->m);
        dbus_message_iter_init_append(p->m, &it);
        assert_true(props_append_all(c, k, a, &it));
        assert_true(dbus_message_has_signature(p->m, "a{sv}"));
        dbus_message_iter_init(p->m, &it);
        dbus_message_iter_recurse(&it, &p->dict);
}

static DBusMessageIter prop(const props_msg *p, const char *name) {
        DBusMessageIter d = p->dict, e, v;

        for (; dbus_message_iter_get_arg_type(&d) == DBUS_TYPE_DICT_ENTRY; dbus_message_iter_next(&d)) {
                const char *key;
                dbus_message_iter_recurse(&d, &e);
                dbus_message_iter_get_basic(&e, &key);
                if (strcmp(key, name) != 0)
                        continue;
                dbus_message_iter_next(&e);
                dbus_message_iter_recurse(&e, &v);
                return v;
        }
        fail_msg("no property %s", name);
        return v;
}

static const char *prop_string(const props_msg *p, const char *name) {
        DBusMessageIter v = prop(p, name);
        const char *s;

        assert_int_equal(dbus_message_iter_get_arg_type(&v), DBUS_TYPE_STRING);
        dbus_message_iter_get_basic(&v, &s);
        return s;
}

static uint64_t prop_u64(const props_msg *p, const char *name) {
        DBusMessageIter v = prop(p, name);
        dbus_uint64_t x;

        assert_int_equal(dbus_message_iter_get_arg_type(&v), DBUS_TYPE_UINT64);
        dbus_message_iter_get_basic(&v, &x);
        return x;
}

static bool prop_bool(const props_msg *p, const char *name) {
        DBusMessageIter v = prop(p, name);
        dbus_bool_t b;

        assert_int_equal(dbus_message_iter_get_arg_type(&v), DBUS_TYPE_BOOLEAN);
        dbus_message_iter_get_basic(&v, &b);
        return b;
}

/* Value of @key in an a{ss} property, NULL when absent. */
static const char *prop_map(const props_msg *p, const char *name, const char *key) {
        DBusMessageIter v = prop(p, name), d, e;

        for (dbus_message_iter_recurse(&v, &d); dbus_message_iter_get_arg_type(&d) == DBUS_TYPE_DICT_ENTRY;
             dbus_message_iter_next(&d)) {
                const char *k, *val;
                dbus_message_iter_recurse(&d, &e);
                dbus_message_iter_get_basic(&e, &k);
                dbus_message_iter_next(&e);
                dbus_message_iter_get_basic(&e, &val);
                if (strcmp(k, key) == 0)
                        return val;
        }
        return NULL;
}

static journal_entry boost_entry(void) {
        journal_entry e = { .uuid = "7ac7b4d7-c925-6f89-525e-4caecab28aec",
                            .array = "md0",
                            .profile = "max",
                            .since_usec = 1764445000123456ull,
                            .operation = "recover" };

        for (unsigned t = 0; t < _MD_T_ARRAY_MAX; t++)
                e.originals[t] = e.written[t] = (md_tval){ .kind = MD_V_ABSENT };
        e.originals[MD_T_SYNC_SPEED_MIN] = (md_tval){ .kind = MD_V_SYSTEM, .value = 1000 };
        return e;
}

static void test_array_properties(void **state) {
        md_array a = raid5();
        context c = { .cfg = CONFIG_DEFAULT };
        props_msg p;

        (void)state;
        props_open(&c, OBJ_ARRAY, &a, &p);
        assert_string_equal(prop_string(&p, "Name"), "md0");
        assert_string_equal(prop_string(&p, "Device"), "/dev/md0");
        assert_string_equal(prop_string(&p, "Level"), "raid5");
        assert_string_equal(prop_string(&p, "Action"), "recover");
        assert_true(prop_bool(&p, "CanBoost"));
        assert_false(prop_bool(&p, "Delayed"));
        assert_int_equal(prop_u64(&p, "SyncCompleted"), 261648);
        assert_int_equal(prop_u64(&p, "SyncTotal"), 2093056);
        assert_int_equal(prop_u64(&p, "Speed"), 10301);
        assert_int_equal(prop_u64(&p, "StripeCacheMemory"), 256 * 4096 * 4);
        /* Tunables as the kernel shows them; those the array lacks are left out. */
        assert_string_equal(prop_map(&p, "Tunables", "sync_speed_min"), "1000 (system)");
        assert_string_equal(prop_map(&p, "Tunables", "sync_max"), "max");
        assert_null(prop_map(&p, "Tunables", "read_ahead_kb"));
        assert_false(prop_bool(&p, "Boosted"));
        assert_string_equal(prop_string(&p, "Profile"), "");
        assert_int_equal(prop_u64(&p, "BoostedSince"), 0);
        assert_null(prop_map(&p, "Originals", "sync_speed_min"));
        dbus_message_unref(p.m);

        assert_int_equal(journal_put(&c.journal, &(journal_entry){ 0 }), 0); /* another array's */
        {
                journal_entry e = boost_entry();
                assert_int_equal(journal_put(&c.journal, &e), 0);
        }
        props_open(&c, OBJ_ARRAY, &a, &p);
        assert_true(prop_bool(&p, "Boosted"));
        assert_string_equal(prop_string(&p, "Profile"), "max");
        assert_int_equal(prop_u64(&p, "BoostedSince"), 1764445000123456ull);
        assert_string_equal(prop_map(&p, "Originals", "sync_speed_min"), "1000 (system)");
        dbus_message_unref(p.m);
        journal_free(&c.journal);
}

static void test_members(void **state) {
        md_array a = raid5();
        context c = { .cfg = CONFIG_DEFAULT };
        DBusMessageIter v, arr, st, words;
        const char *dev, *role, *word;
        dbus_int64_t slot;
        props_msg p;

        (void)state;
        props_open(&c, OBJ_ARRAY, &a, &p);
        v = prop(&p, "Members");
        dbus_message_iter_recurse(&v, &arr);
        for (int i = 0; i < 2; i++)
                dbus_message_iter_next(&arr);
        dbus_message_iter_recurse(&arr, &st);
        dbus_message_iter_get_basic(&st, &dev);
        dbus_message_iter_next(&st);
        dbus_message_iter_get_basic(&st, &role);
        dbus_message_iter_next(&st);
        dbus_message_iter_recurse(&st, &words);
        dbus_message_iter_get_basic(&words, &word);
        assert_string_equal(dev, "vdc");
        assert_string_equal(role, "in_sync");
        assert_string_equal(word, "in_sync");
        dbus_message_iter_next(&words);
        dbus_message_iter_get_basic(&words, &word);
        assert_string_equal(word, "write_mostly");
        dbus_message_iter_next(&st);
        dbus_message_iter_get_basic(&st, &slot);
        assert_int_equal(slot, 2);
        dbus_message_unref(p.m);
}

static void test_raid0_cannot_boost(void **state) {
        md_array a = raid5();
        context c = { .cfg = CONFIG_DEFAULT };
        props_msg p;

        (void)state;
        a.level = MD_LEVEL_RAID0;
        a.sync_action = _MD_SYNC_ACTION_INVALID;
        a.progress = (md_progress){ .kind = MD_PROGRESS_ABSENT };
        props_open(&c, OBJ_ARRAY, &a, &p);
        assert_false(prop_bool(&p, "CanBoost"));
        assert_string_equal(prop_string(&p, "Action"), "");
        assert_int_equal(prop_u64(&p, "SyncTotal"), 0);
        dbus_message_unref(p.m);
}

static bool changed(obj_kind k, const bool *which, const char *name) {
        int i = props_find(k, name);

        assert_true(i >= 0);
        return which[i];
}

static void test_only_changes_are_marked(void **state) {
        md_array a = raid5();
        context c = { .cfg = CONFIG_DEFAULT };
        prop_cache before = {}, after = {}, empty = {};
        bool which[PROPS_MAX];

        (void)state;
        assert_int_equal(props_snapshot(&c, OBJ_ARRAY, &a, &before), 0);
        /* Nothing sent yet: everything is new. */
        assert_int_equal(props_diff(&empty, &before, which), before.n);

        assert_int_equal(props_snapshot(&c, OBJ_ARRAY, &a, &after), 0);
        assert_int_equal(props_diff(&before, &after, which), 0);
        prop_cache_free(&after);

        a.sync_speed.value = 20000;
        assert_int_equal(props_snapshot(&c, OBJ_ARRAY, &a, &after), 0);
        assert_true(props_diff(&before, &after, which) >= 1);
        assert_true(changed(OBJ_ARRAY, which, "Speed"));
        assert_false(changed(OBJ_ARRAY, which, "Name"));
        assert_false(changed(OBJ_ARRAY, which, "Tunables"));
        assert_false(changed(OBJ_ARRAY, which, "Boosted"));
        prop_cache_free(&after);

        /* A tunable's mode alone (same number) is a change. */
        a.sync_speed.value = 10301;
        a.tunables[MD_T_SYNC_SPEED_MIN].kind = MD_V_LOCAL;
        assert_int_equal(props_snapshot(&c, OBJ_ARRAY, &a, &after), 0);
        assert_int_equal(props_diff(&before, &after, which), 1);
        assert_true(changed(OBJ_ARRAY, which, "Tunables"));
        prop_cache_free(&after);
        prop_cache_free(&before);
}

static void test_manager(void **state) {
        array_object obj = { .name = "md0", .path = "/org/mdboost/MdBoost1/arrays/md0" };
        context c = { .cfg = CONFIG_DEFAULT, .mem_total = 4000000ull * 1024, .objects = &obj, .n_objects = 1 };
        DBusMessageIter v, arr;
        const char *path;
        props_msg p;

        (void)state;
        c.globals.speed_limit_min = (md_tval){ .kind = MD_V_NUMBER, .value = 1000 };
        c.globals.speed_limit_max = (md_tval){ .kind = MD_V_NUMBER, .value = 10000 };
        props_open(&c, OBJ_MANAGER, NULL, &p);
        assert_int_equal(prop_u64(&p, "SpeedLimitMin"), 1000);
        assert_int_equal(prop_u64(&p, "SpeedLimitMax"), 10000);
        /* 12 % of MemTotal. */
        assert_int_equal(prop_u64(&p, "MemoryBudget"), 4000000ull * 1024 / 100 * 12);
        v = prop(&p, "Arrays");
        dbus_message_iter_recurse(&v, &arr);
        dbus_message_iter_get_basic(&arr, &path);
        assert_string_equal(path, "/org/mdboost/MdBoost1/arrays/md0");
        assert_true(strlen(prop_string(&p, "Version")) > 0);
        dbus_message_unref(p.m);
        assert_int_equal(props_find(OBJ_MANAGER, "Nope"), -ENOENT);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_array_properties),
                cmocka_unit_test(test_members),
                cmocka_unit_test(test_raid0_cannot_boost),
                cmocka_unit_test(test_only_changes_are_marked),
                cmocka_unit_test(test_manager),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
