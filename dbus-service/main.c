/* SPDX-License-Identifier: MIT */
/*
 * mdboostd: boosts md rebuilds on request, under polkit, and puts every
 * tunable back afterwards.
 *
 *   mdboostd [--root DIR] [--state-dir DIR] [--settings-dir DIR] [--config FILE] [--policy-file FILE]
 *            [--report-file FILE]
 *            [--log-stderr]
 */
#include <errno.h>
#include <getopt.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "auth.h"
#include "context.h"
#include "dispatch.h"
#include "event-command.h"
#include "log.h"
#include "monitor.h"
#include "report-io.h"
#include "service.h"
#include "settings.h"

typedef struct args {
        const char *root;
        const char *state_dir;
        const char *settings_dir;
        const char *config;
        bool config_required;
        const char *policy_file;
        const char *report_file;
        bool log_stderr;
} args;

static void help(void) {
        printf("Usage: mdboostd [OPTION...]\n"
               "Boosts md RAID rebuilds on request over D-Bus (org.mdboost.MdBoost1) and restores them.\n\n"
               "  --root DIR        prefix for every /sys and /proc path (default /)\n"
               "  --state-dir DIR   where the boost journal lives (default /run/mdboost)\n"
               "  --settings-dir DIR  where the persistent settings live (default " SETTINGS_DIR_DEFAULT ")\n"
               "  --config FILE     settings (default " CONFIG_DEFAULT_PATH ", optional)\n"
               "  --policy-file FILE  the policies set over D-Bus (default " POLICY_FILE_DEFAULT ")\n"
               "  --report-file FILE  the reports of ended operations (default " REPORT_FILE_DEFAULT ")\n"
               "  --log-stderr      also log to stderr (as does MDBOOSTD_LOG_STDERR=1)\n"
               "  -h, --help        show this help\n"
               "      --version     show the version\n\n"
               "The bus is the system bus, or DBUS_SYSTEM_BUS_ADDRESS when it is set.\n");
}

/* 1: run, 0: exit successfully (help, version), -EINVAL: bad usage. */
static int parse_args(int argc, char *argv[], args *ret) {
        enum {
                ARG_ROOT = 0x100,
                ARG_STATE,
                ARG_SETTINGS_DIR,
                ARG_CONFIG,
                ARG_POLICY_FILE,
                ARG_REPORT_FILE,
                ARG_LOG_STDERR,
                ARG_VERSION
        };
        static const struct option options[] = {
                { "root", required_argument, NULL, ARG_ROOT },
                { "state-dir", required_argument, NULL, ARG_STATE },
                { "settings-dir", required_argument, NULL, ARG_SETTINGS_DIR },
                { "config", required_argument, NULL, ARG_CONFIG },
                { "policy-file", required_argument, NULL, ARG_POLICY_FILE },
                { "report-file", required_argument, NULL, ARG_REPORT_FILE },
                { "log-stderr", no_argument, NULL, ARG_LOG_STDERR },
                { "help", no_argument, NULL, 'h' },
                { "version", no_argument, NULL, ARG_VERSION },
                {},
        };
        args a = { .root = "/",
                   .state_dir = "/run/mdboost",
                   .settings_dir = SETTINGS_DIR_DEFAULT,
                   .config = CONFIG_DEFAULT_PATH,
                   .policy_file = POLICY_FILE_DEFAULT,
                   .report_file = REPORT_FILE_DEFAULT };
        int c;

        for (;;) {
                c = getopt_long(argc, argv, "h", options, NULL);
                if (c < 0)
                        break;
                switch (c) {
                case ARG_ROOT:
                        a.root = optarg;
                        break;
                case ARG_STATE:
                        a.state_dir = optarg;
                        break;
                case ARG_SETTINGS_DIR:
                        a.settings_dir = optarg;
                        break;
                case ARG_CONFIG:
                        a.config = optarg;
                        a.config_required = true;
                        break;
                case ARG_POLICY_FILE:
                        a.policy_file = optarg;
                        break;
                case ARG_REPORT_FILE:
                        a.report_file = optarg;
                        break;
                case ARG_LOG_STDERR:
                        a.log_stderr = true;
                        break;
                case 'h':
                        help();
                        return 0;
                case ARG_VERSION:
                        printf("mdboostd %s\n", MDBOOSTD_VERSION);
                        return 0;
                default:
                        fprintf(stderr, "Try 'mdboostd --help'.\n");
                        return -EINVAL;
                }
        }
        if (optind < argc) {
                fprintf(stderr, "mdboostd: unexpected argument '%s'. Try 'mdboostd --help'.\n", argv[optind]);
                return -EINVAL;
        }
        *ret = a;
        return 1;
}

