/* SPDX-License-Identifier: MIT */
/*
 * Reading and writing the tunables of tunables.c's table through the root:
 * a write counts only once the value reads back as intended.
 */

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "tunables.h"

/* "sys/block/<array>/<path>" for array tunables, the table's path for globals. */
static int tunable_path(const md_tunable_info *i, const char *array, char *buf, size_t size) {
        int n;

        if (i->scope == MD_SCOPE_GLOBAL)
                n = snprintf(buf, size, "%s", i->path);
        else if (!md_name_valid(array))
                return -EINVAL;
        else
                n = snprintf(buf, size, "sys/block/%s/%s", array, i->path);
        if (n < 0 || (size_t)n >= size)
                return -ENAMETOOLONG;
        return 0;
}

/* An array tunable's file missing because the whole array is gone is not "absent". */
static int array_exists(const md_root *r, const md_tunable_info *i, const char *array) {
        char path[MD_NAME_MAX + 32];
        int k;

        if (i->scope == MD_SCOPE_GLOBAL)
                return 1;
        snprintf(path, sizeof(path), "sys/block/%s/md", array);
        k = md_root_is_dir(r, path);
        return k;
}

int md_tunable_read(const md_root *r, const char *array, md_tunable t, md_tval *ret) {
        const md_tunable_info *i = md_tunable_get(t);
        char path[128], buf[MD_ATTR_MAX];
        md_tval v;
        ssize_t n;
        int k;

        if (!i || !r || !ret)
                return -EINVAL;
        k = tunable_path(i, array, path, sizeof(path));
        if (k < 0)
                return k;

        n = md_root_read(r, path, buf, sizeof(buf));
        if (n == -ENOENT) {
                k = array_exists(r, i, array);
                if (k < 0)
                        return k;
                if (k == 0)
                        return -ENOENT;
                *ret = (md_tval){ .kind = MD_V_ABSENT };
                return 0;
        }
        if (n < 0)
                return (int)n;
        k = md_parse_tval(buf, (size_t)n, &v);
        if (k < 0)
                return k;
        *ret = v;
        return 0;
}

/* What a caller may write: a decimal number, or the one keyword the tunable's restore kind uses. */
static int check_text(const md_tunable_info *i, const char *text, uint64_t *ret_number, bool *ret_is_number) {
        uint64_t v;

        if (i->restore == MD_RESTORE_NEVER)
                return -EPERM;
        if (i->restore == MD_RESTORE_MODE && strcmp(text, "system") == 0) {
                *ret_is_number = false;
                return 0;
        }
        if (i->restore == MD_RESTORE_MAX && strcmp(text, "max") == 0) {
                *ret_is_number = false;
                return 0;
        }
        if (md_parse_u64(text, strlen(text), &v) < 0 || text[strlen(text) - 1] == '\n')
                return -EINVAL;
        *ret_number = v;
        *ret_is_number = true;
        return 0;
}

/*
 * The kernel may clamp or round what it stores, and another writer may race
 * us, so a write only counts once the value reads back as intended.
 */
static bool readback_matches(const md_tval *v, const char *text, bool is_number, uint64_t number) {
        if (is_number)
                return md_tval_has_number(v) && v->value == number;
        if (strcmp(text, "system") == 0)
                return v->kind == MD_V_SYSTEM;
        return v->kind == MD_V_MAX;
}

int md_tunable_write(const md_root *r, const char *array, md_tunable t, const char *text, md_tval *ret_readback) {
        const md_tunable_info *i = md_tunable_get(t);
        uint64_t number = 0;
        bool is_number = false;
        char path[128];
        md_tval v;
        int k;

        if (!i || !r || !text || text[0] == '\0')
                return -EINVAL;
        k = tunable_path(i, array, path, sizeof(path));
        if (k < 0)
                return k;
        k = check_text(i, text, &number, &is_number);
        if (k < 0)
                return k;

        k = md_root_write(r, path, text);
        if (k < 0)
                return k;

        k = md_tunable_read(r, array, t, &v);
        /* Accepted, but what it now reads cannot be parsed: not the value asked for. */
        if (k == -EINVAL || k == -ERANGE)
                return -EIO;
        if (k < 0)
                return k;
        if (!readback_matches(&v, text, is_number, number))
                return -EIO;
        if (ret_readback)
                *ret_readback = v;
        return 0;
}
