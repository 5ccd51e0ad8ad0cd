#include "exchange/outgoing.hpp"

#include <algorithm>
#include <utility>

namespace optiq::sx {

namespace {

std::string describe(int nsend, const int* dests, const void* const* sendbufs, const int* sendsizes, int size) {
  using std::to_string;
  if (nsend < 0) return "nsend is negative (" + to_string(nsend) + ")";
  if (nsend == 0) return "";
  if (!dests) return "dests is NULL with nsend = " + to_string(nsend);
  if (!sendsizes) return "sendsizes is NULL with nsend = " + to_string(nsend);
  if (!sendbufs) return "sendbufs is NULL with nsend = " + to_string(nsend);
  for (int i = 0; i < nsend; ++i) {
    const std::string at = "[" + to_string(i) + "]";
    if (dests[i] < 0 || dests[i] >= size)
      return "dests" + at + " = " + to_string(dests[i]) + " is not a rank of the communicator (" + to_string(size) +
             " ranks)";
    if (sendsizes[i] < 0) return "sendsizes" + at + " is negative (" + to_string(sendsizes[i]) + ")";
    if (sendsizes[i] > 0 && !sendbufs[i])
      return "sendbufs" + at + " is NULL for a message of " + to_string(sendsizes[i]) + " bytes";
  }
  // Repeats: sort (destination, index) pairs; O(nsend log nsend), independent of the size.
  std::vector<std::pair<int, int>> order(nsend);
  for (int i = 0; i < nsend; ++i) order[i] = {dests[i], i};
  std::sort(order.begin(), order.end());
  for (int i = 1; i < nsend; ++i)
    if (order[i].first == order[i - 1].first)
      return "dests[" + to_string(order[i].second) + "] = " + to_string(order[i].first) + " repeats dests[" +
             to_string(order[i - 1].second) + "] (send at most one message to each rank)";
  return "";
}

}  // namespace

Outgoing check_outgoing(int rank, int size, int nsend, const int* dests, const void* const* sendbufs,
                        const int* sendsizes) {
  Outgoing out;
  const std::string problem = describe(nsend, dests, sendbufs, sendsizes, size);
  if (!problem.empty()) {
    out.error = "rank " + std::to_string(rank) + ": " + problem;
    return out;
  }
  out.remote.reserve(nsend);
  for (int i = 0; i < nsend; ++i) {
    const Message m{dests[i], sendsizes[i], sendbufs[i]};
    if (m.peer == rank) {
      out.has_self = true;
      out.self = m;
    } else {
      out.remote.push_back(m);
    }
  }
  return out;
}

}  // namespace optiq::sx
