// The PatternFly components the page uses, imported from their own modules:
// esbuild bundles the stylesheet of every module the package index touches,
// so importing from "@patternfly/react-core" would ship the CSS of all of
// PatternFly (1.3 MB) instead of these.
export { Alert, AlertActionCloseButton } from "@patternfly/react-core/dist/esm/components/Alert/index.js";
export { Button } from "@patternfly/react-core/dist/esm/components/Button/index.js";
export { Card, CardBody, CardHeader, CardTitle } from "@patternfly/react-core/dist/esm/components/Card/index.js";
export { CodeBlock, CodeBlockCode } from "@patternfly/react-core/dist/esm/components/CodeBlock/index.js";
export {
    DescriptionList, DescriptionListDescription, DescriptionListGroup, DescriptionListTerm,
} from "@patternfly/react-core/dist/esm/components/DescriptionList/index.js";
export {
    EmptyState, EmptyStateBody, EmptyStateHeader, EmptyStateIcon,
} from "@patternfly/react-core/dist/esm/components/EmptyState/index.js";
export { ExpandableSection } from "@patternfly/react-core/dist/esm/components/ExpandableSection/index.js";
export { Label, LabelGroup } from "@patternfly/react-core/dist/esm/components/Label/index.js";
export { Modal, ModalVariant } from "@patternfly/react-core/dist/esm/components/Modal/index.js";
export { Page, PageSection } from "@patternfly/react-core/dist/esm/components/Page/index.js";
export { Progress, ProgressMeasureLocation } from "@patternfly/react-core/dist/esm/components/Progress/index.js";
export { Radio } from "@patternfly/react-core/dist/esm/components/Radio/index.js";
export { Spinner } from "@patternfly/react-core/dist/esm/components/Spinner/index.js";
export { Text, TextContent } from "@patternfly/react-core/dist/esm/components/Text/index.js";
export { Title } from "@patternfly/react-core/dist/esm/components/Title/index.js";
export { ToggleGroup, ToggleGroupItem } from "@patternfly/react-core/dist/esm/components/ToggleGroup/index.js";
export { Tooltip } from "@patternfly/react-core/dist/esm/components/Tooltip/index.js";
export { Bullseye } from "@patternfly/react-core/dist/esm/layouts/Bullseye/index.js";
export { Flex, FlexItem } from "@patternfly/react-core/dist/esm/layouts/Flex/index.js";
