// MPI_Alltoallv, MPI_Ialltoallv and MPI_Alltoall, taken by optiq where it can serve them and
// passed to the PMPI_ call otherwise. Every decision to pass is the same on every rank of the
// communicator (it depends on the communicator, on settings every rank shares, on the type
// signature MPI requires to match, or on a status optiq agrees on across ranks), so no rank is
// left in optiq while another is in MPI.
#include <mpi.h>

#include <climits>
#include <string>
#include <vector>

#include "config.hpp"
#include "guard.hpp"
#include "requests.hpp"
#include "state.hpp"

using namespace optiq::pmpi;

namespace {

std::string refused(int status, optiq_t ctx) {
  return std::string(optiq_status_name(status)) + ": " + optiq_error_string(ctx);
}

}  // namespace

extern "C" {

int MPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                  void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  if (inside_optiq())
    return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
  std::string why;
  if (optiq_t ctx = context_for(comm, &why)) {
    InsideOptiq in;
    const int status =
        optiq_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, ctx);
    if (status == OPTIQ_SUCCESS) {
      count_taken(comm, Call::alltoallv);
      return MPI_SUCCESS;
    }
    why = refused(status, ctx);
  }
  count_passed(comm, Call::alltoallv, why);
  return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
}

int MPI_Ialltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                   void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                   MPI_Request* request) {
  if (inside_optiq())
    return PMPI_Ialltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm,
                           request);
  std::string why;
  if (optiq_t ctx = context_for(comm, &why)) {
    optiq_request_t operation = nullptr;
    int status;
    {
      InsideOptiq in;
      status = optiq_ialltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, ctx,
                                &operation);
    }
    if (status == OPTIQ_SUCCESS) {
      count_taken(comm, Call::ialltoallv);
      return adopt(ctx, operation, request);
    }
    why = refused(status, ctx);
  }
  count_passed(comm, Call::ialltoallv, why);
  return PMPI_Ialltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm,
                         request);
}

int MPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                 MPI_Datatype recvtype, MPI_Comm comm) {
  if (inside_optiq()) return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  std::string why;
  optiq_t ctx = context_for(comm, &why);
  int size = 0, type_size = 0;
  PMPI_Comm_size(comm, &size);
  // The receive side's signature equals every sender's, so every rank sees the same bytes per pair.
  PMPI_Type_size(recvtype, &type_size);
  const long long pair_bytes = static_cast<long long>(recvcount) * type_size;
  if (ctx && pair_bytes < static_cast<long long>(config().options.direct_threshold_bytes)) {
    // optiq would send every pair directly, as MPI does: nothing to plan.
    why = "below the direct threshold per pair";
    ctx = nullptr;
  }
  if (sendbuf == MPI_IN_PLACE) {  // the send arguments are ignored and may hold anything
    sendcount = recvcount;
    sendtype = recvtype;
  }
  if (ctx && (sendcount < 0 || recvcount < 0 || static_cast<long long>(size) * recvcount > INT_MAX ||
              static_cast<long long>(size) * sendcount > INT_MAX)) {
    why = "displacements beyond int";
    ctx = nullptr;
  }
  if (ctx) {
    std::vector<int> scounts(size, sendcount), sdispls(size), rcounts(size, recvcount), rdispls(size);
    for (int r = 0; r < size; ++r) {
      sdispls[r] = r * sendcount;
      rdispls[r] = r * recvcount;
    }
    InsideOptiq in;
    const int status = optiq_alltoallv(sendbuf, scounts.data(), sdispls.data(), sendtype, recvbuf, rcounts.data(),
                                       rdispls.data(), recvtype, ctx);
    if (status == OPTIQ_SUCCESS) {
      count_taken(comm, Call::alltoall);
      return MPI_SUCCESS;
    }
    why = refused(status, ctx);
  }
  count_passed(comm, Call::alltoall, why);
  return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

}  // extern "C"
