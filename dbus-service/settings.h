/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Persistent settings: values an administrator wants an array to have
 * always (read_ahead_kb 2048 for a media array, a floor of its own instead
 * of a global sysctl), set with Manager.SetSettings. They outlive the
 * service and the array: <state>/settings.json keeps them, with the values
 * they replaced, in the boost journal's own shape (journal.h) under
 * "settings" instead of "boosts": one entry per array UUID, "profile"
 * "settings", "originals" what the kernel had before, "written" what it
 * read back after. The service writes them again whenever it finds an
 * array showing the original instead (it was stopped and assembled again,
 * or the machine booted), and never over a value an administrator wrote
 * since. A boost on top of them records them as its originals, so its
 * restore comes back to them.
 *
 * Everything here is pure: the service makes the writes (service.h).
 */

#include <stdbool.h>

#include "journal.h"

#define SETTINGS_DIR_DEFAULT "/var/lib/mdboost"
#define SETTINGS_FILE "settings.json"
#define SETTINGS_SECTION "settings"
#define SETTINGS_PROFILE "settings"

typedef enum setting_state {
        SETTING_APPLIED,    /* the kernel reads what the setting wrote */
        SETTING_TO_APPLY,   /* it reads the original again: the array was assembled anew */
        SETTING_OVERRIDDEN, /* it reads something else: an administrator's value, left alone */
        _SETTING_STATE_MAX,
        _SETTING_STATE_INVALID = -1,
} setting_state;

const char *setting_state_to_string(setting_state s);

/*
 * The state of tunable @t of the settings entry @e, the kernel reading
 * @current. A speed limit that follows the system-wide value (kind SYSTEM)
 * counts as the original when the original did too: the global may have
 * changed since.
 */
setting_state settings_judge(const journal_entry *e, md_tunable t, const md_tval *current);

/* True when the entry @e holds no setting any more. */
bool settings_empty(const journal_entry *e);
