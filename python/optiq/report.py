"""Plain-text reports: the comparison table and the link-load histogram."""

from __future__ import annotations

import math

MB = 1e6


def _fmt(value, spec: str) -> str:
    return "-" if value is None else format(value, spec)


def comparison_table(rows: list[dict]) -> str:
    """Rows carry: label, paths, ppj_max, ppj_avg, ppl_max, ppl_avg, max_mb, and optionally
    hops_max, hops_avg, time_ms, gbps, seconds. Missing values print as '-'."""
    head1 = f"{'':<18}{'paths':>7} {'per job':>11} {'per link':>11} {'max link':>9} {'hops':>10} {'predicted':>17} {'plan':>8}"
    head2 = f"{'':<18}{'total':>7} {'max':>5} {'avg':>5} {'max':>5} {'avg':>5} {'MB':>9} {'max':>4} {'avg':>5} {'ms':>8} {'GB/s':>8} {'s':>8}"
    lines = [head1, head2, "-" * len(head2)]
    for r in rows:
        lines.append(
            f"{r['label']:<18}{_fmt(r.get('paths'), 'd'):>7} {_fmt(r.get('ppj_max'), 'd'):>5} "
            f"{_fmt(r.get('ppj_avg'), '.2f'):>5} {_fmt(r.get('ppl_max'), 'd'):>5} {_fmt(r.get('ppl_avg'), '.2f'):>5} "
            f"{_fmt(r.get('max_mb'), '.2f'):>9} {_fmt(r.get('hops_max'), 'd'):>4} {_fmt(r.get('hops_avg'), '.2f'):>5} "
            f"{_fmt(r.get('time_ms'), '.2f'):>8} {_fmt(r.get('gbps'), '.1f'):>8} {_fmt(r.get('seconds'), '.3f'):>8}"
        )
    return "\n".join(lines)


def text_table(rows: list[dict]) -> str:
    """Rows of equal keys as aligned columns: the first left-aligned, the others right-aligned."""
    if not rows:
        return ""
    keys = list(rows[0])
    cells = [[str(r[k]) for k in keys] for r in rows]
    widths = [max(len(k), *(len(c[i]) for c in cells)) for i, k in enumerate(keys)]

    def line(values):
        return "  ".join(v.ljust(w) if i == 0 else v.rjust(w) for i, (v, w) in enumerate(zip(values, widths)))

    return "\n".join([line(keys), "-" * len(line(keys))] + [line(c) for c in cells])


def metrics_row(metrics, label: str, seconds: float | None = None) -> dict:
    m = metrics
    return {
        "label": label,
        "paths": m.paths, "ppj_max": m.paths_per_job_max, "ppj_avg": m.paths_per_job_avg,
        "ppl_max": m.paths_per_link_max, "ppl_avg": m.paths_per_link_avg,
        "max_mb": m.link_bytes_max / MB, "hops_max": m.hops_max, "hops_avg": m.hops_avg,
        "time_ms": m.predicted_seconds * 1e3 if m.predicted_seconds > 0 else None,
        "gbps": m.predicted_throughput / 1e9 if m.predicted_throughput > 0 else None,
        "seconds": seconds,
    }


def result_row(result, label: str | None = None) -> dict:
    return metrics_row(result.metrics, label or result.planner, result.seconds)


def thesis_row(label: str, published: tuple) -> dict:
    gbps, paths, ppj_max, ppj_avg, ppl_max, ppl_avg, max_mb = published
    return {"label": label, "paths": paths, "ppj_max": ppj_max, "ppj_avg": ppj_avg, "ppl_max": ppl_max,
            "ppl_avg": ppl_avg, "max_mb": max_mb, "gbps": gbps}


def load_histogram(named_loads: dict[str, list[int]], bins: int = 10, width: int = 30) -> str:
    """Histogram of bytes per used link, one column of counts per plan, with a bar for the last."""
    used = {name: [x for x in loads if x > 0] for name, loads in named_loads.items()}
    top = max((max(v) for v in used.values() if v), default=0)
    if top == 0:
        return "link-load histogram: no link carries data"
    step = top / bins
    names = list(used)
    counts = {name: [0] * bins for name in names}
    for name, loads in used.items():
        for x in loads:
            counts[name][min(bins - 1, int(x / step))] += 1
    header = f"{'link load (MB)':<19}" + "".join(f"{n[:10]:>11}" for n in names)
    lines = ["links per load range (used links only)", header]
    biggest = max(max(c) for c in counts.values()) or 1
    for b in range(bins):
        lo, hi = b * step / MB, (b + 1) * step / MB
        row = f"{lo:8.2f}-{hi:<9.2f} " + "".join(f"{counts[n][b]:>11d}" for n in names)
        bar = "#" * math.ceil(width * counts[names[-1]][b] / biggest) if counts[names[-1]][b] else ""
        lines.append(f"{row}  {bar}")
    return "\n".join(lines)
