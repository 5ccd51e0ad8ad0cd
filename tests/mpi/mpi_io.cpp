// optiq's collective writes against MPI_File_write_at_all, byte for byte, on seeded random
// patterns: AoS and SoA layouts with any number of variables (zero-byte ones too), random
// extents with holes, ranks with nothing, sizes from 0 to several buffers, shared and per-group
// files, both sinks and several placements, with puts or forwarded through the context's
// exchange. Every pattern is read back through optiq as well.
//   mpi_io [--cases N] [--seed S] [--dir DIR]
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>

#include "common.hpp"
#include "io_files.hpp"
#include "optiq/io.h"

using namespace mpitest;

namespace {

// One rank's declaration and the data that goes with it.
struct RankPattern {
  std::vector<std::vector<optiq_io_extent>> vars;
  std::vector<std::vector<char>> data;
};

unsigned char byte_of(std::uint64_t salt, int rank, int var, std::size_t i) {
  std::uint64_t x = salt ^ (std::uint64_t(rank) << 40) ^ (std::uint64_t(var) << 32) ^ i;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 29;
  return static_cast<unsigned char>(x);
}

std::size_t declared_bytes(const std::vector<optiq_io_extent>& list) {
  std::size_t n = 0;
  for (const auto& e : list) n += std::size_t(e.bytes * e.count);
  return n;
}

// The patterns of one file group, whose members are given in group-rank order.
std::vector<RankPattern> group_patterns(optiq::Rng& rng, int members, long long buffer) {
  std::vector<RankPattern> out(members);
  const int kind = int(rng.below(3));
  const long long max_items = 1 + (long long)rng.below(4) * buffer / 8;
  std::vector<long long> items(members);
  for (auto& n : items) n = rng.unit() < 0.25 ? 0 : (long long)rng.below(std::uint64_t(max_items) + 1);
  if (kind < 2) {
    const int nvars = 1 + int(rng.below(4));
    std::vector<long long> size(nvars);
    for (auto& s : size) s = rng.unit() < 0.15 ? 0 : 1 + (long long)rng.below(9);
    long long record = 0;
    for (long long s : size) record += s;
    const long long gap = rng.unit() < 0.3 ? (long long)rng.below(50) : 0;  // holes between ranks or sections
    if (kind == 0) {  // AoS: each rank's records one after another
      long long base = (long long)rng.below(20);
      for (int r = 0; r < members; ++r) {
        long long off = 0;
        for (int v = 0; v < nvars; ++v) {
          out[r].vars.push_back({{base + off, size[v], items[r], record}});
          off += size[v];
        }
        base += items[r] * record + gap;
      }
    } else {  // SoA: one section per variable, ranks in order inside it
      long long total = 0;
      for (long long n : items) total += n;
      long long section = 0;
      for (int v = 0; v < nvars; ++v) {
        long long at = section;
        for (int r = 0; r < members; ++r) {
          out[r].vars.push_back({{at, items[r] * size[v], 1, 0}});
          at += items[r] * size[v];
        }
        section += total * size[v] + gap;
      }
    }
  } else {  // random pieces of a range, some left as holes, dealt to ranks and variables
    const long long length = (long long)rng.below(std::uint64_t(4 * buffer + 2));
    const int nvars = 1 + int(rng.below(3));
    for (auto& p : out) p.vars.resize(nvars);
    long long at = 0;
    while (at < length) {
      const long long piece = std::min(length - at, 1 + (long long)rng.below(std::uint64_t(buffer)));
      if (rng.unit() > 0.2) {
        const int r = int(rng.below(std::uint64_t(members)));
        out[r].vars[rng.below(std::uint64_t(nvars))].push_back({at, piece, 1, 0});
      }
      at += piece;
    }
    for (auto& p : out)  // data order differs from file order
      for (auto& list : p.vars)
        for (std::size_t i = list.size(); i > 1; --i) std::swap(list[i - 1], list[rng.below(i)]);
  }
  return out;
}

void fill(RankPattern& p, std::uint64_t salt, int rank) {
  p.data.clear();
  for (std::size_t v = 0; v < p.vars.size(); ++v) {
    std::vector<char> d(declared_bytes(p.vars[v]));
    for (std::size_t i = 0; i < d.size(); ++i) d[i] = char(byte_of(salt, rank, int(v), i));
    p.data.push_back(std::move(d));
  }
}

// Writes a rank's bytes where its pattern puts them; the bytes between stay zero, as in a new file.
void place(const RankPattern& p, std::string* file, std::vector<bool>* declared) {
  for (std::size_t v = 0; v < p.vars.size(); ++v) {
    std::size_t at = 0;
    for (const auto& e : p.vars[v])
      for (long long c = 0; c < e.count && e.bytes > 0; ++c, at += std::size_t(e.bytes)) {
        const std::size_t end = std::size_t(e.offset + c * e.stride + e.bytes);
        if (file->size() < end) file->resize(end, '\0'), declared->resize(end, false);
        std::fill(declared->begin() + long(end - std::size_t(e.bytes)), declared->begin() + long(end), true);
        std::copy(p.data[v].begin() + long(at), p.data[v].begin() + long(at + e.bytes),
                  file->begin() + long(e.offset + c * e.stride));
      }
  }
}

struct Setup {
  optiq_t ctx;
  const char* name;
};

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int cases = 40;
  std::uint64_t seed = 1;
  std::string dir_arg;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--cases") cases = std::atoi(argv[i + 1]);
    if (a == "--seed") seed = std::strtoull(argv[i + 1], nullptr, 10);
    if (a == "--dir") dir_arg = argv[i + 1];
  }
  const int rank = world_rank(), size = world_size();
  Checker check;
  const std::string dir = make_test_dir(dir_arg);

  // A ring with one rank per node (groups of consecutive nodes), and Mira with its I/O nodes,
  // the ranks spread over its four psets (groups by I/O node, topology-aware placement).
  // Both contexts run every plan, however small its pieces and gain, so that forwarded rounds
  // (options.forward) take the planner's paths and forwarding nodes.
  std::vector<Setup> setups;
  optiq_t ring = nullptr, mira = nullptr;
  optiq_options ro;
  optiq_options_init(&ro);
  ro.direct_threshold_bytes = 0;
  ro.min_gain = 0;
  ro.chunk_bytes = 64;
  optiq_create(MPI_COMM_WORLD, ("torus:" + std::to_string(size)).c_str(), &ro, &ring);
  optiq_options mo = ro;
  std::vector<int> nodes(size);
  for (int r = 0; r < size; ++r) nodes[r] = r * (512 / size);
  mo.rank_to_node = nodes.data();
  optiq_create(MPI_COMM_WORLD, "mira:512+io", &mo, &mira);
  setups.push_back({ring, "ring"});
  setups.push_back({mira, "mira"});

  optiq::Rng rng(seed);
  int compared = 0, forwarded_cases = 0, in_place_cases = 0, buffered_cases = 0, own_cases = 0;
  for (int c = 0; c < cases; ++c) {
    const Setup& s = setups[rng.below(2)];
    optiq_io_options o;
    optiq_io_options_init(&o);
    o.files = rng.unit() < 0.5 ? OPTIQ_FILES_SHARED : OPTIQ_FILES_GROUP;
    o.group_nodes = 1 + int(rng.below(std::uint64_t(size)));
    o.aggregators = 1 + int(rng.below(5));
    o.buffer_bytes = 1 + rng.below(rng.unit() < 0.5 ? 64 : 4096);
    o.sink = rng.unit() < 0.75 ? OPTIQ_SINK_PWRITE : OPTIQ_SINK_MPIIO;
    const char* placements[] = {"spread", "topology-aware", "greedy", "romio-bgq"};
    const bool mira_groups = s.ctx == mira && o.files == OPTIQ_FILES_GROUP;
    o.placement = mira_groups ? placements[rng.below(4)] : (rng.unit() < 0.5 ? "spread" : nullptr);
    o.forward = rng.unit() < 0.4 ? 1 : 0;
    forwarded_cases += o.forward;
    const std::string base = dir + "/case" + std::to_string(c);

    optiq_file_t f = nullptr;
    int st = optiq_file_open(s.ctx, (base + ".optiq").c_str(), OPTIQ_IO_CREATE, &o, &f);
    if (!check.expect(common_status(st) == OPTIQ_SUCCESS, "case %d (%s): open: %s", c, s.name,
                      optiq_error_string(s.ctx)))
      break;
    optiq_io_stats fs;
    optiq_file_stats(f, &fs);
    std::vector<int> group_of(size);
    MPI_Allgather(&fs.group, 1, MPI_INT, group_of.data(), 1, MPI_INT, MPI_COMM_WORLD);

    // Every rank draws every group's patterns, so all agree; each keeps its own.
    std::map<int, std::vector<int>> members;
    for (int r = 0; r < size; ++r) members[group_of[r]].push_back(r);
    RankPattern mine;
    std::string expected;        // this rank's group file, made from every member's pattern
    std::vector<bool> declared;  // its bytes that some rank declared
    for (const auto& [g, list] : members) {
      auto patterns = group_patterns(rng, int(list.size()), (long long)o.buffer_bytes);
      if (g != fs.group) continue;
      for (std::size_t i = 0; i < list.size(); ++i) {
        fill(patterns[i], seed * 1000003 + std::uint64_t(c), list[i]);
        place(patterns[i], &expected, &declared);
        if (list[i] == rank) mine = std::move(patterns[i]);
      }
    }

    std::vector<int> counts;
    std::vector<const optiq_io_extent*> lists;
    std::vector<const void*> data;
    for (std::size_t v = 0; v < mine.vars.size(); ++v) {
      counts.push_back(int(mine.vars[v].size()));
      lists.push_back(mine.vars[v].data());
      data.push_back(mine.data[v].empty() ? nullptr : mine.data[v].data());
    }
    st = optiq_file_declare(f, int(counts.size()), counts.data(), lists.data());
    check.expect(common_status(st) == OPTIQ_SUCCESS, "case %d (%s): declare: %s", c, s.name,
                 optiq_error_string(s.ctx));
    optiq_file_stats(f, &fs);
    in_place_cases += fs.in_place;
    buffered_cases += !fs.in_place && !mine.vars.empty() && members[fs.group].size() == 1;
    const unsigned long long in_place_before = fs.in_place_bytes;
    st = optiq_file_write(f, data.data());
    check.expect(common_status(st) == OPTIQ_SUCCESS, "case %d (%s): write: %s", c, s.name,
                 optiq_error_string(s.ctx));
    optiq_file_stats(f, &fs);
    own_cases += !fs.in_place && fs.in_place_bytes > in_place_before;

    // The same bytes through MPI-IO, in a file of the same group.
    MPI_Comm group;
    MPI_Comm_split(MPI_COMM_WORLD, fs.group, rank, &group);
    const std::string suffix = o.files == OPTIQ_FILES_GROUP ? "." + std::to_string(fs.group) : "";
    write_with_mpiio(group, base + ".mpiio" + suffix, mine.vars, mine.data);
    int group_rank;
    MPI_Comm_rank(group, &group_rank);
    if (group_rank == 0) {
      const std::string ours = read_whole(base + ".optiq" + suffix), theirs = read_whole(base + ".mpiio" + suffix);
      // MPI-IO's holes are not compared: Open MPI's OMPIO and ROMIO may fill the holes of a new
      // file with whatever their buffers held (docs/io.md); optiq writes no hole, so its file
      // must equal the pattern's image, zeros between the pieces included.
      std::size_t first = ours.size();
      for (std::size_t i = 0; i < std::min(ours.size(), theirs.size()) && first == ours.size(); ++i)
        if (declared[i] && ours[i] != theirs[i]) first = i;
      check.expect(ours.size() == theirs.size() && first == ours.size(),
                   "case %d (%s, group %d): optiq's file (%zu bytes) differs from MPI-IO's (%zu) at declared byte %zu",
                   c, s.name, fs.group, ours.size(), theirs.size(), first);
      const auto off = std::mismatch(ours.begin(), ours.end(), expected.begin(), expected.end());
      check.expect(ours == expected,
                   "case %d (%s, group %d): optiq's file (%zu bytes) differs from the pattern's (%zu) from byte %zu on",
                   c, s.name, fs.group, ours.size(), expected.size(), std::size_t(off.first - ours.begin()));
      ++compared;
    }

    // And back: every declared byte as written.
    std::vector<std::vector<char>> back;
    std::vector<void*> into;
    for (const auto& d : mine.data) back.emplace_back(d.size(), char(0x5a));
    for (auto& b : back) into.push_back(b.empty() ? nullptr : b.data());
    st = optiq_file_read(f, into.data());
    check.expect(common_status(st) == OPTIQ_SUCCESS, "case %d (%s): read: %s", c, s.name, optiq_error_string(s.ctx));
    check.expect(back == mine.data, "case %d (%s): read returned other bytes than were written", c, s.name);

    check.expect(common_status(optiq_file_close(&f)) == OPTIQ_SUCCESS && f == nullptr, "case %d: close", c);
    MPI_Comm_free(&group);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) remove_matching(dir, "case" + std::to_string(c) + ".");
  }
  int files = 0;
  MPI_Allreduce(&compared, &files, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  // Forwarded rounds did go through other nodes somewhere (a ring of 4 or more ranks has paths
  // longer than one hop).
  optiq_stats rs{}, ms{};
  optiq_get_stats(ring, &rs);
  optiq_get_stats(mira, &ms);
  unsigned long long relayed = rs.forwarded_chunks + ms.forwarded_chunks, relayed_all = 0;
  MPI_Allreduce(&relayed, &relayed_all, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (size >= 4 && forwarded_cases >= 10)
    check.expect(relayed_all > 0, "%d forwarded cases, but no chunk was ever forwarded by another rank",
                 forwarded_cases);
  // Ranks alone in their group took both ways: in place (large pieces) and through buffers.
  // With 4 ranks or fewer, Mira's per-group files give each rank a group of its own. And
  // aggregators of larger groups wrote some of their own pieces in place.
  int ways[3] = {in_place_cases, buffered_cases, own_cases}, ways_all[3];
  MPI_Allreduce(ways, ways_all, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (size <= 4)
    check.expect(ways_all[0] > 0 && ways_all[1] > 0, "lone ranks wrote %d times in place and %d through buffers",
                 ways_all[0], ways_all[1]);
  if (size > 1)
    check.expect(ways_all[2] > 0, "no aggregator of several ranks ever wrote its own pieces in place");
  optiq_destroy(&ring);
  optiq_destroy(&mira);
  const int failures = check.total();
  if (rank == 0) {
    remove_dir(dir);
    std::printf("mpi_io: %d cases, %d files compared with MPI_File_write_at_all's (lone ranks: %d in place, %d "
                "buffered; aggregators with own pieces in place: %d), %d failures\n",
                cases, files, ways_all[0], ways_all[1], ways_all[2], failures);
  }
  MPI_Finalize();
  return failures == 0 && files >= cases ? 0 : 1;
}
