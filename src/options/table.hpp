// A layer's records bound to the members of its struct: how one table both describes options
// and sets them, so no option is declared twice.
#pragma once

#include <functional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "optiq/core/error.hpp"
#include "optiq/core/options.hpp"

namespace optiq::options {

// Record builders: name, default as a user writes it, range, description.
OptionRecord integer(std::string name, std::string def, double lo, double hi, std::string help);
OptionRecord real(std::string name, std::string def, double lo, double hi, std::string help, bool lo_open = false,
                  bool hi_open = false);
OptionRecord bytes(std::string name, std::string def, double lo, double hi, std::string help);
OptionRecord choice(std::string name, std::string def, std::vector<std::string> choices, std::string help);
OptionRecord text(std::string name, std::string def, std::string help);
OptionRecord flag(std::string name, bool def, std::string help);
// The record with one value outside its range that means something of its own.
OptionRecord with_special(OptionRecord record, std::string value, std::string meaning);

// A number as the shortest text that reads back to it ("0.02", "1.8e+09").
std::string format_number(double value);
// Bytes as a user writes them ("64KiB", "1000").
std::string bytes_text(Bytes bytes);

template <class T>
struct Entry {
  OptionRecord record;
  std::function<void(T&, const char*)> set;  // the text is checked first
  std::function<std::string(const T&)> get;
};

// Binds a record to a member; the member's type and the record's kind decide the conversion.
template <class T, class M>
Entry<T> bind(OptionRecord record, M T::*member, std::string field) {
  record.field = std::move(field);
  Entry<T> e;
  const OptionKind kind = record.kind;
  e.record = std::move(record);
  e.set = [member, r = e.record](T& t, const char* text) {
    if constexpr (std::is_same_v<M, const char*>) {
      t.*member = *text ? text : nullptr;
    } else {
      t.*member = static_cast<M>(option_number(r, text));
    }
  };
  e.get = [member, kind, choices = e.record.choices](const T& t) -> std::string {
    if constexpr (std::is_same_v<M, const char*>) {
      return t.*member ? std::string(t.*member) : std::string();
    } else {
      const double v = static_cast<double>(t.*member);
      if (kind == OptionKind::choice) return v >= 0 && v < choices.size() ? choices[std::size_t(v)] : format_number(v);
      if (kind == OptionKind::flag) return v != 0 ? "1" : "0";
      if (kind == OptionKind::bytes) return bytes_text(static_cast<Bytes>(t.*member));
      return format_number(v);
    }
  };
  return e;
}

template <class T>
class Table {
 public:
  Table(std::string layer, std::vector<Entry<T>> entries) : layer_(std::move(layer)), entries_(std::move(entries)) {
    for (const auto& e : entries_) records_.push_back(e.record);
  }
  const std::vector<OptionRecord>& records() const { return records_; }
  void set(T& t, const std::string& name, const char* text) const {
    const Entry<T>& e = entry(name);
    check_option_value(e.record, text);
    e.set(t, text);
  }
  std::string get(const T& t, const std::string& name) const { return entry(name).get(t); }
  // Every field at its default; the defaults' texts live as long as the table.
  void reset(T& t) const {
    for (const auto& e : entries_) e.set(t, e.record.default_value.c_str());
  }

 private:
  const Entry<T>& entry(const std::string& name) const {
    for (const auto& e : entries_)
      if (e.record.name == name) return e;
    option_record(layer_, name);  // throws, naming the known options
    throw Error("no option '" + name + "'");
  }
  std::string layer_;
  std::vector<Entry<T>> entries_;
  std::vector<OptionRecord> records_;
};

// The tables of the layers with structs (one definition each, in <layer>_options.cpp).
const Table<PlannerOptions>& planner_table();
const Table<optiq_options>& runtime_table();
const Table<optiq_io_options>& io_table();
const std::vector<OptionRecord>& simulation_records();

}  // namespace optiq::options
