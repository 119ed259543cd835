// SPDX-License-Identifier: MIT
//
// Browser half of tests/integration/ui-browser: drives the Cockpit page in
// headless Chromium and checks what it shows against what the service wrote
// into the fixture root. Run by ui-browser, which sets the UI_* variables;
// UI_SHOTS_DIR, when set, also receives the Boost dialog, its error and the
// limited session as PNG files, for looking at them.
"use strict";

const fs = require("fs");
const path = require("path");
const { execFileSync, spawn } = require("child_process");
const { chromium } = require(process.env.UI_PLAYWRIGHT);

const env = process.env;
const PAGE = "/cockpit/@localhost/mdboost/index.html";
const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"];
let failed = 0;
let passed = 0;

function check(ok, what) {
    if (ok) {
        passed++;
        console.log(`PASS: ${what}`);
    } else {
        failed++;
        console.log(`FAIL: ${what}`);
    }
}

// Waits for what a locator names to appear and records the outcome; a
// timeout is a FAIL with Playwright's reason, and ends the test.
async function expectShown(locator, what, timeout = 15000) {
    try {
        await locator.waitFor({ timeout });
    } catch (err) {
        check(false, `${what}: ${err.message.split("\n")[0]}`);
        throw err;
    }
    check(true, what);
}

// Where the kernel keeps a tunable of md0, relative to the root.
function tunablePath(name) {
    if (name === "read_ahead_kb")
        return "sys/block/md0/queue/read_ahead_kb";
    return `sys/block/md0/md/${name}`;
}

function readTunable(root, name) {
    return fs.readFileSync(path.join(root, tunablePath(name)), "utf8").trim();
}

// Parses the "Mx,yLx,y..." path the chart draws into points.
function points(d) {
    return (d.match(/[ML][\d.]+,[\d.]+/g) || []).map(p => p.slice(1).split(",").map(Number));
}

function pageUrl(base, datadir) {
    return `${base}${PAGE}#/?datadir=${encodeURIComponent(datadir)}`;
}

async function openPage(browser, base, datadir = env.UI_DATADIR) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    page.on("pageerror", err => console.log(`page error: ${err.message}`));
    page.on("console", msg => msg.type() === "error" && console.log(`console: ${msg.text()}`));
    await page.goto(pageUrl(base, datadir));
    return page;
}

// The y of VALUE on a chart of HEIGHT whose axis tops at TOP (plot y = 10 .. height - 24).
function yOfSpeed(height, top, value) {
    return 10 + (height - 34) * (1 - value / top);
}

async function testHistory(page) {
    const card = page.locator("[data-array=md0]");
    const speed = card.locator("path[data-series=sync_speed]");
    await speed.waitFor({ timeout: 20000 });
    const pts = points(await speed.getAttribute("d"));
    check(pts.length > 40, `the speed chart draws the recorded samples (${pts.length} points)`);
    // The speed steps up from 5 to 9 MiB/s halfway: later points sit higher (smaller y).
    const early = pts[Math.floor(pts.length * 0.2)][1];
    const late = pts[Math.floor(pts.length * 0.8)][1];
    check(late < early, `the speed line rises when the floor is raised (y ${early} -> ${late})`);

    const progress = points(await card.locator("path[data-series=sync_progress]").getAttribute("d"));
    const charts = card.locator("figure.mdb-chart > svg");
    const svg = charts.nth(1);
    const height = Number(await svg.getAttribute("height"));
    // The chart's plot spans y = 10 .. height - 24 for 100 % .. 0 %.
    const yOf = pct => 10 + (height - 34) * (1 - pct / 100);
    const last = progress[progress.length - 1][1];
    check(Math.abs(last - yOf(60)) < 4, `the progress line ends at 60 % (y ${last}, expected ${yOf(60).toFixed(1)})`);

    // The axis follows the speed (5 to 9 MiB/s) on round steps; the boosted
    // floor (50 MiB/s) runs along the top, named with its value.
    const labels = await charts.first().locator("text.mdb-chart-axis").allTextContents();
    const yLabels = labels.filter(t => t.endsWith("MiB/s"));
    check(JSON.stringify(yLabels) === JSON.stringify(["0 MiB/s", "5 MiB/s", "10 MiB/s", "15 MiB/s"]),
          `the speed axis counts round steps up to just above the speed (${yLabels.join(", ")})`);
    check(late < yOfSpeed(height, 15, 9) + 2 && late > yOfSpeed(height, 15, 9) - 2,
          `so the speed line sits at 9 of 15 MiB/s, not squashed under the floor (y ${late})`);
    const clip = charts.first().locator("text.mdb-chart-clip[data-series=sync_speed_min]");
    check(await clip.count() === 1 && (await clip.textContent()).startsWith("Floor 48.83 MiB/s"),
          `the floor above the axis is marked with its value (${await clip.count() ? await clip.textContent() : "none"})`);
    const hover = charts.first().locator("rect.mdb-chart-hover");
    const tip = await hover.nth(Math.floor(await hover.count() * 0.8)).locator("title").textContent();
    check(/Speed: 9 MiB\/s/.test(tip) && /Floor: 48.83 MiB\/s/.test(tip), `hovering a moment shows its values (${tip.replace(/\n/g, "; ")})`);
    check(await card.getByRole("button", { name: "15 minutes" }).count() === 1, "a 15-minute range is offered");

    const bands = card.locator("rect.mdb-chart-band");
    check(await bands.count() >= 1, "the boosted half hour is shaded");
    const box = await charts.first().boundingBox();
    const band = await bands.first().boundingBox();
    const startFraction = (band.x - box.x - 64) / (box.width - 76);
    check(Math.abs(startFraction - 0.5) < 0.06,
          `the shaded band starts halfway through the hour (${startFraction.toFixed(2)})`);
}

const AXE_SOURCE = fs.readFileSync(path.join(env.UI_PLAYWRIGHT, "../axe-core/axe.min.js"), "utf8");

