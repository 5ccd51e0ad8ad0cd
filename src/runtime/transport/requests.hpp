// A growing set of MPI requests, each with a note of what it was for.
#pragma once

#include <mpi.h>

#include <utility>
#include <vector>

#include "runtime/transport/wait_set.hpp"

namespace optiq::rt {

template <class Note>
class Requests {
 public:
  void add(MPI_Request request, Note note) {
    requests_.push_back(request);
    notes_.push_back(std::move(note));
    early_.emplace_back();
  }
  std::size_t size() const { return requests_.size(); }
  bool empty() const { return requests_.empty(); }

  void watch(WaitSet& w) {
    for (std::size_t i = 0; i < requests_.size(); ++i) w.add(&requests_[i], &early_[i]);
  }

  // Cancels every request still pending and completes all of them: done(note, status,
  // cancelled) for each; a request that had already matched completes as usual.
  template <class F>
  void cancel_all(F&& done) {
    for (std::size_t i = 0; i < requests_.size(); ++i) {
      MPI_Status st = early_[i].status;
      int cancelled = 0;
      if (!early_[i].done && requests_[i] != MPI_REQUEST_NULL) {
        MPI_Cancel(&requests_[i]);
        MPI_Wait(&requests_[i], &st);
        MPI_Test_cancelled(&st, &cancelled);
      }
      done(notes_[i], st, cancelled != 0);
    }
    forget();
  }

  // Waits for every request.
  void wait_all() {
    for (MPI_Request& r : requests_) MPI_Wait(&r, MPI_STATUS_IGNORE);
    forget();
  }

  // Forgets every completed request, then calls done(note, status) for each (done may add).
  template <class F>
  void test(F&& done) {
    if (requests_.empty()) return;
    int count = 0;
    indices_.resize(requests_.size());
    statuses_.resize(requests_.size());
    // Requests a WaitSet completed are empty handles here, which Testsome skips.
    MPI_Testsome(static_cast<int>(requests_.size()), requests_.data(), &count, indices_.data(), statuses_.data());
    finished_.clear();
    for (int i = 0; i < count && count != MPI_UNDEFINED; ++i)
      finished_.emplace_back(std::move(notes_[indices_[i]]), statuses_[i]);
    for (std::size_t i = 0; i < requests_.size(); ++i)
      if (early_[i].done) finished_.emplace_back(std::move(notes_[i]), early_[i].status);
    if (finished_.empty()) return;
    std::size_t kept = 0;
    for (std::size_t i = 0; i < requests_.size(); ++i)
      if (requests_[i] != MPI_REQUEST_NULL) {
        requests_[kept] = requests_[i];
        notes_[kept] = std::move(notes_[i]);
        early_[kept] = Early{};
        ++kept;
      }
    requests_.resize(kept);
    notes_.resize(kept);
    early_.resize(kept);
    for (auto& [note, status] : finished_) done(note, status);
  }

 private:
  void forget() {
    requests_.clear();
    notes_.clear();
    early_.clear();
  }

  std::vector<MPI_Request> requests_;
  std::vector<Note> notes_;
  std::vector<Early> early_;
  std::vector<int> indices_;
  std::vector<MPI_Status> statuses_;
  std::vector<std::pair<Note, MPI_Status>> finished_;
};

}  // namespace optiq::rt
