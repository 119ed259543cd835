/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>

#include "audit.h"
#include "caller.h"
#include "log.h"

void audit_log(const caller *who, const char *verb, const char *array, const char *uuid, const char *detail,
               const change *changes, unsigned n_changes) {
        char line[2048], whobuf[320];
        size_t len;

        if (who && who->automatic && who->policy[0])
                snprintf(whobuf, sizeof(whobuf), "mdboostd (%s)", who->policy);
        else if (!who || who->automatic)
                snprintf(whobuf, sizeof(whobuf), "mdboostd (automatic)");
        else
                caller_describe(who, whobuf, sizeof(whobuf));
        len = (size_t)snprintf(line, sizeof(line), "audit: %s %s (uuid %s)%s%s by %s:", verb, array,
                               uuid && *uuid ? uuid : "none", detail ? " " : "", detail ?: "", whobuf);
        if (n_changes == 0 && len < sizeof(line))
                len += (size_t)snprintf(line + len, sizeof(line) - len, " no change");
        for (unsigned i = 0; i < n_changes && len < sizeof(line); i++)
                len += (size_t)snprintf(line + len, sizeof(line) - len, "%s %s '%s' -> '%s'", i ? ";" : "",
                                        changes[i].name, changes[i].old, changes[i].new_text);
        log_full(LOG_AUTHPRIV | LOG_NOTICE, "%s", line);
}
