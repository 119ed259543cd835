// SPDX-License-Identifier: MIT
//
// The page's data logic outside the browser: history discovery and parsing
// run against real `find` and `rrdtool` on RRD files made from known values,
// and the formatting of the service's numbers and errors. cockpit.js is
// replaced by a stand-in whose spawn() runs the real commands.
//
//   node tests/integration/ui-units.js      (needs `make` for cockpit-ui/node_modules)
"use strict";

const assert = require("assert/strict");
const { execFileSync } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");
const test = require("node:test");

const top = path.resolve(__dirname, "../..");
const esbuild = require(path.join(top, "cockpit-ui/node_modules/esbuild"));

function format(fmt, ...args) {
    return fmt.replace(/\$(\d)/g, (_, i) => String(args[i]));
}

globalThis.window = {
    cockpit: {
        gettext: s => s,
        ngettext: (one, many, n) => (n === 1 ? one : many),
        format,
        format_bytes: (b) => `${b} B`,
        format_bytes_per_sec: (b) => `${b} B/s`,
        location: { options: {} },
        file: () => ({ read: () => Promise.reject(new Error("no collectd.conf here")) }),
        spawn: (argv) => new Promise((resolve, reject) => {
            try {
                resolve(execFileSync(argv[0], argv.slice(1), { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }));
            } catch (err) {
                reject(err);
            }
        }),
    },
};

// Bundles the page's modules for node, the way build.js does for the browser.
function load(modules) {
    const entry = modules.map((m, i) => `export * as m${i} from ${JSON.stringify(path.join(top, "cockpit-ui/src", m))};`).join("\n");
    const out = esbuild.buildSync({
        stdin: { contents: entry, resolveDir: top, loader: "js" },
        bundle: true, platform: "node", format: "cjs", write: false, logLevel: "silent",
    });
    const mod = { exports: {} };
    new Function("module", "exports", "require", out.outputFiles[0].text)(mod, mod.exports, require);
    return modules.map((_, i) => mod.exports[`m${i}`]);
}

const [history, fmt] = load(["history.js", "format.js"]);

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "mdboost-ui-units."));
process.on("exit", () => fs.rmSync(tmp, { recursive: true, force: true }));

// One RRD per series, a sample every 10 s for the last 20 minutes.
function makeRrd(file, valueAt) {
    const now = Math.floor(Date.now() / 1000);
    const start = now - 1200;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    execFileSync("rrdtool", ["create", file, "--step", "10", "--start", String(start - 10),
        "DS:value:GAUGE:20:0:U", "RRA:AVERAGE:0.5:1:360"]);
    const updates = [];
    for (let i = 0; i <= 120; i++)
        updates.push(`${start + i * 10}:${valueAt(i)}`);
    execFileSync("rrdtool", ["update", file, ...updates]);
}

test("findFiles picks each series from the newest host folder and ignores the rest", async () => {
    const dd = path.join(tmp, "find");
    for (const host of ["old.example", "new.example"])
        fs.mkdirSync(path.join(dd, host, "mdraid-md0"), { recursive: true });
    for (const f of ["bytes-sync_speed", "percent-sync_progress", "count-mismatch_cnt"]) {
        fs.writeFileSync(path.join(dd, "old.example/mdraid-md0", `${f}.rrd`), "");
        fs.writeFileSync(path.join(dd, "new.example/mdraid-md0", `${f}.rrd`), "");
        const old = new Date(Date.now() - 86400000);
        fs.utimesSync(path.join(dd, "old.example/mdraid-md0", `${f}.rrd`), old, old);
    }
    fs.mkdirSync(path.join(dd, "new.example/mdraid-md10"), { recursive: true });
    fs.writeFileSync(path.join(dd, "new.example/mdraid-md10/bytes-sync_speed_min.rrd"), "");

    const files = await history.findFiles(dd, "md0");
    assert.deepEqual(files, {
        sync_speed: path.join(dd, "new.example/mdraid-md0/bytes-sync_speed.rrd"),
        sync_progress: path.join(dd, "new.example/mdraid-md0/percent-sync_progress.rrd"),
    });
    assert.equal(await history.findFiles(dd, "md1"), null, "no folder for md1");
    assert.equal(await history.findFiles(path.join(tmp, "absent"), "md0"), null, "no DataDir at all");
});

