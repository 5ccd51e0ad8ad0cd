#include "runtime/online/gather_scatter.hpp"

namespace optiq::rt {

void gather_in_rounds(const void* mine, const std::vector<std::int64_t>& counts, MPI_Datatype type, void* all,
                      MPI_Comm comm, std::int64_t limit) {
  int rank = 0, elem = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Type_size(type, &elem);
  const std::vector<std::int64_t> starts = part_starts(counts);
  std::vector<int> rcounts, rdispls;
  for (std::int64_t k = 0, n = round_count(starts.back(), limit); k < n; ++k) {
    const Piece me = piece_in_round(starts[rank], counts[rank], k, limit);
    if (rank == 0) round_layout(starts, k, limit, &rcounts, &rdispls);
    MPI_Gatherv(static_cast<const char*>(mine) + me.skip * elem, me.count, type,
                rank == 0 ? static_cast<char*>(all) + k * limit * elem : nullptr, rcounts.data(), rdispls.data(), type,
                0, comm);
  }
}

std::string scatter_in_rounds(const std::string& packed, const std::vector<std::int64_t>& sizes, MPI_Comm comm,
                              std::int64_t limit) {
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  // Each rank needs only where its part starts, its length and the total (the rounds).
  const std::vector<std::int64_t> starts = rank == 0 ? part_starts(sizes) : std::vector<std::int64_t>{};
  std::vector<std::int64_t> where;
  if (rank == 0)
    for (int r = 0; r < size; ++r) where.insert(where.end(), {starts[r], sizes[r], starts.back()});
  std::int64_t mine[3] = {0, 0, 0};
  MPI_Scatter(where.data(), 3, MPI_INT64_T, mine, 3, MPI_INT64_T, 0, comm);
  std::string out(static_cast<std::size_t>(mine[1]), '\0');
  std::vector<int> scounts, sdispls;
  for (std::int64_t k = 0, n = round_count(mine[2], limit); k < n; ++k) {
    const Piece me = piece_in_round(mine[0], mine[1], k, limit);
    if (rank == 0) round_layout(starts, k, limit, &scounts, &sdispls);
    MPI_Scatterv(rank == 0 ? packed.data() + k * limit : nullptr, scounts.data(), sdispls.data(), MPI_BYTE,
                 out.data() + me.skip, me.count, MPI_BYTE, 0, comm);
  }
  return out;
}

}  // namespace optiq::rt
