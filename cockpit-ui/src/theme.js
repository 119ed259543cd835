// Follows Cockpit's light/dark choice. The shell keeps it in localStorage
// ("shell:style": "light", "dark" or "auto", auto following the browser);
// pages share the shell's origin, so a change reaches them as a "storage"
// event. PatternFly 5 switches its colours with the pf-v5-theme-dark class.
function isDark(style) {
    const prefersDark = window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches;
    return style === "dark" || (style === "auto" && prefersDark);
}

function apply() {
    let style = "auto";
    try {
        style = window.localStorage.getItem("shell:style") || "auto";
    } catch (err) {
        // storage can be disabled; the browser's preference applies
    }
    document.documentElement.classList.toggle("pf-v5-theme-dark", isDark(style));
}

export function followCockpitTheme() {
    apply();
    window.addEventListener("storage", event => {
        if (event.key === "shell:style")
            apply();
    });
    if (window.matchMedia)
        window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", apply);
}
