"""Which LP columns a practical plan keeps."""

from __future__ import annotations

import numpy as np


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
