// The History panel of an array card: rebuild speed with the floor and ceiling
// in effect, and progress, over a chosen range, from collectd's RRD files.
import React, { useEffect, useState } from "react";
import {
    Alert, CodeBlock, CodeBlockCode, ExpandableSection, Spinner, ToggleGroup, ToggleGroupItem,
} from "./pf.js";

import cockpit, { _ } from "./cockpit.js";
import { LineChart } from "./line-chart.jsx";
import { RANGES, boostedMask, dataDir, exportSeries, findFiles } from "./history.js";

const RANGE_LABELS = {
    "15m": _("15 minutes"),
    "1h": _("Last hour"),
    "6h": _("6 hours"),
    "1d": _("Day"),
    "1w": _("Week"),
};

// Debian's /etc/collectd/collectd.conf (package collectd) loads the rrdtool
// plugin and includes /etc/collectd/collectd.conf.d/*.conf.
const MDRAID_CONF = "LoadPlugin mdraid";

function rrdtoolConf(datadir) {
    return `LoadPlugin rrdtool\n<Plugin rrdtool>\n  DataDir "${datadir}"\n</Plugin>`;
}

const Code = ({ children }) => (
    <CodeBlock className="mdb-code"><CodeBlockCode>{children}</CodeBlockCode></CodeBlock>
);

// The instructions are long: the first card shows them open, the
// others keep them one click away.
const NotRecording = ({ array, datadir, expanded }) => {
    const [open, setOpen] = useState(expanded);
    return (
        <div className="mdb-history-missing">
            <Alert variant="info" isInline isPlain
                   title={cockpit.format(_("collectd is not recording $0"), array)}>
                {cockpit.format(_("No mdraid history was found under $0."), datadir)}
            </Alert>
            <ExpandableSection toggleText={open ? _("Hide how to enable it") : _("Show how to enable it")}
                               isExpanded={open} onToggle={(_event, value) => setOpen(value)}
                               className="mdb-enable">
                <p>{_("Install collectd:")}</p>
                <Code>sudo apt install collectd</Code>
                <p>{_("Load the mdraid plugin in /etc/collectd/collectd.conf.d/mdraid.conf:")}</p>
                <Code>{MDRAID_CONF}</Code>
                <p>{_("collectd's rrdtool plugin writes the history; Debian's /etc/collectd/collectd.conf loads it. If yours does not, add:")}</p>
                <Code>{rrdtoolConf(datadir)}</Code>
                <p>{_("Then restart collectd:")}</p>
                <Code>sudo systemctl restart collectd</Code>
            </ExpandableSection>
        </div>
    );
};

// collectd writes a sample every interval (10 s by default); a minute is
// fine-grained enough for a chart whose smallest range is an hour.
const REFRESH_MS = 60000;

function useTick(ms) {
    const [tick, setTick] = useState(0);
    useEffect(() => {
        const id = window.setInterval(() => setTick(t => t + 1), ms);
        return () => window.clearInterval(id);
    }, [ms]);
    return tick;
}

function useHistory(array, seconds) {
    const [state, setState] = useState({ loading: true });
    const tick = useTick(REFRESH_MS);
    useEffect(() => {
        let cancelled = false;
        (async () => {
            const { dir: datadir, refused } = await dataDir();
            const files = await findFiles(datadir, array);
            if (!files)
                return { datadir, refused, missing: true };
            return { datadir, refused, data: await exportSeries(files, seconds) };
        })()
                .then(result => !cancelled && setState(result))
                .catch(err => !cancelled && setState({ error: err }));
        return () => { cancelled = true };
    }, [array, seconds, tick]);
    return state;
}

// collectd records bytes per second; the axis counts MiB/s so its steps are round.
function toMiB(v) {
    return v === null ? null : v / 1048576;
}

export const History = ({ array, systemFloor, helpExpanded }) => {
    const [range, setRange] = useState("1h");
    const seconds = RANGES.find(r => r.key === range).seconds;
    const state = useHistory(array.Name, seconds);

    const refused = state.refused &&
        <Alert variant="warning" isInline isPlain className="mdb-datadir-refused"
               title={cockpit.format(_("The address asks for $0, which is outside collectd's DataDir $1; showing $1 instead."),
                                     state.refused, state.datadir)} />;
    let body;
    if (state.loading) {
        body = <Spinner size="lg" aria-label={_("Loading history")} />;
    } else if (state.error && state.error.problem === "not-found") {
        // cockpit.spawn reports a missing program as the problem "not-found".
        body = (
            <Alert variant="warning" isInline isPlain title={_("rrdtool is not installed, so the history cannot be drawn")}>
                <CodeBlock className="mdb-code"><CodeBlockCode>sudo apt install rrdtool</CodeBlockCode></CodeBlock>
            </Alert>
        );
    } else if (state.error) {
        body = (
            <Alert variant="warning" isInline isPlain title={_("The history could not be read")}>
                {state.error.message || String(state.error)}
            </Alert>
        );
    } else if (state.missing) {
        body = <NotRecording array={array.Name} datadir={state.datadir} expanded={helpExpanded} />;
    } else {
        const { times, series } = state.data;
        const bands = boostedMask(series.sync_speed_min, systemFloor * 1024);
        const speeds = [
            { name: "sync_speed", label: _("Speed"), className: "mdb-s-speed", scales: true },
            { name: "sync_speed_min", label: _("Floor"), className: "mdb-s-floor" },
            { name: "sync_speed_max", label: _("Ceiling"), className: "mdb-s-ceiling" },
        ].filter(s => series[s.name]).map(s => ({ ...s, values: series[s.name].map(toMiB) }));
        body = (
            <div className="mdb-history-charts">
                <LineChart title={cockpit.format(_("Rebuild speed of $0"), array.Name)}
                           times={times} series={speeds} bands={bands}
                           formatY={v => cockpit.format(_("$0 MiB/s"), +v.toFixed(2))}
                           bandLabel={_("Boosted")} />
                {series.sync_progress &&
                    <LineChart title={cockpit.format(_("Progress of $0"), array.Name)}
                               times={times} bands={bands} maxValue={100}
                               series={[{ name: "sync_progress", label: _("Progress"), className: "mdb-s-progress", values: series.sync_progress }]}
                               formatY={v => `${Math.round(v)} %`}
                               bandLabel={_("Boosted")} />}
            </div>
        );
    }

    return (
        <section className="mdb-history" aria-label={cockpit.format(_("History of $0"), array.Name)}>
            <div className="mdb-history-head">
                <h4 className="mdb-section-title">{_("History")}</h4>
                {state.data &&
                <ToggleGroup isCompact aria-label={_("Time range")}>
                    {RANGES.map(r => (
                        <ToggleGroupItem key={r.key} text={RANGE_LABELS[r.key]} buttonId={`range-${array.Name}-${r.key}`}
                                         isSelected={range === r.key} onChange={() => setRange(r.key)} />
                    ))}
                </ToggleGroup>}
            </div>
            {refused}
            {body}
        </section>
    );
};
