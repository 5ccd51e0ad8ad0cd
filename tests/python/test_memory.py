"""optiq.memory: the peak of one piece of work, not of everything the process did before it."""

from __future__ import annotations

from optiq import memory


def test_peak_follows_an_allocation_and_forgets_it_after_start():
    memory.start()
    base = memory.peak_mb()
    block = bytearray(300 * 1000 * 1000)  # written by the allocation: resident
    block[::4096] = b"x" * len(block[::4096])
    assert memory.peak_mb() >= base + 250
    del block
    memory.start()  # Linux: /proc/self/clear_refs forgets the block's peak
    assert memory.peak_mb() < base + 100
