// One md array: identity, members, the running or waiting operation, the
// tunables in effect (and the originals a boost saved), Boost and Restore.
import React, { useState } from "react";
import {
    Alert, Button, Card, CardBody, CardHeader, CardTitle, DescriptionList, DescriptionListDescription,
    DescriptionListGroup, DescriptionListTerm, ExpandableSection, Flex, FlexItem, Label, LabelGroup, Progress,
    ProgressMeasureLocation, Tooltip,
} from "./pf.js";

import cockpit, { _ } from "./cockpit.js";
import { BoostDialog, ErrorAlert, TunableText } from "./boost-dialog.jsx";
import { fromVariants } from "./client.js";
import { History } from "./history.jsx";
import { PolicyDialog } from "./policy-dialog.jsx";
import { Reports } from "./reports.jsx";
import { Table, Tbody, Td, Th, Thead, Tr } from "./table.jsx";
import {
    actionLabel, compareTunables, finishText, formatBytes, formatDuration, formatSpeed, formatTimestampMicro, governorText,
    checkText, operationName, policyText, settingsText, speedupText, tunableLabel, usersCost,
} from "./format.js";

const ROLES = {
    in_sync: { text: _("In sync"), color: "green" },
    rebuilding: { text: _("Being rebuilt"), color: "blue" },
    spare: { text: _("Hot spare"), color: "grey" },
    faulty: { text: _("Failed"), color: "red" },
    journal: { text: _("Journal"), color: "purple" },
    unknown: { text: _("Unknown"), color: "orange" },
};

const FLAGS = {
    write_mostly: _("Write-mostly"),
    replacement: _("Replacement"),
    want_replacement: _("Wants replacement"),
    write_error: _("Write errors"),
    blocked: _("Blocked"),
};

function levelLabel(level) {
    const m = /^raid(\d+)$/.exec(level || "");
    return m ? cockpit.format(_("RAID $0"), m[1]) : (level || _("inactive"));
}

// md counts a slot as missing until its new disk is fully rebuilt; while
// that runs, the slot is being rebuilt rather than missing.
const StateLabel = ({ array }) => {
    if (array.State === "inactive" || !array.Level)
        return <Label color="grey">{_("Inactive")}</Label>;
    const rebuilding = (array.Members || []).filter(([, role]) => role === "rebuilding").length;
    if (array.Degraded > 0 && rebuilding >= array.Degraded)
        return <Label color="orange" className="mdb-state">{cockpit.format(cockpit.ngettext("Rebuilding $0 member", "Rebuilding $0 members", rebuilding), rebuilding)}</Label>;
    if (array.Degraded > 0 && rebuilding > 0)
        return <Label color="orange" className="mdb-state">{cockpit.format(cockpit.ngettext("Degraded, $0 member missing", "Degraded, $0 members missing", array.Degraded - rebuilding), array.Degraded - rebuilding) + cockpit.format(_(", rebuilding $0"), rebuilding)}</Label>;
    if (array.Degraded > 0)
        return <Label color="orange" className="mdb-state">{cockpit.format(cockpit.ngettext("Degraded, $0 member missing", "Degraded, $0 members missing", array.Degraded), array.Degraded)}</Label>;
    return <Label color="green">{cockpit.format(_("Running ($0)"), array.State)}</Label>;
};

const Members = ({ members }) => (
    <ul className="mdb-members" aria-label={_("Members")}>
        {members.map(([dev, role, words, slot]) => {
            const r = ROLES[role] || ROLES.unknown;
            return (
                <li key={dev} className="mdb-member" data-device={dev} data-role={role}>
                    <span className="mdb-member-dev">{dev}</span>
                    <LabelGroup numLabels={4}>
                        <Label isCompact color={r.color}>{r.text}</Label>
                        {words.filter(w => FLAGS[w]).map(w => <Label key={w} isCompact variant="outline">{FLAGS[w]}</Label>)}
                    </LabelGroup>
                    <span className="mdb-muted mdb-member-slot">
                        {slot >= 0 ? cockpit.format(_("slot $0"), slot) : _("no slot")}
                    </span>
                </li>
            );
        })}
    </ul>
);

