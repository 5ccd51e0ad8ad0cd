#include "exchange.hpp"

#include <cstdio>

namespace ft {

namespace {

// optiq's errors reach every rank of the call alike, so a failure stops the whole job here
// rather than leaving peers waiting in the next exchange.
void check(int status, optiq_t ctx, const char* call) {
  if (status == OPTIQ_SUCCESS) return;
  std::fprintf(stderr, "nas-ft: error: %s: %s (%s)\n", call, optiq_error_string(ctx), optiq_status_name(status));
  MPI_Abort(MPI_COMM_WORLD, 1);
}

// The counts and displacements of a slab whose peer blocks are back to back.
struct Layout {
  std::vector<int> counts, displs;
  explicit Layout(MPI_Comm team) {
    int size = 0;
    MPI_Comm_size(team, &size);
    counts.resize(size);
    displs.resize(size);
  }
  void set(int count) {
    for (std::size_t q = 0; q < counts.size(); ++q) {
      counts[q] = count;
      displs[q] = static_cast<int>(q) * count;
    }
  }
};

class MpiAlltoall final : public Exchange {
 public:
  explicit MpiAlltoall(MPI_Comm team) : team_(team) {}
  bool overlaps() const override { return false; }
  void start(const cplx* send, cplx* recv, int count) override {
    MPI_Alltoall(send, count, MPI_C_DOUBLE_COMPLEX, recv, count, MPI_C_DOUBLE_COMPLEX, team_);
  }

 private:
  MPI_Comm team_;
};

class MpiIalltoallv final : public Exchange {
 public:
  explicit MpiIalltoallv(MPI_Comm team) : team_(team), layout_(team) {}
  bool overlaps() const override { return true; }
  void start(const cplx* send, cplx* recv, int count) override {
    layout_.set(count);  // the arrays must outlive the request
    MPI_Ialltoallv(send, layout_.counts.data(), layout_.displs.data(), MPI_C_DOUBLE_COMPLEX, recv,
                   layout_.counts.data(), layout_.displs.data(), MPI_C_DOUBLE_COMPLEX, team_, &request_);
  }
  void progress() override {
    int done = 0;
    MPI_Test(&request_, &done, MPI_STATUS_IGNORE);
  }
  void finish() override { MPI_Wait(&request_, MPI_STATUS_IGNORE); }

 private:
  MPI_Comm team_;
  Layout layout_;
  MPI_Request request_ = MPI_REQUEST_NULL;
};

class OptiqAlltoallv final : public Exchange {
 public:
  OptiqAlltoallv(MPI_Comm team, optiq_t ctx) : ctx_(ctx), layout_(team) {}
  bool overlaps() const override { return false; }
  void start(const cplx* send, cplx* recv, int count) override {
    layout_.set(count);
    check(optiq_alltoallv(send, layout_.counts.data(), layout_.displs.data(), MPI_C_DOUBLE_COMPLEX, recv,
                          layout_.counts.data(), layout_.displs.data(), MPI_C_DOUBLE_COMPLEX, ctx_),
          ctx_, "optiq_alltoallv");
  }

 private:
  optiq_t ctx_;
  Layout layout_;
};

class OptiqIalltoallv final : public Exchange {
 public:
  OptiqIalltoallv(MPI_Comm team, optiq_t ctx) : ctx_(ctx), layout_(team) {}
  bool overlaps() const override { return true; }
  void start(const cplx* send, cplx* recv, int count) override {
    layout_.set(count);
    check(optiq_ialltoallv(send, layout_.counts.data(), layout_.displs.data(), MPI_C_DOUBLE_COMPLEX, recv,
                           layout_.counts.data(), layout_.displs.data(), MPI_C_DOUBLE_COMPLEX, ctx_, &request_),
          ctx_, "optiq_ialltoallv");
  }
  void progress() override {
    if (!request_) return;  // completed by an earlier test, which freed the request
    int done = 0;
    check(optiq_test(&request_, &done), ctx_, "optiq_test");
  }
  void finish() override {
    if (request_) check(optiq_wait(&request_), ctx_, "optiq_wait");
  }

