/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "event-command.h"
#include "log.h"

int event_command_check(const char *path, char *errbuf, size_t errlen) {
        struct stat st;

        if (path[0] != '/') {
                snprintf(errbuf, errlen, "event_command must be an absolute path, not '%.64s'", path);
                return -EINVAL;
        }
        if (stat(path, &st) < 0) {
                snprintf(errbuf, errlen, "event_command %.200s: %s", path, strerror(errno));
                return -errno;
        }
        if (!S_ISREG(st.st_mode) || !(st.st_mode & S_IXUSR)) {
                snprintf(errbuf, errlen, "event_command %.200s is not an executable file", path);
                return -EINVAL;
        }
        /* It runs as root: whoever could change it could run anything as root. */
        if (st.st_uid != 0 || (st.st_mode & (S_IWGRP | S_IWOTH))) {
                snprintf(errbuf, errlen, "event_command %.200s must be owned by root and writable by nobody else",
                         path);
                return -EPERM;
        }
        return 0;
}

/* In the child: never returns. */
static void child(const char *path, const event_info *ev) {
        char progress[32], *env[10], *argv[6];
        unsigned n = 0;
        sigset_t all;
        int null;

        /* The service blocks SIGTERM and SIGINT for its signalfd: the command must not inherit that. */
        sigemptyset(&all);
        sigprocmask(SIG_SETMASK, &all, NULL);
        signal(SIGPIPE, SIG_DFL);
        setsid();
        null = open("/dev/null", O_RDWR | O_CLOEXEC);
        if (null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 || dup2(null, 2) < 0)
                _exit(127);
        closefrom(3);
        if (ev->progress >= 0)
                snprintf(progress, sizeof(progress), "MDBOOST_PROGRESS=%.1f", ev->progress);
        else
                snprintf(progress, sizeof(progress), "MDBOOST_PROGRESS=");
        env[n++] = "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
        if (asprintf(&env[n++], "MDBOOST_EVENT=%s", ev->event) < 0 ||
            asprintf(&env[n++], "MDBOOST_ARRAY=%s", ev->array) < 0 ||
            asprintf(&env[n++], "MDBOOST_UUID=%s", ev->uuid) < 0 ||
            asprintf(&env[n++], "MDBOOST_ACTION=%s", ev->action) < 0 ||
            asprintf(&env[n++], "MDBOOST_OUTCOME=%s", ev->outcome) < 0 ||
            asprintf(&env[n++], "MDBOOST_SUMMARY=%s", ev->summary) < 0)
                _exit(127);
        env[n++] = progress;
        env[n] = NULL;
        argv[0] = (char *)path;
        argv[1] = (char *)ev->event;
        argv[2] = (char *)ev->array;
        argv[3] = (char *)(ev->action[0] ? ev->action : "-");
        argv[4] = (char *)(ev->outcome[0] ? ev->outcome : "-");
        argv[5] = NULL;
        execve(path, argv, env);
        _exit(127);
}

int event_command_start(event_runner *r, const char *path, const event_info *ev, uint64_t now_usec) {
        pid_t pid;

        if (r->n >= EVENT_COMMAND_RUNNING_MAX)
                return -EAGAIN;
        pid = fork();
        if (pid < 0)
                return -errno;
        if (pid == 0)
                child(path, ev);
        r->pid[r->n] = pid;
        r->started_usec[r->n] = now_usec;
        snprintf(r->event[r->n], sizeof(r->event[r->n]), "%s", ev->event);
        r->killed[r->n] = false;
        r->n++;
        return 0;
}

static void forget(event_runner *r, unsigned i) {
        r->n--;
        r->pid[i] = r->pid[r->n];
        r->started_usec[i] = r->started_usec[r->n];
        r->killed[i] = r->killed[r->n];
        memcpy(r->event[i], r->event[r->n], sizeof(r->event[i]));
}

void event_command_reap(event_runner *r, uint64_t now_usec, uint64_t timeout_usec) {
        for (unsigned i = 0; i < r->n;) {
                int status;
                pid_t p = waitpid(r->pid[i], &status, WNOHANG);

                if (p == r->pid[i] || (p < 0 && errno == ECHILD)) {
                        if (p == r->pid[i] && WIFEXITED(status) && WEXITSTATUS(status) != 0)
                                log_warning("the event command for %s exited with status %d", r->event[i],
                                            WEXITSTATUS(status));
                        else if (p == r->pid[i] && WIFSIGNALED(status) && !r->killed[i])
                                log_warning("the event command for %s was ended by signal %d", r->event[i],
                                            WTERMSIG(status));
                        forget(r, i);
                        continue;
                }
                if (!r->killed[i] && now_usec - r->started_usec[i] >= timeout_usec) {
                        log_warning("the event command for %s still ran after %llu s: killed", r->event[i],
                                    (unsigned long long)(timeout_usec / 1000000u));
                        /* Its own session: whatever it started goes with it. */
                        kill(-r->pid[i], SIGKILL);
                        kill(r->pid[i], SIGKILL);
                        r->killed[i] = true; /* reaped on a later read */
                }
                i++;
        }
}