/*
 * The reports are a record, not state the arrays depend on: one that cannot
 * be read is set aside and said in the log, and the service starts anyway.
 */
static void reports_load(context *c) {
        char aside[4096];
        unsigned skipped = 0;
        int r;

        r = report_file_load(c->report_path, &c->reports, &skipped);
        if (r == -EBADMSG && report_file_set_aside(c->report_path, aside, sizeof(aside)) == 0)
                log_warning("%s is not a report file; set aside as %s, starting with no reports", c->report_path,
                            aside);
        else if (r < 0)
                log_warning("cannot read %s: %s; starting with no reports", c->report_path, strerror(-r));
        else if (skipped)
                log_warning("%s: left out %u report%s that did not parse", c->report_path, skipped,
                            skipped == 1 ? "" : "s");
}

/*
 * Opens @dir (made when missing) and loads the journal-shaped file @file in
 * it: the boosts' journal, or the persistent settings. @holds says what its
 * originals belong to, @entry what one entry is, for the log.
 */
static int open_journal(const char *dir, const char *dir_name, const char *file, const char *section, const char *holds,
                        const char *entry, int *ret_fd, journal *ret) {
        journal_load_report report;
        int r;

        r = journal_open_dir(dir, ret_fd);
        if (r == -ELOOP || r == -EPERM) {
                log_error("refusing the %s %s: it must be a folder, not a symlink, owned by the service's user and "
                          "writable by nobody else",
                          dir_name, dir);
                return r;
        }
        if (r < 0) {
                log_error("cannot create the %s %s: %s", dir_name, dir, strerror(-r));
                return r;
        }
        r = journal_load_file(*ret_fd, file, section, ret, &report);
        if (r < 0) {
                log_error("cannot read %s/%s: %s; not starting, because it may hold the originals of %s: make it "
                          "readable, or move it aside by hand to start without them",
                          dir, file, r == -EINVAL ? "not a regular file" : strerror(-r), holds);
                return r;
        }
        if (report.corrupt)
                log_warning("%s/%s was corrupt or truncated; moved aside as %s/%s, starting with no %ss", dir, file,
                            dir, report.aside, entry);
        for (unsigned i = 0; i < report.n_rejected && i < JOURNAL_REJECT_MAX; i++)
                log_warning("%s/%s: set aside the entry %s (%s); it held %s", dir, file, report.rejected[i].key,
                            report.rejected[i].why, report.rejected[i].held);
        if (report.n_rejected > JOURNAL_REJECT_MAX)
                log_warning("%s/%s: set aside %u more entries", dir, file, report.n_rejected - JOURNAL_REJECT_MAX);
        if (report.n_rejected > 0)
                log_warning("%s/%s: %u entr%s set aside, the file as it was is kept as %s/%s; the other %u %s%s "
                            "are followed as usual",
                            dir, file, report.n_rejected, report.n_rejected == 1 ? "y was" : "ies were", dir,
                            report.aside, ret->n, entry, ret->n == 1 ? "" : "s");
        return 0;
}

static int context_open(context *c, const args *a) {
        char errbuf[256];
        int r;

        *c = (context){ .root = MD_ROOT_NULL,
                        .state_fd = -1,
                        .settings_fd = -1,
                        .settings_dir = a->settings_dir,
                        .cfg = CONFIG_DEFAULT,
                        .root_path = a->root,
                        .state_dir = a->state_dir,
                        .policy_path = a->policy_file,
                        .report_path = a->report_file };
        r = config_load(a->config, a->config_required, &c->cfg, errbuf, sizeof(errbuf));
        if (r < 0) {
                log_error("configuration %s: %s", a->config, errbuf);
                return r;
        }
        if (c->cfg.event_command[0] && event_command_check(c->cfg.event_command, errbuf, sizeof(errbuf)) < 0) {
                log_error("configuration %s: %s", a->config, errbuf);
                return -EINVAL;
        }
        /* The rules set over D-Bus go on top of the file's. */
        c->config_policies = c->cfg.policies;
        r = policy_file_load(a->policy_file, &c->dbus_policies, errbuf, sizeof(errbuf));
        if (r == 0)
                r = policy_overlay(&c->cfg.policies, &c->dbus_policies);
        if (r < 0) {
                log_error("policies %s: %s", a->policy_file, r == -ENOSPC ? "too many arrays have their own" : errbuf);
                return r;
        }
        r = md_root_open(a->root, &c->root);
        if (r < 0) {
                log_error("cannot open the root %s: %s", a->root, strerror(-r));
                return r;
        }
        r = open_journal(a->state_dir, "state directory", JOURNAL_FILE, JOURNAL_SECTION, "boosted arrays", "boost",
                         &c->state_fd, &c->journal);
        /* Made by the first SetSettings: a service that never keeps a setting leaves no folder behind. */
        if (r == 0 && access(a->settings_dir, F_OK) == 0)
                r = open_journal(a->settings_dir, "settings directory", SETTINGS_FILE, SETTINGS_SECTION,
                                 "arrays' persistent settings", "setting", &c->settings_fd, &c->settings);
        if (r == 0)
                r = service_load_checks(c);
        if (r < 0)
                return r;
        reports_load(c);
        return loop_init(&c->loop);
}

