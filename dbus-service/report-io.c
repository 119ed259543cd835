/* SPDX-License-Identifier: MIT */
/* The reports of ended operations in their own file, kept across restarts (report.h). */
#include <errno.h>
#include <fcntl.h>

#include "cleanup.h"
#include "file-io.h"
#include "report-io.h"

/* REPORT_KEEP reports of a few hundred arrays; anything larger is not this file. */
#define REPORT_FILE_MAX_BYTES (4u << 20)

int report_file_load(const char *path, report_book *ret, unsigned *ret_skipped) {
        _cleanup_free_ char *text = NULL;
        json_object *o;
        size_t len;
        int r;

        r = file_read_at(AT_FDCWD, path, REPORT_FILE_MAX_BYTES, &text, &len);
        if (r == -ENOENT) {
                *ret = (report_book){};
                *ret_skipped = 0;
                return 0;
        }
        if (r < 0)
                return r;
        o = json_tokener_parse(text);
        if (!o)
                return -EBADMSG;
        r = report_book_from_json(o, ret, ret_skipped);
        json_object_put(o);
        return r == -EINVAL ? -EBADMSG : r;
}

int report_file_save(const char *path, const report_book *b) {
        json_object *o = report_book_to_json(b);
        const char *text;
        int r;

        if (!o)
                return -ENOMEM;
        text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);
        r = text ? file_replace(path, text, 0644) : -ENOMEM;
        json_object_put(o);
        return r;
}

int report_file_set_aside(const char *path, char *ret_aside, size_t size) {
        if ((size_t)snprintf(ret_aside, size, "%s.bad", path) >= size)
                return -ENAMETOOLONG;
        return rename(path, ret_aside) < 0 ? -errno : 0;
}
