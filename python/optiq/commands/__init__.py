"""Subcommands of the ``optiq`` command line. Each module offers ``register(subparsers)``
which adds its parser and sets ``func`` to the function that runs it."""

from . import demo, exchange, fft, io_bench, io_plan, options, plan, platform, run, show, simulate, topology, workload

# The order here is the order ``optiq --help`` lists them in.
COMMANDS = (plan, show, demo, run, exchange, platform, simulate, io_plan, io_bench, fft, topology, workload, options)
