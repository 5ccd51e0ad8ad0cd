#include "exchange/comm_state.hpp"

#include <algorithm>
#include <vector>

namespace optiq::sx {

namespace {

int keyval = MPI_KEYVAL_INVALID;       // the state on an application communicator
int self_keyval = MPI_KEYVAL_INVALID;  // a marker on MPI_COMM_SELF, deleted first by MPI_Finalize
std::vector<CommState*> live;          // in creation order, the same on every rank of each communicator

// Called by MPI when the application frees the communicator (a collective call, so the
// collective frees in the destructor are matched on every rank).
int delete_state(MPI_Comm, int, void* attribute, void*) {
  delete static_cast<CommState*>(attribute);
  return MPI_SUCCESS;
}

// MPI_Finalize deletes MPI_COMM_SELF's attributes before anything else, while windows and
// communicators can still be freed; MPI_COMM_WORLD's attributes go later, when freeing a
// window would crash (Open MPI 4.1). So free every state's MPI objects here, newest first
// (the reverse of an order all ranks of each communicator share, so collective frees match).
int at_finalize(MPI_Comm, int, void*, void*) {
  for (auto it = live.rbegin(); it != live.rend(); ++it) (*it)->release();
  return MPI_SUCCESS;
}

}  // namespace

void CommState::release() {
  if (counter_window != MPI_WIN_NULL) MPI_Win_free(&counter_window);  // also frees *counter
  counter = nullptr;
  for (MPI_Comm* c : {&payload[0], &payload[1], &control})
    if (*c != MPI_COMM_NULL) MPI_Comm_free(c);
}

CommState::~CommState() {
  release();
  live.erase(std::remove(live.begin(), live.end(), this), live.end());
}

CommState& state_for(MPI_Comm comm) {
  if (keyval == MPI_KEYVAL_INVALID) {
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_state, &keyval, nullptr);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, at_finalize, &self_keyval, nullptr);
    MPI_Comm_set_attr(MPI_COMM_SELF, self_keyval, nullptr);
  }
  void* attribute = nullptr;
  int found = 0;
  MPI_Comm_get_attr(comm, keyval, &attribute, &found);
  if (found) return *static_cast<CommState*>(attribute);
  auto* state = new CommState;
  MPI_Comm_rank(comm, &state->rank);
  MPI_Comm_size(comm, &state->size);
  MPI_Comm_dup(comm, &state->payload[0]);
  MPI_Comm_dup(comm, &state->payload[1]);
  MPI_Comm_dup(comm, &state->control);
  MPI_Comm_set_attr(comm, keyval, state);
  live.push_back(state);
  return *state;
}

int* rsx_counter(CommState& state) {
  if (state.counter_window == MPI_WIN_NULL) {
    MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, state.control, &state.counter, &state.counter_window);
    *state.counter = 0;  // a local store before the first fence
  }
  return state.counter;
}

}  // namespace optiq::sx
