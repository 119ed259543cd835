// PatternFly's table look without @patternfly/react-table: the page's tables
// are small and static, so the stylesheet and plain elements are enough.
import React from "react";
import "@patternfly/react-styles/css/components/Table/table.css";

export const Table = ({ className, children, ...props }) => (
    <table className={"pf-v5-c-table pf-m-compact pf-m-no-border-rows " + (className || "")} {...props}>
        {children}
    </table>
);
export const Thead = ({ children }) => <thead className="pf-v5-c-table__thead">{children}</thead>;
export const Tbody = ({ children }) => <tbody className="pf-v5-c-table__tbody">{children}</tbody>;
export const Tr = ({ children, ...props }) => <tr className="pf-v5-c-table__tr" {...props}>{children}</tr>;
export const Th = ({ children }) => <th className="pf-v5-c-table__th" scope="col">{children}</th>;
export const Td = ({ children, ...props }) => <td className="pf-v5-c-table__td" {...props}>{children}</td>;
