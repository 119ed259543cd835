// Turns a gettext .po file into the po.<lang>.js that Cockpit's bridge serves
// for "../*/po.js": a call to cockpit.locale() with the translations, keyed
// by msgid (with "context\u0004" in front when there is a msgctxt), each value
// [null, msgstr, ...] (cockpit.js skips the first item), and the header's
// Plural-Forms turned into a function, the way Cockpit's own build does it.
"use strict";

// Reads one "..." literal at the start of @text; returns [value, rest].
function takeString(text) {
    const m = /^"((?:[^"\\]|\\.)*)"/.exec(text);
    if (!m)
        throw new Error(`expected a string at: ${text.slice(0, 40)}`);
    return [JSON.parse(`"${m[1]}"`), text.slice(m[0].length).trim()];
}

function parsePo(text) {
    const entries = [];
    let entry = {};
    let field = null;
    const flush = () => {
        if ("msgid" in entry)
            entries.push(entry);
        entry = {};
        field = null;
    };
    for (const raw of text.split("\n")) {
        const line = raw.trim();
        if (line === "") {
            flush();
            continue;
        }
        if (line.startsWith("#"))
            continue;
        const m = /^(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+(.*)$/.exec(line);
        if (m) {
            if (m[1] === "msgctxt" || (m[1] === "msgid" && "msgstr" in entry))
                flush();
            field = m[2] !== undefined ? `msgstr${m[2]}` : m[1];
            entry[field] = takeString(m[3])[0];
        } else if (field && line.startsWith('"')) {
            entry[field] += takeString(line)[0];
        } else {
            throw new Error(`cannot read po line: ${raw}`);
        }
    }
    flush();
    return entries;
}

// "nplurals=2; plural=(n != 1);" -> a function body, checked to be only arithmetic on n.
function pluralFunction(header) {
    const m = /Plural-Forms:\s*([^\n]*)/i.exec(header);
    const expr = m ? /plural\s*=\s*([^;]*)/.exec(m[1]) : null;
    const plural = expr ? expr[1].trim() : "(n != 1)";
    if (!/^[n\d\s()?:<>=!&|%+\-*/]+$/.test(plural))
        throw new Error(`unexpected Plural-Forms: ${plural}`);
    return `function(n) { return Number(${plural}); }`;
}

const RTL = ["ar", "fa", "he", "ur"];

function po2js(text, language) {
    const entries = parsePo(text);
    const header = entries.find(e => e.msgid === "");
    const out = [];
    for (const e of entries) {
        if (e.msgid === "")
            continue;
        const strings = "msgid_plural" in e
            ? Object.keys(e).filter(k => /^msgstr\d+$/.test(k)).sort().map(k => e[k])
            : [e.msgstr];
        if (strings.every(s => !s))
            continue;
        const key = e.msgctxt !== undefined ? `${e.msgctxt}\u0004${e.msgid}` : e.msgid;
        out.push(`${JSON.stringify(key)}: ${JSON.stringify([null, ...strings])}`);
    }
    const meta = `"": {"plural-forms": ${pluralFunction(header ? header.msgstr : "")}, ` +
        `"language": ${JSON.stringify(language)}, ` +
        `"language-direction": "${RTL.includes(language.split("_")[0]) ? "rtl" : "ltr"}"}`;
    return `cockpit.locale({\n${[meta, ...out].join(",\n")}\n});\n`;
}

module.exports = { parsePo, po2js };
