/* SPDX-License-Identifier: MIT */
/*
 * Which of md's files notify a change: opens and reads each FILE (which
 * arms it), prints "armed", then waits TIMEOUT_MS in poll() for POLLPRI on
 * all of them, reading a file again each time it fires. At the end it
 * prints one line per file, "FILE N" with how many times it fired.
 *
 *   md-notify-probe TIMEOUT_MS FILE...
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static long long now_ms(void) {
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Reading from the start takes the event; what it reads does not matter here. */
static void rearm(int fd) {
        char buf[4096];
        ssize_t n = pread(fd, buf, sizeof(buf), 0);

        (void)n;
}

int main(int argc, char *argv[]) {
        long long end;
        int n = argc - 2, timeout;
        struct pollfd *fds;
        unsigned *fired;

        if (argc < 3) {
                fprintf(stderr, "usage: md-notify-probe TIMEOUT_MS FILE...\n");
                return 2;
        }
        timeout = atoi(argv[1]);
        fds = calloc((size_t)n, sizeof(*fds));
        fired = calloc((size_t)n, sizeof(*fired));
        if (!fds || !fired)
                return 1;
        for (int i = 0; i < n; i++) {
                fds[i].fd = open(argv[i + 2], O_RDONLY | O_CLOEXEC | O_NONBLOCK);
                if (fds[i].fd < 0) {
                        fprintf(stderr, "%s: %s\n", argv[i + 2], strerror(errno));
                        return 1;
                }
                fds[i].events = POLLPRI;
                rearm(fds[i].fd);
        }
        printf("armed\n");
        fflush(stdout);
        end = now_ms() + timeout;
        for (long long left; (left = end - now_ms()) > 0;) {
                int r = poll(fds, (nfds_t)n, (int)left);

                if (r < 0 && errno != EINTR)
                        return 1;
                for (int i = 0; r > 0 && i < n; i++)
                        if (fds[i].revents & (POLLPRI | POLLERR)) {
                                fired[i]++;
                                rearm(fds[i].fd);
                        }
                /* A removed attribute fires for ever: count it once a millisecond at most. */
                if (r > 0)
                        usleep(1000);
        }
        for (int i = 0; i < n; i++)
                printf("%s %u\n", argv[i + 2], fired[i]);
        return 0;
}
