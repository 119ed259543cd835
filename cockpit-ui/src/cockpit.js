// cockpit.js is loaded by index.html from ../base1/cockpit.js and defines a
// global; the modules import it from here so there is one place that knows.
const cockpit = window.cockpit;
export default cockpit;
export const _ = cockpit.gettext;
