/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The daemon's log: syslog (facility daemon) when it is available, and stderr
 * as well when stderr goes somewhere a person or a test can read (not
 * /dev/null, not the journal, which already receives syslog), or when
 * --log-stderr / MDBOOSTD_LOG_STDERR=1 asks for it.
 */

#include <stdbool.h>
#include <syslog.h>

void log_setup(bool force_stderr);
void log_shutdown(void);

void log_full(int priority, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define log_error(...) log_full(LOG_ERR, __VA_ARGS__)
#define log_warning(...) log_full(LOG_WARNING, __VA_ARGS__)
#define log_notice(...) log_full(LOG_NOTICE, __VA_ARGS__)
#define log_info(...) log_full(LOG_INFO, __VA_ARGS__)
