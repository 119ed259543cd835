/* SPDX-License-Identifier: MIT */
/* /proc/PID/loginuid and the account of that uid, read (caller.h). */
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <unistd.h>

#include "caller.h"

void caller_learn_login(caller *who) {
        char path[64], text[32], pwbuf[1024];
        struct passwd pw, *found = NULL;
        uint32_t uid;
        ssize_t n;
        int fd;

        who->has_login = false;
        who->login_name[0] = '\0';
        if (who->pid == 0)
                return;
        snprintf(path, sizeof(path), "/proc/%u/loginuid", who->pid);
        fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
                return;
        n = read(fd, text, sizeof(text) - 1);
        close(fd);
        if (n <= 0 || caller_parse_loginuid(text, (size_t)n, &uid) < 0)
                return;
        who->has_login = true;
        who->login_uid = uid;
        if (getpwuid_r(uid, &pw, pwbuf, sizeof(pwbuf), &found) == 0 && found)
                snprintf(who->login_name, sizeof(who->login_name), "%s", found->pw_name);
}