// The last operation the service watched end: when, how long, how fast,
// and whether the boost came off by itself.
const OperationEnd = ({ array }) => {
    const last = fromVariants(array.LastOperation);
    if (!last.action)
        return <p className="mdb-operation mdb-muted">{_("No rebuild or check is running.")}</p>;
    const seconds = Math.max(0, (last.ended - last.started) / 1e6);
    const what = operationName(last.action);
    const at = formatTimestampMicro(last.ended);
    const text = last.completed
        ? cockpit.format(_("$0 finished at $1, after $2, at $3 on average."), what, at, formatDuration(seconds),
                         formatSpeed(seconds > 0 ? last.kib / seconds : 0))
        : cockpit.format(_("$0 stopped at $1 % at $2, after $3."), what, last.progress.toFixed(1), at,
                         formatDuration(seconds));
    return (
        <Alert variant={last.completed ? "success" : "warning"} isInline isPlain className="mdb-operation mdb-operation-end"
               data-completed={last.completed ? "true" : "false"} title={text}>
            {last.restored && _("mdboost put the original settings back by itself when it ended.")}
        </Alert>
    );
};

const Operation = ({ array }) => {
    const action = array.Action;
    if (array.Delayed) {
        return (
            <p className="mdb-operation mdb-waiting">
                {cockpit.format(_("$0 is waiting for another array on the same disks to finish."), actionLabel(action === "idle" ? "resync" : action))}
            </p>
        );
    }
    const check = fromVariants(array.Check);
    if (check.state === "paused" && (!action || action === "idle"))
        return <Alert variant="info" isInline isPlain className="mdb-operation mdb-check-paused" title={checkText(check)} />;
    if (!action || action === "idle")
        return <OperationEnd array={array} />;
    const known = array.Progress >= 0;
    // What the boost costs the users: said while a boost is in place.
    const cost = array.Boosted ? usersCost(fromVariants(array.Users)) : null;
    return (
        <div className="mdb-operation">
            <Progress value={known ? array.Progress : 0} title={actionLabel(action)}
                      label={known ? `${array.Progress.toFixed(1)} %` : _("starting")}
                      measureLocation={ProgressMeasureLocation.outside}
                      aria-label={cockpit.format(_("$0 progress of $1"), actionLabel(action), array.Name)} />
            <Flex className="mdb-operation-facts" spaceItems={{ default: "spaceItemsXl" }}>
                <FlexItem>
                    {_("Speed:")} <strong className="mdb-speed">{formatSpeed(array.Speed || 0)}</strong>
                    {array.Boosted && speedupText(array.Speed, array.SpeedBeforeBoost) &&
                        <span className="mdb-speedup"> ({speedupText(array.Speed, array.SpeedBeforeBoost)})</span>}
                </FlexItem>
                <FlexItem>
                    {_("Time left:")} <strong className="mdb-time-left">{formatDuration(array.TimeLeft)}</strong>
                    {finishText(array.TimeLeft) && <span className="mdb-finish"> ({finishText(array.TimeLeft)})</span>}
                </FlexItem>
                {cost &&
                    <FlexItem className="mdb-users">
                        {_("Users:")} <strong className="mdb-users-rate">{cost.value}</strong>
                        {cost.note && <span className="mdb-users-note"> ({cost.note})</span>}
                    </FlexItem>}
            </Flex>
        </div>
    );
};

// The settings a boost is about; the kernel's other fields (sector
// positions, worker threads, queue depths, the cache's use) are details,
// unless a boost changed one.
const MAIN_TUNABLES = ["sync_speed_min", "sync_speed_max", "stripe_cache_size", "read_ahead_kb", "sync_io_depth"];

function splitTunables(array) {
    const originals = array.Boosted ? (array.Originals || {}) : {};
    const names = Object.keys(array.Tunables || {}).sort(compareTunables);
    const main = names.filter(n => MAIN_TUNABLES.includes(n) || n in originals);
    return [main, names.filter(n => !main.includes(n))];
}

