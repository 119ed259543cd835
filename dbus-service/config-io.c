/* SPDX-License-Identifier: MIT */
/* The configuration file, read from disk (config.h). */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "parse.h"

int config_load(const char *path, int required, config *c, char *errbuf, size_t errlen) {
        char buf[16384];
        ssize_t n;
        int fd;

        fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
                if (errno == ENOENT && !required)
                        return 0;
                snprintf(errbuf, errlen, "cannot open %s: %s", path, strerror(errno));
                return -errno;
        }
        n = read(fd, buf, sizeof(buf) - 1);
        close(fd);
        if (n < 0) {
                snprintf(errbuf, errlen, "cannot read %s: %s", path, strerror(errno));
                return -EIO;
        }
        buf[n] = 0;
        return config_parse(buf, c, errbuf, errlen);
}
