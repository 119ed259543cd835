/* SPDX-License-Identifier: MIT */
/*
 * Bus clients for the integration tests that busctl cannot be:
 *
 *   mdb-bus silent-polkit LOG
 *       owns org.freedesktop.PolicyKit1 and never answers; each call it
 *       gets is a line in LOG: "CheckAuthorization ID array=.. profile=.."
 *       or "CancelCheckAuthorization ID". A polkit waiting for a password
 *       nobody types.
 *
 *   mdb-bus flood CONNECTIONS CALLS BYTES
 *       opens CONNECTIONS connections to the system bus and sends CALLS
 *       Manager.Boost calls on each, with one option of BYTES bytes (none
 *       for 0), reading no reply. Prints "sent" once everything is on the
 *       bus and keeps the connections open until killed.
 *
 * The bus is DBUS_SYSTEM_BUS_ADDRESS, as the harness exports it.
 */
#include <dbus/dbus.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static DBusConnection *connect_bus(void) {
        DBusError err;
        DBusConnection *bus;

        dbus_error_init(&err);
        bus = dbus_bus_get_private(DBUS_BUS_SYSTEM, &err);
        if (!bus) {
                fprintf(stderr, "mdb-bus: cannot connect: %s\n", err.message);
                exit(1);
        }
        dbus_connection_set_exit_on_disconnect(bus, FALSE);
        return bus;
}

/* The details dictionary of a CheckAuthorization call, as "key=value" words. */
static void details_text(DBusMessageIter *it, char *buf, size_t size) {
        DBusMessageIter dict, e;
        size_t len = 0;

        buf[0] = 0;
        dbus_message_iter_recurse(it, &dict);
        for (; dbus_message_iter_get_arg_type(&dict) == DBUS_TYPE_DICT_ENTRY; dbus_message_iter_next(&dict)) {
                const char *k, *v;

                dbus_message_iter_recurse(&dict, &e);
                dbus_message_iter_get_basic(&e, &k);
                dbus_message_iter_next(&e);
                dbus_message_iter_get_basic(&e, &v);
                if (len < size)
                        len += (size_t)snprintf(buf + len, size - len, " %s=%s", k, v);
        }
}

static int silent_polkit(const char *log_path) {
        DBusConnection *bus = connect_bus();
        DBusError err;
        FILE *log;

        log = fopen(log_path, "ae");
        if (!log)
                return 1;
        dbus_error_init(&err);
        if (dbus_bus_request_name(bus, "org.freedesktop.PolicyKit1", DBUS_NAME_FLAG_DO_NOT_QUEUE, &err) !=
            DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER) {
                fprintf(stderr, "mdb-bus: cannot own org.freedesktop.PolicyKit1: %s\n",
                        dbus_error_is_set(&err) ? err.message : "taken");
                return 1;
        }
        while (dbus_connection_read_write(bus, -1)) {
                DBusMessage *m;

                while ((m = dbus_connection_pop_message(bus))) {
                        DBusMessageIter it;
                        const char *member = dbus_message_get_member(m), *id = "";
                        char details[512] = "";

                        if (dbus_message_get_type(m) == DBUS_MESSAGE_TYPE_METHOD_CALL && member &&
                            dbus_message_iter_init(m, &it)) {
                                if (strcmp(member, "CheckAuthorization") == 0 &&
                                    dbus_message_has_signature(m, "(sa{sv})sa{ss}us")) {
                                        dbus_message_iter_next(&it); /* subject */
                                        dbus_message_iter_next(&it); /* action */
                                        details_text(&it, details, sizeof(details));
                                        dbus_message_iter_next(&it); /* flags */
                                        dbus_message_iter_next(&it);
                                        dbus_message_iter_get_basic(&it, &id);
                                } else if (dbus_message_iter_get_arg_type(&it) == DBUS_TYPE_STRING)
                                        dbus_message_iter_get_basic(&it, &id);
                                fprintf(log, "%s %s%s\n", member, id, details);
                                fflush(log);
                        }
                        dbus_message_unref(m);
                }
        }
        return 0;
}

static int flood(unsigned connections, unsigned calls, size_t bytes) {
        char *value = malloc(bytes + 1);

        if (!value)
                return 1;
        memset(value, 'x', bytes);
        value[bytes] = 0;
        for (unsigned i = 0; i < connections; i++) {
                DBusConnection *bus = connect_bus();

                for (unsigned j = 0; j < calls; j++) {
                        DBusMessage *m = dbus_message_new_method_call("org.mdboost.MdBoost1", "/org/mdboost/MdBoost1",
                                                                      "org.mdboost.MdBoost1.Manager", "Boost");
                        DBusMessageIter it, opts, e, v;
                        const char *array = "md0", *profile = "fast", *key = "padding";

                        if (!m)
                                return 1;
                        dbus_message_iter_init_append(m, &it);
                        dbus_message_iter_append_basic(&it, DBUS_TYPE_STRING, &array);
                        dbus_message_iter_append_basic(&it, DBUS_TYPE_STRING, &profile);
                        dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "{sv}", &opts);
                        if (bytes > 0) {
                                dbus_message_iter_open_container(&opts, DBUS_TYPE_DICT_ENTRY, NULL, &e);
                                dbus_message_iter_append_basic(&e, DBUS_TYPE_STRING, &key);
                                dbus_message_iter_open_container(&e, DBUS_TYPE_VARIANT, "s", &v);
                                dbus_message_iter_append_basic(&v, DBUS_TYPE_STRING, &value);
                                dbus_message_iter_close_container(&e, &v);
                                dbus_message_iter_close_container(&opts, &e);
                        }
                        dbus_message_iter_close_container(&it, &opts);
                        dbus_connection_send(bus, m, NULL);
                        dbus_message_unref(m);
                }
                dbus_connection_flush(bus);
        }
        free(value);
        printf("sent\n");
        fflush(stdout);
        for (;;)
                pause();
}

int main(int argc, char **argv) {
        signal(SIGPIPE, SIG_IGN);
        if (argc == 3 && strcmp(argv[1], "silent-polkit") == 0)
                return silent_polkit(argv[2]);
        if (argc == 5 && strcmp(argv[1], "flood") == 0)
                return flood((unsigned)atoi(argv[2]), (unsigned)atoi(argv[3]), (size_t)atoll(argv[4]));
        fprintf(stderr, "usage: mdb-bus silent-polkit LOG | flood CONNECTIONS CALLS BYTES\n");
        return 2;
}
