"""A model of CESM's exchanges between each component model and its coupler (the thesis'
§6.5.1, Table XV and Figure 18), whose real trace is not public.

The coupler (CPL) and a model each decompose the model's grid among their own ranks; a model
rank and a coupler rank exchange the points both of them hold. How the pieces overlap is what
sets the number of pairs and the points per pair, so each model's decomposition follows the
kind its CESM component uses, with sizes chosen so that at the thesis' scale (2048 ranks, 4 per
node) the pair counts fall near Table XV's and every rank pair carries 1 to 26 points
(docs/applications.md):

- the coupler cuts the sequence of exchanged points (row-major, south to north) into equal
  1-D blocks, one per coupler rank;
- ATM: lat-lon blocks two rows tall on the full atmosphere grid, cut in longitude to balance
  a per-column cost, ranks numbered from the north pole through strips of two bands;
- LND: clumps of land points on the land grid, cut to balance a per-point cost and dealt
  round-robin over the land ranks; the coupler's blocks end between clumps;
- OCN and ICE: 1-D blocks of the ocean grid's ocean points, balanced by depth (OCN) and by
  sea ice (ICE).

The seed draws one world (continents, relief, depth and the sea-ice edge) that every grid
samples; it moves block boundaries and points per pair, not the number of points of a grid.

>>> layout(2048).ice
range(516, 1792)
>>> pairs = exchange("ocn", 2048, 4, seed=0)
>>> len(pairs.rank_pairs) > 1900 and int(pairs.rank_pairs[:, 2].max()) <= 26
True
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import _core

MODELS = ("atm", "lnd", "ice", "ocn")
# Pairs of communication with the coupler, between ranks and between nodes (Table XV).
TABLE_XV = {"atm": (5227, 2233), "lnd": (10390, 2911), "ice": (3018, 765), "ocn": (2001, 502)}
THESIS_RANKS, THESIS_RANKS_PER_NODE = 2048, 4
# Below this the rounded component sizes leave a component without ranks or a grid too coarse
# for the block shapes; above it the grids outgrow memory.
MIN_RANKS, MAX_RANKS = 16, 2**18
POINT_MAX = 26  # most points one rank pair exchanges in the thesis

ATM_BLOCK_LON, ATM_BLOCK_LAT = 14, 2  # cells of an atmosphere block at an even cost
OCEAN_POINTS_PER_CPL = 16              # ocean points of each coupler rank's block
LAND_CLUMPS_PER_RANK, LAND_CLUMP_POINTS = 20, 8
LAND_FRACTION = 0.3
WAVES = 16


@dataclass(frozen=True)
class Layout:
    """Which ranks run which component: the thesis' rank ranges, scaled to ``ranks``."""

    ranks: int
    cpl: range
    atm: range
    lnd: range
    ice: range
    ocn: range

    def of(self, model: str) -> range:
        return getattr(self, model)