// axe-core's WCAG 2 A and AA rules on the page as it is now; every violation
// is printed, and the check fails on any serious or critical one.
async function checkAccessibility(page, what) {
    // Colours are measured as drawn: a fade or slide still running (an alert
    // coming in, PatternFly's transitions) shows text at part opacity, which
    // a loaded machine catches more often. Wait for every finite one to end.
    await page.waitForFunction(() => document.getAnimations().every(a =>
        a.playState !== "running" || !a.effect || a.effect.getComputedTiming().endTime === Infinity),
                               null, { timeout: 10000 }).catch(() => console.log(`axe (${what}): animations still running`));
    // PatternFly shows a tooltip and sets its opacity a moment later, so its
    // fade may not have begun yet: wait for every tooltip as the user reads it.
    await page.waitForFunction(() => [...document.querySelectorAll("[role=tooltip]")].every(t =>
        getComputedStyle(t).opacity === "1"), null, { timeout: 10000 })
        .catch(() => console.log(`axe (${what}): a tooltip is not fully drawn`));
    // Evaluated through the DevTools protocol: Cockpit's CSP forbids inline scripts.
    await page.evaluate(AXE_SOURCE);
    const { passes, violations } = await page.evaluate(async () => {
        const result = await window.axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa"] } });
        return {
            passes: result.passes.length,
            violations: result.violations.map(v => ({ id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(" ")).slice(0, 3) })),
        };
    });
    for (const v of violations)
        console.log(`axe (${what}): ${v.impact} ${v.id} at ${v.nodes.join(", ")}`);
    const bad = violations.filter(v => v.impact === "serious" || v.impact === "critical");
    check(passes > 10 && bad.length === 0,
          `${what} passes ${passes} axe rules, with no serious violation (${bad.map(v => v.id).join(", ") || "none"})`);
}

// Presses Tab until the element has the focus: proves it is keyboard reachable.
async function tabTo(page, locator, what) {
    for (let i = 0; i < 60; i++) {
        await page.keyboard.press("Tab");
        if (await locator.evaluate(el => el === document.activeElement))
            return check(true, `${what} is reached with Tab (${i + 1} presses)`);
    }
    return check(false, `${what} is reached with Tab`);
}

// PatternFly's Page scrolls inside its main section, so a full-page shot would
// stop at the window: grow the window to the content first.
async function screenshot(page, file) {
    const height = await page.evaluate(() => {
        const body = document.querySelector(".mdb-body");
        return Math.ceil(body.getBoundingClientRect().top + body.scrollHeight);
    });
    const { width } = page.viewportSize();
    await page.setViewportSize({ width, height: Math.min(Math.max(height, 600), 4000) });
    await page.waitForTimeout(300);
    await page.screenshot({ path: file });
    await page.setViewportSize({ width, height: 1000 });
}

// The kernel moves on: the service reads the new sysfs values and emits
// PropertiesChanged, and the card follows without a reload. Meanwhile the
// page itself asks the service nothing: it does not poll.
async function testLiveUpdate(page) {
    const card = page.locator("[data-array=md0]");
    await card.waitFor({ timeout: 20000 });
    const callsBefore = fs.statSync(env.UI_CALLS_LOG).size;
    const md = path.join(env.MDB_ROOT, "sys/block/md0/md");
    fs.writeFileSync(path.join(md, "sync_completed"), "1046528 / 2093056\n");
    fs.writeFileSync(path.join(md, "sync_speed"), "20480\n");
    await expectShown(card.locator(".pf-v5-c-progress__measure", { hasText: "50.0 %" }),
                      "the progress bar follows the kernel to 50.0 % without a reload");
    check(await card.locator(".mdb-speed").innerText() === "20 MiB/s",
          `the speed follows too (${await card.locator(".mdb-speed").innerText()})`);
    await page.waitForTimeout(6000);
    const calls = fs.readFileSync(env.UI_CALLS_LOG, "utf8").slice(callsBefore)
            .split("\n").filter(l => l.startsWith("method call"));
    check(calls.length === 0, `the page made no D-Bus call to the service while it watched (${calls.length})`);
}

// I/O accounting turned off on md0: the card says who cannot see the users
// and how to turn it back on, and the warning goes once it is on again.
async function testUserIo(page) {
    const card = page.locator("[data-array=md0]");
    const block = path.join(env.MDB_ROOT, "sys/block/md0");
    const depth = path.join(block, "md/sync_io_depth");
    fs.mkdirSync(path.join(block, "queue"), { recursive: true });
    fs.writeFileSync(path.join(block, "queue/iostats"), "0\n");
    const alert = card.locator(".mdb-user-io");
    await expectShown(alert.filter({ hasText: "The fast profile cannot see this array's users" }),
                      "accounting off on a kernel before 6.16: the card says the fast profile cannot see the users");
    check(await alert.locator(".mdb-user-io-fix").innerText() === "echo 1 > /sys/block/md0/queue/iostats",
          "with the command that turns accounting back on");
    fs.writeFileSync(depth, "32 (system)\n");
    await expectShown(alert.filter({ hasText: "md cannot see this array's users" }),
                      "with sync_io_depth (6.16+): the card says md itself cannot see them");
    check((await alert.innerText()).includes("rebuilds at its full ceiling"), "and what that does to the rebuild");
    await checkAccessibility(page, "the page with the accounting warning");
    fs.writeFileSync(path.join(block, "queue/iostats"), "1\n");
    fs.rmSync(depth);
    try {
        await alert.waitFor({ state: "detached", timeout: 15000 });
        check(true, "accounting on again: the warning is gone");
    } catch (err) {
        check(false, `accounting on again: the warning is gone: ${err.message.split("\n")[0]}`);
    }
}

// md0's users as md counts them: its stat file's read counters move at
// `kibs` KiB/s in 1 MiB requests, written whole (a rename) four times a
// second, until stop() takes the file away again.
function startUsers(kibs) {
    const file = path.join(env.MDB_ROOT, "sys/block/md0/stat");
    const users = { kibs, sectors: 0, requests: 0, last: Date.now(), started: Date.now() };
    const write = () => {
        const now = Date.now();
        users.sectors += Math.round(users.kibs * 2 * (now - users.last) / 1000);
        users.requests += Math.round(users.kibs / 1024 * (now - users.last) / 1000);
        users.last = now;
        fs.writeFileSync(file + ".new", `${users.requests} 0 ${users.sectors} 0 0 0 0 0 0 0 0\n`);
        fs.renameSync(file + ".new", file);
    };
    write();
    users.timer = setInterval(write, 250);
    users.stop = () => {
        clearInterval(users.timer);
        fs.rmSync(file, { force: true });
    };
    return users;
}

