// The Boost confirmation: asks the service what the chosen profile would
// change (a dry run), lists it old -> new with the stripe cache's memory cost
// and what the service would leave alone and why, and boosts only when the
// admin confirms.
import React, { useEffect, useState } from "react";
import {
    Alert, AlertActionCloseButton, Button, Modal, ModalVariant, Radio, Spinner,
} from "./pf.js";
import { Table, Tbody, Td, Th, Thead, Tr } from "./table.jsx";

import cockpit, { _ } from "./cockpit.js";
import { fromVariants } from "./client.js";
import { describeError, formatBytes, formatSpeed, predictionLines, tunableLabel, tunableMeaning } from "./format.js";

// One stripe cache entry holds a 4 KiB page per member (md.rst, raid5.c).
const STRIPE_ENTRY_BYTES = 4096;

export function stripeCacheBytes(entries, members) {
    return entries * STRIPE_ENTRY_BYTES * members;
}

export const ErrorAlert = ({ error, title, onClose }) => {
    const { title: sentence, detail } = describeError(error);
    return (
        <Alert variant="danger" isInline title={title || sentence} className="mdb-error"
               actionClose={onClose && <AlertActionCloseButton onClose={onClose} />}>
            {title ? sentence : null} {detail && <span className="mdb-error-detail">{detail}</span>}
        </Alert>
    );
};

export const TunableText = ({ name, text }) => {
    const meaning = tunableMeaning(name, text);
    return (
        <>
            <code className="mdb-value">{text}</code>
            {meaning && <span className="mdb-muted"> ({meaning})</span>}
        </>
    );
};

// What Boost leaves alone and why, in the service's words.
const HeldNotes = ({ held }) => held.map(([name, why]) => (
    <Alert key={name} variant="warning" isInline isPlain className="mdb-held" data-tunable={name}
           title={cockpit.format(_("$0 is left as it is"), name)}>
        {why}
    </Alert>
));

// A floor far above what the rebuild reaches now: below its floor md never
// yields to the array's other users, so they wait for as long as the
// rebuild runs; fast then lowers its floor to what the disks reach under it.
const FloorNote = ({ changes, array, profile }) => {
    const floor = changes.find(([name]) => name === "sync_speed_min");
    const speed = array.Speed || 0;
    const wanted = floor ? Number.parseInt(floor[2]) : 0;
    if (!floor || !(speed > 0) || !(wanted > 2 * speed))
        return null;
    return (
        <Alert variant="warning" isInline isPlain className="mdb-floor-high"
               title={cockpit.format(_("A floor of $0 is more than twice the $1 this rebuild reaches now."),
                                     formatSpeed(wanted), formatSpeed(speed))}>
            {_("While the rebuild runs below its floor, md does not make way for the array's other users.")}
            {" "}
            {profile === "fast"
                ? _("fast lowers its floor to what the disks reach under it about 30 seconds after the boost.")
                : _("It stays so until the rebuild ends or the boost is restored.")}
        </Alert>
    );
};

const ChangesTable = ({ changes, array, budget }) => {
    if (changes.length === 0)
        return <p>{_("Every tunable is already at or above this profile's values: nothing would change.")}</p>;
    const stripe = changes.find(([name]) => name === "stripe_cache_size");
    const members = array.RaidDisks || 0;
    return (
        <>
            <Table aria-label={_("Changes")} className="mdb-changes">
                <Thead>
                    <Tr><Th>{_("Setting")}</Th><Th>{_("Now")}</Th><Th>{_("After boost")}</Th></Tr>
                </Thead>
                <Tbody>
                    {changes.map(([name, from, to]) => (
                        <Tr key={name} data-tunable={name}>
                            <Td>{tunableLabel(name)} <code className="mdb-muted">{name}</code></Td>
                            <Td data-label={_("Now")}><TunableText name={name} text={from} /></Td>
                            <Td data-label={_("After boost")}><strong><TunableText name={name} text={to} /></strong></Td>
                        </Tr>
                    ))}
                </Tbody>
            </Table>
            {stripe &&
                <Alert variant="info" isInline isPlain className="mdb-memory"
                       title={cockpit.format(_("The stripe cache will pin $0 of memory (now $1)."),
                                             formatBytes(stripeCacheBytes(Number(stripe[2]), members)),
                                             formatBytes(array.StripeCacheMemory || 0))}>
                    {budget > 0 && cockpit.format(_("mdboost keeps the stripe caches of all arrays within $0."), formatBytes(budget))}
                </Alert>}
        </>
    );
};

