#!/usr/bin/env node
// Bundles the page the way Cockpit's starter-kit does: one esbuild pass that
// writes index.js and index.css, then copies index.html and manifest.json and
// turns each po/<lang>.po into po.<lang>.js.
//
//   node build.js OUTDIR
//
// Fonts are not bundled: the page uses the Red Hat fonts cockpit-ws already
// serves from /cockpit/static/fonts (see src/fonts.css).
"use strict";

const fs = require("fs");
const path = require("path");
const esbuild = require("esbuild");
const { po2js } = require("./po2js.js");

const outdir = path.resolve(process.argv[2] || "dist");
const here = __dirname;

async function main() {
    fs.mkdirSync(outdir, { recursive: true });
    await esbuild.build({
        entryPoints: { index: path.join(here, "src/index.jsx") },
        bundle: true,
        outdir,
        format: "iife",
        target: ["es2020"],
        minify: true,
        sourcemap: false,
        legalComments: "none",
        logLevel: "warning",
        // cockpit.js is loaded by index.html from ../base1/cockpit.js.
        external: ["../../static/fonts/*"],
        // PatternFly's own @font-face rules point at font files; the page
        // replaces them with cockpit's copies, so their payload is dropped.
        loader: { ".woff2": "empty", ".woff": "empty" },
        define: { "process.env.NODE_ENV": '"production"' },
        jsx: "automatic",
    });
    for (const f of ["index.html", "manifest.json"])
        fs.copyFileSync(path.join(here, f), path.join(outdir, f));
    // po/<lang>.po -> po.<lang>.js, which the bridge serves as po.js.
    const podir = path.join(here, "po");
    const pos = fs.existsSync(podir) ? fs.readdirSync(podir).filter(f => f.endsWith(".po")) : [];
    for (const f of pos) {
        const lang = path.basename(f, ".po");
        const js = po2js(fs.readFileSync(path.join(podir, f), "utf8"), lang);
        fs.writeFileSync(path.join(outdir, `po.${lang}.js`), js);
    }
}

main().catch(err => {
    console.error(err.message || err);
    process.exit(1);
});