async function testBoostRestore(page) {
    const card = page.locator("[data-array=md0]");
    await card.waitFor({ timeout: 20000 });
    // Users reading 40 MiB/s before the boost, 10 MiB/s under it: what it costs them.
    const users = startUsers(40960);
    check(await card.locator(".mdb-member[data-role=rebuilding]").count() === 1,
          "the member being rebuilt is shown as such");
    check(await card.getByRole("progressbar").count() === 1, "the recovery has a progress bar");

    const before = {};
    await tabTo(page, card.getByRole("button", { name: "Boost md0" }), "Boost");
    await page.keyboard.press("Enter");
    const dialog = page.locator("#mdb-boost-dialog");
    await dialog.waitFor();
    const rows = dialog.locator("tr[data-tunable]");
    await rows.first().waitFor({ timeout: 10000 });
    const changes = [];
    for (let i = 0; i < await rows.count(); i++) {
        const row = rows.nth(i);
        const name = await row.getAttribute("data-tunable");
        const cells = row.locator("td .mdb-value");
        changes.push([name, await cells.nth(0).innerText(), await cells.nth(1).innerText()]);
        before[name] = readTunable(env.MDB_ROOT, name);
    }
    console.log("dialog lists:", JSON.stringify(changes));
    // Choosing max asks the service again: its floor is higher than fast's.
    const floorCell = dialog.locator("tr[data-tunable=sync_speed_min] td .mdb-value").nth(1);
    const fastFloor = await floorCell.innerText();
    await page.locator("#mdb-profile-max").check();
    await page.waitForFunction(([sel, old]) => {
        const el = document.querySelectorAll(sel)[1];
        return el && el.textContent !== old;
    }, ["#mdb-boost-dialog tr[data-tunable=sync_speed_min] td .mdb-value", fastFloor], { timeout: 10000 });
    const maxFloor = await floorCell.innerText();
    check(Number(maxFloor) > Number(fastFloor), `choosing max shows its higher floor (${fastFloor} -> ${maxFloor})`);
    await page.locator("#mdb-profile-fast").check();
    await page.waitForFunction(([sel, want]) => {
        const el = document.querySelectorAll(sel)[1];
        return el && el.textContent === want;
    }, ["#mdb-boost-dialog tr[data-tunable=sync_speed_min] td .mdb-value", fastFloor], { timeout: 10000 });
    check(changes.some(([n]) => n === "sync_speed_min"), "the dialog lists the floor among the changes");
    const high = dialog.locator(".mdb-floor-high");
    check(await high.count() === 1 &&
          /A floor of 48\.8 MiB\/s is more than twice the 20 MiB\/s this rebuild reaches now/.test(await high.innerText()),
          `a floor far above the rebuild's speed is flagged (${await high.count() ? (await high.innerText()).replace(/\s+/g, " ") : "nothing"})`);
    // When it ends: at md's rate now (20 MiB/s) a clock time; max and the governor not known yet, and why.
    const when = dialog.locator(".mdb-prediction li");
    check(await when.count() === 3, "the dialog says when the recovery ends three ways");
    check(/^At the current rate \(20 MiB\/s\) it ends in .* \(at \d\d.\d\d.*\)\.$/.test(await when.nth(0).innerText()),
          `at the current rate, with a clock time (${await when.nth(0).innerText()})`);
    check(/^With max: not known yet/.test(await when.nth(2).innerText()) &&
          await when.nth(2).getAttribute("data-known") === "false",
          `max's time is not known yet, and says so (${await when.nth(2).innerText()})`);
    check(changes.every(([n, old]) => old === before[n]),
          "the dialog's old values are what the kernel files hold");
    check(changes.every(([n]) => readTunable(env.MDB_ROOT, n) === before[n]), "the dry run wrote nothing");
    if (env.UI_SHOTS_DIR)
        await page.screenshot({ path: path.join(env.UI_SHOTS_DIR, "boost-dialog.png") });
    await checkAccessibility(page, "the Boost dialog");
    check(await dialog.locator(".mdb-memory").count() === (changes.some(([n]) => n === "stripe_cache_size") ? 1 : 0),
          "the stripe cache's memory cost is shown when the cache grows");

    // The service says what the users got before the boost once they were busy for 10 s.
    await page.waitForTimeout(Math.max(0, 12000 - (Date.now() - users.started)));
    await page.locator("#mdb-boost-confirm").click();
    users.kibs = 10240;
    await dialog.waitFor({ state: "detached", timeout: 15000 });
    await expectShown(page.locator("[data-array=md0][data-boosted=true]"), "the card shows md0 boosted after confirming");
    check(await card.locator(".mdb-boosted-label").innerText() === "Boosted: fast", "the profile is shown");
    // What the boost did: md's rate against the one before it (20 MiB/s), and the end as a clock time.
    const speedFile = path.join(env.MDB_ROOT, "sys/block/md0/md/sync_speed");
    fs.writeFileSync(speedFile, "61440\n");
    await expectShown(card.locator(".mdb-speedup", { hasText: "(3 times the 20 MiB/s before the boost)" }),
                      "the card says how much faster the rebuild runs since the boost");
    check(/^\(ends about \d\d.\d\d.*\)$/.test((await card.locator(".mdb-finish").innerText()).trim()),
          `the card gives the expected end as a clock time (${await card.locator(".mdb-finish").innerText()})`);
    fs.writeFileSync(speedFile, "20480\n");
    await expectShown(card.locator(".mdb-speed", { hasText: /^20 MiB\/s$/ }), "and follows md back to 20 MiB/s");
    check((await card.locator(".mdb-policy").innerText()).includes("Rebuilds: none (all arrays)"),
          "the card shows the policy in effect: none by default");
    await expectShown(card.locator(".mdb-governor[data-state=pending]", { hasText: "the floor comes down to a share of that" }),
                      "the card says, in words, what fast's governor does next");
    for (const [name, , next] of changes) {
        const now = readTunable(env.MDB_ROOT, name);
        check(now === next || now === `${next} (local)`, `${name} in the fixture is now ${now} (dialog said ${next})`);
        const original = await card.locator(`tr[data-tunable=${name}] .mdb-original .mdb-value`).innerText();
        check(original === before[name], `the card shows ${name}'s original ${original}`);
    }

    // What the boost costs the users, beside the speed, once they were busy under it for 10 s.
    await expectShown(card.locator(".mdb-users-rate", { hasText: /MiB\/s while busy$/ }),
                      "the card says what the users get under the boost", 30000);
    const rate = parseFloat(await card.locator(".mdb-users-rate").innerText());
    const note = await card.locator(".mdb-users-note").innerText();
    const kept = note.match(/\((\d+) % of the (\d+(?:\.\d)?) MiB\/s before the boost\)/);
    check(rate >= 9 && rate <= 11.5, `the users' 10 MiB/s under the boost (${rate})`);
    check(kept && Number(kept[1]) >= 20 && Number(kept[1]) <= 30 && Math.abs(Number(kept[2]) - 40) <= 2,
          `against their 40 MiB/s before it, as a share (${note})`);

    await screenshot(page, env.UI_SCREENSHOT);
    await checkAccessibility(page, "the boosted card");
    console.log(`screenshot: ${env.UI_SCREENSHOT}`);
    await testBoostMore(page, card);

    await card.getByRole("button", { name: "Restore md0" }).click();
    await expectShown(page.locator("[data-array=md0][data-boosted=false]"), "the card shows md0 not boosted after Restore");
    check(await card.locator(".mdb-users").count() === 0, "without a boost the card says nothing of its cost");
    users.stop();
    for (const [name] of changes) {
        const now = readTunable(env.MDB_ROOT, name);
        const fixture = readTunable(env.MDB_FIXTURE, name);
        check(now === fixture, `${name} is back to the fixture's ${fixture} (reads ${now})`);
    }
}

