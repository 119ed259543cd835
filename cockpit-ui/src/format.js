// Turns the service's raw numbers and error names into words for people.
import cockpit, { _ } from "./cockpit.js";

export function formatBytes(bytes) {
    return cockpit.format_bytes(bytes, 1024);
}

// The kernel reports rebuild speeds in KiB/s.
// Every speed on the page is in MiB/s, as the history's axis is, so that
// the floor, the ceiling and the rebuild compare at a glance: three
// significant digits, at most two decimals (1000 KiB/s reads 0.98 MiB/s).
export function formatSpeed(kibPerSecond) {
    const mib = (kibPerSecond || 0) / 1024;
    const digits = mib >= 100 ? 0 : mib >= 10 ? 1 : 2;
    return cockpit.format(_("$0 MiB/s"), mib.toLocaleString(undefined, { maximumFractionDigits: digits }));
}

export function formatDuration(seconds) {
    if (!seconds || seconds <= 0)
        return _("unknown");
    const minutes = Math.round(seconds / 60);
    if (minutes < 1)
        return _("less than a minute");
    const days = Math.floor(minutes / 1440);
    const hours = Math.floor((minutes % 1440) / 60);
    const mins = minutes % 60;
    const parts = [];
    if (days)
        parts.push(cockpit.format(cockpit.ngettext("$0 day", "$0 days", days), days));
    if (hours)
        parts.push(cockpit.format(cockpit.ngettext("$0 hour", "$0 hours", hours), hours));
    if (mins && !days)
        parts.push(cockpit.format(cockpit.ngettext("$0 minute", "$0 minutes", mins), mins));
    return parts.join(" ");
}

export function formatTimestampMicro(usec) {
    return new Date(usec / 1000).toLocaleString();
}

const ACTIONS = {
    resync: _("Resynchronizing"),
    recover: _("Rebuilding onto a new disk"),
    check: _("Checking"),
    repair: _("Repairing"),
    reshape: _("Reshaping"),
    frozen: _("Frozen"),
};

// The same operations as a sentence's subject, once they are over.
const OPERATIONS = {
    resync: _("The resync"),
    recover: _("The rebuild onto a new disk"),
    check: _("The check"),
    repair: _("The repair"),
    reshape: _("The reshape"),
};

export function operationName(action) {
    return OPERATIONS[action] || action;
}

export function actionLabel(action) {
    return ACTIONS[action] || action;
}

// In the order the page lists them: what a boost changes first.
const TUNABLES = {
    sync_speed_min: _("Rebuild speed floor"),
    sync_speed_max: _("Rebuild speed ceiling"),
    stripe_cache_size: _("Stripe cache entries"),
    stripe_cache_active: _("Stripe cache entries in use"),
    read_ahead_kb: _("Read-ahead (KiB)"),
    sync_io_depth: _("Rebuild requests in flight"),
    group_thread_cnt: _("Parity worker threads"),
    sync_min: _("Rebuild start (sector)"),
    sync_max: _("Rebuild end (sector)"),
    nr_requests: _("Member queue depth"),
    queue_depth: _("NCQ depth"),
};

export function tunableLabel(name) {
    return TUNABLES[name] || name;
}

const ORDER = Object.keys(TUNABLES);

export function compareTunables(a, b) {
    const ia = ORDER.includes(a) ? ORDER.indexOf(a) : ORDER.length;
    const ib = ORDER.includes(b) ? ORDER.indexOf(b) : ORDER.length;
    return ia - ib || a.localeCompare(b);
}

// A reading of the kernel's text for a person, or "" when the text says it
// all: the speed limits read "1000 (system)" (the global default applies) or
// "50000 (local)" (set for this array), in KiB/s.
export function tunableMeaning(name, text) {
    const m = /^(\d+)(?:\s*\((system|local)\))?$/.exec(text || "");
    if (!m || !name.startsWith("sync_speed_"))
        return "";
    const speed = formatSpeed(Number(m[1]));
    return m[2] === "system" ? cockpit.format(_("$0, system default"), speed) : speed;
}

