"""optiq: plan and evaluate multi-path bulk data movement on torus interconnects.

The algorithms live in the compiled core (``optiq._core``); this package adds the command
line, reports and plots.

Examples
--------
>>> import optiq
>>> topo = optiq.parse_topology("mira:1024")
>>> topo.sizes
[4, 4, 4, 8, 2]
>>> jobs = optiq.assign_sizes(optiq.named_pattern("disjoint", topo.num_nodes), "8MiB")
>>> plan = optiq.make_plan("default", topo, optiq.make_routing("bgq", topo), jobs)
>>> optiq.compute_metrics(plan, topo).paths_per_link_max
16
"""

from ._core import *  # noqa: F401,F403
from ._core import Error

__all__ = [name for name in dir() if not name.startswith("_")]
__version__ = "0.1.0"
