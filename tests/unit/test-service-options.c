/* SPDX-License-Identifier: MIT */
/* Boost and Restore options: a{sv} -> struct, and everything that must be refused. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "options.h"

/* Builds a message whose only argument is an a{sv} with one entry per (key, type, value). */
typedef struct opt {
        const char *key;
        int type;
        uint64_t u;
        const char *s;
} opt;

static DBusMessage *message_with(const opt *opts, size_t n) {
        DBusMessage *m = dbus_message_new_method_call("org.mdboost.MdBoost1", "/org/mdboost/MdBoost1",
                                                      "org.mdboost.MdBoost1.Manager", "Boost");
        DBusMessageIter it, dict, e, v;

        assert_non_null(m);
        dbus_message_iter_init_append(m, &it);
        assert_true(dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "{sv}", &dict));
        for (size_t i = 0; i < n; i++) {
                char sig[2] = { (char)opts[i].type, 0 };
                dbus_uint32_t u32 = (dbus_uint32_t)opts[i].u;
                dbus_uint64_t u64 = opts[i].u;
                dbus_bool_t b = opts[i].u != 0;
                dbus_int32_t i32 = (dbus_int32_t)opts[i].u;

                assert_true(dbus_message_iter_open_container(&dict, DBUS_TYPE_DICT_ENTRY, NULL, &e));
                assert_true(dbus_message_iter_append_basic(&e, DBUS_TYPE_STRING, &opts[i].key));
                assert_true(dbus_message_iter_open_container(&e, DBUS_TYPE_VARIANT, sig, &v));
                switch (opts[i].type) {
                case DBUS_TYPE_UINT32:
                        assert_true(dbus_message_iter_append_basic(&v, DBUS_TYPE_UINT32, &u32));
                        break;
                case DBUS_TYPE_UINT64:
                        assert_true(dbus_message_iter_append_basic(&v, DBUS_TYPE_UINT64, &u64));
                        break;
                case DBUS_TYPE_BOOLEAN:
                        assert_true(dbus_message_iter_append_basic(&v, DBUS_TYPE_BOOLEAN, &b));
                        break;
                case DBUS_TYPE_INT32:
                        assert_true(dbus_message_iter_append_basic(&v, DBUS_TYPE_INT32, &i32));
                        break;
                default:
                        assert_true(dbus_message_iter_append_basic(&v, DBUS_TYPE_STRING, &opts[i].s));
                }
                assert_true(dbus_message_iter_close_container(&e, &v));
                assert_true(dbus_message_iter_close_container(&dict, &e));
        }
        assert_true(dbus_message_iter_close_container(&it, &dict));
        return m;
}

static int parse(const opt *opts, size_t n, boost_options *ret, char *errbuf, size_t errlen) {
        DBusMessage *m = message_with(opts, n);
        DBusMessageIter it;
        int r;

        assert_true(dbus_message_iter_init(m, &it));
        r = options_parse_boost(&it, ret, errbuf, errlen);
        dbus_message_unref(m);
        return r;
}

#define PARSE(ret, err, ...)                                                                                           \
        ({                                                                                                             \
                const opt _o[] = { __VA_ARGS__ };                                                                      \
                parse(_o, sizeof(_o) / sizeof(_o[0]), ret, err, sizeof(err));                                          \
        })

static void test_empty(void **state) {
        boost_options o;
        char err[256];

        (void)state;
        memset(&o, 0xaa, sizeof(o));
        assert_int_equal(parse(NULL, 0, &o, err, sizeof(err)), 0);
        assert_false(o.dry_run);
        for (unsigned t = 0; t < _MD_T_ARRAY_MAX; t++)
                assert_false(o.set[t]);
}