const ERRORS = {
    "org.mdboost.MdBoost1.Error.NotAuthorized":
        _("You are not allowed to change this array. Switch to administrative access and try again."),
    "org.mdboost.MdBoost1.Error.NoSuchArray":
        _("This array no longer exists."),
    "org.mdboost.MdBoost1.Error.NotSupported":
        _("This array has no redundancy or is not running, so there is no rebuild to speed up."),
    "org.mdboost.MdBoost1.Error.InvalidArgument":
        _("The service did not accept the requested values."),
    "org.mdboost.MdBoost1.Error.Busy":
        _("The kernel is busy with this array (for example during a reshape) and refused the change. Try again in a moment."),
    "org.mdboost.MdBoost1.Error.Conflict":
        _("Some values were changed by an administrator after the boost; they were left as they are."),
    "org.mdboost.MdBoost1.Error.NotBoosted":
        _("This array is not boosted: its boost has already ended, and nothing was changed."),
    "org.mdboost.MdBoost1.Error.Failed":
        _("The kernel refused the change."),
    "org.freedesktop.DBus.Error.AccessDenied":
        _("The system bus refused the request."),
    "org.freedesktop.DBus.Error.ServiceUnknown":
        _("The mdboost service is not running."),
};

// Returns {title, detail}: a sentence a person understands and the service's own words.
export function describeError(err) {
    const name = err && err.name;
    const title = ERRORS[name] || _("The request failed.");
    const detail = (err && (err.message || err.problem)) || "";
    return { title, detail: detail === title ? "" : detail };
}

// What the governor of a `fast` boost does now and why (the Governor
// property, its values unwrapped), in the page's words and unit; the
// service's own sentence (`why`) for what has no numbers.
export function governorText(gov) {
    const share = gov.users_share;
    const bound = gov.users_latency_ms;
    const keep = bound
        ? cockpit.format(_("their requests stay under $0 ms at the 99th percentile"), bound)
        : cockpit.format(_("they keep $0 % of what they get alone"), share);
    const depth = gov.depth ? cockpit.format(_(", at most $0 of its requests in flight"), gov.depth) : "";
    switch (gov.state) {
    case "pending":
        return cockpit.format(_("The rebuild runs under fast's floor of $0. Once md has measured the rate the disks reach under it, the floor comes down to a share of that, and the governor follows the array's users."),
                              formatSpeed(gov.rate));
    case "free":
        return cockpit.format(_("The array's users are quiet: the rebuild may use the whole disks. When they get busy, $0."), keep);
    case "learning":
        return cockpit.format(_("The array's users are busy: the rebuild is held back to $0 for a few seconds to measure what they get alone; they keep $1 % of it."),
                              formatSpeed(gov.rate), share);
    case "steering": {
        // What holds the rebuild below its rate: the disks between the users' requests.
        const moves = gov.moves
            ? " " + cockpit.format(_("Between the users' requests it moves at only $0; the rate goes up again once the rebuild keeps to it."),
                                   formatSpeed(gov.moves))
            : "";
        if (bound && gov.latency_us)
            return cockpit.format(_("The users' requests take about $0 ms at the 99th percentile; the bound is $1 ms. The rebuild runs at up to $2$3."),
                                  (gov.latency_us / 1000).toFixed(gov.latency_us < 10000 ? 1 : 0), bound, formatSpeed(gov.rate), depth) + moves;
        if (bound)
            return cockpit.format(_("The rebuild runs at up to $0$1; the users' latency is measured against the bound of $2 ms."),
                                  formatSpeed(gov.rate), depth, bound) + moves;
        if (!gov.baseline)
            return cockpit.format(_("The rebuild runs at $0; what the users get alone is measured again shortly."), formatSpeed(gov.rate)) + moves;
        return cockpit.format(_("The users get $0; alone they get $1, and they keep $2 % of it ($3). The rebuild runs at $4."),
                              formatSpeed(gov.users), formatSpeed(gov.baseline), share, formatSpeed(gov.target),
                              formatSpeed(gov.rate)) +
            (gov.minute
                ? " " + cockpit.format(_("Over the last minute, every step counted, they got $0: the rebuild gets more once that minute too leaves them more than a fifth above their share."),
                                       formatSpeed(gov.minute))
                : "") +
            (gov.floor_held
                ? " " + _("That is the floor the array had before the boost, and the governor goes no lower: the users get less than their share. To give them more, restore, lower sync_speed_min and boost again.")
                : "") +
            moves +
            (gov.stripe_cache
                ? " " + cockpit.format(_("Its stripe cache is $0 stripes, more than fast's own, so that it reads more at each turn between the users' requests."),
                                       gov.stripe_cache)
                : "");
    }
    default:
        return gov.why || "";
    }
}