// On a boosted array the button reads "Boost more", and its accessible name
// holds that text; the dialog starts at the profile in effect and says so; a
// higher profile raises what it raises, and a lower one is reached by
// restoring and boosting again, which the dialog offers in one click.
async function testBoostMore(page, card) {
    const more = card.getByRole("button", { name: "Boost more: md0" });
    check(await more.count() === 1 && (await more.innerText()).trim() === "Boost more",
          "a boosted array's button reads Boost more, and its accessible name says so");
    const dialog = page.locator("#mdb-boost-dialog");
    await more.click();
    await dialog.waitFor();
    check(await page.locator("#mdb-profile-fast").isChecked(), "the dialog starts at the profile in effect");
    await expectShown(dialog.locator(".mdb-in-effect", { hasText: "md0 is boosted with fast." }), "and says which it is");
    await page.locator("#mdb-profile-max").check();
    await expectShown(dialog.locator("tr[data-tunable=sync_speed_min]"), "max on top of fast raises the floor");
    await page.locator("#mdb-boost-confirm").click();
    await dialog.waitFor({ state: "detached", timeout: 15000 });
    await expectShown(card.locator(".mdb-boosted-label", { hasText: "Boosted: max" }), "the card shows max in effect");
    const maxFloor = readTunable(env.MDB_ROOT, "sync_speed_min");

    await more.click();
    await dialog.waitFor();
    check(await page.locator("#mdb-profile-max").isChecked(), "boosted with max, the dialog starts at max");
    await page.locator("#mdb-profile-fast").check();
    const step = page.locator("#mdb-step-down");
    await expectShown(step, "choosing fast offers to step down");
    check((await dialog.locator(".mdb-in-effect").innerText()).includes("To step down to fast, restore"),
          "and says how: restore, then boost again");
    check(await dialog.locator("tr[data-tunable]").count() === 0, "without a table of changes that would not happen");
    await checkAccessibility(page, "the step-down dialog");
    await step.click();
    await dialog.waitFor({ state: "detached", timeout: 15000 });
    await expectShown(card.locator(".mdb-boosted-label", { hasText: "Boosted: fast" }), "after stepping down fast is in effect");
    const floor = readTunable(env.MDB_ROOT, "sync_speed_min");
    check(Number.parseInt(floor) < Number.parseInt(maxFloor), `the floor came down from max's ${maxFloor} to ${floor}`);
    for (const name of ["sync_speed_min", "sync_speed_max", "stripe_cache_size"]) {
        const original = await card.locator(`tr[data-tunable=${name}] .mdb-original .mdb-value`).innerText();
        check(original === readTunable(env.MDB_FIXTURE, name), `the card still holds ${name}'s true original ${original}`);
    }
}

// Persistent settings made over D-Bus show on the card apart from boosts,
// and Take away puts their originals back.
async function testSettings(page) {
    const card = page.locator("[data-array=md0]");
    const before = readTunable(env.MDB_ROOT, "read_ahead_kb");
    execFileSync("busctl", ["--address", env.UI_BUS_ADDRESS, "call", "org.mdboost.MdBoost1", "/org/mdboost/MdBoost1",
        "org.mdboost.MdBoost1.Manager", "SetSettings", "sa{sv}", "md0", "1", "read_ahead_kb", "u", "2048"]);
    await expectShown(card.locator(".mdb-settings-text", { hasText: /^Read-ahead \(KiB\) 2048$/ }),
                      "the card lists md0's persistent setting");
    check(await card.locator("[data-boosted=true]").count() === 0 && await card.getAttribute("data-boosted") === "false",
          "a setting is no boost: the card is not marked boosted");
    await checkAccessibility(page, "the card with a persistent setting");
    await card.getByRole("button", { name: "Take away the persistent settings of md0" }).click();
    await card.locator(".mdb-settings").waitFor({ state: "detached", timeout: 15000 });
    check(readTunable(env.MDB_ROOT, "read_ahead_kb") === before,
          `Take away puts read_ahead_kb back to ${before} (${readTunable(env.MDB_ROOT, "read_ahead_kb")})`);
}

