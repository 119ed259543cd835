/* SPDX-License-Identifier: MIT */
#include "collectd-mock.h"

#include <collectd/core/utils/common/common.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

mock_state mock;

/* One types.db line: "bytes  value:GAUGE:0:U" -> name and data source count. */
typedef struct mock_type {
        char name[DATA_MAX_NAME_LEN];
        size_t n_ds;
} mock_type;

static mock_type *mock_types;
static size_t mock_types_n;

static int mock_types_add(const char *line) {
        char name[DATA_MAX_NAME_LEN];
        const char *p;
        mock_type *grown;
        size_t n_ds = 1;

        if (sscanf(line, "%127s", name) != 1 || name[0] == '#')
                return 0;
        for (p = line + strlen(name); *p; p++)
                if (*p == ',')
                        n_ds++;
        grown = realloc(mock_types, (mock_types_n + 1) * sizeof(*grown));
        if (!grown)
                return -ENOMEM;
        mock_types = grown;
        snprintf(mock_types[mock_types_n].name, sizeof(mock_types[0].name), "%s", name);
        mock_types[mock_types_n++].n_ds = n_ds;
        return 0;
}

int mock_load_types(const char *path) {
        char line[1024];
        FILE *f;
        int r = 0;

        f = fopen(path ? path : MOCK_TYPES_DB, "re");
        if (!f)
                return -errno;
        while (r == 0 && fgets(line, sizeof(line), f))
                r = mock_types_add(line);
        fclose(f);
        return r;
}

void mock_types_free(void) {
        free(mock_types);
        mock_types = NULL;
        mock_types_n = 0;
}

static const mock_type *mock_type_find(const char *name) {
        for (size_t i = 0; i < mock_types_n; i++)
                if (strcmp(mock_types[i].name, name) == 0)
                        return &mock_types[i];
        return NULL;
}

void mock_clear(void) {
        mock.n_values = mock.n_dispatched = mock.n_bad_types = 0;
        mock.bad_type[0] = '\0';
        mock.n_logs = 0;
}

const mock_value *mock_find(const char *plugin_instance, const char *type, const char *type_instance) {
        for (size_t i = mock.n_values; i > 0; i--) {
                const mock_value *v = &mock.values[i - 1];

                if (strcmp(v->plugin_instance, plugin_instance) == 0 && strcmp(v->type, type) == 0 &&
                    strcmp(v->type_instance, type_instance) == 0)
                        return v;
        }
        return NULL;
}

size_t mock_count_instance(const char *plugin_instance) {
        size_t n = 0;

        for (size_t i = 0; i < mock.n_values; i++)
                if (strcmp(mock.values[i].plugin_instance, plugin_instance) == 0)
                        n++;
        return n;
}

size_t mock_count_logs(int level, const char *needle) {
        size_t n = 0;

        for (size_t i = 0; i < mock.n_logs; i++)
                if ((level < 0 || mock.logs[i].level == level) && strstr(mock.logs[i].msg, needle))
                        n++;
        return n;
}

void mock_config_init(mock_config_item *c, const char *plugin) {
        memset(c, 0, sizeof(*c));
        c->block.key = (char *)"Plugin";
        c->block.values = c->values;
        c->block.values_num = 1;
        c->values[0].type = OCONFIG_TYPE_STRING;
        c->values[0].value.string = (char *)plugin;
        c->block.children = c->children;
}

static oconfig_item_t *mock_config_child(mock_config_item *c, const char *key) {
        oconfig_item_t *child = &c->children[c->block.children_num++];

        child->key = (char *)key;
        child->values = &c->values[c->block.children_num];
        child->values_num = 1;
        child->parent = &c->block;
        return child;
}

void mock_config_add_string(mock_config_item *c, const char *key, const char *value) {
        oconfig_item_t *child = mock_config_child(c, key);

        child->values[0].type = OCONFIG_TYPE_STRING;
        child->values[0].value.string = (char *)value;
}

void mock_config_add_bool(mock_config_item *c, const char *key, bool value) {
        oconfig_item_t *child = mock_config_child(c, key);

        child->values[0].type = OCONFIG_TYPE_BOOLEAN;
        child->values[0].value.boolean = value;
}

