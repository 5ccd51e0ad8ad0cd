"""Peak resident memory of one piece of work inside this process.

Linux keeps a process's high-water mark of resident memory (VmHWM) and lets the process reset
it (writing 5 to /proc/self/clear_refs), so the peak of one planner run can be read without
starting a process for it. Where the reset is refused or the files are missing, the peak is
the process's own since it started (getrusage): an upper bound on the run's.
"""

from __future__ import annotations

import resource


def start() -> None:
    """Forget the high-water mark, so the next peak() is this piece of work's."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass


def peak_mb() -> float:
    """Resident memory's high-water mark in MB (10^6 bytes) since start() or the process began."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024 / 1e6
    except (OSError, ValueError, IndexError):
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 / 1e6
