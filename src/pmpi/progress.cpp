// The MPI_Wait* and MPI_Test* families: while optiq operations are pending, every test or
// wait of the application also moves their bytes (then asks MPI without blocking, until the
// application's condition holds). With nothing pending they are the PMPI_ calls themselves.
#include <mpi.h>

#include "pmpi/guard.hpp"
#include "pmpi/requests.hpp"
#include "pmpi/state.hpp"

using namespace optiq::pmpi;

namespace {

bool direct() { return inside_optiq() || !any_pending(); }

}  // namespace

extern "C" {

int MPI_Test(MPI_Request* request, int* flag, MPI_Status* status) {
  if (!direct()) progress_all();
  return PMPI_Test(request, flag, status);
}

int MPI_Testall(int count, MPI_Request requests[], int* flag, MPI_Status statuses[]) {
  if (!direct()) progress_all();
  return PMPI_Testall(count, requests, flag, statuses);
}

int MPI_Testany(int count, MPI_Request requests[], int* index, int* flag, MPI_Status* status) {
  if (!direct()) progress_all();
  return PMPI_Testany(count, requests, index, flag, status);
}

int MPI_Testsome(int incount, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[]) {
  if (!direct()) progress_all();
  return PMPI_Testsome(incount, requests, outcount, indices, statuses);
}

int MPI_Wait(MPI_Request* request, MPI_Status* status) {
  while (!direct()) {
    progress_all();
    int flag = 0;
    const int rc = PMPI_Test(request, &flag, status);
    if (rc != MPI_SUCCESS || flag) return rc;
  }
  return PMPI_Wait(request, status);
}

int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]) {
  while (!direct()) {
    progress_all();
    int flag = 0;
    const int rc = PMPI_Testall(count, requests, &flag, statuses);
    if (rc != MPI_SUCCESS || flag) return rc;
  }
  return PMPI_Waitall(count, requests, statuses);
}

int MPI_Waitany(int count, MPI_Request requests[], int* index, MPI_Status* status) {
  while (!direct()) {
    progress_all();
    int flag = 0;
    const int rc = PMPI_Testany(count, requests, index, &flag, status);
    if (rc != MPI_SUCCESS || flag) return rc;
  }
  return PMPI_Waitany(count, requests, index, status);
}

int MPI_Waitsome(int incount, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[]) {
  while (!direct()) {
    progress_all();
    const int rc = PMPI_Testsome(incount, requests, outcount, indices, statuses);
    if (rc != MPI_SUCCESS || *outcount != 0) return rc;
  }
  return PMPI_Waitsome(incount, requests, outcount, indices, statuses);
}

int MPI_Finalize(void) {
  if (!inside_optiq()) finish();
  return PMPI_Finalize();
}

}  // extern "C"
