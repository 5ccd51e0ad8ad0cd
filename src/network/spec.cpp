// Topology spec strings: the names users type on the command line and that plan files record.
#include <cctype>
#include <map>

#include "optiq/core/dragonfly.hpp"
#include "optiq/core/error.hpp"
#include "optiq/core/fat_tree.hpp"
#include "optiq/core/import.hpp"
#include "optiq/core/network.hpp"

namespace optiq {

namespace {

const std::map<std::string, std::string>& mira_shapes() {
  static const std::map<std::string, std::string> shapes = {
      {"512", "4x4x4x4x2"},   {"1024", "4x4x4x8x2"},   {"2048", "4x4x8x8x2"},
      {"4096", "4x8x8x8x2"}, {"49152", "8x12x16x16x2"},
  };
  return shapes;
}

struct Dimension {
  int size;
  char suffix;  // 0, 't' or 'm'
};

// Sizes are checked as they are read, so that a spec of a million dimensions or of 10^20 nodes
// is refused before anything is built for it.
std::vector<Dimension> parse_shape(const std::string& shape, const std::string& spec) {
  std::vector<Dimension> dims;
  long long nodes = 1;
  size_t pos = 0;
  while (true) {
    size_t end = shape.find('x', pos);
    std::string part = shape.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
    Dimension dim{0, 0};
    if (!part.empty() && (part.back() == 't' || part.back() == 'm')) {
      dim.suffix = part.back();
      part.pop_back();
    }
    if (part.empty() || part.size() > 7) throw Error("bad dimension '" + part + "' in topology '" + spec + "'");
    for (char c : part)
      if (!std::isdigit(static_cast<unsigned char>(c)))
        throw Error("bad dimension '" + part + "' in topology '" + spec + "'");
    dim.size = std::stoi(part);
    if (dim.size < 1) throw Error("dimension sizes must be at least 1 in topology '" + spec + "'");
    dims.push_back(dim);
    nodes *= dim.size;
    check_torus_size(static_cast<int>(dims.size()), nodes, "topology '" + spec + "'");
    if (end == std::string::npos) break;
    pos = end + 1;
  }
  return dims;
}

std::string shape_string(const std::vector<Dimension>& dims, bool with_suffix) {
  std::string s;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i) s += 'x';
    s += std::to_string(dims[i].size);
    if (with_suffix && dims[i].suffix) s += dims[i].suffix;
  }
  return s;
}

}  // namespace

Network parse_network(const std::string& spec, double link_bandwidth) {
  const size_t colon = spec.find(':');
  if (colon == std::string::npos)
    throw Error("unknown topology '" + spec + "' (expected bgq:AxBxCxDxE[+io], mira:N[+io], torus:AxB.., mesh:AxB.., "
                "fattree:L;m..;w..;p.., dragonfly:G,b;C,b;B,b;N, graph:FILE, slurm:FILE, ibnetdiscover:FILE, "
                "slingshot:FILE[;key=value..])");
  const std::string kind = spec.substr(0, colon);
  std::string shape = spec.substr(colon + 1);
  if (kind == "graph") {
    if (shape.empty()) throw Error("graph: needs a file, e.g. graph:machine.json");
    return read_graph_network(shape);
  }
  // A site's own description of its machine (include/optiq/core/import.hpp).
  if (kind == "slurm") {
    if (shape.empty()) throw Error("slurm: needs a file, e.g. slurm:/etc/slurm/topology.conf");
    return read_slurm_topology(shape, link_bandwidth);
  }
  if (kind == "ibnetdiscover") {
    if (shape.empty())
      throw Error("ibnetdiscover: needs a file, e.g. ibnetdiscover:fabric.txt (ibnetdiscover > fabric.txt)");
    return read_ibnetdiscover(shape);
  }
  if (kind == "slingshot") {  // the file, then options after the first ';'
    const std::size_t semicolon = shape.find(';');
    const std::string file = shape.substr(0, semicolon);
    if (file.empty()) throw Error("slingshot: needs a file, e.g. slingshot:hosts.txt;routers=16");
    return read_slingshot(file, semicolon == std::string::npos ? "" : shape.substr(semicolon + 1), link_bandwidth);
  }
  // SimGrid's own topo_parameters; the spec recorded is the canonical form (no blanks).
  if (kind == "fattree") {
    FatTreeParams params = parse_fat_tree_params(shape, spec);
    const FatTreeShape checked(params, "topology '" + spec + "'");
    return make_fat_tree_network(std::move(params), link_bandwidth, "fattree:" + checked.topo_parameters());
  }
  if (kind == "dragonfly") {
    const DragonflyParams params = parse_dragonfly_params(shape, spec);
    const DragonflyShape checked(params, "topology '" + spec + "'");
    return make_dragonfly_network(params, link_bandwidth, "dragonfly:" + checked.topo_parameters());
  }

  // BG/Q with its I/O side: mira:N+io, bgq:AxBxCxDxE+io.
  const bool io = (kind == "mira" || kind == "bgq") && shape.size() > 3 && shape.compare(shape.size() - 3, 3, "+io") == 0;
  if (io) shape.resize(shape.size() - 3);
  if (kind == "mira") {
    auto it = mira_shapes().find(shape);
    if (it == mira_shapes().end())
      throw Error("unknown Mira partition '" + shape + "' in topology '" + spec +
                  "' (known: 512, 1024, 2048, 4096, 49152)");
    return parse_network("bgq:" + it->second + (io ? "+io" : ""), link_bandwidth);
  }
  if (kind == "bgq") {
    auto dims = parse_shape(shape, spec);
    if (dims.size() != 5)
      throw Error("bgq topologies have five dimensions, AxBxCxDxE; '" + spec + "' has " + std::to_string(dims.size()) +
                  " (torus:... takes any number)");
    for (const auto& d : dims)
      if (d.suffix) throw Error("bgq topologies are all-torus; drop the suffix in '" + spec + "'");
    std::vector<int> sizes;
    for (const auto& d : dims) sizes.push_back(d.size);
    if (io) return make_bgq_io_network(sizes, link_bandwidth, "bgq:" + shape_string(dims, false) + "+io");
    return make_torus_network(sizes, std::vector<bool>(sizes.size(), true), link_bandwidth,
                              "bgq:" + shape_string(dims, false), "bgq");
  }
  if (kind == "torus" || kind == "mesh") {
    auto dims = parse_shape(shape, spec);
    std::vector<int> sizes;
    std::vector<bool> wrap;
    for (const auto& d : dims) {
      sizes.push_back(d.size);
      const bool ring = d.suffix ? d.suffix == 't' : kind == "torus";
      wrap.push_back(ring);
    }
    // Canonical form: suffixes only where a dimension departs from its kind's default.
    std::vector<Dimension> canon = dims;
    for (size_t i = 0; i < canon.size(); ++i)
      canon[i].suffix = wrap[i] == (kind == "torus") ? 0 : (wrap[i] ? 't' : 'm');
    return make_torus_network(sizes, wrap, link_bandwidth, kind + ":" + shape_string(canon, true), "dor");
  }
  throw Error("unknown topology kind '" + kind + "' in '" + spec +
              "' (known: bgq, mira, torus, mesh, fattree, dragonfly, graph, slurm, ibnetdiscover, slingshot)");
}

}  // namespace optiq
