"""The restricted master LP of the path formulation.

    minimise   T
    subject to sum_p f[j,p] = 1                                  for every job j
               sum_{(j,p) through l} d_j f[j,p] <= w_l T        for every link l
               sum_{(j,p) passing v} d_j f[j,p] <= phi T        for every node v (optional)
               f >= 0

d_j is job j's bytes over the largest job's bytes, w_l the link's capacity over the largest
capacity, phi the forwarding capacity over the largest link capacity. Bytes other classes put
ahead on a link (PlannerOptions.link_preload, in the same unit as d_j: u_l) join its row,
``sum d_j f[j,p] + u_l <= w_l T``, and bound T from below on links no column touches. T times the largest
job's bytes is then the load of the busiest (capacity-normalised) link.
Rows of links and nodes appear when a column first touches them: a link no path uses cannot
bind, and its dual is zero.
"""

from __future__ import annotations

import numpy as np
import highspy

from .. import _core
from .solver import new_solver

INF = highspy.kHighsInf


class PathMaster:
    def __init__(self, demands: np.ndarray, link_weight: np.ndarray, forward_weight: float | None,
                 preload: np.ndarray | None = None):
        self.h = new_solver()
        self.h.setOptionValue("random_seed", 0)
        # Column generation adds columns to a solved model: primal simplex restarts from the
        # previous basis, and presolve would throw that basis away (measured: 2x faster).
        self.h.setOptionValue("simplex_strategy", 4)
        self.h.setOptionValue("presolve", "off")
        self.demands = demands
        self.link_weight = link_weight
        self.forward_weight = forward_weight
        self.preload = np.zeros(len(link_weight)) if preload is None else np.asarray(preload, dtype=float)
        # T: no less than the time any link needs for the bytes already ahead on it.
        self.floor = float(np.max(self.preload / link_weight, initial=0.0))
        self.h.addCol(1.0, self.floor, INF, 0, np.empty(0, np.int32), np.empty(0))  # T
        for _ in range(len(demands)):
            self.h.addRow(1.0, 1.0, 0, np.empty(0, np.int32), np.empty(0))
        self.link_row: dict[int, int] = {}
        self.node_row: dict[int, int] = {}
        self.rows = len(demands)
        self.columns: list[tuple[int, tuple[int, ...]]] = []
        self.known: set[tuple[int, tuple[int, ...]]] = set()

    def _row(self, table: dict[int, int], key: int, weight: float, preload: float = 0.0) -> int:
        row = table.get(key)
        if row is None:
            self.h.addRow(-INF, -preload, 1, np.array([0], np.int32), np.array([-weight]))
            row = table[key] = self.rows
            self.rows += 1
        return row

    def add_column(self, job: int, links: tuple[int, ...], inner_nodes: tuple[int, ...] = ()) -> bool:
        key = (job, links)
        if key in self.known:
            return False
        self.known.add(key)
        d = float(self.demands[job])
        index = [job] + [self._row(self.link_row, l, float(self.link_weight[l]), float(self.preload[l])) for l in links]
        if self.forward_weight is not None:
            index += [self._row(self.node_row, v, self.forward_weight) for v in inner_nodes]
        values = [1.0] + [d] * (len(index) - 1)
        self.h.addCol(0.0, 0.0, INF, len(index), np.array(index, np.int32), np.array(values))
        self.columns.append(key)
        return True

    def solve(self):
        """Returns (T, column values, job duals, link duals {link: y}, node duals {node: z})."""
        run_status = self.h.run()
        status = self.h.getModelStatus()
        if run_status == highspy.HighsStatus.kError or status != highspy.HighsModelStatus.kOptimal:
            # The master is feasible and bounded by construction: any other outcome is the
            # solver's failure (limits, numerical trouble), reported as such.
            raise _core.Error(f"HiGHS did not solve the path LP: model status "
                              f"'{self.h.modelStatusToString(status)}', run status {run_status}")
        sol = self.h.getSolution()
        values = np.asarray(sol.col_value)
        duals = np.asarray(sol.row_dual)
        n = len(self.demands)
        y = {l: max(0.0, -duals[r]) for l, r in self.link_row.items()}
        z = {v: max(0.0, -duals[r]) for v, r in self.node_row.items()}
        return float(values[0]), values[1:], duals[:n], y, z

    def fix_columns(self, keep: set[int]) -> None:
        """Forbid every column not in ``keep`` (indices into self.columns)."""
        for i in range(len(self.columns)):
            if i not in keep:
                self.h.changeColBounds(i + 1, 0.0, 0.0)
