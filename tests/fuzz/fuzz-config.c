/* SPDX-License-Identifier: MIT */
/* /etc/mdboost/mdboostd.conf: a refused text leaves the settings as they were, and says why. */
#include "config.h"
#include "fuzz.h"

/* Field by field: a struct's padding has no value to compare. */
static int same(const config *a, const config *b) {
        const profile_settings *x = &a->profiles, *y = &b->profiles;

        return a->poll_active_ms == b->poll_active_ms && a->poll_idle_ms == b->poll_idle_ms &&
               a->reshape_stuck_ms == b->reshape_stuck_ms && x->fast_floor == y->fast_floor &&
               x->fast_stripe_cache == y->fast_stripe_cache && x->ceiling == y->ceiling &&
               x->budget_percent == y->budget_percent && x->fit_percent == y->fit_percent &&
               x->fit_after_ms == y->fit_after_ms && x->hold_ceiling == y->hold_ceiling && x->quiet_ms == y->quiet_ms;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        char *text = fuzz_strndup(data, size), errbuf[256] = "";
        config c = CONFIG_DEFAULT, before = c;

        if (config_parse(text, &c, errbuf, sizeof(errbuf)) < 0) {
                if (!same(&c, &before))
                        abort();
                if (!errbuf[0])
                        abort(); /* a refusal always says why */
        }
        free(text);
        return 0;
}