// A check the service paused (here: on the degraded md0) takes the place of
// the operation on the card: where it stands, why, the mismatches so far;
// once the array is whole it runs again.
async function testPausedCheck(page) {
    const card = page.locator("[data-array=md0]");
    const md = path.join(env.MDB_ROOT, "sys/block/md0/md");
    const files = ["sync_action", "sync_completed", "sync_speed", "last_sync_action", "mismatch_cnt", "sync_min", "degraded"];
    const saved = files.map(f => [f, fs.readFileSync(path.join(md, f))]);
    fs.writeFileSync(path.join(md, "sync_action"), "idle\n");
    fs.writeFileSync(path.join(md, "sync_completed"), "none\n");
    await expectShown(card.locator(".mdb-operation-end"), "the recovery ends");
    fs.writeFileSync(path.join(md, "last_sync_action"), "check\n");
    fs.writeFileSync(path.join(md, "mismatch_cnt"), "8\n");
    fs.writeFileSync(path.join(md, "sync_completed"), "500000 / 2093056\n");
    fs.writeFileSync(path.join(md, "sync_action"), "check\n");
    const paused = card.locator(".mdb-check-paused");
    await expectShown(paused, "a check on the degraded array is paused, and the card says so");
    const text = (await paused.innerText()).replace(/\s+/g, " ");
    check(/Check 23\.9 % · paused \(the array is degraded; it goes on once the array is whole\) · 8 mismatched sectors so far/.test(text),
          `where it stands, why and what it found (${text})`);
    check(await card.getByRole("progressbar").count() === 0, "no progress bar for a check that does not run");
    await checkAccessibility(page, "the card with a paused check");
    fs.writeFileSync(path.join(md, "degraded"), "0\n");
    await expectShown(card.locator(".mdb-operation", { hasText: "Checking" }).getByRole("progressbar"), "whole again, the check runs");
    check(readTunable(env.MDB_ROOT, "sync_min") === "500000", "from where it stopped");
    fs.writeFileSync(path.join(md, "sync_action"), "idle\n");
    fs.writeFileSync(path.join(md, "sync_completed"), "none\n");
    await expectShown(card.locator(".mdb-operation-end"), "stopped by hand, it is not resumed");
    for (const [f, data] of saved)
        fs.writeFileSync(path.join(md, f), data);
    await expectShown(card.getByRole("progressbar"), "the recovery shows again");
}

// The card's words for a recovery, and the kernel's raw fields behind an expander.
async function testDetails(page) {
    const card = page.locator("[data-array=md0]");
    const state = card.locator(".mdb-state");
    check(await state.innerText() === "Rebuilding 1 member",
          `the slot being rebuilt reads as rebuilding, not missing (${await state.innerText()})`);
    check(await card.locator(".mdb-tolerated").count() === 0,
          "a raid5 rebuilding a member survives no more failures: the header does not say it survives any");
    const exposed = card.locator(".mdb-no-redundancy");
    check(await exposed.count() === 1 && /md0 has no redundancy left/.test(await exposed.innerText()) &&
          /One more failed disk loses the array\. Without redundancy since /.test(await exposed.innerText()),
          `the card says md0 has no redundancy left, and since when (${(await exposed.innerText()).replace(/\s+/g, " ")})`);
    const tunables = card.locator(".mdb-tunables").first();
    for (const name of ["sync_speed_min", "sync_speed_max", "stripe_cache_size"])
        check(await tunables.locator(`tr[data-tunable=${name}]`).isVisible(), `${name} is in the card's table`);
    for (const name of ["sync_min", "sync_max", "group_thread_cnt", "stripe_cache_active"])
        check(!await card.locator(`tr[data-tunable=${name}]`).isVisible(), `${name} is kept among the kernel's details`);
    check(!await card.locator(".mdb-uuid").isVisible(), "and so is the UUID");
    await card.getByRole("button", { name: "Show the kernel's details" }).click();
    await expectShown(card.locator(".mdb-detail-tunables tr[data-tunable=sync_max]"), "the expander shows the sector fields");
    check(await card.locator(".mdb-uuid").innerText() === "7ac7b4d7-c925-6f89-525e-4caecab28aec", "and the UUID");
    await checkAccessibility(page, "the card with its details open");
    await card.getByRole("button", { name: "Hide the kernel's details" }).click();
    await card.locator(".mdb-uuid").waitFor({ state: "hidden" });

    // The report the service kept of an earlier check, in words.
    await card.getByRole("button", { name: "The last operation" }).click();
    const report = card.locator(".mdb-report");
    await expectShown(report, "the card lists the report of the last operation");
    const text = (await report.innerText()).replace(/\s+/g, " ");
    check(/^The check finished at .*, after 4 hours, at 0\.07 MiB\/s on average\. Boosted with fast by the automatic boost for 4 hours, put back by itself at the end\. The users kept 62 % of their speed\.$/.test(text),
          `the report says what ran, how long, the boost and the users' share (${text})`);
    await checkAccessibility(page, "the card with its reports open");
    await card.getByRole("button", { name: "The last operation" }).click();
    await report.waitFor({ state: "hidden" });
}

