"""Column generation for the path LP, with a dual bound at every iteration.

Any non-negative link weights y (and node weights z) give a lower bound on the optimum:
``(sum_j d_j * cheapest_j(y, z) + sum_l y_l u_l) / (sum_l w_l y_l + phi * sum_v z_v)`` (weak
duality; u_l the bytes other classes put ahead on link l, master.py), and so does the time
of the most preloaded link alone. With
the master's duals and exact pricing this bound closes on the optimum; the loop stops when the
relative gap between the master's value and the best bound is below the tolerance, or when no
column prices out.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from .master import PathMaster


@dataclass
class ColumnGenerationResult:
    value: float  # the restricted master's optimum T
    bound: float  # best proven lower bound on T over the priced path set
    iterations: int
    columns: int
    seconds: float

    @property
    def gap(self) -> float:
        return 0.0 if self.value <= 0 else max(0.0, (self.value - self.bound) / self.value)


def solve(master: PathMaster, price, tolerance: float, max_iterations: int, progress=None,
          stage: str = "lp") -> ColumnGenerationResult:
    """``price(y, z) -> [(cost, links, inner_nodes, extra)]`` per job: the cheapest allowed path,
    and ``extra``, more (links, inner_nodes, cost) columns worth adding with it (may be empty)."""
    start = time.perf_counter()
    best_bound = master.floor
    iterations = 0
    last_note = start
    while True:
        iterations += 1
        value, _, pi, y, z = master.solve()
        priced = price(y, z)
        scale = sum(master.link_weight[l] * v for l, v in y.items())
        if master.forward_weight is not None:
            scale += master.forward_weight * sum(z.values())
        costs = np.array([p[0] for p in priced])
        if scale > 0:
            ahead = sum(v * master.preload[l] for l, v in y.items())
            best_bound = max(best_bound, (float(np.dot(master.demands, costs)) + ahead) / scale)
        elif value <= 1e-15:
            best_bound = value
        best_bound = min(best_bound, value)
        result = ColumnGenerationResult(value, best_bound, iterations, len(master.columns),
                                        time.perf_counter() - start)
        done = result.gap <= tolerance or iterations >= max_iterations
        if progress is not None and (done or time.perf_counter() - last_note >= 1.0):
            last_note = time.perf_counter()
            progress.note(f"{stage}: iteration {iterations}, objective {value:.6g}, bound {best_bound:.6g}, "
                          f"gap {result.gap:.2e}, {len(master.columns)} paths")
        if done:
            return result
        added = 0
        for j, (cost, links, inner, extra) in enumerate(priced):
            limit = pi[j] * (1 - 1e-9) - 1e-12
            if np.isfinite(cost) and master.demands[j] * cost < limit:
                added += master.add_column(j, links, inner)
                for more_links, more_inner, more_cost in extra:
                    if master.demands[j] * more_cost < limit:
                        added += master.add_column(j, more_links, more_inner)
        if added == 0:  # nothing prices out: the master is optimal over the priced set
            result.bound = max(result.bound, value * (1 - 1e-9))
            return result