def layout(ranks: int) -> Layout:
    """CPL and ATM on the first 7/8 of the ranks, LND on the first 516/2048, ICE from there to
    7/8, OCN on the last 1/8; each share rounded to the nearest rank (halves up).

    >>> layout(2048)
    Layout(ranks=2048, cpl=range(0, 1792), atm=range(0, 1792), lnd=range(0, 516), ice=range(516, 1792), ocn=range(1792, 2048))
    >>> layout(100).lnd, layout(100).ocn
    (range(0, 25), range(88, 100))
    """
    if not MIN_RANKS <= ranks <= MAX_RANKS:
        raise _core.Error(f"the CESM model runs on {MIN_RANKS} to {MAX_RANKS} ranks, got {ranks}")
    cpl = (7 * ranks + 4) // 8
    lnd = (516 * ranks + THESIS_RANKS // 2) // THESIS_RANKS
    return Layout(ranks, range(cpl), range(cpl), range(lnd), range(lnd, cpl), range(cpl, ranks))


@dataclass(frozen=True)
class Grid:
    """A global grid sampled from the world: its shape, and which of its cells are land."""

    name: str
    lon: int
    lat: int
    field: np.ndarray  # the world's relief at each cell, row-major from the south-west
    land: np.ndarray   # bool per cell
    latitude: np.ndarray  # radians per cell


class World:
    """The seeded geography every grid samples: a smooth relief made of a few waves, periodic
    in longitude, whose highest cells are land, and a sea-ice edge latitude."""

    def __init__(self, seed: int):
        rng = np.random.default_rng(seed)
        draws = rng.random((WAVES, 4))
        self.zonal = 1 + np.floor(draws[:, 0] * 5)
        self.meridional = 1 + np.floor(draws[:, 1] * 4)
        self.phases = 2 * np.pi * draws[:, 2:]
        self.ice_edge = np.radians(50 + 20 * rng.random())

    def grid(self, name: str, lon: int, lat: int, land_cells: int) -> Grid:
        lons = (np.arange(lon) + 0.5) / lon * 2 * np.pi
        lats = ((np.arange(lat) + 0.5) / lat - 0.5) * np.pi
        # Each wave is a product of a latitude and a longitude factor: the sum is one matrix product.
        north = np.cos(np.outer(lats, self.meridional) + self.phases[:, 1]) / (self.zonal + self.meridional)
        east = np.cos(np.outer(self.zonal, lons) + self.phases[:, :1])
        field = (north @ east).ravel()
        # Land is an exact count of cells, so a grid's points do not depend on the seed.
        land = np.zeros(field.size, dtype=bool)
        land[np.argsort(-field, kind="stable")[:land_cells]] = True
        return Grid(name, lon, lat, field, land, np.repeat(lats, lon))


def _shape(cells: int) -> tuple[int, int]:
    """(lon, lat) of a grid with at least ``cells`` cells, twice as wide as tall."""
    lat = max(2, int(np.ceil(np.sqrt(cells / 2))))
    return 2 * lat, lat


def _unit(values: np.ndarray) -> np.ndarray:
    span = values.max() - values.min()
    return (values - values.min()) / span if span > 0 else np.zeros_like(values)


def balanced_cuts(cost: np.ndarray, parts: int) -> np.ndarray:
    """Boundaries of ``parts`` contiguous pieces of equal cost: piece k is
    ``[cuts[k], cuts[k+1])``. No piece is empty while each costs at least the dearest point.

    >>> balanced_cuts(np.array([1.0, 1, 2, 2, 1, 1]), 2).tolist()
    [0, 3, 6]
    """
    total = np.cumsum(cost)
    cuts = np.searchsorted(total, np.arange(parts + 1) * (total[-1] / parts), side="right")
    cuts[0], cuts[-1] = 0, len(cost)
    return cuts


def even_cuts(points: int, parts: int) -> np.ndarray:
    return np.arange(parts + 1, dtype=np.int64) * points // parts


def owners(cuts: np.ndarray, first: int = 0) -> np.ndarray:
    """The piece of each point, numbered from ``first``."""
    return np.repeat(np.arange(first, first + len(cuts) - 1), np.diff(cuts))


def _atm(world: World, lay: Layout) -> tuple:
    n = len(lay.atm)
    bands = max(1, round(np.sqrt(n * ATM_BLOCK_LAT * 8 / 7)))  # 64 bands of 28 blocks at 1792
    lon = round(ATM_BLOCK_LON * n / bands)
    grid = world.grid("atmosphere", lon, ATM_BLOCK_LAT * bands, round(LAND_FRACTION * lon * ATM_BLOCK_LAT * bands))
    cost = (1 + 0.5 * grid.land + 0.5 * _unit(grid.field)).reshape(-1, lon)
    per_band = [n // bands + (b < n % bands) for b in range(bands)]
    rank = {}
    # From the north, two bands at a time, alternating between them column by column: a node's
    # ranks hold a square of blocks, and few of them hold what the coupler puts on their node.
    for top in range(bands - 1, -1, -2):
        strip = [b for b in (top, top - 1) if b >= 0]
        for ix in range(max(per_band[b] for b in strip)):
            for b in strip:
                if ix < per_band[b]:
                    rank[b, ix] = lay.atm.start + len(rank)
    owner = np.empty((grid.lat, lon), dtype=np.int64)
    for b in range(bands):
        rows = slice(b * ATM_BLOCK_LAT, (b + 1) * ATM_BLOCK_LAT)
        cuts = balanced_cuts(cost[rows].sum(axis=0), per_band[b])
        owner[rows] = np.repeat([rank[b, ix] for ix in range(per_band[b])], np.diff(cuts))
    cells = grid.lon * grid.lat
    return grid, cells, owner.ravel(), owners(even_cuts(cells, len(lay.cpl)), lay.cpl.start)


def _lnd(world: World, lay: Layout) -> tuple:
    clumps = LAND_CLUMPS_PER_RANK * len(lay.lnd)
    points = clumps * LAND_CLUMP_POINTS
    grid = world.grid("land", *_shape(round(points / LAND_FRACTION)), points)
    cost = 1 + _unit(grid.field[grid.land])
    cuts = balanced_cuts(cost, clumps)
    model = owners(cuts) % len(lay.lnd) + lay.lnd.start
    # The coupler's blocks: the clump boundary nearest each even split of the land points.
    target = even_cuts(points, len(lay.cpl))
    right = np.clip(np.searchsorted(cuts, target), 1, clumps)
    cpl_cuts = np.where(target - cuts[right - 1] <= cuts[right] - target, cuts[right - 1], cuts[right])
    return grid, points, model, owners(cpl_cuts, lay.cpl.start)


def _ocean(world: World, lay: Layout, model: str) -> tuple:
    points = OCEAN_POINTS_PER_CPL * len(lay.cpl)
    lon, lat = _shape(round(points / (1 - LAND_FRACTION)))
    grid = world.grid("ocean", lon, lat, lon * lat - points)
    sea = ~grid.land
    if model == "ocn":  # a column's active levels: the deeper, the more
        cost = 1 + np.floor(3 * _unit(-grid.field[sea]))
    else:  # sea-ice physics where the ice is
        cost = np.where(np.abs(grid.latitude[sea]) > world.ice_edge, 3.0, 1.0)
    ranks = lay.of(model)
    return grid, points, owners(balanced_cuts(cost, len(ranks)), ranks.start), \
        owners(even_cuts(points, len(lay.cpl)), lay.cpl.start)


@dataclass
class Exchange:
    """One model's exchange with the coupler, model ranks as sources.

    ``rank_pairs`` rows are (model rank, coupler rank, points), without pairs of one rank with
    itself; ``node_pairs`` rows are (model node, coupler node, points) with nodes numbered
    rank // ranks_per_node, rank pairs of one node pair merged and pairs within a node left out.
    """

    model: str
    layout: Layout
    ranks_per_node: int
    seed: int
    grid: Grid
    points: int
    rank_pairs: np.ndarray
    node_pairs: np.ndarray
    same_rank: tuple   # (pairs, points) left out
    same_node: tuple   # (rank pairs, node pairs within one node, points)


def _merge(src: np.ndarray, dst: np.ndarray, points: np.ndarray, span: int) -> np.ndarray:
    key = src.astype(np.int64) * span + dst
    keys, where = np.unique(key, return_inverse=True)
    return np.stack([keys // span, keys % span, np.bincount(where, weights=points).astype(np.int64)], axis=1)


def exchange(model: str, ranks: int, ranks_per_node: int, seed: int = 0) -> Exchange:
    """The pairs of ``model``'s exchange with the coupler on ``ranks`` ranks."""
    if model not in MODELS:
        raise _core.Error(f"unknown CESM model '{model}' (known: {', '.join(MODELS)})")
    lay, world = layout(ranks), World(seed)
    build = {"atm": _atm, "lnd": _lnd}.get(model)
    grid, points, src, dst = build(world, lay) if build else _ocean(world, lay, model)
    pairs = _merge(src, dst, np.ones(points, dtype=np.int64), ranks)
    self_pairs = pairs[:, 0] == pairs[:, 1]
    same_rank = (int(self_pairs.sum()), int(pairs[self_pairs, 2].sum()))
    pairs = pairs[~self_pairs]
    nodes = _merge(pairs[:, 0] // ranks_per_node, pairs[:, 1] // ranks_per_node, pairs[:, 2], ranks)
    within = nodes[:, 0] == nodes[:, 1]
    inside = pairs[:, 0] // ranks_per_node == pairs[:, 1] // ranks_per_node
    same_node = (int(inside.sum()), int(within.sum()), int(nodes[within, 2].sum()))
    return Exchange(model, lay, ranks_per_node, seed, grid, points, pairs, nodes[~within], same_rank, same_node)


HISTOGRAM_WIDTH, HISTOGRAM_TOP = 5, 26


def histogram(points: np.ndarray) -> list[tuple[str, int]]:
    """Pairs per range of points: 1-5, 6-10, ..., 21-25, then 26 and more.

    >>> histogram(np.array([1, 5, 6, 26, 64]))
    [('1-5', 2), ('6-10', 1), ('11-15', 0), ('16-20', 0), ('21-25', 0), ('26+', 2)]
    """
    edges = list(range(1, HISTOGRAM_TOP + 1, HISTOGRAM_WIDTH))
    counts = np.bincount(np.searchsorted(edges, points, side="right") - 1, minlength=len(edges))
    labels = [f"{lo}-{lo + HISTOGRAM_WIDTH - 1}" for lo in edges[:-1]] + [f"{HISTOGRAM_TOP}+"]
    return list(zip(labels, (int(c) for c in counts)))
