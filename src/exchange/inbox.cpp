#include "exchange/inbox.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "exchange/comm_state.hpp"

namespace optiq::sx {

namespace {

void* allocate(int bytes, int source) {
  if (bytes == 0) return nullptr;
  void* p = std::malloc(static_cast<size_t>(bytes));
  if (!p) {
    const std::string what = "out of memory for a message of " + std::to_string(bytes) + " bytes from rank " +
                             std::to_string(source);
    fatal(what.c_str());
  }
  return p;
}

}  // namespace

void fatal(const char* what) {
  std::fprintf(stderr, "optiq_sparse_exchange: fatal: %s\n", what);
  MPI_Abort(MPI_COMM_WORLD, 70);
  std::abort();  // MPI_Abort does not return; keeps [[noreturn]] honest if it did
}

Inbox::~Inbox() { discard(); }

void Inbox::receive_probed(MPI_Comm comm, const MPI_Status& status) {
  if (status.MPI_TAG == kTagNotice) {
    MPI_Recv(nullptr, 0, MPI_BYTE, status.MPI_SOURCE, kTagNotice, comm, MPI_STATUS_IGNORE);
    failed_.push_back(status.MPI_SOURCE);
    return;
  }
  if (status.MPI_TAG != kTagData) fatal("a message with an unknown tag arrived on an exchange communicator");
  int bytes = 0;
  MPI_Get_count(&status, MPI_BYTE, &bytes);
  void* data = allocate(bytes, status.MPI_SOURCE);
  MPI_Recv(data, bytes, MPI_BYTE, status.MPI_SOURCE, kTagData, comm, MPI_STATUS_IGNORE);
  messages_.push_back({status.MPI_SOURCE, bytes, data});
}

void* Inbox::expect(int source, int bytes) {
  void* data = allocate(bytes, source);
  messages_.push_back({source, bytes, data});
  return data;
}

void Inbox::copy_self(int rank, const Message& m) {
  void* data = expect(rank, m.bytes);
  if (m.bytes) std::memcpy(data, m.data, static_cast<size_t>(m.bytes));
}

std::string Inbox::failure_message() const {
  const int first = *std::min_element(failed_.begin(), failed_.end());
  std::string text = "rank " + std::to_string(first) + " passed bad arguments";
  const size_t others = failed_.size() - 1;
  if (others) text += " (and " + std::to_string(others) + (others == 1 ? " other rank)" : " other ranks)");
  return text + " (the error on that rank says which); no rank keeps any message of this exchange";
}

void Inbox::hand_over(optiq_sx_result* result) {
  if (!result) {
    discard();
    return;
  }
  std::sort(messages_.begin(), messages_.end(),
            [](const Received& a, const Received& b) { return a.source < b.source; });
  const size_t n = messages_.size();
  result->nrecv = static_cast<int>(n);
  if (n > 0) {
    result->sources = static_cast<int*>(std::malloc(n * sizeof(int)));
    result->sizes = static_cast<int*>(std::malloc(n * sizeof(int)));
    result->recvbufs = static_cast<void**>(std::malloc(n * sizeof(void*)));
    if (!result->sources || !result->sizes || !result->recvbufs) fatal("out of memory for the result arrays");
    for (size_t i = 0; i < n; ++i) {
      result->sources[i] = messages_[i].source;
      result->sizes[i] = messages_[i].bytes;
      result->recvbufs[i] = messages_[i].data;
    }
  }
  messages_.clear();
}

void Inbox::discard() {
  for (Received& m : messages_) std::free(m.data);
  messages_.clear();
}

}  // namespace optiq::sx
