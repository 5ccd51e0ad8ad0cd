// While optiq itself runs, its own MPI calls must reach MPI, not the interposer again: the
// runtime calls MPI_Test, MPI_Waitany, MPI_Allgather, ... and under LD_PRELOAD those names
// resolve to this library first.
#pragma once

namespace optiq::pmpi {

inline thread_local int inside_depth = 0;

inline bool inside_optiq() { return inside_depth > 0; }

struct InsideOptiq {
  InsideOptiq() { ++inside_depth; }
  ~InsideOptiq() { --inside_depth; }
  InsideOptiq(const InsideOptiq&) = delete;
  InsideOptiq& operator=(const InsideOptiq&) = delete;
};

}  // namespace optiq::pmpi
