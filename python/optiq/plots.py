"""PNG plots of link loads (matplotlib, headless)."""

from __future__ import annotations

import argparse
import os
import sys

# Formats matplotlib writes with its own dependencies alone (no LaTeX, no extra backend).
PLOT_FORMATS = ("png", "pdf", "svg", "eps", "ps", "jpg", "jpeg", "webp", "tif", "tiff")


def plot_format(path: str) -> str:
    """The image format ``path``'s extension names; ``ValueError`` for one not in PLOT_FORMATS.

    >>> plot_format("loads.PNG")
    'png'
    """
    ext = os.path.splitext(path)[1][1:].lower()
    if ext not in PLOT_FORMATS:
        shown = f"'.{ext}'" if ext else "no extension"
        raise ValueError(f"unknown plot file extension ({shown}) in '{path}'; use one of "
                         + ", ".join("." + f for f in PLOT_FORMATS))
    return ext


def plot_file(text: str) -> str:
    """argparse type of a plot file name: its extension must name a format (see plot_format)."""
    try:
        plot_format(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    return text


def pyplot():
    """matplotlib.pyplot drawing to files (the Agg backend). Raises OSError naming the extra to
    install when matplotlib is missing."""
    try:
        import matplotlib
    except ImportError:
        raise OSError("plotting needs matplotlib (pip install 'optiq[plot]')") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def panel(figsize=(6.4, 4.2)):
    """(figure, axes) of one panel, or None, with a note on stderr, when matplotlib is missing:
    a benchmark still writes its tables."""
    try:
        plt = pyplot()
    except OSError as e:
        print(f"{e}: no plot", file=sys.stderr)
        return None
    return plt.subplots(figsize=figsize)


def grouped_bars(ax, labels: list, series: dict, rotation: int = 0) -> None:
    """One group of bars per label, one bar per series (name -> one value per label), with the
    labels under the groups' centres."""
    width = 0.8 / max(1, len(series))
    for i, (name, values) in enumerate(series.items()):
        ax.bar([k + i * width for k in range(len(labels))], values, width, label=name)
    ax.set_xticks([k + 0.4 - width / 2 for k in range(len(labels))])
    style = {"rotation": rotation, "fontsize": 7, "ha": "right"} if rotation else {}
    ax.set_xticklabels([str(x) for x in labels], **style)


def save(fig, path, dpi: int = 80) -> None:
    """Lays the figure out, writes it to path and frees it."""
    import matplotlib.pyplot as plt

    fig.tight_layout()
    fig.savefig(path, dpi=dpi)
    plt.close(fig)


def plot_link_loads(panels: dict[str, dict[str, list[int]]], path: str, title: str) -> str:
    """One panel per pattern; in each, every plan's link loads sorted from the busiest link down.

    The height of a curve's left end is the busiest link (what sets the transfer time); its
    length is how many links the plan uses.
    """
    fmt = plot_format(path)
    try:
        plt = pyplot()
    except OSError as e:
        raise OSError(f"{e}; no plot written to {path}") from None

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
    fig.savefig(path, dpi=110, format=fmt)
    plt.close(fig)
    return path
