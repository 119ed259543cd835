/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * A small stand-in for the collectd daemon's plugin API, for tests and the
 * benchmark: it keeps the callbacks a plugin registers, records every value
 * list dispatched and every log line, and checks each dispatch against the
 * stock types.db the way the daemon does (the type must exist and have as
 * many data sources as values were sent).
 */

#include <collectd/core/daemon/collectd.h>
#include <collectd/core/daemon/plugin.h>

#include <stdbool.h>
#include <stddef.h>

#define MOCK_VALUES_MAX 4096
#define MOCK_LOGS_MAX 256
#define MOCK_TYPES_DB "/usr/share/collectd/types.db"

typedef struct mock_value {
        char plugin[DATA_MAX_NAME_LEN];
        char plugin_instance[DATA_MAX_NAME_LEN];
        char type[DATA_MAX_NAME_LEN];
        char type_instance[DATA_MAX_NAME_LEN];
        gauge_t value;
} mock_value;

typedef struct mock_log {
        int level;
        char msg[512];
} mock_log;

typedef struct mock_state {
        char name[DATA_MAX_NAME_LEN]; /* the name every callback was registered under */
        int (*config)(oconfig_item_t *);
        int (*init)(void);
        int (*read)(void);
        int (*shutdown)(void);

        mock_value values[MOCK_VALUES_MAX]; /* the first MOCK_VALUES_MAX dispatched */
        size_t n_values;                    /* recorded in values[] */
        size_t n_dispatched;                /* all dispatches, recorded or not */
        size_t n_bad_types;                 /* dispatches the daemon would refuse */
        char bad_type[DATA_MAX_NAME_LEN];

        mock_log logs[MOCK_LOGS_MAX];
        size_t n_logs;
        bool quiet;     /* do not echo log lines to stderr */
        bool unchecked; /* skip the types.db check, so a benchmark times only the plugin */
        cdtime_t now;   /* what cdtime() returns; 0: the real clock */
} mock_state;

extern mock_state mock;

/* Loads the types.db at @path (NULL: the stock one). 0 or negative errno. */
int mock_load_types(const char *path);
void mock_types_free(void);

/* Forgets dispatched values and log lines, keeps callbacks. */
void mock_clear(void);

/* Last value dispatched with these identifiers, or NULL. */
const mock_value *mock_find(const char *plugin_instance, const char *type, const char *type_instance);

/* Values dispatched for @plugin_instance. */
size_t mock_count_instance(const char *plugin_instance);

/* Log lines at @level (any level if < 0) containing @needle. */
size_t mock_count_logs(int level, const char *needle);

/* A config block "<Plugin name>" holding @n "Key value" children, built by the helpers below. */
typedef struct mock_config_item {
        oconfig_item_t block;
        oconfig_item_t children[16];
        oconfig_value_t values[16];
} mock_config_item;

void mock_config_init(mock_config_item *c, const char *plugin);
void mock_config_add_string(mock_config_item *c, const char *key, const char *value);
void mock_config_add_bool(mock_config_item *c, const char *key, bool value);
