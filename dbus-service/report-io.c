/* SPDX-License-Identifier: MIT */
/* The reports of ended operations in their own file, kept across restarts (report.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "file-io.h"
#include "report-io.h"

/* REPORT_KEEP reports of a few hundred arrays; anything larger is not this file. */
#define REPORT_FILE_MAX_BYTES (4u << 20)

int report_file_load(const char *path, report_book *ret, unsigned *ret_skipped) {
        _cleanup_close_ int fd = -1;
        _cleanup_free_ char *text = NULL;
        json_object *o;
        struct stat st;
        size_t len = 0;
        int r;

        fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
        if (fd < 0 && errno == ENOENT) {
                *ret = (report_book){};
                *ret_skipped = 0;
                return 0;
        }
        if (fd < 0)
                return -errno;
        if (fstat(fd, &st) < 0)
                return -errno;
        if (!S_ISREG(st.st_mode))
                return -EINVAL;
        if (st.st_size > REPORT_FILE_MAX_BYTES)
                return -EFBIG;
        text = malloc((size_t)st.st_size + 1);
        if (!text)
                return -ENOMEM;
        while (len < (size_t)st.st_size) {
                ssize_t n = read(fd, text + len, (size_t)st.st_size - len);

                if (n < 0 && errno == EINTR)
                        continue;
                if (n < 0)
                        return -errno;
                if (n == 0)
                        break;
                len += (size_t)n;
        }
        text[len] = 0;
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
