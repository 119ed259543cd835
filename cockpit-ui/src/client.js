// The page's only D-Bus client: mirrors mdboostd's Manager and Array
// properties, kept current by the PropertiesChanged signals the service emits
// (docs/dbus-api.md). Nothing here polls; components subscribe to changes.
import cockpit from "./cockpit.js";

export const BUS_NAME = "org.mdboost.MdBoost1";
export const MANAGER_PATH = "/org/mdboost/MdBoost1";
export const MANAGER_IFACE = "org.mdboost.MdBoost1.Manager";
export const ARRAY_IFACE = "org.mdboost.MdBoost1.Array";
const PROPS_IFACE = "org.freedesktop.DBus.Properties";

// cockpit.dbus hands `v` values over as {t: signature, v: value}.
function unwrap(dict) {
    const out = {};
    for (const key in dict)
        out[key] = dict[key].v;
    return out;
}

// An a{sv} as cockpit.dbus gives it ({ key: { t, v } }) as a plain object of its values.
export function fromVariants(dict) {
    return Object.fromEntries(Object.entries(dict || {}).map(([k, v]) => [k, v.v]));
}

export class MdBoostClient {
    constructor() {
        // status: "connecting", "ready", "missing" (service not on the bus)
        this.state = { status: "connecting", problem: null, manager: {}, arrays: {} };
        this.listeners = new Set();
        this.generation = 0;
        this.connect();
    }

    // superuser "try": as root when the session has administrative access,
    // else as the user. A channel keeps the identity it was opened with, so
    // the page reconnects when the access changes.
    connect() {
        const dbus = cockpit.dbus(BUS_NAME, { bus: "system", superuser: "try" });
        this.dbus = dbus;
        this.subscription = dbus.subscribe(
            { interface: PROPS_IFACE, member: "PropertiesChanged", path_namespace: MANAGER_PATH },
            (path, iface, signal, args) => this.dbus === dbus && this.onPropertiesChanged(path, args));
        dbus.addEventListener("owner", (event, owner) => this.dbus === dbus && this.onOwner(owner));
        this.reload();
    }

    reconnect() {
        this.close();
        this.connect();
    }

    subscribe(fn) {
        this.listeners.add(fn);
        return () => this.listeners.delete(fn);
    }

    update(patch) {
        this.state = { ...this.state, ...patch };
        this.listeners.forEach(fn => fn(this.state));
    }

    onOwner(owner) {
        if (owner === null) {
            this.update({ status: "missing", problem: null, manager: {}, arrays: {} });
        } else if (owner && this.state.status === "missing") {
            this.reload();
        }
    }

    async getAll(path, iface) {
        const [props] = await this.dbus.call(path, PROPS_IFACE, "GetAll", [iface]);
        return unwrap(props);
    }

    // Reads everything once; signals keep it current afterwards. A generation
    // counter drops the answers of a reload that a newer one superseded.
    async reload() {
        const generation = ++this.generation;
        try {
            const manager = await this.getAll(MANAGER_PATH, MANAGER_IFACE);
            const arrays = await this.readArrays(manager.Arrays || []);
            if (generation === this.generation)
                this.update({ status: "ready", problem: null, manager, arrays });
        } catch (err) {
            if (generation === this.generation)
                this.update({ status: "missing", problem: err, manager: {}, arrays: {} });
        }
    }

    async readArrays(paths) {
        const arrays = {};
        const known = this.state.arrays;
        await Promise.all(paths.map(async path => {
            arrays[path] = known[path] || await this.getAll(path, ARRAY_IFACE);
        }));
        return arrays;
    }

    // A signal whose follow-up reads fail (the service went away meanwhile, an
    // array vanished) is answered by reading everything again.
    onPropertiesChanged(path, args) {
        this.applyChanges(path, args).catch(() => this.reload());
    }

    async applyChanges(path, [iface, changed, invalidated]) {
        if (this.state.status !== "ready")
            return;
        const props = unwrap(changed);
        for (const name of invalidated || []) {
            const [value] = await this.dbus.call(path, PROPS_IFACE, "Get", [iface, name]);
            props[name] = value.v;
        }
        if (iface === MANAGER_IFACE && path === MANAGER_PATH) {
            const manager = { ...this.state.manager, ...props };
            const arrays = "Arrays" in props ? await this.readArrays(props.Arrays) : this.state.arrays;
            this.update({ manager, arrays });
        } else if (iface === ARRAY_IFACE && this.state.arrays[path]) {
            const arrays = { ...this.state.arrays, [path]: { ...this.state.arrays[path], ...props } };
            this.update({ arrays });
        }
    }

    async getProfiles() {
        const [profiles] = await this.dbus.call(MANAGER_PATH, MANAGER_IFACE, "GetProfiles", []);
        return profiles.map(([name, description, rules]) => ({ name, description, rules }));
    }

    // Returns { changes, held }: the (name, old, new) triples Boost wrote or,
    // with dryRun, would write, and the (name, why) pairs of what it leaves
    // alone (sync_max while mdadm may be driving a reshape).
    async boost(path, profile, dryRun) {
        const options = dryRun ? { dry_run: { t: "b", v: true } } : {};
        const [changes, held] = await this.dbus.call(path, ARRAY_IFACE, "Boost", [profile, options],
                                                     { type: "sa{sv}" });
        return { changes, held: held || [] };
    }

    // Sets one rule of what the service does by itself for @array (a name
    // or UUID, "" for every array): docs/policy.md.
    async setPolicy(array, rule, policy) {
        await this.dbus.call(MANAGER_PATH, MANAGER_IFACE, "SetPolicy", [array, rule, policy]);
    }

    // The reports of the operations that ended on the array @uuid (newest
    // first, the last five), each as a plain object of its values.
    async getReports(uuid) {
        const [reports] = await this.dbus.call(MANAGER_PATH, MANAGER_IFACE, "GetReports", [uuid]);
        return reports.map(fromVariants);
    }

    // Replaces the persistent settings of @array (its name or UUID) with
    // @values, { tunable: number }; {} takes them all away (docs/dbus-api.md).
    async setSettings(array, values) {
        const settings = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, { t: "t", v }]));
        const [changes] = await this.dbus.call(MANAGER_PATH, MANAGER_IFACE, "SetSettings", [array, settings],
                                               { type: "sa{sv}" });
        return changes;
    }

    async restore(path) {
        const [changes] = await this.dbus.call(path, ARRAY_IFACE, "Restore", [{}], { type: "a{sv}" });
        return changes;
    }

    close() {
        this.subscription.remove();
        this.dbus.close();
    }
}