const Tunables = ({ array, names, label, className }) => {
    const originals = array.Boosted ? (array.Originals || {}) : {};
    return (
        <Table aria-label={label} className={className}>
            <Thead>
                <Tr>
                    <Th>{_("Setting")}</Th>
                    <Th>{_("In effect")}</Th>
                    {array.Boosted && <Th>{_("Before the boost")}</Th>}
                </Tr>
            </Thead>
            <Tbody>
                {names.map(name => (
                    <Tr key={name} data-tunable={name}>
                        <Td>{tunableLabel(name)}</Td>
                        <Td className="mdb-current"><TunableText name={name} text={array.Tunables[name]} /></Td>
                        {array.Boosted &&
                            <Td className="mdb-original">
                                {name in originals ? <TunableText name={name} text={originals[name]} /> : <span className="mdb-muted">{_("unchanged")}</span>}
                            </Td>}
                    </Tr>
                ))}
            </Tbody>
        </Table>
    );
};

// No redundancy left: the one thing on the card that cannot wait.
const RedundancyAlert = ({ array }) => {
    if (array.FailuresTolerated !== 0)
        return null;
    const since = array.NoRedundancySince > 0 ? array.NoRedundancySince / 1000 : 0;
    return (
        <Alert variant="danger" isInline className="mdb-no-redundancy"
               title={cockpit.format(_("$0 has no redundancy left"), array.Name)}>
            {_("One more failed disk loses the array.")}
            {since > 0 && " " + cockpit.format(_("Without redundancy since $0 ($1)."), formatTimestampMicro(array.NoRedundancySince),
                                               formatDuration(Math.max(60, (Date.now() - since) / 1000)))}
        </Alert>
    );
};

// What the governor of a `fast` boost does now and why.
const GovernorNote = ({ array }) => {
    const gov = fromVariants(array.Governor);
    const text = governorText(gov);
    if (!array.Boosted || !text)
        return null;
    return (
        <p className="mdb-governor" data-state={gov.state}>
            <strong>{_("Governor:")}</strong> {text}
        </p>
    );
};

const REBUILDS = ["resync", "recover", "recovery", "reshape"];

// After a rebuild, an array without a write-intent bitmap is told what one
// would have saved: md marks a region dirty before writing to it, so a
// member that comes back (mdadm --re-add) or an unclean stop needs only the
// dirty regions resynced, not the whole array.
const BitmapAdvice = ({ array }) => {
    const idle = !array.Action || array.Action === "idle";
    if (!array.CanBoost || array.HasBitmap !== false || !idle || array.Degraded > 0 ||
        !REBUILDS.includes(array.LastAction))
        return null;
    return (
        <Alert variant="info" isInline className="mdb-bitmap-advice"
               title={cockpit.format(_("$0 has no write-intent bitmap"), array.Name)}>
            <p>{_("With one, md marks each region before writing to it. When a member drops out for a while and is added back, or after a crash, md then resyncs only the regions written meanwhile instead of the whole array: minutes instead of hours. It costs some write speed, since every write first marks its region.")}</p>
            <p>{_("Add one as root with:")} <code className="mdb-bitmap-fix">{`mdadm --grow --bitmap=internal /dev/${array.Name}`}</code></p>
        </Alert>
    );
};

// A disabled button still has to say why; aria-disabled keeps it focusable
// so keyboard users reach the tooltip too.
const GuardedButton = ({ reason, children, ...props }) => {
    if (!reason)
        return <Button {...props}>{children}</Button>;
    return (
        <Tooltip content={reason}>
            <Button {...props} isAriaDisabled>{children}</Button>
        </Tooltip>
    );
};

// I/O accounting off on the md device (UserIo): who can no longer see the users, and the fix.
const UserIoAlert = ({ array }) => {
    if (array.UserIo !== "unseen" && array.UserIo !== "uncounted")
        return null;
    const unseen = array.UserIo === "unseen";
    const fix = `echo 1 > /sys/block/${array.Name}/queue/iostats`;
    return (
        <Alert variant="warning" isInline className="mdb-user-io"
               title={unseen ? _("md cannot see this array's users") : _("The fast profile cannot see this array's users")}>
            <p>
                {unseen
                    ? cockpit.format(_("I/O accounting is off on /dev/$0 (queue/iostats is 0). On this kernel md's rebuild throttle counts the users' I/O there, so it sees none and rebuilds at its full ceiling whatever they do; the fast profile cannot hold back for them either."), array.Name)
                    : cockpit.format(_("I/O accounting is off on /dev/$0 (queue/iostats is 0). md still yields to users it sees on the member disks, but the fast profile cannot see them to lower its ceiling."), array.Name)}
            </p>
            <p>{_("Turn it back on as root with:")} <code className="mdb-user-io-fix">{fix}</code></p>
        </Alert>
    );
};