// With nothing running, the dialog says the boost waits for the next operation.
async function testIdleBoost(page) {
    const card = page.locator("[data-array=md0]");
    const md = path.join(env.MDB_ROOT, "sys/block/md0/md");
    const saved = ["sync_action", "sync_completed", "sync_speed"].map(f => [f, fs.readFileSync(path.join(md, f))]);
    fs.writeFileSync(path.join(md, "sync_action"), "idle\n");
    fs.writeFileSync(path.join(md, "sync_completed"), "none\n");
    fs.writeFileSync(path.join(md, "sync_speed"), "none\n");
    await expectShown(card.getByRole("button", { name: "Boost md0" }), "the idle array can still be boosted");
    // The service watched the recovery run and then stop short of its end.
    const end = card.locator(".mdb-operation-end");
    await expectShown(end, "the card says how the last operation ended");
    check(await end.getAttribute("data-completed") === "false" &&
          /The rebuild onto a new disk stopped at \d+\.\d % at .*, after /.test(await end.innerText()),
          `a recovery that stopped with a member still being rebuilt says so (${(await end.innerText()).replace(/\s+/g, " ")})`);
    await card.getByRole("button", { name: "Boost md0" }).click();
    const dialog = page.locator("#mdb-boost-dialog");
    await dialog.waitFor();
    await expectShown(dialog.locator(".mdb-idle-note", { hasText: "Nothing is rebuilding on md0 now." }),
                      "the dialog says nothing is rebuilding");
    check((await dialog.locator(".mdb-idle-note").innerText()).includes("applies to the next resync, recovery or reshape"),
          "and that the boost applies to the next operation, ending with it");
    check(await dialog.locator(".mdb-prediction").count() === 0, "with nothing running there is nothing to predict");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });

    // The recovery done and no bitmap: the card suggests one, with the command.
    const more = ["degraded", "last_sync_action", "bitmap/location"].map(f => [f, fs.readFileSync(path.join(md, f))]);
    fs.writeFileSync(path.join(md, "degraded"), "0\n");
    fs.writeFileSync(path.join(md, "last_sync_action"), "recovery\n");
    const advice = card.locator(".mdb-bitmap-advice");
    await expectShown(advice, "after a finished recovery, an array without a bitmap gets the advice to add one");
    check(await advice.locator(".mdb-bitmap-fix").innerText() === "mdadm --grow --bitmap=internal /dev/md0",
          "with the command that adds it");
    check((await advice.innerText()).includes("only the regions written meanwhile"), "and what it saves");
    await checkAccessibility(page, "the card with the bitmap advice");
    fs.writeFileSync(path.join(md, "bitmap/location"), "+8\n");
    await advice.waitFor({ state: "detached", timeout: 15000 });
    check(true, "with a bitmap, no advice");
    for (const [f, data] of [...more, ...saved])
        fs.writeFileSync(path.join(md, f), data);
    await expectShown(card.getByRole("progressbar"), "the recovery shows again");

    // This time it runs to its end: the new member in sync, as md leaves it.
    const member = path.join(md, "dev-vdd");
    const memberFiles = ["state", "recovery_start"].map(f => [f, fs.readFileSync(path.join(member, f))]);
    fs.writeFileSync(path.join(member, "state"), "in_sync\n");
    fs.writeFileSync(path.join(member, "recovery_start"), "none\n");
    fs.writeFileSync(path.join(md, "degraded"), "0\n");
    fs.writeFileSync(path.join(md, "sync_action"), "idle\n");
    fs.writeFileSync(path.join(md, "sync_completed"), "none\n");
    fs.writeFileSync(path.join(md, "sync_speed"), "none\n");
    await expectShown(card.locator(".mdb-operation-end[data-completed=true]"), "a recovery that ran to its end reads as finished");
    check(/The rebuild onto a new disk finished at .*, after .*, at [\d.]+ MiB\/s on average\./.test(await end.innerText()),
          `with when, how long and how fast (${(await end.innerText()).replace(/\s+/g, " ")})`);
    await expectShown(card.locator(".mdb-tolerated", { hasText: "survives 1 more failed disk" }),
                      "whole again, the raid5's header says it survives 1 more failed disk");
    for (const [f, data] of memberFiles)
        fs.writeFileSync(path.join(member, f), data);
    for (const [f, data] of [...more, ...saved])
        fs.writeFileSync(path.join(md, f), data);
    await expectShown(card.getByRole("progressbar"), "and a new recovery shows its progress again");
}

// A folder inside collectd's DataDir with no RRD files in it.
const EMPTY_DATADIR = env.UI_EMPTY_DATADIR;

// An address that points the page outside collectd's DataDir: refused, said so.
async function testOutsideDataDir(browser) {
    const page = await openPage(browser, env.UI_USER_URL, env.UI_OUTSIDE_DATADIR);
    const note = page.locator("[data-array=md0] .mdb-datadir-refused");
    await note.waitFor({ timeout: 20000 });
    const text = (await note.innerText()).replace(/\s+/g, " ");
    check(text.includes(env.UI_OUTSIDE_DATADIR) && text.includes(`outside collectd's DataDir ${env.DATADIR_BASE}`),
          `a datadir outside collectd's DataDir is refused, and the page says so (${text})`);
    check(await page.locator("[data-array=md0] .mdb-chart").count() === 0,
          "and the files there are not drawn");
    await page.close();
}

// An administrator changes the floor by hand after a boost: Restore keeps that
// value, puts back the rest, and the card says so in words.
async function testRestoreConflict(page) {
    const card = page.locator("[data-array=md0]");
    await card.getByRole("button", { name: "Boost md0" }).click();
    await page.locator("#mdb-boost-dialog tr[data-tunable]").first().waitFor({ timeout: 10000 });
    await page.locator("#mdb-boost-confirm").click();
    await page.locator("[data-array=md0][data-boosted=true]").waitFor({ timeout: 15000 });
    fs.writeFileSync(path.join(env.MDB_ROOT, tunablePath("sync_speed_min")), "60000 (local)\n");
    await card.locator("tr[data-tunable=sync_speed_min] .mdb-current .mdb-value", { hasText: "60000 (local)" })
            .waitFor({ timeout: 15000 });
    await card.getByRole("button", { name: "Restore md0" }).click();
    const alert = card.locator(".mdb-error");
    await alert.waitFor({ timeout: 15000 });
    const text = (await alert.innerText()).replace(/\s+/g, " ");
    check(/changed by an administrator after the boost/.test(text), `a Restore conflict is shown on the card (${text})`);
    check(readTunable(env.MDB_ROOT, "sync_speed_min") === "60000 (local)", "the administrator's floor was kept");
    check(readTunable(env.MDB_ROOT, "stripe_cache_size") === readTunable(env.MDB_FIXTURE, "stripe_cache_size"),
          "the stripe cache was put back all the same");
    await alert.getByRole("button", { name: /Close/ }).click();
    check(await card.locator(".mdb-error").count() === 0, "the message can be closed");
    // Leave md0 as the fixture had it for what follows.
    fs.writeFileSync(path.join(env.MDB_ROOT, tunablePath("sync_speed_min")),
                     fs.readFileSync(path.join(env.MDB_FIXTURE, tunablePath("sync_speed_min"))));
}

