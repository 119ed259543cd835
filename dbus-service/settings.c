/* SPDX-License-Identifier: MIT */
/* Persistent settings: what the kernel's value says about one (settings.h). */
#include "settings.h"

static const char *const state_words[_SETTING_STATE_MAX] = {
        [SETTING_APPLIED] = "applied",
        [SETTING_TO_APPLY] = "to-apply",
        [SETTING_OVERRIDDEN] = "overridden",
};

const char *setting_state_to_string(setting_state s) {
        return s >= 0 && s < _SETTING_STATE_MAX ? state_words[s] : NULL;
}

setting_state settings_judge(const journal_entry *e, md_tunable t, const md_tval *current) {
        const md_tval *orig = &e->originals[t], *wrote = &e->written[t];

        if (journal_tval_equal(current, wrote))
                return SETTING_APPLIED;
        if (journal_tval_equal(current, orig))
                return SETTING_TO_APPLY;
        /* md's own default, whatever the system-wide value is now: the setting is not in place. */
        if (current->kind == MD_V_SYSTEM && orig->kind == MD_V_SYSTEM)
                return SETTING_TO_APPLY;
        return SETTING_OVERRIDDEN;
}

bool settings_empty(const journal_entry *e) {
        for (unsigned t = 0; t < _MD_T_ARRAY_MAX; t++)
                if (e->originals[t].kind != MD_V_ABSENT)
                        return false;
        return true;
}
