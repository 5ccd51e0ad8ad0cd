// Whole-byte splits: every planner hands the transport whole bytes that add up exactly.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "optiq/core/error.hpp"
#include "optiq/core/plan.hpp"

namespace optiq {

std::vector<Bytes> split_evenly(Bytes bytes, std::size_t parts) {
  if (parts == 0) return {};
  std::vector<Bytes> out(parts, bytes / parts);
  for (std::size_t i = 0; i < bytes % parts; ++i) ++out[i];
  return out;
}

std::vector<Bytes> split_by_shares(Bytes bytes, const std::vector<double>& shares) {
  if (shares.empty()) return {};
  double total = 0;
  for (double s : shares) {
    if (!(s >= 0) || std::isinf(s)) throw Error("shares must be finite and non-negative");
    total += s;
  }
  if (total <= 0) return split_evenly(bytes, shares.size());
  std::vector<Bytes> out(shares.size());
  std::vector<double> rest(shares.size());
  Bytes given = 0;
  for (std::size_t i = 0; i < shares.size(); ++i) {
    const double exact = static_cast<double>(bytes) * (shares[i] / total);
    out[i] = std::min<Bytes>(bytes - given, static_cast<Bytes>(std::floor(exact)));
    rest[i] = exact - static_cast<double>(out[i]);
    given += out[i];
  }
  std::vector<std::size_t> order(shares.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return rest[a] > rest[b]; });
  for (std::size_t k = 0; given < bytes; k = (k + 1) % order.size(), ++given) ++out[order[k]];
  return out;
}

std::vector<Bytes> merge_small_parts(std::vector<Bytes> parts, Bytes min_bytes) {
  if (parts.size() <= 1) return parts;
  std::size_t largest = 0;
  for (std::size_t i = 1; i < parts.size(); ++i)
    if (parts[i] > parts[largest]) largest = i;
  for (std::size_t i = 0; i < parts.size(); ++i)
    if (i != largest && parts[i] < min_bytes) parts[largest] += parts[i], parts[i] = 0;
  return parts;
}

}  // namespace optiq
