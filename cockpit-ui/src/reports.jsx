// The reports of an array's last operations (Manager.GetReports), read
// again whenever another one ends.
import React, { useEffect, useState } from "react";
import { ExpandableSection } from "./pf.js";

import cockpit, { _ } from "./cockpit.js";
import { reportText } from "./format.js";

export const Reports = ({ client, array }) => {
    const [reports, setReports] = useState([]);
    const [open, setOpen] = useState(false);
    const ended = (array.LastOperation || {}).ended?.v || 0;

    useEffect(() => {
        if (!array.UUID)
            return;
        let current = true;
        client.getReports(array.UUID)
                .then(r => current && setReports(r))
                .catch(() => current && setReports([]));
        return () => { current = false };
    }, [client, array.UUID, ended]);

    if (reports.length === 0)
        return null;
    return (
        <ExpandableSection className="mdb-reports" isExpanded={open} onToggle={(_event, o) => setOpen(o)}
                           toggleText={cockpit.format(cockpit.ngettext("The last operation", "The last $0 operations", reports.length), reports.length)}>
            <ul className="mdb-report-list">
                {reports.map(r => (
                    <li key={`${r.started}-${r.action}`} className="mdb-report" data-action={r.action} data-outcome={r.outcome}>
                        {reportText(r)}
                    </li>
                ))}
            </ul>
        </ExpandableSection>
    );
};
