"""A plan's metrics under the fluid model its planner optimised.

The core's metrics count links only: the predicted time is the busiest link's bytes over its
capacity. With a forwarding capacity (``--forward-bandwidth``) the optimising planners (opt,
optimal, mcf) also charge every node a path passes through for the bytes it relays, at that
rate, and prove their bounds in that model. :class:`PlanMetrics` applies the same model to
every plan, so a bound and the time it bounds are always comparable.
"""

from __future__ import annotations

from . import _core

METRIC_KEYS = (
    "paths", "paths_per_job_max", "paths_per_job_avg", "paths_per_link_max", "paths_per_link_avg",
    "link_bytes_max", "hops_max", "hops_avg", "total_bytes", "predicted_seconds", "predicted_throughput",
)


def relay_loads(plan: _core.Plan, network: _core.Network):
    """Bytes each vertex relays: the bytes of every path that passes through it (not its ends),
    switches excepted (the core's rule, :func:`optiq.relay_vertices`).

    Returns
    -------
    numpy.ndarray
        One int64 count per vertex (index = vertex id).

    Examples
    --------
    >>> net = _core.parse_network("torus:4")
    >>> plan = _core.Plan(net.spec, "dor", "x", [_core.JobPlan(_core.Job(0, 2, 10),
    ...                   [_core.PathShare([net.link_named("0:A+"), net.link_named("1:A+")], 10)])])
    >>> relay_loads(plan, net).tolist()
    [0, 10, 0, 0]
    """
    import numpy as np  # loaded only when relaying is counted: the command line starts faster

    return np.array(_core.relay_loads(plan, network), dtype=np.int64)


class PlanMetrics:
    """The core's :class:`optiq.Metrics`, with the time of node relaying counted when limited.

    Parameters
    ----------
    plan : optiq.Plan
    network : optiq.Network
    forward_bandwidth : float, optional
        Bytes/s a node can relay for others; ``None`` for unlimited (links alone).
    copy_bandwidth : float, optional
        Bytes/s at which the runtime's forwarders copy (a simulation charges it, see
        docs/simulation.md): each node's copied bytes (:func:`optiq.copy_loads`, at the junctions
        of its paths only) take that long; ``None`` for free copies.

    Attributes
    ----------
    relay_bytes_max : int or None
        Most bytes one node relays (``None`` when relaying is unlimited).
    copy_bytes_max : int or None
        Most bytes one node copies (``None`` when copies are free).
    predicted_seconds : float
        The busiest link's time, or the busiest relaying or copying node's if that is longer.

    Every other attribute is the core's metric of the same name.
    """

    def __init__(self, plan: _core.Plan, network: _core.Network, forward_bandwidth: float | None = None,
                 copy_bandwidth: float | None = None):
        self._core = _core.compute_metrics(plan, network)
        self.forward_bandwidth = forward_bandwidth
        self.copy_bandwidth = copy_bandwidth
        self.relay_bytes_max = None
        self.copy_bytes_max = None
        self.predicted_seconds = self._core.predicted_seconds
        if forward_bandwidth is not None:
            relayed = relay_loads(plan, network)
            self.relay_bytes_max = int(relayed.max()) if len(relayed) else 0
            self.predicted_seconds = max(self.predicted_seconds, self.relay_bytes_max / forward_bandwidth)
        if copy_bandwidth is not None:
            self.copy_bytes_max = max(_core.copy_loads(plan, network), default=0)
            self.predicted_seconds = max(self.predicted_seconds, self.copy_bytes_max / copy_bandwidth)

    def __getattr__(self, name):
        return getattr(self._core, name)

    @property
    def predicted_throughput(self) -> float:
        if self.forward_bandwidth is None and self.copy_bandwidth is None:
            return self._core.predicted_throughput
        return self.total_bytes / self.predicted_seconds if self.predicted_seconds > 0 else 0.0

    def as_dict(self) -> dict:
        """The metrics of ``METRIC_KEYS``, plus ``relay_bytes_max`` when relaying is limited."""
        out = {key: getattr(self, key) for key in METRIC_KEYS}
        if self.forward_bandwidth is not None:
            out["relay_bytes_max"] = self.relay_bytes_max
        return out
