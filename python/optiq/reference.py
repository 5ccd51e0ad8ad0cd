"""Published numbers the demo puts beside optiq's own.

Thesis Table VII (Mira, 1024 nodes, 1:8 patterns, 8 MB per pair): per pattern and approach,
measured throughput (GB/s), total paths, paths per job (max, avg), paths per link (max, avg)
and the largest amount of data on one link (MB = 10^6 bytes). MPI is MPI_Alltoallv over the
default routing, which optiq's ``default`` planner models.
"""

THESIS_TABLE_VII = {
    # pattern: {approach: (GB/s, paths, per-job max, per-job avg, per-link max, per-link avg, max MB)}
    "disjoint": {
        "OPT": (188.62, 1169, 6, 2.28, 11, 2.53, 18.28),
        "HEU2": (84.50, 3723, 25, 7.27, 11, 6.00, 24.31),
        "HEU1": (74.88, 3146, 23, 6.14, 16, 4.94, 63.04),
        "MPI": (45.18, 512, 1, 1.00, 16, 3.07, 134.21),
    },
    "overlap": {
        "OPT": (200.03, 1303, 6, 2.54, 13, 2.74, 16.97),
        "HEU2": (121.05, 5991, 33, 11.70, 10, 5.49, 22.21),
        "HEU1": (113.17, 3273, 26, 6.39, 16, 5.17, 38.66),
        "MPI": (42.84, 512, 1, 1.00, 16, 3.38, 134.21),
    },
    "subset": {
        "OPT": (199.20, 1269, 6, 2.48, 11, 2.79, 17.10),
        "HEU2": (106.56, 9350, 38, 18.26, 10, 5.70, 21.75),
        "HEU1": (61.71, 3238, 26, 6.32, 16, 5.28, 45.08),
        "MPI": (41.37, 512, 1, 1.00, 16, 3.52, 134.21),
    },
}

# The thesis approach each optiq planner corresponds to.
THESIS_NAME = {"default": "MPI", "heu1": "HEU1", "heu2": "HEU2", "opt": "OPT", "optimal": "OPT", "mcf": "OPT"}
