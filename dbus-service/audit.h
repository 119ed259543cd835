/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * One log line per privileged action: who (uid, pid, bus name and the
 * login behind them, caller.h; or the daemon itself), what (boost/restore), which array, and every tunable
 * old -> new. It goes to syslog (LOG_AUTHPRIV|LOG_NOTICE) and, like the rest
 * of the log, to stderr when that is readable.
 */

#include "auth.h"

/* One tunable a privileged action changed, as the audit line and the reply show it. */
typedef struct change {
        const char *name;   /* tunable name */
        char old[160];      /* kernel text before: "1000 (system)"; a policy rule before */
        char new_text[160]; /* text written: "50000", "system"; a policy rule now */
} change;

void audit_log(const caller *who, const char *verb, const char *array, const char *uuid, const char *detail,
               const change *changes, unsigned n_changes);
