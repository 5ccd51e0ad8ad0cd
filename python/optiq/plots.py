"""PNG plots of link loads (matplotlib, headless)."""

from __future__ import annotations

import os


def plot_link_loads(panels: dict[str, dict[str, list[int]]], path: str, title: str) -> str:
    """One panel per pattern; in each, every plan's link loads sorted from the busiest link down.

    The height of a curve's left end is the busiest link (what sets the transfer time); its
    length is how many links the plan uses.
    """
    try:
        import matplotlib
    except ImportError:
        raise OSError(f"plotting needs matplotlib (pip install 'optiq[plot]'); no plot written to {path}") from None

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(panels), figsize=(5.2 * len(panels), 4.2), squeeze=False, sharey=True)
    for ax, (pattern, plans) in zip(axes[0], panels.items()):
        for name, loads in plans.items():
            used = sorted((x / 1e6 for x in loads if x > 0), reverse=True)
            ax.step(range(1, len(used) + 1), used, where="post", label=f"{name} (max {used[0]:.1f} MB)"
                    if used else name)
        ax.set_title(pattern)
        ax.set_xlabel("links, busiest first")
        ax.set_xscale("log")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    axes[0][0].set_ylabel("data on link (MB)")
    fig.suptitle(title)
    fig.tight_layout()
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
