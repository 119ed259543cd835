/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "predict.h"

static uint64_t seconds(uint64_t kib, uint64_t kibs) {
        if (!kibs)
                return 0;
        return kib / kibs + (kib % kibs ? 1 : 0);
}

void predict(const prediction_input *in, prediction *ret) {
        uint64_t quiet = in->quiet_kibs ? in->quiet_kibs : in->whole_kibs;
        prediction p = {};

        p.now_s = seconds(in->remaining_kib, in->now_kibs);
        if (in->whole_kibs) {
                p.max_kibs = in->whole_kibs;
                p.max_s = seconds(in->remaining_kib, in->whole_kibs);
                p.max_at_most = in->whole_capped;
        }
        /*
         * The governor gives the rebuild the whole disks while the users are
         * quiet and the steered rate while they are busy: over the rest of
         * the operation, as over what went by, the users are busy the same
         * share of the time.
         */
        if (quiet && in->busy_known) {
                if (in->busy_permille == 0)
                        p.governor_kibs = quiet;
                else if (in->steered_kibs)
                        p.governor_kibs =
                                (in->steered_kibs * in->busy_permille + quiet * (1000 - in->busy_permille)) / 1000;
                p.governor_s = seconds(in->remaining_kib, p.governor_kibs);
        }
        if (in->remaining_kib == 0)
                p.now_s = p.governor_s = p.max_s = 0;
        *ret = p;
}

void predict_input(const op_tally *t, const report_book *b, const char *uuid, const char *action, const char *target,
                   prediction_input *ret) {
        prediction_input in = { .whole_kibs = t->whole_kibs, .whole_capped = t->whole_capped };

        if (strcmp(t->steered_target, target) == 0)
                in.steered_kibs = report_tally_steered_recent_kibs(t);
        in.quiet_kibs = report_tally_lifted_kibs(t);

        /* A minute of watching says how busy the users are; less is a guess. */
        if (t->sampled_usec >= 60ull * 1000000ull) {
                in.busy_known = true;
                in.busy_permille = (unsigned)(t->users_busy_usec * 1000 / t->sampled_usec);
        }
        for (unsigned i = b->n; i-- > 0 && (!in.whole_kibs || !in.steered_kibs || !in.busy_known);) {
                const op_report *r = &b->reports[i];

                if (strcmp(r->uuid, uuid) != 0 || strcmp(r->action, action) != 0)
                        continue;
                if (!in.whole_kibs && r->whole_kibs) {
                        in.whole_kibs = r->whole_kibs;
                        in.whole_capped = r->whole_capped;
                }
                if (!in.steered_kibs && r->steered_kibs && strcmp(r->steered_target, target) == 0)
                        in.steered_kibs = r->steered_kibs;
                if (!in.busy_known && report_duration_s(r) >= 60) {
                        in.busy_known = true;
                        in.busy_permille = (unsigned)(r->users_busy_usec / 1000 /
                                                      (report_duration_s(r) ? report_duration_s(r) : 1));
                        if (in.busy_permille > 1000)
                                in.busy_permille = 1000;
                }
        }
        *ret = in;
}