// The card's Automatic boost line and its dialog: a rule for md0 alone,
// applied by the service to the recovery that runs, then dropped again.
async function testPolicy(page) {
    const card = page.locator("[data-array=md0]");
    await card.getByRole("button", { name: "Change the automatic boost of md0" }).click();
    const dialog = page.locator("#mdb-policy-dialog");
    await dialog.waitFor();
    check(await page.locator("#mdb-policy-rebuild").inputValue() === "default",
          "the dialog starts at what is in effect: md0 follows every array's rule");
    await checkAccessibility(page, "the policy dialog");
    await page.locator("#mdb-policy-rebuild").selectOption("max");
    await page.locator("#mdb-policy-save").click();
    await dialog.waitFor({ state: "detached", timeout: 15000 });
    await expectShown(card.locator(".mdb-policy", { hasText: "Rebuilds: max (this array)" }),
                      "after Save the card shows md0's own rule");
    check(fs.readFileSync(env.UI_POLICY_FILE, "utf8").includes("policy_rebuild.7ac7b4d7-c925-6f89-525e-4caecab28aec = max"),
          "the service saved it");
    // An administrator restored this recovery (above): the policy leaves it, and boosts the next one.
    await new Promise(resolve => setTimeout(resolve, 3000));
    check(await page.locator("[data-array=md0][data-boosted=false]").count() === 1,
          "a recovery an administrator restored stays theirs");
    const md = path.join(env.MDB_ROOT, "sys/block/md0/md");
    const progress = fs.readFileSync(path.join(md, "sync_completed"));
    fs.writeFileSync(path.join(md, "sync_action"), "idle\n");
    fs.writeFileSync(path.join(md, "sync_completed"), "none\n");
    await expectShown(card.locator(".mdb-operation-end"), "the recovery stops");
    fs.writeFileSync(path.join(md, "sync_completed"), progress);
    fs.writeFileSync(path.join(md, "sync_action"), "recover\n");
    await expectShown(card.locator(".mdb-boosted-label", { hasText: "Boosted: max" }),
                      "the service boosts the next recovery by itself, with md0's rule");
    await card.getByRole("button", { name: "Restore md0" }).click();
    await expectShown(page.locator("[data-array=md0][data-boosted=false]"), "an administrator's Restore wins");
    await card.getByRole("button", { name: "Change the automatic boost of md0" }).click();
    await dialog.waitFor();
    await page.locator("#mdb-policy-rebuild").selectOption("default");
    await page.locator("#mdb-policy-save").click();
    await dialog.waitFor({ state: "detached", timeout: 15000 });
    await expectShown(card.locator(".mdb-policy", { hasText: "Rebuilds: none (all arrays)" }),
                      "back to every array's rule");
}

async function testUnprivileged(page) {
    const card = page.locator("[data-array=md0]");
    await card.waitFor({ timeout: 20000 });
    const boost = card.getByRole("button", { name: "Boost md0" });
    check(await boost.getAttribute("aria-disabled") === "true", "without administrative access Boost is disabled");
    await tabTo(page, boost, "the disabled Boost");
    const tip = page.getByRole("tooltip");
    await tip.waitFor({ timeout: 5000 });
    check(/Administrative access is required/.test(await tip.innerText()), "the disabled Boost says why");
    if (env.UI_SHOTS_DIR)
        await screenshot(page, path.join(env.UI_SHOTS_DIR, "limited.png"));
    await checkAccessibility(page, "the limited session");
    check(await page.locator("#mdb-limited").count() === 1, "the page explains the limited access");
    await boost.click({ force: true });
    check(await page.locator("#mdb-boost-dialog").count() === 0, "clicking the disabled Boost opens nothing");

    const missing = card.locator(".mdb-history-missing");
    await missing.waitFor({ timeout: 20000 });
    const text = await missing.innerText();
    check(text.includes("collectd is not recording md0") && text.includes(EMPTY_DATADIR),
          "without RRD files the page says collectd is not recording md0, and where it looked");
    check(text.includes("LoadPlugin mdraid") && text.includes(`DataDir "${EMPTY_DATADIR}"`) &&
          text.includes("sudo systemctl restart collectd"),
          "and shows the config lines and commands that enable it");
    check(await card.locator(".mdb-chart").count() === 0, "and draws no empty chart");
}

