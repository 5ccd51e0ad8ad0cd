// MPI_Alltoallv, MPI_Ialltoallv, MPI_Alltoall and MPI_Ialltoall, taken by optiq where it can serve them and
// passed to the PMPI_ call otherwise. Every decision to pass is the same on every rank of the
// communicator (it depends on the communicator, on settings every rank shares, on the type
// signature MPI requires to match, or on a status optiq agrees on across ranks), so no rank is
// left in optiq while another is in MPI.
#include <mpi.h>

#include <climits>
#include <string>
#include <vector>

#include "pmpi/config.hpp"
#include "pmpi/guard.hpp"
#include "pmpi/requests.hpp"
#include "pmpi/state.hpp"

using namespace optiq::pmpi;

namespace {

std::string refused(int status, optiq_t ctx) {
  return std::string(optiq_status_name(status)) + ": " + optiq_error_string(ctx);
}

// An all-to-all of one count per pair as optiq_alltoallv's arrays: a = [send counts, send
// displacements, receive counts, receive displacements], one entry per rank each. False, with
// *why, where optiq has nothing to gain or cannot express it.
bool as_alltoallv(const void* sendbuf, int& sendcount, MPI_Datatype& sendtype, int recvcount, MPI_Datatype recvtype,
                  MPI_Comm comm, std::vector<int>* a, std::string* why) {
  if (sendbuf == MPI_IN_PLACE) {  // the send arguments are ignored and may hold anything
    sendcount = recvcount;
    sendtype = recvtype;
  }
  int size = 0, type_size = 0;
  PMPI_Comm_size(comm, &size);
  // The receive side's signature equals every sender's, so every rank sees the same bytes per pair.
  PMPI_Type_size(recvtype, &type_size);
  if (static_cast<long long>(recvcount) * type_size < static_cast<long long>(config().options.direct_threshold_bytes)) {
    *why = "below the direct threshold per pair";  // optiq would send each pair directly, as MPI does
    return false;
  }
  if (sendcount < 0 || recvcount < 0 || static_cast<long long>(size) * recvcount > INT_MAX ||
      static_cast<long long>(size) * sendcount > INT_MAX) {
    *why = "displacements beyond int";
    return false;
  }
  a->assign(4 * static_cast<std::size_t>(size), 0);
  for (int r = 0; r < size; ++r) {
    (*a)[r] = sendcount;
    (*a)[size + r] = r * sendcount;
    (*a)[2 * size + r] = recvcount;
    (*a)[3 * size + r] = r * recvcount;
  }
  return true;
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
  std::vector<int> a;
  optiq_t ctx = context_for(comm, &why);
  if (ctx && as_alltoallv(sendbuf, sendcount, sendtype, recvcount, recvtype, comm, &a, &why)) {
    const int n = static_cast<int>(a.size() / 4);
    InsideOptiq in;
    const int status =
        optiq_alltoallv(sendbuf, &a[0], &a[n], sendtype, recvbuf, &a[2 * n], &a[3 * n], recvtype, ctx);
    if (status == OPTIQ_SUCCESS) {
      count_taken(comm, Call::alltoall);
      return MPI_SUCCESS;
    }
    why = refused(status, ctx);
  }
  count_passed(comm, Call::alltoall, why);
  return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

int MPI_Ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  if (inside_optiq())
    return PMPI_Ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
  std::string why;
  std::vector<int> a;
  optiq_t ctx = context_for(comm, &why);
  if (ctx && as_alltoallv(sendbuf, sendcount, sendtype, recvcount, recvtype, comm, &a, &why)) {
    const int n = static_cast<int>(a.size() / 4);
    optiq_request_t operation = nullptr;
    int status;
    {
      InsideOptiq in;
      status = optiq_ialltoallv(sendbuf, &a[0], &a[n], sendtype, recvbuf, &a[2 * n], &a[3 * n], recvtype, ctx,
                                &operation);
    }
    if (status == OPTIQ_SUCCESS) {
      count_taken(comm, Call::ialltoall);
      return adopt(ctx, operation, request, std::move(a));  // the operation reads a until it completes
    }
    why = refused(status, ctx);
  }
  count_passed(comm, Call::ialltoall, why);
  return PMPI_Ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
}

}  // extern "C"