// What a boost does on an array with nothing running, and the profile in
// effect on one already boosted (a profile never lowers a value, so a lower
// one changes nothing until the boost is restored).
const Situation = ({ array, profile, preview }) => {
    const idle = !array.Action || array.Action === "idle";
    return (
        <>
            {idle &&
                <Alert variant="info" isInline isPlain className="mdb-idle-note"
                       title={cockpit.format(_("Nothing is rebuilding on $0 now."), array.Name)}>
                    {_("The boost applies to the next resync, recovery or reshape, and mdboost restores every value by itself when that operation ends.")}
                </Alert>}
            {array.Boosted &&
                <Alert variant="info" isInline isPlain className="mdb-in-effect"
                       title={cockpit.format(_("$0 is boosted with $1."), array.Name, array.Profile)}>
                    {preview && preview.changes.length === 0 && profile !== array.Profile
                        ? cockpit.format(_("$0 already sets every value at or above $1's. To step down to $1, restore the original values and boost again with $1."), array.Profile, profile)
                        : _("Boosting again writes only the values that go higher.")}
                </Alert>}
        </>
    );
};

// When the running operation ends at the rate now, with the governor and
// with max, from the rates mdboost has seen on this array.
const Prediction = ({ array }) => {
    const p = fromVariants(array.Prediction);
    const lines = predictionLines(p);
    if (lines.length === 0)
        return null;
    return (
        <>
            <h4 className="mdb-section-title">{_("When it ends")}</h4>
            <ul className="mdb-prediction">
                {lines.map(l => <li key={l.key} data-key={l.key} data-known={l.known}>{l.text}</li>)}
            </ul>
            {p.busy_percent !== undefined &&
                <p className="mdb-muted mdb-note">
                    {cockpit.format(_("The array's users were busy $0 % of the time so far; the estimates assume the rest goes the same way."), p.busy_percent)}
                </p>}
        </>
    );
};

export const BoostDialog = ({ client, path, array, profiles, budget, onClose }) => {
    const [profile, setProfile] = useState(array.Boosted && array.Profile ? array.Profile : "fast");
    // The dry run's answer, with the profile it is for: the render right
    // after another profile is chosen must not show the last one's.
    const [loaded, setLoaded] = useState(null);
    const [busy, setBusy] = useState(false);
    const [error, setError] = useState(null);

    useEffect(() => {
        let cancelled = false;
        client.boost(path, profile, true)
                .then(changes => !cancelled && setLoaded({ profile, changes }))
                .catch(err => !cancelled && setLoaded({ profile, error: err }));
        return () => { cancelled = true };
    }, [client, path, profile]);
    const current = loaded && loaded.profile === profile ? loaded : null;
    const preview = current && !current.error ? current.changes : null;
    const previewError = current ? current.error || null : null;

    const confirm = () => {
        setBusy(true);
        setError(null);
        client.boost(path, profile, false)
                .then(() => onClose())
                .catch(err => {
                    setBusy(false);
                    setError(err);
                });
    };

    // Restore, then boost with the lower profile: the originals come back
    // first, so the new boost starts from them and saves them again.
    const stepDown = () => {
        setBusy(true);
        setError(null);
        client.restore(path)
                .then(() => client.boost(path, profile, false))
                .then(() => onClose())
                .catch(err => {
                    setBusy(false);
                    setError(err);
                });
    };
    const canStepDown = array.Boosted && preview && preview.changes.length === 0 && profile !== array.Profile;

    return (
        <Modal variant={ModalVariant.medium} isOpen onClose={onClose}
               title={cockpit.format(_("Boost the rebuild of $0"), array.Name)}
               id="mdb-boost-dialog"
               footer={<>
                   {canStepDown
                       ? <Button variant="primary" onClick={stepDown} isLoading={busy} isDisabled={busy}
                                 id="mdb-step-down">
                           {cockpit.format(_("Restore, then boost with $0"), profile)}
                       </Button>
                       : <Button variant="primary" onClick={confirm} isLoading={busy}
                                 isDisabled={busy || !preview || preview.changes.length === 0} id="mdb-boost-confirm">
                           {_("Boost")}
                       </Button>}
                   <Button variant="link" onClick={onClose}>{_("Cancel")}</Button>
               </>}>
            <fieldset className="mdb-profiles">
                <legend className="mdb-section-title">{_("Profile")}</legend>
                {profiles.map(p => (
                    <Radio key={p.name} id={`mdb-profile-${p.name}`} name="mdb-profile"
                           label={p.name} description={p.description}
                           isChecked={profile === p.name} onChange={() => setProfile(p.name)} />
                ))}
            </fieldset>
            <Situation array={array} profile={profile} preview={preview} />
            <Prediction array={array} />
            <h4 className="mdb-section-title">{_("What will change")}</h4>
            {previewError && <ErrorAlert error={previewError} title={_("The service could not compute the changes")} />}
            {!preview && !previewError && <Spinner size="md" aria-label={_("Asking the service")} />}
            {preview && !canStepDown && <ChangesTable changes={preview.changes} array={array} budget={budget} />}
            {preview && !canStepDown && <FloorNote changes={preview.changes} array={array} profile={profile} />}
            {preview && <HeldNotes held={preview.held} />}
            <p className="mdb-muted mdb-note">
                {_("Faster rebuilds take disk bandwidth from everything else on these disks. Restore puts every value back; mdboost also restores them by itself when the rebuild ends.")}
            </p>
            {error && <ErrorAlert error={error} />}
        </Modal>
    );
};