 private:
  optiq_t ctx_;
  Layout layout_;
  optiq_request_t request_ = nullptr;
};

}  // namespace

const char* variant_name(Variant v) {
  switch (v) {
    case Variant::alltoall: return "alltoall";
    case Variant::ialltoallv: return "ialltoallv";
    case Variant::optiq: return "optiq";
    case Variant::optiq_overlap: return "optiq-overlap";
  }
  return "?";
}

const char* variant_call(Variant v) {
  switch (v) {
    case Variant::alltoall: return "MPI_Alltoall";
    case Variant::ialltoallv: return "MPI_Ialltoallv, pipelined over slabs";
    case Variant::optiq: return "optiq_alltoallv";
    case Variant::optiq_overlap: return "optiq_ialltoallv, pipelined over slabs";
  }
  return "?";
}

Variant blocking_counterpart(Variant v) {
  if (v == Variant::ialltoallv) return Variant::alltoall;
  if (v == Variant::optiq_overlap) return Variant::optiq;
  return v;
}

OptiqTeams::~OptiqTeams() {
  if (row) optiq_destroy(&row);
  if (column) optiq_destroy(&column);
}

OptiqCounters optiq_counters(const OptiqTeams& teams) {
  OptiqCounters sum;
  for (optiq_t ctx : {teams.row, teams.column}) {
    optiq_stats s;
    if (!ctx || optiq_get_stats(ctx, &s) != OPTIQ_SUCCESS) continue;
    sum.operations += static_cast<double>(s.operations);
    sum.plans_made += static_cast<double>(s.plans_made);
    sum.injected_bytes += static_cast<double>(s.injected_bytes);
    sum.forwarded_bytes += static_cast<double>(s.forwarded_bytes);
  }
  return sum;
}

int create_optiq_teams(MPI_Comm row, MPI_Comm column, const char* topology, const optiq_options& options,
                       OptiqTeams& teams, std::string* error) {
  // Where this rank runs, as optiq places the whole job (by block, or by host name on networks
  // that name their hosts).
  optiq_t world = nullptr;
  int status = optiq_create(MPI_COMM_WORLD, topology, &options, &world);
  if (status != OPTIQ_SUCCESS) {
    *error = optiq_error_string(world);
    optiq_destroy(&world);
    return status;
  }
  optiq_stats stats;
  optiq_get_stats(world, &stats);
  optiq_destroy(&world);

  // Both teams are created whatever happens to the first: one team's failure is not its
  // neighbours', and a rank that skipped the second creation would leave them waiting in it.
  int worst = OPTIQ_SUCCESS;
  for (auto [team, ctx] : {std::make_pair(row, &teams.row), std::make_pair(column, &teams.column)}) {
    int size = 0;
    MPI_Comm_size(team, &size);
    std::vector<int> nodes(size);
    MPI_Allgather(&stats.node, 1, MPI_INT, nodes.data(), 1, MPI_INT, team);
    optiq_options placed = options;
    placed.rank_to_node = nodes.data();  // copied by optiq_create
    status = optiq_create(team, topology, &placed, ctx);
    if (status != OPTIQ_SUCCESS) {
      if (worst == OPTIQ_SUCCESS) *error = optiq_error_string(*ctx);
      worst = status;
      optiq_destroy(ctx);
    }
  }
  MPI_Allreduce(MPI_IN_PLACE, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (worst != OPTIQ_SUCCESS && error->empty()) *error = "optiq_create failed on a team of other ranks";
  return worst;
}

std::unique_ptr<Exchange> make_exchange(Variant variant, MPI_Comm team, optiq_t context) {
  switch (variant) {
    case Variant::alltoall: return std::make_unique<MpiAlltoall>(team);
    case Variant::ialltoallv: return std::make_unique<MpiIalltoallv>(team);
    case Variant::optiq: return std::make_unique<OptiqAlltoallv>(team, context);
    case Variant::optiq_overlap: return std::make_unique<OptiqIalltoallv>(team, context);
  }
  return nullptr;
}

}  // namespace ft
