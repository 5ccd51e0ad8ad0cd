// Slurm host list expressions (include/optiq/core/hostlist.hpp): read in two passes, first the
// shape (literal text and bracket groups) and the count it implies, then the names, so that the
// limit is enforced before anything large is allocated.
#include "optiq/core/hostlist.hpp"

#include <cctype>
#include <cstdio>

#include "optiq/core/error.hpp"

namespace optiq {

namespace {

constexpr std::size_t kMaxDigits = 18;  // 10^18 - 1 fits a long long with room for hi - lo + 1

struct Range {
  long long lo, hi;
  std::size_t width;  // digits of the lower bound: the zero padding
};

// One name pattern: literal text around bracket groups, `rack[1-2]n[01-02]` is
// {"rack", [1-2], "n", [01-02], ""}: parts.size() == groups.size() + 1.
struct Item {
  std::vector<std::string> parts;
  std::vector<std::vector<Range>> groups;
  long long count = 1;
};

class Reader {
 public:
  Reader(const std::string& expr, const std::string& where, long long limit)
      : expr_(expr), where_(where), limit_(limit) {}

  std::vector<std::string> expand() {
    if (expr_.empty()) fail("the list is empty");
    // Checked first, so that the refusal does not depend on where the byte is.
    for (const char c : expr_) {
      if (std::isspace(static_cast<unsigned char>(c))) fail("a blank inside the list");
      if (std::iscntrl(static_cast<unsigned char>(c))) fail("a control character inside the list");
    }
    std::vector<Item> items;
    long long total = 0;
    std::size_t pos = 0;
    while (true) {
      items.push_back(item(pos));
      if (items.back().count > limit_ - total) too_many();
      total += items.back().count;
      if (pos == expr_.size()) break;
      ++pos;  // the comma between items
    }
    std::vector<std::string> names;
    names.reserve(static_cast<std::size_t>(total));
    for (const Item& it : items) append(it, names);
    return names;
  }

 private:
  // The expression is quoted with its control characters as \xNN: a NUL would end the message.
  [[noreturn]] void fail(const std::string& why) const {
    std::string quoted;
    for (const char c : expr_) {
      if (std::iscntrl(static_cast<unsigned char>(c))) {
        char hex[8];
        std::snprintf(hex, sizeof hex, "\\x%02x", static_cast<unsigned char>(c));
        quoted += hex;
      } else {
        quoted += c;
      }
    }
    throw Error(where_ + ": bad host list '" + quoted + "': " + why);
  }
  [[noreturn]] void too_many() const {
    fail("it stands for more than " + std::to_string(limit_) + " names");
  }

  // One item from `pos` up to the next top-level comma or the end.
  Item item(std::size_t& pos) {
    Item it;
    it.parts.emplace_back();
    const std::size_t start = pos;
    while (pos < expr_.size() && expr_[pos] != ',') {
      const char c = expr_[pos];
      if (c == '[') {
        it.groups.push_back(group(pos));
        long long size = 0;
        for (const Range& r : it.groups.back()) {
          if (r.hi - r.lo + 1 > limit_ - size) too_many();
          size += r.hi - r.lo + 1;
        }
        if (size > limit_ / it.count) too_many();  // count * size > limit, without overflow
        it.count *= size;
        it.parts.emplace_back();
        continue;
      }
      if (c == ']') fail("']' without '['");
      it.parts.back() += c;
      ++pos;
    }
    if (pos == start) {
      if (pos == 0) fail("it starts with a comma");
      fail(pos == expr_.size() ? "it ends with a comma" : "an empty item (two commas)");
    }
    return it;
  }

  // A bracket group at `pos` ('['): numbers and ranges separated by commas, up to ']'.
  std::vector<Range> group(std::size_t& pos) {
    const std::size_t open = pos++;
    std::vector<Range> ranges;
    while (true) {
      if (pos >= expr_.size()) fail("'[' at " + std::to_string(open + 1) + " is never closed");
      Range r{};
      const std::string lo = number(pos, open);
      r.width = lo.size();
      r.lo = std::stoll(lo);
      r.hi = r.lo;
      if (pos < expr_.size() && expr_[pos] == '-') {
        ++pos;
        r.hi = std::stoll(number(pos, open));
        if (r.hi < r.lo) fail("reversed range " + lo + "-" + std::to_string(r.hi));
      }
      ranges.push_back(r);
      if (pos >= expr_.size()) fail("'[' at " + std::to_string(open + 1) + " is never closed");
      if (expr_[pos] == ']') {
        ++pos;
        return ranges;
      }
      if (expr_[pos] != ',') {
        if (expr_[pos] == '[') fail("brackets do not nest");
        fail(std::string("unexpected '") + expr_[pos] + "' inside brackets (numbers and ranges only)");
      }
      ++pos;
    }
  }

  // Decimal digits at `pos`, inside the group opened at `open`.
  std::string number(std::size_t& pos, std::size_t open) {
    const std::size_t start = pos;
    while (pos < expr_.size() && std::isdigit(static_cast<unsigned char>(expr_[pos]))) ++pos;
    if (pos == start) {
      if (pos >= expr_.size()) fail("'[' at " + std::to_string(open + 1) + " is never closed");
      if (expr_[pos] == ']' || expr_[pos] == ',' || expr_[pos] == '-') fail("an empty number or range inside brackets");
      if (expr_[pos] == '[') fail("brackets do not nest");
      fail(std::string("a bound is not a number ('") + expr_[pos] + "')");
    }
    if (pos - start > kMaxDigits) fail("a bound has more than " + std::to_string(kMaxDigits) + " digits");
    return expr_.substr(start, pos - start);
  }

  static std::string padded(long long value, std::size_t width) {
    std::string s = std::to_string(value);
    if (s.size() < width) s.insert(0, width - s.size(), '0');
    return s;
  }

  // Every name of an item: an odometer over its groups, the first group turning slowest.
  static void append(const Item& it, std::vector<std::string>& names) {
    const std::size_t g = it.groups.size();
    std::vector<std::size_t> range(g, 0);  // per group: which range, and the value within it
    std::vector<long long> value(g);
    for (std::size_t i = 0; i < g; ++i) value[i] = it.groups[i][0].lo;
    while (true) {
      std::string name = it.parts[0];
      for (std::size_t i = 0; i < g; ++i) {
        name += padded(value[i], it.groups[i][range[i]].width);
        name += it.parts[i + 1];
      }
      names.push_back(std::move(name));
      std::size_t i = g;  // advance the last group; carry into the ones before
      while (i > 0) {
        --i;
        if (value[i] < it.groups[i][range[i]].hi) {
          ++value[i];
          break;
        }
        if (range[i] + 1 < it.groups[i].size()) {
          value[i] = it.groups[i][++range[i]].lo;
          break;
        }
        range[i] = 0;
        value[i] = it.groups[i][0].lo;
        if (i == 0) return;
      }
      if (g == 0) return;
    }
  }

  const std::string& expr_;
  const std::string& where_;
  const long long limit_;
};

}  // namespace

std::vector<std::string> expand_hostlist(const std::string& expr, const std::string& where, long long limit) {
  return Reader(expr, where, limit).expand();
}

}  // namespace optiq
