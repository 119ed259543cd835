/* SPDX-License-Identifier: MIT */
/*
 * The Boost and Restore options (a{sv}) as a caller sends them: the input is
 * a marshalled D-Bus message, which libdbus validates as the bus would; the
 * options parsers then get its first a{sv} argument.
 */
#include <dbus/dbus.h>

#include "fuzz.h"
#include "options.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        DBusMessage *m;
        DBusMessageIter it;
        char errbuf[512];

        if (size > (1u << 20))
                return 0;
        m = dbus_message_demarshal((const char *)data, (int)size, NULL);
        if (!m)
                return 0;
        if (dbus_message_iter_init(m, &it)) {
                do {
                        if (dbus_message_iter_get_arg_type(&it) == DBUS_TYPE_ARRAY &&
                            dbus_message_iter_get_element_type(&it) == DBUS_TYPE_DICT_ENTRY) {
                                boost_options o;
                                DBusMessageIter copy = it;

                                if (options_parse_boost(&it, &o, errbuf, sizeof(errbuf)) < 0 && !errbuf[0])
                                        abort();
                                (void)options_parse_restore(&copy, errbuf, sizeof(errbuf));
                                break;
                        }
                } while (dbus_message_iter_next(&it));
        }
        dbus_message_unref(m);
        return 0;
}
