// The page: the service's state decides between a message and the array cards.
import React, { useEffect, useState } from "react";
import {
    Alert, Bullseye, Button, CodeBlock, CodeBlockCode, EmptyState, EmptyStateBody, EmptyStateHeader,
    EmptyStateIcon, Flex, Page, PageSection, Spinner, Text, TextContent, Title,
} from "./pf.js";

import ExclamationCircleIcon from "@patternfly/react-icons/dist/esm/icons/exclamation-circle-icon";
import HddIcon from "@patternfly/react-icons/dist/esm/icons/hdd-icon";

import cockpit, { _ } from "./cockpit.js";
import { ArrayCard } from "./array-card.jsx";
import { formatSpeed } from "./format.js";

const FALLBACK_PROFILES = [
    { name: "fast", description: _("Faster rebuild; other I/O stays responsive") },
    { name: "max", description: _("Fastest rebuild; other I/O slows down") },
];

function useClientState(client) {
    const [state, setState] = useState(client.state);
    useEffect(() => client.subscribe(setState), [client]);
    return state;
}

// Whether the session has administrative access; when it changes (the
// "Limited access" button), the client reopens its channel with the new identity.
function useAdmin(client) {
    const [allowed, setAllowed] = useState(null);
    useEffect(() => {
        const permission = cockpit.permission({ admin: true });
        let last = null;
        const update = () => {
            if (last !== null && permission.allowed !== null && permission.allowed !== last)
                client.reconnect();
            if (permission.allowed !== null)
                last = permission.allowed;
            setAllowed(permission.allowed);
        };
        permission.addEventListener("changed", update);
        update();
        return () => permission.close();
    }, [client]);
    return allowed;
}

function useProfiles(client, ready) {
    const [profiles, setProfiles] = useState(FALLBACK_PROFILES);
    useEffect(() => {
        if (ready)
            client.getProfiles().then(setProfiles, () => setProfiles(FALLBACK_PROFILES));
    }, [client, ready]);
    return profiles;
}

const ServiceMissing = ({ client, problem }) => (
    <EmptyState id="mdb-service-missing">
        <EmptyStateHeader titleText={_("The mdboost service is not running")} headingLevel="h2"
                          icon={<EmptyStateIcon icon={ExclamationCircleIcon} />} />
        <EmptyStateBody>
            <p>{_("This page shows md arrays through the mdboostd service. Start it with:")}</p>
            <CodeBlock className="mdb-code"><CodeBlockCode>sudo systemctl start mdboostd</CodeBlockCode></CodeBlock>
            {problem && <p className="mdb-muted">{problem.message || problem.problem || String(problem)}</p>}
            <Button variant="secondary" onClick={() => client.reload()}>{_("Try again")}</Button>
        </EmptyStateBody>
    </EmptyState>
);

const NoArrays = () => (
    <EmptyState id="mdb-no-arrays">
        <EmptyStateHeader titleText={_("No RAID arrays")} headingLevel="h2"
                          icon={<EmptyStateIcon icon={HddIcon} />} />
        <EmptyStateBody>
            <p>{_("This machine has no md software RAID arrays. An array appears here as soon as the kernel assembles it, for example with:")}</p>
            <CodeBlock className="mdb-code"><CodeBlockCode>sudo mdadm --assemble --scan</CodeBlockCode></CodeBlock>
        </EmptyStateBody>
    </EmptyState>
);

const Header = ({ manager }) => (
    <Flex justifyContent={{ default: "justifyContentSpaceBetween" }} alignItems={{ default: "alignItemsFlexEnd" }}>
        <TextContent>
            <Title headingLevel="h1">{_("RAID rebuild")}</Title>
            <Text component="p" className="mdb-muted">
                {_("Watch md arrays resync, rebuild and reshape; boost a rebuild and restore the original settings.")}
            </Text>
        </TextContent>
        {manager.SpeedLimitMax !== undefined &&
            <Text component="p" className="mdb-muted mdb-system-limits">
                {cockpit.format(_("System rebuild limits: floor $0, ceiling $1"),
                                formatSpeed(manager.SpeedLimitMin), formatSpeed(manager.SpeedLimitMax))}
            </Text>}
    </Flex>
);

export const App = ({ client }) => {
    const state = useClientState(client);
    const admin = useAdmin(client);
    const profiles = useProfiles(client, state.status === "ready");
    const paths = Object.keys(state.arrays).sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));

    let content;
    if (state.status === "connecting") {
        content = <Bullseye><Spinner aria-label={_("Connecting to the mdboost service")} /></Bullseye>;
    } else if (state.status === "missing") {
        content = <ServiceMissing client={client} problem={state.problem} />;
    } else if (paths.length === 0) {
        content = <NoArrays />;
    } else {
        content = paths.map((path, index) => (
            <ArrayCard key={path} client={client} path={path} array={state.arrays[path]} first={index === 0}
                       admin={admin === true} profiles={profiles} manager={state.manager} />
        ));
    }

    return (
        <Page>
            <PageSection variant="light" className="mdb-header">
                <Header manager={state.manager} />
            </PageSection>
            <PageSection className="mdb-body">
                {admin === false && state.status === "ready" && paths.length > 0 &&
                    <Alert variant="info" isInline id="mdb-limited" className="mdb-limited"
                           title={_("Boost and Restore need administrative access")}>
                        {_("You can watch the arrays. To change them, switch to administrative access with the button at the top of the page.")}
                    </Alert>}
                {state.manager.JournalProblem &&
                    <Alert variant="danger" isInline id="mdb-journal-problem"
                           title={_("The boost journal cannot be written")}>
                        {state.manager.JournalProblem}
                    </Alert>}
                {content}
            </PageSection>
        </Page>
    );
};
