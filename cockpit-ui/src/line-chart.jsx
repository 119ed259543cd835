// A small inline SVG line chart: time on x, one or more series on y, and
// shaded bands (the boosted periods). No charting library: the page stays light.
import React, { useEffect, useRef, useState } from "react";

const HEIGHT = 180;
const PAD = { left: 64, right: 12, top: 10, bottom: 24 };

function useWidth(ref) {
    const [width, setWidth] = useState(600);
    useEffect(() => {
        const el = ref.current;
        if (!el)
            return undefined;
        const observer = new ResizeObserver(entries => {
            const w = Math.floor(entries[0].contentRect.width);
            if (w > 0)
                setWidth(w);
        });
        observer.observe(el);
        return () => observer.disconnect();
    }, [ref]);
    return width;
}

function niceMax(value) {
    if (!(value > 0))
        return 1;
    const magnitude = Math.pow(10, Math.floor(Math.log10(value)));
    for (const f of [1, 2, 2.5, 5, 10]) {
        if (f * magnitude >= value)
            return f * magnitude;
    }
    return 10 * magnitude;
}

function pathFor(values, x, y) {
    let d = "";
    let pen = false;
    values.forEach((v, i) => {
        if (v === null || Number.isNaN(v)) {
            pen = false;
            return;
        }
        d += `${pen ? "L" : "M"}${x(i).toFixed(1)},${y(v).toFixed(1)}`;
        pen = true;
    });
    return d;
}

function bandRects(mask, x, step) {
    const rects = [];
    let from = -1;
    mask.forEach((on, i) => {
        if (on && from < 0)
            from = i;
        if ((!on || i === mask.length - 1) && from >= 0) {
            const to = on ? i : i - 1;
            rects.push([x(from) - step / 2, x(to) + step / 2]);
            from = -1;
        }
    });
    return rects;
}

function timeLabel(t, span) {
    const d = new Date(t * 1000);
    if (span > 2 * 86400)
        return d.toLocaleDateString(undefined, { weekday: "short", day: "numeric" });
    return d.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });
}

// series: [{ name, label, values, className }]; bands: booleans per sample.
export const LineChart = ({ title, times, series, bands, maxValue, formatY, bandLabel }) => {
    const ref = useRef(null);
    const width = useWidth(ref);
    const n = times.length;
    const plotW = width - PAD.left - PAD.right;
    const plotH = HEIGHT - PAD.top - PAD.bottom;
    const all = series.flatMap(s => s.values).filter(v => v !== null && !Number.isNaN(v));
    const top = maxValue || niceMax(Math.max(0, ...all));
    const x = i => PAD.left + (n > 1 ? (i / (n - 1)) * plotW : 0);
    const y = v => PAD.top + plotH - (Math.min(v, top) / top) * plotH;
    const step = n > 1 ? plotW / (n - 1) : plotW;
    const span = n > 1 ? times[n - 1] - times[0] : 0;
    const ticks = [0, 0.25, 0.5, 0.75, 1];
    const xticks = n > 1 ? [0, Math.floor((n - 1) / 3), Math.floor((2 * (n - 1)) / 3), n - 1] : [];

    return (
        <figure className="mdb-chart" ref={ref}>
            <svg width={width} height={HEIGHT} role="img" aria-label={title}>
                <title>{title}</title>
                {bandRects(bands || [], x, step).map(([a, b]) => (
                    <rect key={a} className="mdb-chart-band" x={Math.max(a, PAD.left)} y={PAD.top}
                          width={Math.max(1, Math.min(b, PAD.left + plotW) - Math.max(a, PAD.left))}
                          height={plotH}>
                        <title>{bandLabel}</title>
                    </rect>
                ))}
                {ticks.map(f => (
                    <g key={f}>
                        <line className="mdb-chart-grid" x1={PAD.left} x2={PAD.left + plotW}
                              y1={y(f * top)} y2={y(f * top)} />
                        <text className="mdb-chart-axis" x={PAD.left - 6} y={y(f * top) + 4}
                              textAnchor="end">{formatY(f * top)}</text>
                    </g>
                ))}
                {xticks.map(i => (
                    <text key={i} className="mdb-chart-axis" x={x(i)} y={HEIGHT - 6}
                          textAnchor={i === 0 ? "start" : i === n - 1 ? "end" : "middle"}>
                        {timeLabel(times[i], span)}
                    </text>
                ))}
                {series.map(s => (
                    <path key={s.name} className={"mdb-chart-line " + s.className}
                          d={pathFor(s.values, x, y)} data-series={s.name} />
                ))}
            </svg>
            <figcaption className="mdb-chart-legend">
                {series.map(s => (
                    <span key={s.name} className={"mdb-legend-item " + s.className}>
                        <span className="mdb-legend-swatch" aria-hidden="true" />{s.label}
                    </span>
                ))}
                {bands && bands.some(Boolean) &&
                    <span className="mdb-legend-item mdb-legend-boost">
                        <span className="mdb-legend-swatch" aria-hidden="true" />{bandLabel}
                    </span>}
            </figcaption>
        </figure>
    );
};