test("exportSeries reads the known values back through rrdtool xport", async () => {
    const dir = path.join(tmp, "xport/host/mdraid-md0");
    makeRrd(path.join(dir, "bytes-sync_speed.rrd"), i => (i < 60 ? 1048576 : 3145728));
    makeRrd(path.join(dir, "bytes-sync_speed_min.rrd"), i => (i < 60 ? 1024000 : 51200000));
    makeRrd(path.join(dir, "percent-sync_progress.rrd"), i => i / 2);
    const files = await history.findFiles(path.join(tmp, "xport"), "md0");
    const { times, series } = await history.exportSeries(files, 1200);

    assert.deepEqual(Object.keys(series).sort(), ["sync_progress", "sync_speed", "sync_speed_min"]);
    assert.equal(times.length, series.sync_speed.length);
    assert.ok(times.every((t, i) => i === 0 || t > times[i - 1]), "times increase");
    const known = series.sync_speed.filter(v => v !== null);
    assert.ok(known.length >= 100, `most samples are known (${known.length})`);
    assert.equal(known[0], 1048576);
    assert.equal(known[known.length - 1], 3145728);
    const progress = series.sync_progress.filter(v => v !== null);
    assert.ok(progress[progress.length - 1] > 55 && progress[progress.length - 1] <= 60);

    const mask = history.boostedMask(series.sync_speed_min, 1000 * 1024);
    const firstBoosted = mask.indexOf(true);
    assert.ok(firstBoosted > 0, "the first half is not boosted");
    assert.ok(mask.slice(firstBoosted).every((b, i) => b || series.sync_speed_min[firstBoosted + i] === null),
              "everything after the floor rose is boosted");
});

test("parseXport turns old rrdtool's NaN into gaps", () => {
    const text = '{ "meta": { "start": 100, "step": 10, "legend": ["sync_speed"] }, "data": [ [ NaN ], [ 5.0e+00 ] ] }';
    assert.deepEqual(history.parseXport(text), { times: [110, 120], series: { sync_speed: [null, 5] } });
});

test("tunableMeaning reads the kernel's speed limit texts", () => {
    assert.equal(fmt.tunableMeaning("sync_speed_min", "1000 (system)"), "0.98 MiB/s, system default");
    assert.equal(fmt.tunableMeaning("sync_speed_max", "50000 (local)"), "48.8 MiB/s");
    assert.equal(fmt.tunableMeaning("sync_speed_min", "50000"), "48.8 MiB/s");
    assert.equal(fmt.tunableMeaning("stripe_cache_size", "256"), "");
    assert.equal(fmt.tunableMeaning("sync_speed_min", "none"), "");
});

