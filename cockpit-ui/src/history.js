// Reads an array's history from the RRD files collectd's rrdtool plugin
// writes for the mdraid plugin:
//   <DataDir>/<host>/mdraid-<array>/<type>-<type_instance>.rrd
// Files are matched by type instance (sync_speed, sync_speed_min,
// sync_speed_max: type "bytes", bytes per second; sync_progress: type
// "percent"; docs/metrics.md) whatever their type, and read with
// `rrdtool xport --json`, run as the logged-in user: the files are
// world-readable and nothing here needs privileges.
import cockpit from "./cockpit.js";

export const DEFAULT_DATADIR = "/var/lib/collectd/rrd";
export const SERIES = ["sync_speed", "sync_speed_min", "sync_speed_max", "sync_progress"];
const MAX_ROWS = 400;

export const RANGES = [
    { key: "15m", seconds: 900 },
    { key: "1h", seconds: 3600 },
    { key: "6h", seconds: 6 * 3600 },
    { key: "1d", seconds: 86400 },
    { key: "1w", seconds: 7 * 86400 },
];

// collectd's DataDir: its rrdtool plugin block in /etc/collectd/collectd.conf,
// else Debian's default.
export async function configuredDataDir() {
    try {
        const conf = await cockpit.file("/etc/collectd/collectd.conf").read();
        // \x22 is '"': a bare quote in a regex would end xgettext's string.
        const block = /<Plugin\s+\x22?rrdtool\x22?\s*>([\s\S]*?)<\/Plugin>/i.exec(conf || "");
        const dir = block && /^\s*DataDir\s+\x22([^\x22]+)\x22/im.exec(block[1]);
        if (dir)
            return dir[1].replace(/\/+$/, "") || "/";
    } catch (err) {
        // unreadable or missing: collectd's default applies
    }
    return DEFAULT_DATADIR;
}

// True when @path is @base or a folder beneath it, written plainly: absolute,
// without "." or ".." steps (which could climb out), without empty steps.
export function isInside(path, base) {
    if (typeof path !== "string" || !path.startsWith("/"))
        return false;
    const steps = path.replace(/\/+$/, "").split("/").slice(1);
    if (steps.some(s => s === "" || s === "." || s === ".."))
        return false;
    const plain = "/" + steps.join("/");
    return plain === base || plain.startsWith(base === "/" ? "/" : base + "/");
}

// The folder to read: the URL's ?datadir=... when it lies inside collectd's
// DataDir (a host's or a site's subfolder of a central collector), else the
// DataDir itself. A link cannot point the page at any other file of the
// machine. Resolves to { dir, refused } with the refused URL value, if any.
export async function dataDir() {
    const base = await configuredDataDir();
    const fromUrl = cockpit.location.options.datadir;
    if (typeof fromUrl !== "string" || fromUrl === "")
        return { dir: base, refused: null };
    if (isInside(fromUrl, base))
        return { dir: fromUrl.replace(/\/+$/, ""), refused: null };
    return { dir: base, refused: fromUrl };
}

// Finds the newest mdraid-<array> folder under any host folder and the RRD
// file of each series in it. Resolves to null when collectd records nothing.
export async function findFiles(datadir, array) {
    let out;
    try {
        out = await cockpit.spawn(["find", datadir, "-mindepth", "3", "-maxdepth", "3",
                                   "-path", `*/mdraid-${array}/*.rrd`, "-printf", "%T@ %p\n"],
                                  { err: "ignore" });
    } catch (err) {
        return null;
    }
    return pickFiles(out);
}

export function pickFiles(findOutput) {
    const files = {};
    const newest = {};
    for (const line of findOutput.split("\n")) {
        const m = /^([\d.]+) (.*\/[^/-]+-([^/]+)\.rrd)$/.exec(line);
        if (!m || !SERIES.includes(m[3]))
            continue;
        const mtime = Number(m[1]);
        if (!(m[3] in newest) || mtime > newest[m[3]]) {
            newest[m[3]] = mtime;
            files[m[3]] = m[2];
        }
    }
    return Object.keys(files).length ? files : null;
}

// rrdtool escapes ':' in DEF file names with a backslash.
function rrdEscape(path) {
    return path.replace(/:/g, "\\:");
}

export async function exportSeries(files, seconds) {
    const names = SERIES.filter(s => files[s]);
    const args = ["rrdtool", "xport", "--json", "--start", `-${seconds}`, "--end", "now",
        "--maxrows", String(MAX_ROWS)];
    names.forEach((name, i) => {
        args.push(`DEF:d${i}=${rrdEscape(files[name])}:value:AVERAGE`);
        args.push(`XPORT:d${i}:${name}`);
    });
    const out = await cockpit.spawn(args, { err: "message" });
    return parseXport(out);
}

// rrdtool 1.7 writes unknown values as null; older ones wrote NaN.
export function parseXport(text) {
    const json = JSON.parse(text.replace(/\bnan\b/gi, "null"));
    const { start, step, legend } = json.meta;
    const series = {};
    legend.forEach((name, col) => {
        series[name] = json.data.map(row => (row[col] === null ? null : Number(row[col])));
    });
    const times = json.data.map((row, i) => start + (i + 1) * step);
    return { times, series };
}

// Periods where the array's floor was raised above the system-wide default,
// which is what a boost does: one boolean per sample.
export function boostedMask(floor, systemFloor) {
    return (floor || []).map(v => v !== null && v > systemFloor);
}
