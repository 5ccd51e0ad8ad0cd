"""optiq: plan and evaluate multi-path bulk data movement on supercomputer interconnects.

The algorithms live in the compiled core (``optiq._core``); this package adds the command
line, reports and plots.

Examples
--------
>>> import optiq
>>> net = optiq.parse_network("mira:1024")
>>> net.torus.sizes
[4, 4, 4, 8, 2]
>>> net.link_name(net.torus.link(17, 3, +1))
'17:D+'
>>> jobs = optiq.assign_sizes(optiq.named_pattern("disjoint", net.num_endpoints), "8MiB")
>>> plan = optiq.make_plan("default", net, optiq.make_routing("bgq", net), jobs).plan
>>> optiq.compute_metrics(plan, net).paths_per_link_max
16
"""

from ._core import *  # noqa: F401,F403
from ._core import Error

__all__ = [name for name in dir() if not name.startswith("_")]
__version__ = "0.1.0"
