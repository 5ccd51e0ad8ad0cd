"""Exact fluid-model planners solved as linear programs with HiGHS.

``opt`` is the thesis' model (min time over k candidate paths per job); ``optimal`` prices
paths over the whole network by column generation and so reaches the optimum over all
(hop-bounded) paths, with a certificate.
"""

from .planners import plan_opt, plan_optimal

__all__ = ["plan_opt", "plan_optimal"]
