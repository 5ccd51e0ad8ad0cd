// The collective I/O library's options (optiq_io_options): the one place their defaults, ranges
// and meanings are written.
#include "optiq/core/aggregation.hpp"
#include "options/table.hpp"

namespace optiq {

namespace options {

const Table<optiq_io_options>& io_table() {
  using O = optiq_io_options;
  static const Table<O> table("io", [] {
    OptionRecord placement = text("placement", "",
                                  "where aggregators go: spread (evenly over the file's nodes, as ROMIO's default) or a "
                                  "strategy of docs/io.md on networks with I/O nodes (default: romio-bgq there, else "
                                  "spread)");
    return std::vector<Entry<O>>{
        bind(choice("files", "shared", {"shared", "pset"}, "one shared file, or one file per I/O group (path.G)"),
             &O::files, "files"),
        bind(integer("group-nodes", "128", 1, 1 << 30,
                     "on a network without I/O nodes, an I/O group's consecutive nodes (128 is a BG/Q pset)"),
             &O::group_nodes, "group_nodes"),
        bind(integer("aggregators", std::to_string(kDefaultAggregators), 1, 1 << 20,
                     "aggregators per file, and per I/O group within a shared file on a network with I/O nodes"),
             &O::aggregators, "aggregators"),
        bind(bytes("buffer", bytes_text(kDefaultAggregationBuffer), 1, double((Bytes(1) << 31) - 1), "bytes per buffer, two per aggregator"),
             &O::buffer_bytes, "buffer_bytes"),
        bind(placement, &O::placement, "placement"),
        bind(choice("sink", "pwrite", {"pwrite", "mpiio", "null", "custom"},
                    "where aggregators' buffers go: pwrite on a thread, MPI-IO, nowhere, or the application's "
                    "callbacks"),
             &O::sink, "sink"),
        bind(flag("overlap", true, "an aggregator writes round e - 1 while round e aggregates"), &O::overlap, "overlap"),
        bind(flag("forward", false, "pieces reach the aggregators through the context's planned exchange"),
             &O::forward, "forward"),
    };
  }());
  return table;
}

}  // namespace options

void set_option(optiq_io_options& o, const std::string& name, const char* text) { options::io_table().set(o, name, text); }

std::string get_option(const optiq_io_options& o, const std::string& name) { return options::io_table().get(o, name); }

}  // namespace optiq

extern "C" void optiq_io_options_init(optiq_io_options* o) {
  if (!o) return;
  *o = optiq_io_options{};
  optiq::options::io_table().reset(*o);
}
