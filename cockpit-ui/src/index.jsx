import React from "react";
import { createRoot } from "react-dom/client";

import "@patternfly/react-core/dist/styles/base.css";
import "./fonts.css";
import "./app.css";

import { App } from "./app.jsx";
import { MdBoostClient } from "./client.js";
import { followCockpitTheme } from "./theme.js";

document.addEventListener("DOMContentLoaded", () => {
    followCockpitTheme();
    const client = new MdBoostClient();
    createRoot(document.getElementById("app")).render(<App client={client} />);
});
