#include "runtime/api/shared_network.hpp"

#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

#include "optiq/core/error.hpp"

namespace optiq::rt {

namespace {

constexpr const char* kGraphPrefix = "graph:";

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot read graph file '" + path + "'");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

std::shared_ptr<const Network> shared_network(const std::string& spec) {
  // A graph file's contents are part of its key, so an edited file is another network, and it is
  // parsed from the very text the key holds.
  const bool graph = spec.rfind(kGraphPrefix, 0) == 0;
  const std::string path = graph ? spec.substr(std::char_traits<char>::length(kGraphPrefix)) : std::string();
  const std::string text = graph && !path.empty() ? read_file(path) : std::string();
  const std::string key = spec + '\n' + text;

  static std::mutex mutex;
  static std::map<std::string, std::weak_ptr<const Network>> live;
  const std::lock_guard<std::mutex> lock(mutex);
  if (auto found = live.find(key); found != live.end()) {
    if (auto net = found->second.lock()) return net;
  }
  auto net = std::make_shared<const Network>(graph && !path.empty() ? parse_graph_network(text, path, spec)
                                                                    : parse_network(spec));
  for (auto it = live.begin(); it != live.end();) it = it->second.expired() ? live.erase(it) : std::next(it);
  live[key] = net;
  return net;
}

}  // namespace optiq::rt