static int bus_connect(context *c) {
        DBusError err;
        int r;

        dbus_error_init(&err);
        c->bus = dbus_bus_get_private(DBUS_BUS_SYSTEM, &err);
        if (!c->bus) {
                log_error("cannot connect to the system bus: %s", err.message);
                dbus_error_free(&err);
                return -ECONNREFUSED;
        }
        dbus_connection_set_exit_on_disconnect(c->bus, FALSE);
        r = loop_attach(&c->loop, c->bus);
        if (r == 0)
                r = dispatch_register(c);
        if (r == 0)
                r = auth_attach(c);
        return r;
}

static int bus_take_name(context *c) {
        DBusError err;
        int r;

        dbus_error_init(&err);
        r = dbus_bus_request_name(c->bus, BUS_NAME, DBUS_NAME_FLAG_DO_NOT_QUEUE, &err);
        if (r == DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER)
                return 0;
        if (dbus_error_is_set(&err)) {
                log_error("cannot own %s: %s (is the bus policy org.mdboost.MdBoost1.conf installed, and are "
                          "we root?)",
                          BUS_NAME, err.message);
                dbus_error_free(&err);
        } else
                log_error("cannot own %s: another mdboostd already runs", BUS_NAME);
        return -EADDRINUSE;
}

static void context_close(context *c) {
        auth_free_all(c);
        if (c->bus) {
                dbus_connection_close(c->bus);
                dbus_connection_unref(c->bus);
        }
        monitor_free(c);
        report_book_free(&c->reports);
        journal_free(&c->journal);
        journal_free(&c->settings);
        md_array_set_free(&c->arrays);
        md_mdstat_free(&c->mdstat);
        if (c->state_fd >= 0)
                close(c->state_fd);
        if (c->settings_fd >= 0)
                close(c->settings_fd);
        md_root_close(&c->root);
        loop_free(&c->loop);
}

static int run(const args *a) {
        bool started = false;
        context c;
        int r;

        r = context_open(&c, a);
        if (r == 0)
                r = bus_connect(&c);
        if (r == 0) {
                r = monitor_startup(&c);
                started = true;
        }
        if (r == 0)
                r = bus_take_name(&c);
        if (r == 0) {
                log_info("serving %s on root %s, journal in %s", BUS_NAME, a->root, a->state_dir);
                r = loop_run(&c.loop, c.bus, monitor_tick, &c);
                if (r < 0)
                        log_error("lost the bus connection: %s", strerror(-r));
        }
        if (started) {
                /* A normal stop leaves the boosts in place: the next start adopts them. */
                c.journal.clean = true;
                if (journal_save(c.state_fd, &c.journal) < 0)
                        log_error("could not mark the journal clean");
        }
        context_close(&c);
        return r;
}

int main(int argc, char *argv[]) {
        args a;
        int r;

        r = parse_args(argc, argv, &a);
        if (r <= 0)
                return r == 0 ? EXIT_SUCCESS : 2;
        log_setup(a.log_stderr);
        /*
         * A call of many megabytes is refused, but received whole first (the
         * bus delivers what it accepts), in buffers libdbus grows by realloc.
         * Once glibc frees such a mapped buffer it raises its mmap threshold,
         * so the next big buffers come from the heap and its pages stay with
         * the service after a flood. A fixed threshold keeps every big buffer
         * mapped and gives it back when it is freed.
         */
        mallopt(M_MMAP_THRESHOLD, 256 * 1024);
        r = run(&a);
        log_shutdown();
        return r < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