export const ArrayCard = ({ client, path, array, admin, profiles, manager, first }) => {
    const [dialog, setDialog] = useState(false);
    const [policyDialog, setPolicyDialog] = useState(false);
    const [restoring, setRestoring] = useState(false);
    const [error, setError] = useState(null);
    const [details, setDetails] = useState(false);
    const [mainTunables, detailTunables] = splitTunables(array);
    const denied = admin ? null : _("Administrative access is required to change the array.");

    // Takes the array's persistent settings away: the service puts their originals back.
    const dropSettings = () => {
        setError(null);
        client.setSettings(array.Name, {}).catch(setError);
    };

    const restore = () => {
        setRestoring(true);
        setError(null);
        // NotBoosted: the boost ended by itself (its operation finished)
        // between the page's last update and the click; the card shows that.
        client.restore(path)
                .catch(err => {
                    if (err.name !== "org.mdboost.MdBoost1.Error.NotBoosted")
                        setError(err);
                })
                .finally(() => setRestoring(false));
    };

    const actions = (
        <Flex spaceItems={{ default: "spaceItemsSm" }}>
            {array.CanBoost &&
                <GuardedButton variant="primary" reason={denied} onClick={() => setDialog(true)}
                               className="mdb-boost"
                               aria-label={array.Boosted ? cockpit.format(_("Boost more: $0"), array.Name) : cockpit.format(_("Boost $0"), array.Name)}>
                    {array.Boosted ? _("Boost more") : _("Boost")}
                </GuardedButton>}
            {array.Boosted &&
                <GuardedButton variant="secondary" reason={denied} onClick={restore} isLoading={restoring}
                               className="mdb-restore" aria-label={cockpit.format(_("Restore $0"), array.Name)}>
                    {_("Restore")}
                </GuardedButton>}
        </Flex>
    );

    return (
        <Card className="mdb-array" id={`array-${array.Name}`} data-array={array.Name}
              data-boosted={array.Boosted ? "true" : "false"} component="article">
            <CardHeader actions={{ actions, hasNoOffset: true }}>
                <CardTitle component="h2" className="mdb-array-title">
                    <span className="mdb-array-name">{array.Name}</span>
                    <span className="mdb-muted mdb-array-sub">
                        {levelLabel(array.Level)} · {formatBytes(array.Size || 0)} · {cockpit.format(cockpit.ngettext("$0 disk", "$0 disks", array.RaidDisks), array.RaidDisks)}
                        {array.FailuresTolerated > 0 &&
                            <span className="mdb-tolerated">
                                {" · " + cockpit.format(cockpit.ngettext("survives $0 more failed disk", "survives $0 more failed disks", array.FailuresTolerated), array.FailuresTolerated)}
                            </span>}
                    </span>
                    <StateLabel array={array} />
                    {array.Boosted && <Label color="blue" className="mdb-boosted-label">{cockpit.format(_("Boosted: $0"), array.Profile)}</Label>}
                </CardTitle>
            </CardHeader>
            <CardBody>
                {!array.CanBoost && array.Level &&
                    <p className="mdb-muted mdb-no-boost">{_("This array has no redundancy, so it never rebuilds and cannot be boosted.")}</p>}
                {error && <ErrorAlert error={error} onClose={() => setError(null)} />}
                {array.Stuck &&
                    <Alert variant="danger" isInline className="mdb-stuck" title={_("The reshape is stuck")}>
                        {array.Stuck}
                    </Alert>}
                <RedundancyAlert array={array} />
                <UserIoAlert array={array} />
                <Operation array={array} />
                <BitmapAdvice array={array} />
                {array.Boosted &&
                    <p className="mdb-boost-info">
                        {cockpit.format(_("Boosted with the $0 profile since $1. The original values are shown beside the current ones."),
                                        array.Profile, formatTimestampMicro(array.BoostedSince))}
                    </p>}
                <GovernorNote array={array} />
                <div className="mdb-columns">
                    <section aria-label={_("Members")}>
                        <h3 className="mdb-section-title">{_("Members")}</h3>
                        <Members members={array.Members || []} />
                    </section>
                    <section aria-label={_("Tunables")}>
                        <h3 className="mdb-section-title">{_("Tunables")}</h3>
                        <Tunables array={array} names={mainTunables} className="mdb-tunables"
                                  label={cockpit.format(_("Tunables of $0"), array.Name)} />
                        {array.StripeCacheMemory > 0 &&
                            <DescriptionList isCompact isHorizontal className="mdb-facts">
                                <DescriptionListGroup>
                                    <DescriptionListTerm>{_("Stripe cache memory")}</DescriptionListTerm>
                                    <DescriptionListDescription>{formatBytes(array.StripeCacheMemory)}</DescriptionListDescription>
                                </DescriptionListGroup>
                            </DescriptionList>}
                        {array.CanBoost && array.Policy &&
                            <DescriptionList isCompact isHorizontal className="mdb-facts mdb-policy">
                                <DescriptionListGroup>
                                    <DescriptionListTerm>{_("Automatic boost")}</DescriptionListTerm>
                                    <DescriptionListDescription>
                                        {policyText(array.Policy)}{" "}
                                        <GuardedButton variant="link" isInline reason={denied} className="mdb-policy-change"
                                                       onClick={() => setPolicyDialog(true)}
                                                       aria-label={cockpit.format(_("Change the automatic boost of $0"), array.Name)}>
                                            {_("Change")}
                                        </GuardedButton>
                                    </DescriptionListDescription>
                                </DescriptionListGroup>
                            </DescriptionList>}
                        {array.Settings && array.Settings.length > 0 &&
                            <DescriptionList isCompact isHorizontal className="mdb-facts mdb-settings">
                                <DescriptionListGroup>
                                    <DescriptionListTerm>{_("Persistent settings")}</DescriptionListTerm>
                                    <DescriptionListDescription>
                                        <span className="mdb-settings-text">{settingsText(array.Settings)}</span>{" "}
                                        <GuardedButton variant="link" isInline reason={denied} className="mdb-settings-drop"
                                                       onClick={dropSettings}
                                                       aria-label={cockpit.format(_("Take away the persistent settings of $0"), array.Name)}>
                                            {_("Take away")}
                                        </GuardedButton>
                                    </DescriptionListDescription>
                                </DescriptionListGroup>
                            </DescriptionList>}
                        <ExpandableSection className="mdb-details" isExpanded={details}
                                           onToggle={(_event, open) => setDetails(open)}
                                           toggleText={details ? _("Hide the kernel's details") : _("Show the kernel's details")}>
                            {detailTunables.length > 0 &&
                                <Tunables array={array} names={detailTunables} className="mdb-tunables mdb-detail-tunables"
                                          label={cockpit.format(_("Kernel details of $0"), array.Name)} />}
                            {array.UUID &&
                                <DescriptionList isCompact isHorizontal className="mdb-facts">
                                    <DescriptionListGroup>
                                        <DescriptionListTerm>{_("UUID")}</DescriptionListTerm>
                                        <DescriptionListDescription><code className="mdb-uuid">{array.UUID}</code></DescriptionListDescription>
                                    </DescriptionListGroup>
                                </DescriptionList>}
                        </ExpandableSection>
                    </section>
                </div>
                {array.CanBoost && <History array={array} systemFloor={manager.SpeedLimitMin || 0} helpExpanded={first} />}
                <Reports client={client} array={array} />
            </CardBody>
            {dialog &&
                <BoostDialog client={client} path={path} array={array} profiles={profiles}
                             budget={manager.MemoryBudget || 0} onClose={() => setDialog(false)} />}
            {policyDialog &&
                <PolicyDialog client={client} array={array} defaults={manager.DefaultPolicy || {}}
                              onClose={() => setPolicyDialog(false)} />}
        </Card>
    );
};
