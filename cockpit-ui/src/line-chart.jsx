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

// A round step (1, 2 or 5 times a power of ten) of about a quarter of
// @value, and the top of the axis: the first multiple of it at or above.
export function niceAxis(value) {
    if (!(value > 0))
        return { step: 0.25, top: 1 };
    const raw = value / 4;
    const magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
    const step = [1, 2, 5, 10].map(f => f * magnitude).find(s => s >= raw);
    return { step, top: Math.ceil(value / step - 1e-9) * step };
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

function present(values) {
    return values.filter(v => v !== null && !Number.isNaN(v));
}

function timeOfDay(t) {
    return new Date(t * 1000).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

// series: [{ name, label, values, className, scales }]; bands: booleans per
// sample. The series marked `scales` (the rebuild's speed) set the axis; a
// limit far above them (a boosted floor or ceiling) runs along the top edge
// with a marker that gives its value, instead of squashing the speed line.
export const LineChart = ({ title, times, series, bands, maxValue, formatY, bandLabel }) => {
    const ref = useRef(null);
    const width = useWidth(ref);
    const n = times.length;
    const plotW = width - PAD.left - PAD.right;
    const plotH = HEIGHT - PAD.top - PAD.bottom;
    const scaling = series.some(s => s.scales && present(s.values).length > 0) ? series.filter(s => s.scales) : series;
    const highest = Math.max(0, ...scaling.flatMap(s => present(s.values)));
    const axis = maxValue ? { step: maxValue / 4, top: maxValue } : niceAxis(highest * 1.15);
    const top = axis.top;
    const x = i => PAD.left + (n > 1 ? (i / (n - 1)) * plotW : 0);
    const y = v => PAD.top + plotH - (Math.min(v, top) / top) * plotH;
    const step = n > 1 ? plotW / (n - 1) : plotW;
    const span = n > 1 ? times[n - 1] - times[0] : 0;
    const ticks = [];
    for (let v = 0; v <= top + 1e-9; v += axis.step)
        ticks.push(v);
    const xticks = n > 1 ? [0, Math.floor((n - 1) / 3), Math.floor((2 * (n - 1)) / 3), n - 1] : [];
    // The last value of each series above the axis: drawn at the top, and named.
    const clipped = series.map(s => {
        const last = present(s.values).slice(-1)[0];
        return last > top ? { ...s, last } : null;
    }).filter(Boolean);

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
                {ticks.map(v => (
                    <g key={v}>
                        <line className="mdb-chart-grid" x1={PAD.left} x2={PAD.left + plotW}
                              y1={y(v)} y2={y(v)} />
                        <text className="mdb-chart-axis" x={PAD.left - 6} y={y(v) + 4}
                              textAnchor="end">{formatY(v)}</text>
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
                {clipped.map((s, i) => (
                    <text key={s.name} className={"mdb-chart-clip " + s.className} data-series={s.name}
                          x={PAD.left + plotW - 4} y={PAD.top + 12 + 13 * i} textAnchor="end">
                        {`${s.label} ${formatY(s.last)} ↑`}
                    </text>
                ))}
                {/* One strip per sample: hovering it shows every series' value then. */}
                {n > 1 && times.map((t, i) => (
                    <rect key={t} className="mdb-chart-hover" x={x(i) - step / 2} y={PAD.top}
                          width={step} height={plotH}>
                        <title>
                            {[timeOfDay(t), ...series.map(s => `${s.label}: ${
                                s.values[i] === null || Number.isNaN(s.values[i]) ? "–" : formatY(s.values[i])}`)].join("\n")}
                        </title>
                    </rect>
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
