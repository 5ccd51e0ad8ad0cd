"""From LP fractions to a plan of whole bytes, under practical limits on paths."""

from __future__ import annotations

import numpy as np


def whole_bytes(total: int, shares: list[float]) -> list[int]:
    """Split ``total`` bytes in proportion to ``shares``: whole numbers summing exactly to
    ``total``; leftover bytes go to the largest remainders (ties: the earlier path)."""
    weights = np.maximum(np.asarray(shares, dtype=float), 0.0)
    if weights.sum() <= 0:
        weights = np.ones(len(shares))
    exact = weights / weights.sum() * total
    out = np.floor(exact).astype(np.int64)
    leftover = int(total - out.sum())
    order = sorted(range(len(shares)), key=lambda i: (-(exact[i] - out[i]), i))
    for i in order[:leftover]:
        out[i] += 1
    return [int(b) for b in out]


def select_columns(job_bytes: np.ndarray, columns: list, values: np.ndarray, max_paths: int | None,
                   min_bytes: int) -> set[int]:
    """Columns a practical plan keeps: per job its largest shares, at most ``max_paths`` of them,
    none carrying fewer than ``min_bytes`` (but always at least the largest)."""
    by_job: dict[int, list[int]] = {}
    for i, (job, _) in enumerate(columns):
        if values[i] > 1e-12:
            by_job.setdefault(job, []).append(i)
    keep: set[int] = set()
    for job, cols in by_job.items():
        cols.sort(key=lambda i: (-values[i], i))
        chosen = [c for c in cols if values[c] * job_bytes[job] >= min_bytes] or cols[:1]
        if max_paths is not None:
            chosen = chosen[:max_paths]
        keep.update(chosen)
    return keep


def merge_small(byte_split: list[int], min_bytes: int) -> list[int]:
    """Moves the bytes of paths below ``min_bytes`` onto the job's largest path."""
    if len(byte_split) <= 1:
        return byte_split
    largest = max(range(len(byte_split)), key=lambda i: (byte_split[i], -i))
    out = list(byte_split)
    for i, b in enumerate(byte_split):
        if i != largest and b < min_bytes:
            out[largest] += b
            out[i] = 0
    return out
