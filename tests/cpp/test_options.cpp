// Option records: the one declaration of every option, and what reads it.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>

#include "optiq/core/error.hpp"
#include "optiq/core/options.hpp"
#include "optiq/core/planner.hpp"
#include "optiq/options.h"
#include "options/table.hpp"

using namespace optiq;

TEST(OptionRecords, EveryDefaultPassesItsOwnRecordAndReadsBackFromTheStruct) {
  optiq_options rt;
  optiq_options_init(&rt);
  for (const OptionRecord& r : option_records("runtime")) {
    if (r.kind != OptionKind::text) EXPECT_NO_THROW(check_option_value(r, r.default_value)) << r.name;
    EXPECT_EQ(get_option(rt, r.name), r.default_value) << r.name;
  }
  optiq_io_options io;
  optiq_io_options_init(&io);
  for (const OptionRecord& r : option_records("io")) EXPECT_EQ(get_option(io, r.name), r.default_value) << r.name;
  const PlannerOptions po;
  for (const OptionRecord& r : option_records("planner"))
    EXPECT_EQ(option_number(r, get_option(po, r.name)), option_number(r, r.default_value)) << r.name;
  for (const OptionRecord& r : option_records("simulation")) EXPECT_NO_THROW(option_default("simulation", r.name));
}

TEST(OptionRecords, NamesAreUniqueAndSpellTheirEnvironmentVariable) {
  for (const std::string& layer : option_layers()) {
    std::set<std::string> names;
    for (const OptionRecord& r : option_records(layer)) {
      EXPECT_TRUE(names.insert(r.name).second) << layer << " " << r.name;
      EXPECT_FALSE(r.help.empty()) << r.name;
    }
  }
  EXPECT_EQ(option_record("runtime", "forward-budget").environment_name(), "OPTIQ_FORWARD_BUDGET");
  EXPECT_THROW(option_record("runtime", "budget"), Error);
  EXPECT_THROW(option_records("nowhere"), Error);
}

TEST(OptionRecords, ValuesAreCheckedByKindRangeAndSpecialValue) {
  const OptionRecord& k = option_record("planner", "k");
  for (const char* bad : {"0", "100001", "1e3", " 5", "5 ", "", "0x10", "five", "+", "--1"})
    EXPECT_THROW(check_option_value(k, bad), Error) << bad;
  EXPECT_EQ(option_number(k, "+7"), 7);
  const OptionRecord& hop = option_record("planner", "hop-bound");
  EXPECT_EQ(option_number(hop, "-1"), -1);  // the special value, outside the range
  EXPECT_THROW(check_option_value(hop, "-2"), Error);
  const OptionRecord& eps = option_record("planner", "epsilon");
  for (const char* bad : {"0", "1", "nan", "inf", "-0.5", "1e999", "0.5.1"}) EXPECT_THROW(check_option_value(eps, bad), Error) << bad;
  EXPECT_DOUBLE_EQ(option_number(eps, ".5"), 0.5);
  const OptionRecord& chunk = option_record("runtime", "chunk");
  EXPECT_EQ(option_number(chunk, "0"), 0);  // automatic
  EXPECT_EQ(option_number(chunk, "4KiB"), 4096);
  EXPECT_THROW(check_option_value(chunk, "2GiB"), Error);  // above the largest message
  EXPECT_TRUE(std::isinf(option_default("simulation", "copy-bandwidth")) == false);
  EXPECT_TRUE(std::isinf(option_number(option_record("simulation", "copy-bandwidth"), "inf")));
  const OptionRecord& transport = option_record("runtime", "transport");
  EXPECT_EQ(option_number(transport, "rma"), OPTIQ_TRANSPORT_RMA);
  EXPECT_THROW(check_option_value(transport, "RMA"), Error);
  const OptionRecord& cache = option_record("runtime", "plan-cache");
  EXPECT_EQ(option_number(cache, "no"), 0);
  EXPECT_THROW(check_option_value(cache, "2"), Error);
}

TEST(OptionRecords, TheCApiSetsByNameAndSaysWhyNot) {
  optiq_options o;
  optiq_options_init(&o);
  char why[128];
  EXPECT_EQ(optiq_options_set(&o, "transport", "rma", why, sizeof why), 0);
  EXPECT_EQ(o.transport, OPTIQ_TRANSPORT_RMA);
  EXPECT_EQ(optiq_options_set(&o, "chunk", "64KiB", why, sizeof why), 0);
  EXPECT_EQ(o.chunk_bytes, 65536u);
  EXPECT_EQ(optiq_options_set(&o, "chunk", "lots", why, sizeof why), 1);
  EXPECT_NE(std::string(why).find("chunk"), std::string::npos) << why;
  EXPECT_EQ(o.chunk_bytes, 65536u);  // a refused value leaves the field alone
  EXPECT_EQ(optiq_options_set(&o, "nonsense", "1", nullptr, 0), 1);
  EXPECT_EQ(optiq_options_set(nullptr, "chunk", "1", why, 4), 1);
  EXPECT_EQ(std::string(why).size(), 3u);  // cut to the buffer
  int names = 0;
  while (optiq_options_name(names)) ++names;
  EXPECT_EQ(static_cast<std::size_t>(names), option_records("runtime").size());
  EXPECT_EQ(optiq_options_name(-1), nullptr);
  optiq_io_options io;
  optiq_io_options_init(&io);
  EXPECT_EQ(optiq_io_options_set(&io, "files", "pset", why, sizeof why), 0);
  EXPECT_EQ(io.files, OPTIQ_FILES_GROUP);
  EXPECT_EQ(optiq_io_options_set(&io, "buffer", "2GiB", why, sizeof why), 1);  // buffers stay below 2 GiB
}

TEST(OptionRecords, PlannerOptionsAreCheckedBeforeAnyPlanning) {
  PlannerOptions o;
  o.max_proxies = 1;
  o.hop_bound = 3;
  EXPECT_THROW(check_planner_options(o), Error);
  o = PlannerOptions();
  o.epsilon = std::nan("");
  EXPECT_THROW(check_planner_options(o), Error);
  o = PlannerOptions();
  set_option(o, "max-paths", "4");
  EXPECT_EQ(o.max_paths, 4);
  EXPECT_EQ(get_option(o, "heu2-chunk"), "64KiB");
  EXPECT_THROW(set_option(o, "k", "0"), Error);
}

TEST(OptionRecords, NumbersPrintAsTheyAreWritten) {
  EXPECT_EQ(options::format_number(50), "50");
  EXPECT_EQ(options::format_number(-1), "-1");
  EXPECT_EQ(options::format_number(0.02), "0.02");
  EXPECT_EQ(options::format_number(1e-6), "1e-06");
  EXPECT_EQ(std::strtod(options::format_number(0.1 + 0.2).c_str(), nullptr), 0.1 + 0.2);
}
