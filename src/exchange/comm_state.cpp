#include "exchange/comm_state.hpp"

#include <algorithm>
#include <vector>

namespace optiq::sx {

// Everything is kept per rank in MPI attributes, never in mutable globals: under SimGrid SMPI
// without privatization all simulated ranks share one copy of the program's globals, and
// MPI_COMM_WORLD is one object with one attribute table for all of them. Only the keyval of
// the per-rank registry is global; it is written once and means the same to every rank, since
// it is only ever used on MPI_COMM_SELF, which is a separate object on each rank.
struct Registry {
  int state_keyval = MPI_KEYVAL_INVALID;  // this rank's key for states on application communicators
  std::vector<CommState*> live;           // in creation order, the same on every rank of each communicator
};

namespace {

int registry_keyval = MPI_KEYVAL_INVALID;

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
int delete_registry(MPI_Comm, int, void* attribute, void*) {
  auto* registry = static_cast<Registry*>(attribute);
  for (auto it = registry->live.rbegin(); it != registry->live.rend(); ++it) {
    (*it)->release();
    (*it)->registry = nullptr;
  }
  delete registry;
  return MPI_SUCCESS;
}

Registry& registry() {
  if (registry_keyval == MPI_KEYVAL_INVALID)
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_registry, &registry_keyval, nullptr);
  void* attribute = nullptr;
  int found = 0;
  MPI_Comm_get_attr(MPI_COMM_SELF, registry_keyval, &attribute, &found);
  if (found) return *static_cast<Registry*>(attribute);
  auto* r = new Registry;
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_state, &r->state_keyval, nullptr);
  MPI_Comm_set_attr(MPI_COMM_SELF, registry_keyval, r);
  return *r;
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
  if (registry) registry->live.erase(std::remove(registry->live.begin(), registry->live.end(), this), registry->live.end());
}

CommState& state_for(MPI_Comm comm) {
  Registry& reg = registry();
  void* attribute = nullptr;
  int found = 0;
  MPI_Comm_get_attr(comm, reg.state_keyval, &attribute, &found);
  if (found) return *static_cast<CommState*>(attribute);
  auto* state = new CommState;
  state->registry = &reg;
  MPI_Comm_rank(comm, &state->rank);
  MPI_Comm_size(comm, &state->size);
  MPI_Comm_dup(comm, &state->payload[0]);
  MPI_Comm_dup(comm, &state->payload[1]);
  MPI_Comm_dup(comm, &state->control);
  MPI_Comm_set_attr(comm, reg.state_keyval, state);
  reg.live.push_back(state);
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