// Cockpit's shell lists the page in its menu by the manifest's order, 31:
// right after Storage (30), before Networking (40) and Accounts (70), and
// opens it in its frame.
async function testMenu(browser, base) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${base}/`);
    const link = page.locator("nav a", { hasText: "RAID rebuild" });
    await link.waitFor({ timeout: 20000 });
    const names = await page.locator("nav a").allInnerTexts();
    const at = names.indexOf("RAID rebuild");
    check(at > names.indexOf("Logs") && at < names.indexOf("Accounts"),
          `the menu lists RAID rebuild among the system pages where Storage is (${names.join(", ")})`);
    await link.click();
    try {
        await page.waitForURL(/\/mdboost/, { timeout: 15000 });
        const frame = page.frameLocator("iframe[name='cockpit1:localhost/mdboost']");
        await frame.locator("[data-array=md0]").waitFor({ timeout: 30000 });
        check(page.url().endsWith("/mdboost"), `the menu entry opens the page, which shows md0 (${page.url()})`);
    } catch (err) {
        const frames = page.frames().map(f => `${f.name()} ${f.url()}`).join("; ");
        check(false, `the menu entry opens the page (at ${page.url()}, frames: ${frames}): ${err.message.split("\n")[0]}`);
    }
    await page.close();
}

// A journal the service cannot write is said at the top of the page until a
// retry works; the Boost that could not save its originals wrote nothing.
async function testJournalProblem(page) {
    // The service saves through .boosts.json.<pid>.tmp: a folder there makes each save fail.
    const blocker = path.join(env.UI_STATE_DIR, `.boosts.json.${env.UI_SERVICE_PID}.tmp`);
    const card = page.locator("[data-array=md0]");
    const problem = page.locator("#mdb-journal-problem");
    const before = ["sync_speed_min", "sync_speed_max", "stripe_cache_size"].map(n => readTunable(env.MDB_ROOT, n));
    fs.mkdirSync(blocker);
    try {
        await card.getByRole("button", { name: "Boost md0" }).click();
        await page.locator("#mdb-boost-dialog tr[data-tunable]").first().waitFor({ timeout: 10000 });
        await page.locator("#mdb-boost-confirm").click();
        await page.locator("#mdb-boost-dialog .mdb-error").waitFor({ timeout: 10000 });
        await page.locator("#mdb-boost-dialog").getByRole("button", { name: "Cancel" }).click();
        await problem.waitFor({ timeout: 15000 });
        const text = (await problem.innerText()).replace(/\s+/g, " ");
        check(/boost journal cannot be written/.test(text) && text.includes("Is a directory"),
              `a journal that cannot be written is shown at the top of the page (${text})`);
        const after = ["sync_speed_min", "sync_speed_max", "stripe_cache_size"].map(n => readTunable(env.MDB_ROOT, n));
        check(JSON.stringify(after) === JSON.stringify(before), "the Boost that could not save its originals wrote nothing");
    } finally {
        fs.rmdirSync(blocker);
    }
    const gone = await problem.waitFor({ state: "detached", timeout: 15000 }).then(() => true, () => false);
    check(gone, "the message goes once a retry writes the journal");
}

// The service leaving the bus turns the cards into a message with the command
// that starts it, without reloading the page.
async function testServiceGone(page) {
    process.kill(Number(env.UI_SERVICE_PID), "SIGTERM");
    const missing = page.locator("#mdb-service-missing");
    await missing.waitFor({ timeout: 15000 });
    check(/systemctl start mdboostd/.test(await missing.innerText()),
          "a stopped service shows the command that starts it");
    check(await page.locator("[data-array]").count() === 0, "no stale array card stays on the page");
}

// The service again, with the fake kernel refusing the stripe cache with
// EBUSY: the page picks it up when it returns to the bus, and a Boost that
// fails shows the refusal in words inside the dialog, with nothing changed.
async function testServiceError(page) {
    const service = spawn(env.UI_SERVICE_BIN, ["--root", env.MDB_ROOT, "--state-dir", env.UI_STATE_DIR, "--policy-file", env.UI_POLICY_FILE, "--report-file", env.UI_POLICY_FILE.replace(/policy\.conf$/, "reports.json"), "--settings-dir", env.UI_POLICY_FILE.replace(/policy\.conf$/, "settings")], {
        env: { ...process.env, MDBOOST_FAKEKERNEL_FAIL: "sys/block/md0/md/stripe_cache_size=EBUSY" },
        stdio: ["ignore", "ignore", fs.openSync(env.UI_SERVICE_LOG, "a")],
    });
    fs.writeFileSync(env.UI_SERVICE_PIDFILE, String(service.pid));
    try {
        const card = page.locator("[data-array=md0]");
        await expectShown(card, "the cards come back when the service returns to the bus", 20000);
        const before = ["sync_speed_min", "sync_speed_max", "stripe_cache_size"].map(n => readTunable(env.MDB_ROOT, n));
        await card.getByRole("button", { name: "Boost md0" }).click();
        await page.locator("#mdb-boost-dialog tr[data-tunable=stripe_cache_size]").waitFor({ timeout: 10000 });
        await page.locator("#mdb-boost-confirm").click();
        const alert = page.locator("#mdb-boost-dialog .mdb-error");
        await alert.waitFor({ timeout: 10000 });
        const text = await alert.innerText();
        if (env.UI_SHOTS_DIR)
            await page.screenshot({ path: path.join(env.UI_SHOTS_DIR, "boost-error.png") });
        check(/kernel is busy/.test(text), `a Busy error is shown in words in the dialog (${text.replace(/\s+/g, " ")})`);
        const after = ["sync_speed_min", "sync_speed_max", "stripe_cache_size"].map(n => readTunable(env.MDB_ROOT, n));
        check(JSON.stringify(after) === JSON.stringify(before), "the refused Boost left every file as it was");
        check(await card.getAttribute("data-boosted") === "false", "the card does not claim a boost");
        await page.locator("#mdb-boost-dialog").getByRole("button", { name: "Cancel" }).click();
    } finally {
        service.kill("SIGTERM");
    }
}

async function main() {
    let browser;
    try {
        browser = await chromium.launch({ executablePath: env.UI_CHROMIUM, args: ARGS });
    } catch (err) {
        console.log(`skipped: chromium cannot start: ${err.message.split("\n")[0]}`);
        process.exit(77);
    }
    try {
        await testMenu(browser, env.UI_ADMIN_URL);
        const admin = await openPage(browser, env.UI_ADMIN_URL);
        await testHistory(admin);
        await testLiveUpdate(admin);
        await testUserIo(admin);
        await testDetails(admin);
        await testSettings(admin);
        await testPausedCheck(admin);
        await testIdleBoost(admin);
        await testBoostRestore(admin);
        await testRestoreConflict(admin);
        await testPolicy(admin);
        // This session is pointed at a folder without RRD files.
        const user = await openPage(browser, env.UI_USER_URL, EMPTY_DATADIR);
        await testUnprivileged(user);
        await testOutsideDataDir(browser);
        await testJournalProblem(admin);
        await testServiceGone(admin);
        await testServiceError(admin);
    } catch (err) {
        failed++;
        console.log(`FAIL: ${err.message}`);
    } finally {
        await browser.close();
    }
    console.log(`${passed} passed, ${failed} failed`);
    process.exit(failed === 0 && passed > 0 ? 0 : 1);
}

main();
