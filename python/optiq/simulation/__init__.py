"""Running optiq's own runtime on a simulated interconnect with SimGrid SMPI.

``platform`` writes SimGrid platforms whose routes are exactly a routing model of the core;
``smpi`` finds the SMPI build of the runtime and launches it under ``smpirun``.
"""
