// The reference write: the same pieces through MPI_File_write_at_all, and whole-file reads for
// the byte-for-byte comparison.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "tools/io_bench/workload.hpp"

namespace optiq::iobench {

// MPI_File_write_at_all as an application writes these variables: a file view of the pieces and
// a memory datatype over its arrays, so the MPI library does its own packing.
struct MpiioWrite {
  MPI_Datatype file = MPI_BYTE, memory = MPI_BYTE;
  int count = 0;
  explicit MpiioWrite(const RankData& r) {
    struct Piece {
      long long offset, bytes;
      const char* from;
    };
    std::vector<Piece> pieces;
    for (std::size_t v = 0; v < r.vars.size(); ++v) {
      const char* at = r.data[v].data();
      for (const auto& e : r.vars[v])
        for (long long c = 0; c < e.count && e.bytes > 0; ++c, at += e.bytes)
          pieces.push_back({e.offset + c * e.stride, e.bytes, at});
    }
    std::sort(pieces.begin(), pieces.end(), [](const Piece& a, const Piece& b) { return a.offset < b.offset; });
    if (pieces.empty()) return;
    std::vector<int> lengths;
    std::vector<MPI_Aint> offsets, addresses;
    for (const Piece& p : pieces) {
      lengths.push_back(int(p.bytes));
      offsets.push_back(MPI_Aint(p.offset));
      MPI_Aint a;
      MPI_Get_address(p.from, &a);
      addresses.push_back(a);
    }
    MPI_Type_create_hindexed(int(pieces.size()), lengths.data(), offsets.data(), MPI_BYTE, &file);
    MPI_Type_create_hindexed(int(pieces.size()), lengths.data(), addresses.data(), MPI_BYTE, &memory);
    MPI_Type_commit(&file);
    MPI_Type_commit(&memory);
    count = 1;
  }
  ~MpiioWrite() {
    if (file != MPI_BYTE) MPI_Type_free(&file), MPI_Type_free(&memory);
  }
};

inline std::string read_whole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace optiq::iobench