test("governorText says what the governor does, in MiB/s, from the Governor property", () => {
    assert.equal(fmt.governorText({ state: "steering", users_share: 50, rate: 2180, baseline: 14855, users: 14845, target: 7400 }),
                 "The users get 14.5 MiB/s; alone they get 14.5 MiB/s, and they keep 50 % of it (7.23 MiB/s). The rebuild runs at 2.13 MiB/s.");
    // A stripe cache the governor grew, under users whose requests keep the rebuild below its rate.
    assert.equal(fmt.governorText({ state: "steering", users_share: 25, rate: 8884, baseline: 44, users: 25, target: 11, stripe_cache: 15090 }),
                 "The users get 0.02 MiB/s; alone they get 0.04 MiB/s, and they keep 25 % of it (0.01 MiB/s). The rebuild runs at 8.68 MiB/s. " +
                 "Its stripe cache is 15090 stripes, more than fast's own, so that it reads more at each turn between the users' requests.");
    // The steps at the rate leave the users room, their last minute (a stripe cache's transitions in it) does not.
    assert.equal(fmt.governorText({ state: "steering", users_share: 50, rate: 5421, baseline: 42, users: 30, target: 21, minute: 24 }),
                 "The users get 0.03 MiB/s; alone they get 0.04 MiB/s, and they keep 50 % of it (0.02 MiB/s). The rebuild runs at 5.29 MiB/s. " +
                 "Over the last minute, every step counted, they got 0.02 MiB/s: the rebuild gets more once that minute too leaves them more than a fifth above their share.");
    // The disks hold the rebuild below its rate; at the floor from before the boost the users are still short.
    assert.equal(fmt.governorText({ state: "steering", users_share: 50, rate: 2180, baseline: 14855, users: 14845, target: 7400, moves: 1024 }),
                 "The users get 14.5 MiB/s; alone they get 14.5 MiB/s, and they keep 50 % of it (7.23 MiB/s). The rebuild runs at 2.13 MiB/s. " +
                 "Between the users' requests it moves at only 1 MiB/s; the rate goes up again once the rebuild keeps to it.");
    assert.match(fmt.governorText({ state: "steering", users_share: 80, rate: 1000, baseline: 14855, users: 9000, target: 11884, floor_held: true }),
                 /The rebuild runs at 0\.98 MiB\/s\. That is the floor the array had before the boost, and the governor goes no lower: .* lower sync_speed_min and boost again\.$/);
    assert.equal(fmt.governorText({ state: "steering", users_share: 50, rate: 2180, baseline: 0 }),
                 "The rebuild runs at 2.13 MiB/s; what the users get alone is measured again shortly.");
    assert.match(fmt.governorText({ state: "learning", users_share: 80, rate: 1000 }), /held back to 0\.98 MiB\/s .* they keep 80 % of it/);
    assert.match(fmt.governorText({ state: "pending", rate: 50000 }), /fast's floor of 48\.8 MiB\/s/);
    assert.match(fmt.governorText({ state: "free", users_share: 50 }), /users are quiet/);
    assert.equal(fmt.governorText({ state: "done", why: "The governor no longer follows this boost." }), "The governor no longer follows this boost.");
    assert.equal(fmt.governorText({}), "");
    // A latency bound: what was measured against it, and the depth the governor set.
    assert.equal(fmt.governorText({ state: "steering", users_latency_ms: 40, latency_us: 61200, rate: 204800, depth: 16 }),
                 "The users' requests take about 61 ms at the 99th percentile; the bound is 40 ms. The rebuild runs at up to 200 MiB/s, at most 16 of its requests in flight.");
    assert.match(fmt.governorText({ state: "steering", users_latency_ms: 40, latency_us: 0, rate: 2048, depth: 0 }),
                 /^The rebuild runs at up to 2 MiB\/s; the users' latency is measured against the bound of 40 ms\.$/);
    assert.match(fmt.governorText({ state: "steering", users_latency_ms: 40, latency_us: 61200, rate: 2048, depth: 0, moves: 512 }),
                 /up to 2 MiB\/s\. Between the users' requests it moves at only 0\.5 MiB\/s;/);
    assert.match(fmt.governorText({ state: "free", users_share: 50, users_latency_ms: 40 }), /requests stay under 40 ms/);
});

test("checkText says where a paused check stands, why, and when its window opens", () => {
    const now = new Date(2026, 11, 2, 14, 0).getTime();
    const tonight = new Date(2026, 11, 3, 1, 0).getTime() * 1000;
    const at = new Date(tonight / 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    assert.equal(fmt.checkText({ state: "running", action: "check", progress: 40 }, now), "");
    assert.equal(fmt.checkText(undefined, now), "");
    const text = fmt.checkText({ state: "paused", action: "check", why: "window", progress: 40, resumes_usec: tonight, mismatches: 0 }, now);
    assert.match(text, /^Check 40.0 % · paused until .*\(outside its check windows\)$/);
    assert.ok(text.includes(at), text);
    assert.ok(text.includes("Thu"), "another day is named: " + text);
    assert.equal(fmt.checkText({ state: "paused", action: "repair", why: "degraded", progress: 12.34, resumes_usec: 0, mismatches: 16 }, now),
                 "Repair 12.3 % · paused (the array is degraded; it goes on once the array is whole) · 16 mismatched sectors so far");
    assert.equal(fmt.checkText({ state: "paused", action: "check", why: "rebuild", progress: 5, resumes_usec: 0 }, now),
                 "Check 5.0 % · paused (md rebuilds first)");
    assert.equal(fmt.checkText({ state: "paused", action: "check", why: "busy", progress: 5, resumes_usec: 0 }, now),
                 "Check 5.0 % · paused (its users are busy; it goes on after a quiet minute)");
});

test("settingsText says an array's persistent settings and what keeps one from being in effect", () => {
    assert.equal(fmt.settingsText([["read_ahead_kb", "2048", "applied"], ["sync_speed_min", "5120 (local)", "applied"]]),
                 "Read-ahead (KiB) 2048, Rebuild speed floor 5 MiB/s");
    assert.equal(fmt.settingsText([["read_ahead_kb", "2048", "overridden"]]),
                 "Read-ahead (KiB) 2048 (an administrator's value is in its place)");
    assert.match(fmt.settingsText([["read_ahead_kb", "2048", "boosted"]]), /under the boost; its restore comes back to it/);
    assert.match(fmt.settingsText([["read_ahead_kb", "2048", "held"]]), /put back until mdboost starts again/);
    assert.equal(fmt.settingsText([]), "");
    assert.equal(fmt.settingsText(undefined), "");
});

test("speedupText and finishText say what the boost did and when the operation ends", () => {
    assert.equal(fmt.speedupText(24576, 2048), "12 times the 2 MiB/s before the boost");
    assert.equal(fmt.speedupText(5120, 2048), "2.5 times the 2 MiB/s before the boost");
    assert.equal(fmt.speedupText(5120, 0), "");
    assert.equal(fmt.speedupText(0, 2048), "");
    assert.equal(fmt.speedupText(2150, 2048), "", "md's average has not moved yet");
    assert.equal(fmt.speedupText(1024, 2048), "0.5 times the 2 MiB/s before the boost");
    const now = new Date(2026, 11, 2, 10, 0, 0).getTime();
    assert.equal(fmt.finishText(5400, now), `ends about ${fmt.clockAfter(5400, now)}`);
    assert.match(fmt.finishText(5400, now), /11.30/);
    assert.equal(fmt.finishText(0, now), "");
});

test("usersCost says what the boost costs the users, and nothing before it knows", () => {
    assert.deepEqual(fmt.usersCost({ kibs: 10240, busy_percent: 60, sampled_s: 120, before_kibs: 40960, before_busy_percent: 70 }),
                     { value: "10 MiB/s while busy", note: "25 % of the 40 MiB/s before the boost · busy 60 % of the time" });
    assert.deepEqual(fmt.usersCost({ kibs: 10240, busy_percent: 100, sampled_s: 30, before_kibs: 0 }),
                     { value: "10 MiB/s while busy", note: "not measured before the boost" });
    assert.equal(fmt.usersCost({ kibs: 0, busy_percent: 0, sampled_s: 60, before_kibs: 40960 }).value, "quiet");
    assert.equal(fmt.usersCost({ kibs: 0, busy_percent: 5, sampled_s: 60 }).value, "busy briefly");
    assert.equal(fmt.usersCost({ kibs: 10240, busy_percent: 100, sampled_s: 5 }), null, "a boost younger than 10 s");
    assert.equal(fmt.usersCost({}), null, "no operation, or no counters");
    assert.equal(fmt.usersCost(undefined), null);
});

test("predictionLines says when the operation ends three ways, and why one is not known yet", () => {
    const now = new Date(2026, 11, 2, 10, 0, 0).getTime();
    const p = { remaining_kib: 100 * 1048576, now_s: 3 * 3600, now_kibs: 9709, governor_s: 3600, governor_kibs: 29127,
                max_s: 1800, max_kibs: 58254, max_at_most: false, busy_percent: 25 };
    const lines = fmt.predictionLines(p, now);
    assert.deepEqual(lines.map(l => l.key), ["now", "governor", "max"]);
    assert.equal(lines[0].text, `At the current rate (9.48 MiB/s) it ends in 3 hours (at ${fmt.clockAfter(3 * 3600, now)}).`);
    assert.equal(lines[1].text, `With fast's governor at its target: about 1 hour (at ${fmt.clockAfter(3600, now)}), at 28.4 MiB/s on average.`);
    assert.equal(lines[2].text, `With max: about 30 minutes (at ${fmt.clockAfter(1800, now)}), at 56.9 MiB/s.`);
    assert.ok(lines.every(l => l.known));
    assert.match(fmt.clockAfter(1800, now), /10.30/);
    assert.match(fmt.predictionLines({ ...p, max_at_most: true }, now)[2].text, /or sooner, at 56\.9 MiB\/s or more\.$/);
    // What is not known yet says why.
    const unknown = fmt.predictionLines({ remaining_kib: 1000, now_s: 0, governor_s: 0, max_s: 0 }, now);
    assert.deepEqual(unknown.map(l => l.known), [false, false, false]);
    assert.match(unknown[0].text, /not known yet, md shows no rate/);
    assert.match(unknown[1].text, /has not run unhindered for a while/);
    assert.match(unknown[2].text, /has not run unhindered for half a minute \(below its floor, or with the users quiet\)/);
    assert.match(fmt.predictionLines({ ...p, governor_s: 0, busy_percent: undefined }, now)[1].text, /not watched the array's users for a minute/);
    assert.match(fmt.predictionLines({ ...p, governor_s: 0 }, now)[1].text, /has not steered this array's busy users to that target yet/);
    // The target the governor's rate is for, in words: a share or a bound.
    assert.match(fmt.predictionLines({ ...p, governor_target: "50%" }, now)[1].text,
                 /^With fast's governor keeping the users 50 %: about 1 hour \(at /);
    assert.match(fmt.predictionLines({ ...p, governor_s: 0, governor_target: "40ms" }, now)[1].text,
                 /^With fast's governor keeping the users' requests under 40 ms: not known yet, the governor has not steered/);
    assert.deepEqual(fmt.predictionLines({}), []);
});

test("reportText tells an operation's report in words, from GetReports", () => {
    const r = {
        action: "recover", outcome: "finished", onto: "sdd", ended: 0, duration: 3 * 3600 + 12 * 60,
        average_kibs: 41 * 1024, progress: 100, boost: "fast", policy: "rebuild", boosted: 2 * 3600 + 58 * 60,
        restored: "automatically", users_busy: 3600, users_kibs: 6100, users_kept_percent: 61, exposed: 3 * 3600 + 12 * 60,
    };
    const text = fmt.reportText(r);
    assert.match(text, /^The rebuild onto sdd finished at .*, after 3 hours 12 minutes, at 41 MiB\/s on average\./);
    assert.match(text, / Boosted with fast by the automatic boost for 2 hours 58 minutes, put back by itself at the end\./);
    assert.match(text, / The users kept 61 % of their speed\. 3 hours 12 minutes without redundancy\.$/);
    const stopped = fmt.reportText({ ...r, outcome: "interrupted", progress: 40.25, onto: "", boost: "", users_kept_percent: undefined, exposed: 30 });
    assert.match(stopped, /^The rebuild onto a new disk was stopped at 40\.3 % at .*\. Not boosted\. The users got 5\.96 MiB\/s while busy\.$/);
    assert.match(fmt.reportText({ ...r, outcome: "member-failed", progress: 10 }), /stopped at 10\.0 % when a member failed/);
    assert.match(fmt.reportText({ ...r, outcome: "frozen", progress: 10, restored: "in-place", policy: "" }),
                 /was frozen at 10\.0 % .* by an administrator for .*, still in place\./);
});

test("policyText says what the service does by itself when an operation starts", () => {
    assert.equal(fmt.policyText({ rebuild: "fast:80", rebuild_from: "array", check: "none", check_from: "default" }),
                 "Rebuilds: fast, users keep 80 % (this array) · Checks: none (all arrays)");
    assert.equal(fmt.policyText({ rebuild: "fast", rebuild_from: "default", check: "none", check_from: "default",
                                  escalate: "max", escalate_from: "default" }),
                 "Rebuilds: fast (all arrays) · Checks: none (all arrays) · No redundancy left: max (all arrays)");
    assert.equal(fmt.policyText({ rebuild: "none", rebuild_from: "default", check: "none", check_from: "default",
                                  escalate: "max", escalate_from: "default" }),
                 "Rebuilds: none (all arrays) · Checks: none (all arrays)");
    assert.equal(fmt.policyText({ rebuild: "fast:20ms", rebuild_from: "array", check: "none", check_from: "default" }),
                 "Rebuilds: fast, users' requests under 20 ms (this array) · Checks: none (all arrays)");
    assert.equal(fmt.policyRuleText("fast:20ms"), "fast, the users' requests under 20 ms");
    assert.equal(fmt.policyText({ rebuild: "max", rebuild_from: "default", check: "fast", check_from: "array" }),
                 "Rebuilds: max (all arrays) · Checks: fast (this array)");
    assert.equal(fmt.policyText({}), "Rebuilds: none (all arrays) · Checks: none (all arrays)");
    assert.equal(fmt.policyText({ rebuild: "none", rebuild_from: "default", check: "none", check_from: "default",
                                  check_window: "any", check_window_from: "default" }),
                 "Rebuilds: none (all arrays) · Checks: none (all arrays)");
    assert.equal(fmt.policyText({ rebuild: "fast", rebuild_from: "default", check: "none", check_from: "default",
                                  escalate: "max", escalate_from: "default",
                                  check_window: "Mon-Fri 01:00-06:00", check_window_from: "array" }),
                 "Rebuilds: fast (all arrays) · Checks: none (all arrays) · No redundancy left: max (all arrays) · " +
                 "Checks run only: Mon-Fri 01:00-06:00 (this array)");
    assert.equal(fmt.policyText({ rebuild: "none", rebuild_from: "default", check: "none", check_from: "default",
                                  check_window: "any", check_window_from: "default", check_busy: "pause", check_busy_from: "default" }),
                 "Rebuilds: none (all arrays) · Checks: none (all arrays) · Checks pause while the users are busy (all arrays)");
});

test("formatSpeed gives every speed in MiB/s, three digits at most two decimals", () => {
    assert.equal(fmt.formatSpeed(20480), "20 MiB/s");
    assert.equal(fmt.formatSpeed(10000), "9.77 MiB/s");
    assert.equal(fmt.formatSpeed(1000), "0.98 MiB/s");
    assert.equal(fmt.formatSpeed(200000), "195 MiB/s");
    assert.equal(fmt.formatSpeed(51200), "50 MiB/s");
    assert.equal(fmt.formatSpeed(0), "0 MiB/s");
});

test("formatDuration counts days, hours and minutes", () => {
    assert.equal(fmt.formatDuration(0), "unknown");
    assert.equal(fmt.formatDuration(20), "less than a minute");
    assert.equal(fmt.formatDuration(60), "1 minute");
    assert.equal(fmt.formatDuration(3 * 3600 + 25 * 60), "3 hours 25 minutes");
    assert.equal(fmt.formatDuration(2 * 86400 + 3600 + 59 * 60), "2 days 1 hour");
});

test("describeError words every service error and keeps the service's message", () => {
    for (const name of ["NotAuthorized", "NoSuchArray", "NotSupported", "InvalidArgument", "Busy", "Conflict", "NotBoosted", "Failed"]) {
        const { title } = fmt.describeError({ name: `org.mdboost.MdBoost1.Error.${name}`, message: "x" });
        assert.notEqual(title, "The request failed.", `${name} has its own words`);
    }
    const d = fmt.describeError({ name: "org.mdboost.MdBoost1.Error.Busy", message: "sync_max: EBUSY" });
    assert.equal(d.detail, "sync_max: EBUSY");
    assert.equal(fmt.describeError({ problem: "disconnected" }).title, "The request failed.");
});

test("compareTunables lists what a boost changes first", () => {
    const names = ["sync_max", "read_ahead_kb", "zzz_unknown", "sync_speed_max", "stripe_cache_size", "sync_speed_min"];
    assert.deepEqual(names.sort(fmt.compareTunables),
                     ["sync_speed_min", "sync_speed_max", "stripe_cache_size", "read_ahead_kb", "sync_max", "zzz_unknown"]);
});

test("dataDir takes collectd's rrdtool block, then Debian's default, and a URL folder only inside it", async () => {
    const c = globalThis.window.cockpit;
    const conf = 'LoadPlugin rrdtool\n<Plugin "csv">\n  DataDir "/var/lib/collectd/csv"\n</Plugin>\n' +
        '<Plugin rrdtool>\n  # DataDir "/commented"\n  DataDir "/srv/collectd/rrd/"\n</Plugin>\n';
    c.file = () => ({ read: () => Promise.resolve(conf) });
    c.location.options = {};
    assert.deepEqual(await history.dataDir(), { dir: "/srv/collectd/rrd", refused: null });
    c.location.options = { datadir: "/srv/collectd/rrd/site-a/" };
    assert.deepEqual(await history.dataDir(), { dir: "/srv/collectd/rrd/site-a", refused: null },
                     "a folder inside DataDir is read");
    for (const bad of ["/tmp/elsewhere", "/srv/collectd/rrd-old", "/srv/collectd/rrd/../../../etc",
                       "/srv/collectd/rrd/./x", "/srv/collectd//rrd/x", "relative/path", "/"]) {
        c.location.options = { datadir: bad };
        assert.deepEqual(await history.dataDir(), { dir: "/srv/collectd/rrd", refused: bad }, `${bad} is refused`);
    }
    c.location.options = {};
    c.file = () => ({ read: () => Promise.resolve(null) });
    assert.deepEqual(await history.dataDir(), { dir: "/var/lib/collectd/rrd", refused: null }, "no collectd.conf");
});

test("po2js turns a .po file into the cockpit.locale() call the bridge serves", () => {
    const { po2js } = require(path.join(top, "cockpit-ui/po2js.js"));
    const po = [
        'msgid ""',
        'msgstr ""',
        '"Language: ru\\n"',
        '"Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && "',
        '"(n%100<10 || n%100>=20) ? 1 : 2);\\n"',
        "",
        "# a comment",
        'msgid "Boost"',
        'msgstr "Ускорить"',
        "",
        'msgid "$0 day"',
        'msgid_plural "$0 days"',
        'msgstr[0] "$0 день"',
        'msgstr[1] "$0 дня"',
        'msgstr[2] "$0 дней"',
        "",
        'msgctxt "button"',
        'msgid "Restore"',
        'msgstr ""',
        '"Восстан"',
        '"овить \\"всё\\""',
        "",
        'msgid "Untranslated"',
        'msgstr ""',
        "",
    ].join("\n");
    let data = null;
    new Function("cockpit", po2js(po, "ru"))({ locale: d => { data = d } });
    assert.deepEqual(data.Boost, [null, "Ускорить"]);
    assert.deepEqual(data["$0 day"], [null, "$0 день", "$0 дня", "$0 дней"]);
    assert.deepEqual(data["button\u0004Restore"], [null, 'Восстановить "всё"']);
    assert.equal("Untranslated" in data, false, "empty translations are left out");
    assert.equal(data[""].language, "ru");
    const plural = data[""]["plural-forms"];
    assert.deepEqual([1, 2, 5, 11, 21, 22, 25].map(plural), [0, 1, 2, 2, 0, 1, 2]);
});

test("make cockpit-pot extracts strings from JSX too", () => {
    execFileSync("make", ["-s", "-C", top, `BUILD=${tmp}/build`, "cockpit-pot"], { stdio: "ignore" });
    const pot = fs.readFileSync(path.join(tmp, "build/cockpit/mdboost.pot"), "utf8");
    for (const s of ["Boost more", "What will change", "Boosted: $0", "Rebuild speed floor", "Show how to enable it"])
        assert.ok(pot.includes(`msgid "${s}"`), `${s} is in the template`);
    assert.ok(pot.includes('msgid_plural "$0 days"'), "plurals keep their plural form");
});

// Cockpit loads the page from the machine it shows (the local one, or a NAS
// added in the host switcher) and routes every call without a host to that
// machine's bridge: a call naming a host would reach another machine.
test("every call of the page names no host, so it talks only to the machine Cockpit shows it for", async () => {
    const c = globalThis.window.cockpit;
    const seen = [];
    const conf = `LoadPlugin rrdtool\n<Plugin rrdtool>\n  DataDir "${path.join(tmp, "xport")}"\n</Plugin>\n`;
    c.location.options = {};
    c.file = (name, opts) => {
        seen.push({ fn: "file", opts: opts || {} });
        return { read: () => Promise.resolve(conf) };
    };
    const spawn = c.spawn;
    c.spawn = (argv, opts) => {
        seen.push({ fn: "spawn", opts: opts || {} });
        return spawn(argv, opts);
    };
    c.dbus = (name, opts) => {
        seen.push({ fn: "dbus", opts: opts || {} });
        return {
            subscribe: () => ({ remove() {} }),
            addEventListener() {},
            removeEventListener() {},
            call: () => Promise.resolve([{ Arrays: { t: "ao", v: [] }, Version: { t: "s", v: "test" } }]),
            close() {},
        };
    };
    const [clientModule] = load(["client.js"]);
    const client = new clientModule.MdBoostClient();
    await new Promise(resolve => {
        const stop = client.subscribe(state => state.status !== "connecting" && (stop(), resolve()));
    });
    assert.equal(client.state.status, "ready");
    const { dir } = await history.dataDir();
    await history.exportSeries(await history.findFiles(dir, "md0"), 1200);
    client.close();

    for (const fn of ["dbus", "file", "spawn"])
        assert.ok(seen.some(s => s.fn === fn), `the page called cockpit.${fn}`);
    for (const s of seen)
        assert.equal(s.opts.host, undefined, `cockpit.${s.fn} names no host`);
    assert.deepEqual(seen.find(s => s.fn === "dbus").opts, { bus: "system", superuser: "try" });
});