// The clock time @seconds from @now (ms since the epoch), as hours and minutes.
export function clockAfter(seconds, now = Date.now()) {
    return new Date(now + seconds * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

// An array's persistent settings (its Settings property: tunable, value,
// state) in a line: "read-ahead 2048, floor 5000 (local)", each with what
// keeps it from being in effect, if anything.
export function settingsText(settings) {
    const why = {
        overridden: _("an administrator's value is in its place"),
        boosted: _("under the boost; its restore comes back to it"),
        held: _("put back until mdboost starts again"),
        "to-apply": _("written again at the next look"),
    };
    return (settings || []).map(([name, value, state]) => {
        // Speeds in MiB/s, as everywhere on the page.
        const shown = tunableMeaning(name, value) || value;
        return why[state]
            ? cockpit.format(_("$0 $1 ($2)"), tunableLabel(name), shown, why[state])
            : cockpit.format(_("$0 $1"), tunableLabel(name), shown);
    }).join(", ");
}

// A paused check or repair (the Check property, values unwrapped) in a
// line: "Check 40.0 % · paused until 01:00 (outside its check windows)";
// "" when none is paused.
export function checkText(check, now = Date.now()) {
    if (!check || check.state !== "paused")
        return "";
    const what = check.action === "repair" ? _("Repair") : _("Check");
    const percent = (check.progress || 0).toFixed(1);
    const why = {
        window: _("outside its check windows"),
        degraded: _("the array is degraded; it goes on once the array is whole"),
        rebuild: _("md rebuilds first"),
        busy: _("its users are busy; it goes on after a quiet minute"),
    }[check.why] || "";
    let until = "";
    if (check.why === "window" && check.resumes_usec > 0) {
        const at = new Date(check.resumes_usec / 1000);
        const sameDay = at.toDateString() === new Date(now).toDateString();
        const clock = at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
        until = sameDay ? clock : at.toLocaleDateString([], { weekday: "short" }) + " " + clock;
    }
    const text = until
        ? cockpit.format(_("$0 $1 % · paused until $2"), what, percent, until)
        : cockpit.format(_("$0 $1 % · paused"), what, percent);
    const found = check.mismatches > 0 ? " · " + cockpit.format(_("$0 mismatched sectors so far"), check.mismatches) : "";
    return why ? cockpit.format(_("$0 ($1)$2"), text, why, found) : text + found;
}

// What the boost did, beside the speed: "12 times the 2 MiB/s before the
// boost"; "" when either rate is unknown (SpeedBeforeBoost 0) or md's
// 30-second average has not moved yet (within 10 %). Below 1 it is said
// too: fast's governor holding the rebuild back for busy users.
export function speedupText(speed, before) {
    if (!(speed > 0) || !(before > 0))
        return "";
    const ratio = speed / before;
    if (ratio > 0.9 && ratio < 1.1)
        return "";
    return cockpit.format(_("$0 times the $1 before the boost"),
                          ratio.toLocaleString(undefined, { maximumFractionDigits: ratio >= 10 ? 0 : 1 }),
                          formatSpeed(before));
}

// What the boost costs the array's users (the Users property, flattened),
// beside the rebuild's speed: { value, note } or null while not enough is
// known (a boost younger than 10 s). Their rate counts only the time they
// were busy, so a user who comes and goes is not taken for a slow one.
export function usersCost(users) {
    if (!users || !(users.sampled_s >= 10))
        return null;
    if (!(users.busy_percent > 0))
        return { value: _("quiet"), note: _("no one used the array since the boost") };
    if (!(users.kibs > 0))
        return { value: _("busy briefly"), note: _("too briefly since the boost to measure") };
    const notes = [];
    if (users.before_kibs > 0)
        notes.push(cockpit.format(_("$0 % of the $1 before the boost"),
                                  Math.round(users.kibs * 100 / users.before_kibs), formatSpeed(users.before_kibs)));
    else
        notes.push(_("not measured before the boost"));
    if (users.busy_percent < 90)
        notes.push(cockpit.format(_("busy $0 % of the time"), users.busy_percent));
    return { value: cockpit.format(_("$0 while busy"), formatSpeed(users.kibs)), note: notes.join(" · ") };
}

// The expected end of the running operation as a clock time, beside the
// time left: "ends about 14:35"; "" when the time left is unknown.
export function finishText(seconds, now = Date.now()) {
    if (!(seconds > 0))
        return "";
    return cockpit.format(_("ends about $0"), clockAfter(seconds, now));
}

// When the running operation ends (the Prediction property, values
// unwrapped), three ways: at the rate now, with fast's governor at its
// target, with max; each one a sentence, and "not known yet" with why
// where the service has not seen the rate it rests on.
export function predictionLines(p, now = Date.now()) {
    if (!p || p.remaining_kib === undefined)
        return [];
    const when = (s) => cockpit.format(_("$0 (at $1)"), formatDuration(s), clockAfter(s, now));
    const lines = [];
    lines.push({
        key: "now",
        known: p.now_s > 0,
        text: p.now_s > 0
            ? cockpit.format(_("At the current rate ($0) it ends in $1."), formatSpeed(p.now_kibs), when(p.now_s))
            : _("At the current rate: not known yet, md shows no rate."),
    });
    // The target the governor's rate is for ("50%", "50ms"): a share and a
    // bound keep the rebuild at very different rates.
    const share = /^(\d+)%$/.exec(p.governor_target || "");
    const bound = /^(\d+)ms$/.exec(p.governor_target || "");
    const head = share
        ? cockpit.format(_("With fast's governor keeping the users $0 %"), share[1])
        : bound
            ? cockpit.format(_("With fast's governor keeping the users' requests under $0 ms"), bound[1])
            : _("With fast's governor at its target");
    let governor;
    if (p.governor_s > 0)
        governor = cockpit.format(_("$0: about $1, at $2 on average."), head, when(p.governor_s), formatSpeed(p.governor_kibs));
    else if (!p.max_s)
        governor = cockpit.format(_("$0: not known yet, the rebuild has not run unhindered for a while."), head);
    else if (p.busy_percent === undefined)
        governor = cockpit.format(_("$0: not known yet, mdboost has not watched the array's users for a minute."), head);
    else
        governor = cockpit.format(_("$0: not known yet, the governor has not steered this array's busy users to that target yet."), head);
    lines.push({ key: "governor", known: p.governor_s > 0, text: governor });
    lines.push({
        key: "max",
        known: p.max_s > 0,
        text: p.max_s > 0
            ? cockpit.format(p.max_at_most ? _("With max: about $0 or sooner, at $1 or more.") : _("With max: about $0, at $1."),
                             when(p.max_s), formatSpeed(p.max_kibs))
            : _("With max: not known yet, the rebuild has not run unhindered for half a minute (below its floor, or with the users quiet)."),
    });
    return lines;
}

// What a policy (the array's Policy property) does by itself when an
// operation starts, in words: "Rebuilds: fast, users keep 80 % (this
// array) · Checks: none (all arrays) · No redundancy left: max (all
// arrays) · Checks run only: Mon-Fri 01:00-06:00 (all arrays)"; the
// escalation only when rebuilds are boosted, the windows only when set.
export function policyText(policy) {
    const rule = (words) => {
        if (words === "fast")
            return _("fast");
        if (words === "max")
            return _("max");
        if (words && words.startsWith("fast:") && words.endsWith("ms"))
            return cockpit.format(_("fast, users' requests under $0 ms"), words.slice(5, -2));
        if (words && words.startsWith("fast:"))
            return cockpit.format(_("fast, users keep $0 %"), words.slice(5));
        return _("none");
    };
    const from = (where) => where === "array" ? _("this array") : _("all arrays");
    const text = cockpit.format(_("Rebuilds: $0 ($1) · Checks: $2 ($3)"), rule(policy.rebuild), from(policy.rebuild_from),
                                rule(policy.check), from(policy.check_from));
    let windows = policy.check_window && policy.check_window !== "any"
        ? " · " + cockpit.format(_("Checks run only: $0 ($1)"), policy.check_window, from(policy.check_window_from))
        : "";
    if (policy.check_busy === "pause")
        windows += " · " + cockpit.format(_("Checks pause while the users are busy ($0)"), from(policy.check_busy_from));
    if (!policy.rebuild || policy.rebuild === "none" || !policy.escalate)
        return text + windows;
    return text + " · " + cockpit.format(_("No redundancy left: $0 ($1)"), rule(policy.escalate), from(policy.escalate_from)) +
        windows;
}

// One policy rule's words ("none", "fast", "fast:80", "fast:20ms", "max") for people.
export function policyRuleText(words) {
    if (words === "fast")
        return _("fast (the users keep their share)");
    if (words === "max")
        return _("max (the rebuild first)");
    if (words && words.startsWith("fast:") && words.endsWith("ms"))
        return cockpit.format(_("fast, the users' requests under $0 ms"), words.slice(5, -2));
    if (words && words.startsWith("fast:"))
        return cockpit.format(_("fast, the users keep $0 %"), words.slice(5));
    return _("none (leave it to the kernel)");
}

// One report of GetReports (values unwrapped) in words: what md did, what
// mdboost did about it, what it cost the users and how long the array had
// no redundancy left.
export function reportText(r) {
    const what = !r.onto
        ? operationName(r.action)
        : r.action === "recover"
            ? cockpit.format(_("The rebuild onto $0"), r.onto)
            : cockpit.format(_("$0 (onto $1)"), operationName(r.action), r.onto);
    const at = formatTimestampMicro(r.ended);
    const took = formatDuration(r.duration);
    const parts = [];
    if (r.outcome === "finished")
        parts.push(cockpit.format(_("$0 finished at $1, after $2, at $3 on average."), what, at, took, formatSpeed(r.average_kibs)));
    else if (r.outcome === "member-failed")
        parts.push(cockpit.format(_("$0 stopped at $1 % when a member failed, at $2, after $3."), what, r.progress.toFixed(1), at, took));
    else if (r.outcome === "frozen")
        parts.push(cockpit.format(_("$0 was frozen at $1 % at $2, after $3."), what, r.progress.toFixed(1), at, took));
    else
        parts.push(cockpit.format(_("$0 was stopped at $1 % at $2, after $3."), what, r.progress.toFixed(1), at, took));
    if (r.boost) {
        const by = r.policy ? _("by the automatic boost") : _("by an administrator");
        const back = {
            automatically: _("put back by itself at the end"),
            "by-request": _("restored before the end"),
            "in-place": _("still in place"),
        }[r.restored] || "";
        parts.push(cockpit.format(_("Boosted with $0 $1 for $2, $3."), r.boost, by, formatDuration(r.boosted), back));
    } else {
        parts.push(_("Not boosted."));
    }
    if (r.users_kept_percent !== undefined)
        parts.push(cockpit.format(_("The users kept $0 % of their speed."), r.users_kept_percent));
    else if (r.users_busy > 0)
        parts.push(cockpit.format(_("The users got $0 while busy."), formatSpeed(r.users_kibs)));
    if (r.exposed >= 60)
        parts.push(cockpit.format(_("$0 without redundancy."), formatDuration(r.exposed)));
    return parts.join(" ");
}
