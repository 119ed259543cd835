/* SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "log.h"

static bool log_to_stderr;

/* /dev/null is character device 1:3 on every Linux system. */
static bool stderr_is_devnull(void) {
        struct stat st;

        if (fstat(STDERR_FILENO, &st) < 0)
                return true;
        return S_ISCHR(st.st_mode) && major(st.st_rdev) == 1 && minor(st.st_rdev) == 3;
}

void log_setup(bool force_stderr) {
        const char *env = getenv("MDBOOSTD_LOG_STDERR");

        openlog("mdboostd", LOG_PID | LOG_NDELAY, LOG_DAEMON);
        if (force_stderr || (env && strcmp(env, "1") == 0))
                log_to_stderr = true;
        else
                /* Under systemd, JOURNAL_STREAM says stderr is the journal, which syslog already feeds. */
                log_to_stderr = !stderr_is_devnull() && !getenv("JOURNAL_STREAM");
}

void log_shutdown(void) {
        closelog();
}

void log_full(int priority, const char *fmt, ...) {
        char line[2048];
        va_list ap;

        va_start(ap, fmt);
        vsnprintf(line, sizeof(line), fmt, ap);
        va_end(ap);

        syslog(priority, "%s", line);
        if (log_to_stderr)
                fprintf(stderr, "mdboostd: %s\n", line);
}
