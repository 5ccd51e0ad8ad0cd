// Generalized requests for optiq's nonblocking operations, and the progress that drives them.
#include "pmpi/requests.hpp"

#include <cstdio>
#include <vector>

#include "pmpi/guard.hpp"

namespace optiq::pmpi {

namespace {

struct Pending {
  optiq_t ctx = nullptr;
  optiq_request_t operation = nullptr;  // nullptr once complete
  MPI_Request request = MPI_REQUEST_NULL;
  int status = OPTIQ_SUCCESS;  // of the operation, once complete
  std::vector<int> arrays;     // what the operation reads, when the interposer made it
};

std::vector<Pending*> pending;  // started, not yet complete

int query(void* state, MPI_Status* status) {
  // MPI_Ialltoallv's status carries nothing; MPI asks for one all the same. A failed
  // operation fails the application's wait, under the application's error handler.
  const int rc = static_cast<Pending*>(state)->status == OPTIQ_SUCCESS ? MPI_SUCCESS : MPI_ERR_OTHER;
  MPI_Status_set_elements(status, MPI_BYTE, 0);
  MPI_Status_set_cancelled(status, 0);
  status->MPI_SOURCE = MPI_UNDEFINED;
  status->MPI_TAG = MPI_UNDEFINED;
  status->MPI_ERROR = rc;
  return rc;
}

// Called once the request is both complete and freed by the application.
int release(void* state) {
  delete static_cast<Pending*>(state);
  return MPI_SUCCESS;
}

// A collective cannot be cancelled once started (MPI says the same of its own).
int cancel(void*, int) { return MPI_SUCCESS; }

void finish(std::size_t i, int status) {
  Pending* p = pending[i];
  p->status = status;
  if (status != OPTIQ_SUCCESS)
    std::fprintf(stderr, "optiq: MPI_Ialltoallv failed: %s: %s\n", optiq_status_name(status),
                 optiq_error_string(p->ctx));
  pending.erase(pending.begin() + static_cast<std::ptrdiff_t>(i));
  PMPI_Grequest_complete(p->request);
}

}  // namespace

int adopt(optiq_t ctx, optiq_request_t operation, MPI_Request* request, std::vector<int> arrays) {
  auto* p = new Pending{ctx, operation, MPI_REQUEST_NULL, OPTIQ_SUCCESS, std::move(arrays)};
  const int rc = PMPI_Grequest_start(query, release, cancel, p, request);
  if (rc != MPI_SUCCESS) {
    InsideOptiq in;
    optiq_wait(&p->operation);
    delete p;
    return rc;
  }
  p->request = *request;
  pending.push_back(p);
  return MPI_SUCCESS;
}

bool any_pending() { return !pending.empty(); }

void progress_all() {
  InsideOptiq in;
  for (std::size_t i = 0; i < pending.size();) {
    int done = 0;
    const int status = optiq_test(&pending[i]->operation, &done);
    if (done || status != OPTIQ_SUCCESS) finish(i, status);
    else ++i;
  }
}

void complete_all(optiq_t ctx) {
  InsideOptiq in;
  for (std::size_t i = 0; i < pending.size();) {
    if (ctx && pending[i]->ctx != ctx) {
      ++i;
      continue;
    }
    finish(i, optiq_wait(&pending[i]->operation));
  }
}

}  // namespace optiq::pmpi
