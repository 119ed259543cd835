// SPDX-License-Identifier: MIT
//
// Takes a screenshot of the running demo's page as a user sees it: logs in
// to Cockpit through the forwarded port as the demo user, opens "RAID
// rebuild" and waits for md0's card and its history chart.
//
//   node demo/screenshot.js URL PASSWORD OUTPUT.png
//
// Uses the Chromium and playwright-core that the page's browser test uses
// (CHROMIUM, default /usr/bin/chromium; cockpit-ui/node_modules).

const path = require("path");
const { chromium } = require(path.join(__dirname, "..", "cockpit-ui", "node_modules", "playwright-core"));

const [url, password, out] = process.argv.slice(2);
if (!url || !password || !out) {
    console.error("usage: node demo/screenshot.js URL PASSWORD OUTPUT.png");
    process.exit(2);
}

async function main() {
    const browser = await chromium.launch({
        executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
        args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
    });
    try {
        const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
        await page.goto(`${url}/mdboost`);
        await page.fill("#login-user-input", "demo");
        await page.fill("#login-password-input", password);
        await page.click("#login-button");
        // The first login under emulation takes up to a minute.
        const frame = page.frameLocator("iframe[name='cockpit1:localhost/mdboost']");
        await frame.locator("[data-array=md0]").waitFor({ timeout: 240000 });
        await frame.locator("[data-array=md0] path[data-series=sync_speed]").waitFor({ timeout: 120000 });
        await page.waitForTimeout(3000);
        await page.screenshot({ path: out });
        console.log(`screenshot: ${out}`);
    } finally {
        await browser.close();
    }
}

main().catch(err => {
    console.error(`screenshot failed: ${err.message.split("\n")[0]}`);
    process.exit(1);
});
