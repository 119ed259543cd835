// What the service does by itself when an operation starts on one array
// (its Policy: docs/policy.md), changed through SetPolicy. Nothing is
// written until Save; each rule that changed is one call, and the service
// saves it before it applies.
import React, { useState } from "react";
import { Button, Modal, ModalVariant } from "./pf.js";

import cockpit, { _ } from "./cockpit.js";
import { ErrorAlert } from "./boost-dialog.jsx";
import { policyRuleText } from "./format.js";

const RULES = [
    ["rebuild", _("When a resync, recovery or reshape starts")],
    ["check", _("When a check or repair starts")],
    ["escalate", _("While a rebuild it boosts runs with no redundancy left")],
];
const CHOICES = ["none", "fast", "fast:80", "fast:25", "fast:50ms", "max"];

export const PolicyDialog = ({ client, array, defaults, onClose }) => {
    const policy = array.Policy || {};
    const initial = Object.fromEntries(RULES.map(([k]) => [k, policy[`${k}_from`] === "array" ? policy[k] : "default"]));
    const [values, setValues] = useState(initial);
    const [saving, setSaving] = useState(false);
    const [error, setError] = useState(null);

    const save = async () => {
        setSaving(true);
        setError(null);
        try {
            for (const [k] of RULES)
                if (values[k] !== initial[k])
                    await client.setPolicy(array.UUID || array.Name, k, values[k]);
            onClose();
        } catch (err) {
            setError(err);
        } finally {
            setSaving(false);
        }
    };

    const options = (k) => {
        const list = ["default", ...CHOICES];
        if (!list.includes(values[k]))
            list.push(values[k]);
        return list.map(v => (
            <option key={v} value={v}>
                {v === "default"
                    ? cockpit.format(_("As every array: $0"), policyRuleText(defaults[k]))
                    : policyRuleText(v)}
            </option>
        ));
    };

    return (
        <Modal id="mdb-policy-dialog" variant={ModalVariant.small} isOpen onClose={onClose}
               title={cockpit.format(_("Automatic boost of $0"), array.Name)}
               actions={[
                   <Button key="save" variant="primary" id="mdb-policy-save" onClick={save} isLoading={saving}
                           isDisabled={saving}>{_("Save")}</Button>,
                   <Button key="cancel" variant="link" onClick={onClose}>{_("Cancel")}</Button>,
               ]}>
            <p className="mdb-policy-intro">
                {_("What the service does by itself, with nobody asked, for this array. It boosts an operation as Boost would and restores it when the operation ends; a Restore while it runs wins for that operation.")}
            </p>
            {RULES.map(([k, label]) => (
                <div key={k} className="mdb-policy-rule">
                    <label htmlFor={`mdb-policy-${k}`}>{label}</label>
                    <select id={`mdb-policy-${k}`} className="pf-v5-c-form-control" value={values[k]}
                            onChange={ev => setValues({ ...values, [k]: ev.target.value })}>
                        {options(k)}
                    </select>
                </div>
            ))}
            {error && <ErrorAlert error={error} title={_("The policy was not changed")} />}
        </Modal>
    );
};