static void test_values(void **state) {
        boost_options o;
        char err[256];

        (void)state;
        assert_int_equal(PARSE(&o, err, { "dry_run", 'b', 1, NULL }, { "sync_speed_min", 'u', 60000, NULL },
                               { "sync_speed_max", 't', 300000, NULL }, { "stripe_cache_size", 'u', 4096, NULL },
                               { "read_ahead_kb", 't', 8192, NULL }),
                         0);
        assert_true(o.dry_run);
        assert_true(o.set[MD_T_SYNC_SPEED_MIN]);
        assert_int_equal(o.value[MD_T_SYNC_SPEED_MIN], 60000);
        assert_int_equal(o.value[MD_T_SYNC_SPEED_MAX], 300000);
        assert_int_equal(o.value[MD_T_STRIPE_CACHE_SIZE], 4096);
        assert_int_equal(o.value[MD_T_READ_AHEAD_KB], 8192);
        assert_false(o.set[MD_T_SYNC_MAX]);
        /* The governor's latency bound, in ms. */
        assert_int_equal(PARSE(&o, err, { "users_latency_ms", 'u', 40, NULL }), 0);
        assert_int_equal(o.users_latency_ms, 40);
        assert_int_equal(o.users_share, 0);
}

static void test_refused(void **state) {
        boost_options o = { .dry_run = true, .value[0] = 42 };
        char err[256];

        (void)state;
        /* Unknown keys, including tunables an option may not set. */
        assert_int_equal(PARSE(&o, err, { "turbo", 'b', 1, NULL }), -EINVAL);
        assert_non_null(strstr(err, "turbo"));
        assert_int_equal(PARSE(&o, err, { "sync_max", 't', 5, NULL }), -EINVAL);
        assert_int_equal(PARSE(&o, err, { "stripe_cache_active", 'u', 5, NULL }), -EINVAL);
        /* Wrong types: strings where numbers belong, signed numbers, a number for dry_run. */
        assert_int_equal(PARSE(&o, err, { "sync_speed_min", 's', 0, "50000" }), -EINVAL);
        assert_int_equal(PARSE(&o, err, { "sync_speed_min", 'i', 50000, NULL }), -EINVAL);
        assert_int_equal(PARSE(&o, err, { "dry_run", 'u', 1, NULL }), -EINVAL);
        /* Numbers the kernel would refuse or that overflow its int. */
        assert_int_equal(PARSE(&o, err, { "sync_speed_min", 't', 1ull << 40, NULL }), -ERANGE);
        assert_int_equal(PARSE(&o, err, { "sync_speed_min", 'u', 0, NULL }), -ERANGE);
        assert_int_equal(PARSE(&o, err, { "stripe_cache_size", 'u', 16, NULL }), -ERANGE);
        assert_int_equal(PARSE(&o, err, { "stripe_cache_size", 'u', 32769, NULL }), -ERANGE);
        assert_int_equal(PARSE(&o, err, { "stripe_cache_size", 't', UINT64_MAX, NULL }), -ERANGE);
        /* Repeated keys and a floor above the ceiling. */
        assert_int_equal(PARSE(&o, err, { "dry_run", 'b', 1, NULL }, { "dry_run", 'b', 0, NULL }), -EINVAL);
        assert_int_equal(PARSE(&o, err, { "sync_speed_min", 'u', 9000, NULL }, { "sync_speed_min", 'u', 9000, NULL }),
                         -EINVAL);
        assert_int_equal(PARSE(&o, err, { "sync_speed_min", 'u', 90000, NULL }, { "sync_speed_max", 'u', 9000, NULL }),
                         -EINVAL);
        /* A latency bound: 1..60000 ms, once, and neither with a share, a floor nor a sync_io_depth. */
        assert_int_equal(PARSE(&o, err, { "users_latency_ms", 'u', 0, NULL }), -ERANGE);
        assert_non_null(strstr(err, "from 1 to 60000"));
        assert_int_equal(PARSE(&o, err, { "users_latency_ms", 'u', 60001, NULL }), -ERANGE);
        assert_int_equal(PARSE(&o, err, { "users_latency_ms", 's', 0, "40" }), -EINVAL);
        assert_int_equal(PARSE(&o, err, { "users_latency_ms", 'u', 40, NULL }, { "users_latency_ms", 'u', 40, NULL }),
                         -EINVAL);
        assert_int_equal(PARSE(&o, err, { "users_latency_ms", 'u', 40, NULL }, { "users_share", 'u', 50, NULL }),
                         -EINVAL);
        assert_non_null(strstr(err, "exclude each other"));
        assert_int_equal(PARSE(&o, err, { "users_latency_ms", 'u', 40, NULL }, { "sync_speed_min", 'u', 9000, NULL }),
                         -EINVAL);
        assert_non_null(strstr(err, "users_latency_ms and sync_speed_min"));
        assert_int_equal(PARSE(&o, err, { "sync_io_depth", 'u', 4, NULL }, { "users_latency_ms", 'u', 40, NULL }),
                         -EINVAL);
        assert_non_null(strstr(err, "sets sync_io_depth itself"));
        /* The output is untouched by every failure. */
        assert_true(o.dry_run);
        assert_int_equal(o.value[0], 42);
}

