// A rank's schedule as bytes, to ship it from the planning rank. Fields in host byte order
// (the ranks of one job run the same build); a header and bounds checks catch garbage.
#include <cstring>
#include <limits>
#include <type_traits>

#include "optiq/core/error.hpp"
#include "optiq/core/schedule.hpp"

namespace optiq {

namespace {

constexpr std::uint32_t kMagic = 0x6f707173;  // "opqs"
constexpr std::uint32_t kVersion = 3;

// Each record field by field: copying whole structs would copy their padding, which holds
// whatever was in memory and makes equal schedules serialise differently.
template <class F>
void fields(SendFlow& x, F&& f) {
  f(x.next), f(x.tag), f(x.next_class), f(x.dst), f(x.offset), f(x.bytes), f(x.chunk);
}
template <class F>
void fields(ForwardEntry& x, F&& f) {
  f(x.upstream), f(x.tag_in), f(x.in_class), f(x.next), f(x.tag_out), f(x.next_class), f(x.bytes), f(x.chunk);
}
template <class F>
void fields(RecvFlow& x, F&& f) {
  f(x.upstream), f(x.tag), f(x.src), f(x.offset), f(x.bytes), f(x.chunk);
}
template <class F>
void fields(SelfCopy& x, F&& f) {
  f(x.offset), f(x.bytes);
}
template <class F>
void fields(Stream& x, F&& f) {
  f(x.peer), f(x.cls), f(x.chunks), f(x.first_slot), f(x.initial), f(x.slot_bytes);
}
template <class F>
void fields(PeerBytes& x, F&& f) {
  f(x.peer), f(x.bytes);
}

class Writer {
 public:
  template <class T>
  void put(const T& v) {
    if constexpr (std::is_arithmetic_v<T>) {
      out_.append(reinterpret_cast<const char*>(&v), sizeof(T));
    } else {
      T copy = v;
      fields(copy, [&](const auto& m) { put(m); });
    }
  }
  template <class T>
  void put_vector(const std::vector<T>& v) {
    put<std::uint64_t>(v.size());
    for (const T& x : v) put(x);
  }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
};

class Reader {
 public:
  explicit Reader(const std::string& in) : in_(in) {}
  template <class T>
  T get() {
    T v{};
    if constexpr (std::is_arithmetic_v<T>) {
      if (in_.size() - pos_ < sizeof(T)) throw Error("truncated schedule");
      std::memcpy(&v, in_.data() + pos_, sizeof(T));
      pos_ += sizeof(T);
    } else {
      fields(v, [&](auto& m) { m = get<std::remove_reference_t<decltype(m)>>(); });
    }
    return v;
  }
  template <class T>
  std::vector<T> get_vector() {
    const auto n = get<std::uint64_t>();
    if (n > in_.size() - pos_) throw Error("truncated schedule");  // every record takes bytes
    std::vector<T> v(n);
    for (auto& x : v) x = get<T>();
    return v;
  }
  bool done() const { return pos_ == in_.size(); }

 private:
  const std::string& in_;
  std::size_t pos_ = 0;
};

}  // namespace

std::string serialize(const RankSchedule& s) {
  Writer w;
  w.put(kMagic);
  w.put(kVersion);
  w.put(s.rank);
  w.put(s.num_ranks);
  w.put(s.slot_bytes);
  w.put(s.num_slots);
  w.put_vector(s.sends);
  w.put_vector(s.forwards);
  w.put_vector(s.recvs);
  w.put_vector(s.self);
  w.put_vector(s.in_streams);
  w.put_vector(s.out_streams);
  w.put_vector(s.send_bytes);
  w.put_vector(s.recv_bytes);
  w.put(s.off_plan_bytes);
  w.put(s.planned_seconds);
  w.put(s.predicted_seconds);
  w.put(s.aggregated_pairs);
  w.put(s.planned_jobs);
  w.put(s.planned_paths);
  w.put(s.most_paths);
  return w.take();
}

RankSchedule deserialize_schedule(const std::string& bytes) {
  Reader r(bytes);
  if (r.get<std::uint32_t>() != kMagic || r.get<std::uint32_t>() != kVersion) throw Error("not an optiq schedule");
  RankSchedule s;
  s.rank = r.get<Rank>();
  s.num_ranks = r.get<int>();
  s.slot_bytes = r.get<Bytes>();
  s.num_slots = r.get<std::uint32_t>();
  s.sends = r.get_vector<SendFlow>();
  s.forwards = r.get_vector<ForwardEntry>();
  s.recvs = r.get_vector<RecvFlow>();
  s.self = r.get_vector<SelfCopy>();
  s.in_streams = r.get_vector<Stream>();
  s.out_streams = r.get_vector<Stream>();
  s.send_bytes = r.get_vector<PeerBytes>();
  s.recv_bytes = r.get_vector<PeerBytes>();
  s.off_plan_bytes = r.get<Bytes>();
  s.planned_seconds = r.get<double>();
  s.predicted_seconds = r.get<double>();
  if (!(s.predicted_seconds >= 0) || s.predicted_seconds == std::numeric_limits<double>::infinity())
    throw Error("a schedule's predicted time is not a finite number of seconds");
  s.aggregated_pairs = r.get<std::uint64_t>();
  s.planned_jobs = r.get<std::uint64_t>();
  s.planned_paths = r.get<std::uint64_t>();
  s.most_paths = r.get<std::uint64_t>();
  if (!(s.planned_seconds >= 0) || s.planned_seconds == std::numeric_limits<double>::infinity())
    throw Error("a schedule's planned time is not a finite number of seconds");
  if (!r.done()) throw Error("trailing bytes after a schedule");
  return s;
}

}  // namespace optiq