/* ---- the daemon's symbols the plugin links against ------------------- */

static void mock_register_name(const char *name) {
        snprintf(mock.name, sizeof(mock.name), "%s", name);
}

int plugin_register_complex_config(const char *type, int (*callback)(oconfig_item_t *)) {
        mock_register_name(type);
        mock.config = callback;
        return 0;
}

int plugin_register_init(const char *name, plugin_init_cb callback) {
        mock_register_name(name);
        mock.init = callback;
        return 0;
}

int plugin_register_read(const char *name, int (*callback)(void)) {
        mock_register_name(name);
        mock.read = callback;
        return 0;
}

int plugin_register_shutdown(const char *name, plugin_shutdown_cb callback) {
        mock_register_name(name);
        mock.shutdown = callback;
        return 0;
}

/* The daemon refuses a value list whose type is not in types.db or whose count differs. */
cdtime_t cdtime(void) {
        struct timespec ts;

        if (mock.now)
                return mock.now;
        clock_gettime(CLOCK_REALTIME, &ts);
        return TIME_T_TO_CDTIME_T_STATIC(ts.tv_sec) + DOUBLE_TO_CDTIME_T_STATIC(ts.tv_nsec / 1e9);
}

int plugin_dispatch_values(value_list_t const *vl) {
        const mock_type *t = mock.unchecked ? NULL : mock_type_find(vl->type);

        mock.n_dispatched++;
        if (!mock.unchecked && (!t || t->n_ds != vl->values_len)) {
                mock.n_bad_types++;
                snprintf(mock.bad_type, sizeof(mock.bad_type), "%s", vl->type);
                return -1;
        }
        if (mock.n_values < MOCK_VALUES_MAX) {
                mock_value *v = &mock.values[mock.n_values++];

                memcpy(v->plugin, vl->plugin, sizeof(v->plugin));
                memcpy(v->plugin_instance, vl->plugin_instance, sizeof(v->plugin_instance));
                memcpy(v->type, vl->type, sizeof(v->type));
                memcpy(v->type_instance, vl->type_instance, sizeof(v->type_instance));
                v->value = vl->values[0].gauge;
        }
        return 0;
}

void plugin_log(int level, const char *format, ...) {
        char msg[512];
        va_list ap;

        va_start(ap, format);
        vsnprintf(msg, sizeof(msg), format, ap);
        va_end(ap);
        if (!mock.quiet)
                fprintf(stderr, "log[%d] %s\n", level, msg);
        if (mock.n_logs < MOCK_LOGS_MAX) {
                mock.logs[mock.n_logs].level = level;
                memcpy(mock.logs[mock.n_logs++].msg, msg, sizeof(msg));
        }
}

/* Same contract as the daemon's: exactly one string argument. */
int cf_util_get_string(const oconfig_item_t *ci, char **ret_string) {
        char *s;

        if (ci->values_num != 1 || ci->values[0].type != OCONFIG_TYPE_STRING) {
                plugin_log(LOG_ERR, "The `%s' option requires exactly one string argument.", ci->key);
                return -1;
        }
        s = strdup(ci->values[0].value.string);
        if (!s)
                return -1;
        free(*ret_string);
        *ret_string = s;
        return 0;
}

int cf_util_get_boolean(const oconfig_item_t *ci, bool *ret_bool) {
        if (ci->values_num != 1 || ci->values[0].type != OCONFIG_TYPE_BOOLEAN) {
                plugin_log(LOG_ERR, "The `%s' option requires exactly one boolean argument.", ci->key);
                return -1;
        }
        *ret_bool = ci->values[0].value.boolean != 0;
        return 0;
}

char *sstrncpy(char *dest, const char *src, size_t n) {
        strncpy(dest, src, n);
        dest[n - 1] = '\0';
        return dest;
}

char *sstrerror(int errnum, char *buf, size_t buflen) {
        snprintf(buf, buflen, "%s", strerrordesc_np(errnum) ? strerrordesc_np(errnum) : "?");
        return buf;
}
