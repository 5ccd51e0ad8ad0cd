// Files for the I/O tests: a private directory, the reference write through MPI-IO, whole-file
// reads and clean-up.
#pragma once

#include <dirent.h>
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "optiq/io.h"

namespace mpitest {

// A fresh directory under `parent` (else $TMPDIR, else /tmp), the same path on every rank.
inline std::string make_test_dir(const std::string& parent) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char path[4096] = {0};
  if (rank == 0) {
    const char* tmp = std::getenv("TMPDIR");
    std::string where = !parent.empty() ? parent : (tmp && *tmp ? tmp : "/tmp");
    std::string templ = where + "/optiq-io-XXXXXX";
    std::copy(templ.begin(), templ.end(), path);
    if (!mkdtemp(path)) path[0] = 0;
  }
  MPI_Bcast(path, sizeof path, MPI_CHAR, 0, MPI_COMM_WORLD);
  if (!path[0]) {
    if (rank == 0) std::fprintf(stderr, "cannot create a test directory\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  return path;
}

inline void remove_matching(const std::string& dir, const std::string& prefix) {
  DIR* d = opendir(dir.c_str());
  if (!d) return;
  std::vector<std::string> names;
  while (dirent* e = readdir(d))
    if (std::string(e->d_name).rfind(prefix, 0) == 0) names.push_back(e->d_name);
  closedir(d);
  for (const auto& n : names) unlink((dir + "/" + n).c_str());
}

inline void remove_dir(const std::string& dir) {
  remove_matching(dir, "");
  rmdir(dir.c_str());
}

inline std::string read_whole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Collective over comm: the declared pieces written with MPI_File_write_at_all through a file
// view, as an application would, into a new file at `path`.
inline void write_with_mpiio(MPI_Comm comm, const std::string& path,
                             const std::vector<std::vector<optiq_io_extent>>& vars,
                             const std::vector<std::vector<char>>& data) {
  struct Piece {
    long long offset, bytes;
    const char* from;
  };
  std::vector<Piece> pieces;
  for (std::size_t v = 0; v < vars.size(); ++v) {
    const char* at = data[v].data();
    for (const auto& e : vars[v])
      for (long long c = 0; c < e.count && e.bytes > 0; ++c, at += e.bytes)
        pieces.push_back({e.offset + c * e.stride, e.bytes, at});
  }
  std::sort(pieces.begin(), pieces.end(), [](const Piece& a, const Piece& b) { return a.offset < b.offset; });
  std::vector<char> packed;
  std::vector<int> lengths;
  std::vector<MPI_Aint> displs;
  for (const Piece& p : pieces) {
    packed.insert(packed.end(), p.from, p.from + p.bytes);
    lengths.push_back(int(p.bytes));
    displs.push_back(MPI_Aint(p.offset));
  }
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) MPI_File_delete(path.c_str(), MPI_INFO_NULL);
  MPI_Barrier(comm);
  MPI_File fh;
  MPI_File_open(comm, path.c_str(), MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
  MPI_Datatype view = MPI_BYTE;
  if (!pieces.empty()) {
    MPI_Type_create_hindexed(int(pieces.size()), lengths.data(), displs.data(), MPI_BYTE, &view);
    MPI_Type_commit(&view);
  }
  MPI_File_set_view(fh, 0, MPI_BYTE, view, "native", MPI_INFO_NULL);
  MPI_File_write_at_all(fh, 0, packed.data(), int(packed.size()), MPI_BYTE, MPI_STATUS_IGNORE);
  MPI_File_close(&fh);
  if (view != MPI_BYTE) MPI_Type_free(&view);
}

}  // namespace mpitest