static void test_not_a_dict(void **state) {
        DBusMessage *m = dbus_message_new_method_call("a.b", "/", "a.b", "M");
        const char *s = "dry_run";
        boost_options o;
        DBusMessageIter it;
        char err[256];

        (void)state;
        assert_true(dbus_message_append_args(m, DBUS_TYPE_STRING, &s, DBUS_TYPE_INVALID));
        dbus_message_iter_init(m, &it);
        assert_int_equal(options_parse_boost(&it, &o, err, sizeof(err)), -EINVAL);
        assert_int_equal(options_parse_restore(&it, err, sizeof(err)), -EINVAL);
        dbus_message_unref(m);
}

static void test_restore(void **state) {
        const opt one[] = { { "dry_run", 'b', 1, NULL } };
        DBusMessage *m;
        DBusMessageIter it;
        char err[256];

        (void)state;
        m = message_with(NULL, 0);
        dbus_message_iter_init(m, &it);
        assert_int_equal(options_parse_restore(&it, err, sizeof(err)), 0);
        dbus_message_unref(m);

        m = message_with(one, 1);
        dbus_message_iter_init(m, &it);
        assert_int_equal(options_parse_restore(&it, err, sizeof(err)), -EINVAL);
        assert_non_null(strstr(err, "dry_run"));
        dbus_message_unref(m);
}

/* RestoreAll's one option, settings: a boolean, once. */
static void test_restore_all(void **state) {
        const opt yes[] = { { "settings", 'b', 1, NULL } },
                  twice[] = { { "settings", 'b', 1, NULL }, { "settings", 'b', 0, NULL } },
                  text[] = { { "settings", 's', 0, "yes" } }, other[] = { { "dry_run", 'b', 1, NULL } };
        const struct {
                const opt *opts;
                size_t n;
                int want;
                const char *says;
        } cases[] = {
                { NULL, 0, 0, NULL },
                { yes, 1, 0, NULL },
                { twice, 2, -EINVAL, "given twice" },
                { text, 1, -EINVAL, "must be a boolean" },
                { other, 1, -EINVAL, "RestoreAll takes only 'settings'" },
        };

        (void)state;
        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                DBusMessage *m = message_with(cases[i].opts, cases[i].n);
                DBusMessageIter it;
                bool settings = true;
                char err[256] = "";

                dbus_message_iter_init(m, &it);
                assert_int_equal(options_parse_restore_all(&it, &settings, err, sizeof(err)), cases[i].want);
                if (cases[i].says)
                        assert_non_null(strstr(err, cases[i].says));
                else
                        assert_int_equal(settings, cases[i].n == 1);
                dbus_message_unref(m);
        }
}

static void test_settable(void **state) {
        (void)state;
        assert_true(options_tunable_settable(MD_T_SYNC_SPEED_MIN));
        assert_true(options_tunable_settable(MD_T_READ_AHEAD_KB));
        assert_false(options_tunable_settable(MD_T_SYNC_MAX));
        assert_false(options_tunable_settable(MD_T_SPEED_LIMIT_MIN));
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_empty),      cmocka_unit_test(test_values),  cmocka_unit_test(test_refused),
                cmocka_unit_test(test_not_a_dict), cmocka_unit_test(test_restore), cmocka_unit_test(test_restore_all),
                cmocka_unit_test(test_settable),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
