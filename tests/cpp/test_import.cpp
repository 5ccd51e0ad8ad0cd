// Importers of a site's own network description (include/optiq/core/import.hpp): Slurm host
// lists, topology.conf and topology.yaml, ibnetdiscover output and Slingshot xnames; a fat-tree
// written as topology.conf loading its links as the generator's; and the one-line errors, with
// file and line, of malformed files.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "optiq/core/error.hpp"
#include "optiq/core/fat_tree.hpp"
#include "optiq/core/hostlist.hpp"
#include "optiq/core/import.hpp"
#include "optiq/core/network.hpp"
#include "optiq/core/routing.hpp"

namespace {

using namespace optiq;
using Names = std::vector<std::string>;

constexpr double kBw = 1e9;

template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "accepted";
}

Network conf(const std::string& text, double bw = kBw) {
  return parse_slurm_topology_conf(text, "t.conf", bw, "slurm:t.conf");
}
Network yaml(const std::string& text, double bw = kBw) {
  return parse_slurm_topology_yaml(text, "t.yaml", bw, "slurm:t.yaml");
}
std::string conf_error(const std::string& text) { return error_of([&] { conf(text); }); }
std::string yaml_error(const std::string& text) { return error_of([&] { yaml(text); }); }

// The link from the vertex named a to the one named b (the first, when parallel), or -1.
LinkId link_between(const Network& net, const std::string& a, const std::string& b) {
  for (LinkId l = 0; l < net.num_links(); ++l)
    if (net.vertex_name(net.link_src(l)) == a && net.vertex_name(net.link_dst(l)) == b) return l;
  return -1;
}

std::vector<std::string> route_names(const Network& net, const std::string& from, const std::string& to) {
  const auto routing = make_routing(net.default_routing(), net);
  std::vector<std::string> out;
  for (LinkId l : routing->route(net.endpoint_named(from), net.endpoint_named(to))) out.push_back(net.link_name(l));
  return out;
}

int count_kind(const Network& net, VertexKind kind) {
  int n = 0;
  for (NodeId v = 0; v < net.num_vertices(); ++v) n += net.kind(v) == kind;
  return n;
}

// Every endpoint named, and found again by its name.
void expect_hosts_named(const Network& net) {
  ASSERT_TRUE(net.hosts_named());
  for (NodeId v : net.endpoints()) {
    EXPECT_FALSE(net.vertex_name(v).empty());
    EXPECT_EQ(net.endpoint_named(net.vertex_name(v)), v);
  }
}

// ------------------------------------------------------------------------------ host lists

TEST(Hostlist, EveryFormTheManPageAllows) {
  EXPECT_EQ(expand_hostlist("login1", "w"), Names({"login1"}));
  EXPECT_EQ(expand_hostlist("tux[0-3,12,18-20]", "w"),
            Names({"tux0", "tux1", "tux2", "tux3", "tux12", "tux18", "tux19", "tux20"}));
  EXPECT_EQ(expand_hostlist("s[0-2,4-8,12]", "w").size(), 9u);
  EXPECT_EQ(expand_hostlist("n[001-003]", "w"), Names({"n001", "n002", "n003"}));  // width 3 kept
  EXPECT_EQ(expand_hostlist("n[098-101]", "w"), Names({"n098", "n099", "n100", "n101"}));
  EXPECT_EQ(expand_hostlist("n[8-10]", "w"), Names({"n8", "n9", "n10"}));  // no padding without a leading zero
  EXPECT_EQ(expand_hostlist("n[5]", "w"), Names({"n5"}));
  EXPECT_EQ(expand_hostlist("n[1-2]-ib", "w"), Names({"n1-ib", "n2-ib"}));  // text after the brackets
  EXPECT_EQ(expand_hostlist("rack[1-2]n[01-02]", "w"), Names({"rack1n01", "rack1n02", "rack2n01", "rack2n02"}));
  EXPECT_EQ(expand_hostlist("a1,b[2-3],c", "w"), Names({"a1", "b2", "b3", "c"}));
  EXPECT_EQ(expand_hostlist("x[1,1]", "w"), Names({"x1", "x1"}));  // a list, not a set
  EXPECT_EQ(expand_hostlist("n[0-99]", "w").size(), 100u);
}

TEST(Hostlist, MalformedExpressionsAreRefusedWithTheirPlace) {
  const std::pair<const char*, const char*> cases[] = {
      {"tux[0-3", "never closed"},    {"n[5-3]", "reversed range"},     {"a,,b", "empty item"},
      {",a", "starts with a comma"},  {"a,", "ends with a comma"},      {"n[a-3]", "not a number"},
      {"n[1-b]", "not a number"},     {"", "empty"},                    {"n[]", "empty number"},
      {"n[1,]", "empty number"},      {"n1]", "']' without '['"},       {"n[1[2]]", "do not nest"},
      {"n[1-2] m", "blank"},          {"n[1234567890123456789]", "more than 18 digits"},
      {"n[1-2]\x01", "control character"},
  };
  for (const auto& [expr, why] : cases) {
    const std::string e = error_of([&] { expand_hostlist(expr, "f.conf:3"); });
    const std::string shown = std::string(expr) == "n[1-2]\x01" ? "n[1-2]\\x01" : expr;  // control characters as \xNN
    EXPECT_EQ(e.rfind("f.conf:3: bad host list '" + shown + "'", 0), 0u) << e;
    EXPECT_NE(e.find(why), std::string::npos) << expr << ": " << e;
  }
}

TEST(Hostlist, TheLimitIsCheckedBeforeAnythingIsMade) {
  EXPECT_NE(error_of([] { expand_hostlist("n[0-999999999999999999]", "w"); }).find("more than"), std::string::npos);
  EXPECT_NE(error_of([] { expand_hostlist("a[0-9999]b[0-9999]c[0-9999]", "w"); }).find("more than"), std::string::npos);
  EXPECT_NE(error_of([] { expand_hostlist("a[1-6],b[1-5]", "w", 10); }).find("more than 10 names"), std::string::npos);
  EXPECT_EQ(expand_hostlist("a[1-5],b[1-5]", "w", 10).size(), 10u);
}

// ------------------------------------------------------------------------- topology.conf

const char* kTwoLevel =
    "##################################################################\n"
    "# Slurm's network topology configuration file for use with the\n"
    "# topology/tree plugin\n"
    "##################################################################\n"
    "SwitchName=s0 Nodes=dev[0-5]\n"
    "SwitchName=s1 Nodes=dev[6-11]   # a comment after the pairs\n"
    "\n"
    "switchname=s2 NODES=dev[12-17]\n"
    "SwitchName=s3 Switches=s[0-2]\n";

TEST(SlurmConf, TwoLevelTree) {
  const Network net = conf(kTwoLevel);
  EXPECT_EQ(net.spec(), "slurm:t.conf");
  EXPECT_EQ(net.default_routing(), "shortest");
  EXPECT_EQ(count_kind(net, VertexKind::Endpoint), 18);
  EXPECT_EQ(count_kind(net, VertexKind::Switch), 4);
  EXPECT_EQ(net.num_links(), 2 * (18 + 3));
  expect_hosts_named(net);
  for (int i = 0; i < 18; ++i) EXPECT_EQ(net.vertex_name(i), "dev" + std::to_string(i));  // hosts first, in file order
  EXPECT_EQ(net.endpoint_named("s0"), -1);  // switches are not hosts
  EXPECT_EQ(route_names(net, "dev0", "dev17"), Names({"dev0->s0", "s0->s3", "s3->s2", "s2->dev17"}));
  EXPECT_EQ(route_names(net, "dev0", "dev5"), Names({"dev0->s0", "s0->dev5"}));
  for (LinkId l = 0; l < net.num_links(); ++l) EXPECT_EQ(net.capacity(l), kBw);
}

TEST(SlurmConf, ContinuedLinesAndEscapesAsSlurmReadsThem) {
  const Network net = conf(
      "SwitchName=s0 \\\n"
      "  Nodes=dev[0-5],\\\n"
      "dev\\#6   # a backslash keeps the first '#', the second starts a comment\n"
      "SwitchName=s1 Nodes=x\n"
      "SwitchName=top Switches=s[0-1]\n");
  EXPECT_EQ(count_kind(net, VertexKind::Endpoint), 8);
  EXPECT_GE(net.endpoint_named("dev#6"), 0);
  EXPECT_EQ(conf_error("SwitchName=s0 \\\nFoo=1\n"),
            "t.conf:1: unknown key 'Foo' on a SwitchName line (known: Nodes, Switches, LinkSpeed)");
}

TEST(SlurmConf, ThreeLevelTreeWithLinkSpeeds) {
  const Network net = conf(
      "SwitchName=core Switches=agg[1-2] LinkSpeed=40\n"
      "SwitchName=agg1 Switches=leaf[1-2] LinkSpeed=20\n"
      "SwitchName=agg2 Switches=leaf[3-4] LinkSpeed=20\n"
      "SwitchName=leaf1 Nodes=n[01-02]\n"
      "SwitchName=leaf2 Nodes=n[03-04] LinkSpeed=10\n"
      "SwitchName=leaf3 Nodes=n[05-06] LinkSpeed=10\n"
      "SwitchName=leaf4 Nodes=n[07-08] LinkSpeed=10\n");
  EXPECT_EQ(count_kind(net, VertexKind::Endpoint), 8);
  EXPECT_EQ(count_kind(net, VertexKind::Switch), 7);
  EXPECT_EQ(net.num_links(), 2 * (6 + 8));
  EXPECT_EQ(route_names(net, "n01", "n08"),
            Names({"n01->leaf1", "leaf1->agg1", "agg1->core", "core->agg2", "agg2->leaf4", "leaf4->n08"}));
  // capacity = link_bandwidth * LinkSpeed / the largest LinkSpeed; LinkSpeed 1 where absent.
  EXPECT_DOUBLE_EQ(net.capacity(link_between(net, "core", "agg1")), kBw);
  EXPECT_DOUBLE_EQ(net.capacity(link_between(net, "agg1", "core")), kBw);
  EXPECT_DOUBLE_EQ(net.capacity(link_between(net, "agg2", "leaf3")), kBw / 2);
  EXPECT_DOUBLE_EQ(net.capacity(link_between(net, "leaf2", "n03")), kBw / 4);
  EXPECT_DOUBLE_EQ(net.capacity(link_between(net, "n01", "leaf1")), kBw / 40);
}

TEST(SlurmConf, SwitchesAndNodesWithSeveralParents) {
  const Network net = conf(
      "SwitchName=spine1 Switches=leaf[1-2]\n"
      "SwitchName=spine2 Switches=leaf[1-2]\n"
      "SwitchName=leaf1 Nodes=a[1-2],both\n"
      "SwitchName=leaf2 Nodes=b[1-2],both,both Switches=edge\n"  // both Nodes and Switches; a repeat counts once
      "SwitchName=edge Nodes=e1\n");
  EXPECT_EQ(count_kind(net, VertexKind::Endpoint), 6);
  EXPECT_EQ(count_kind(net, VertexKind::Switch), 5);
  EXPECT_EQ(net.num_links(), 2 * (5 + 7));
  expect_hosts_named(net);
  const NodeId both = net.endpoint_named("both");
  ASSERT_GE(both, 0);
  EXPECT_EQ(net.graph().out_end(both) - net.graph().out_begin(both), 2);  // a cable to each leaf
  EXPECT_EQ(route_names(net, "a1", "b1"), Names({"a1->leaf1", "leaf1->spine1", "spine1->leaf2", "leaf2->b1"}));
  EXPECT_EQ(route_names(net, "a1", "e1").size(), 5u);
}

// "a" to "b->c" and "a->b" to "c" would both be "a->b->c": the second takes "#1".
TEST(SlurmConf, LinkNamesStayUniqueWhateverTheNames) {
  const Network net = conf("SwitchName=a Nodes=b->c Switches=a->b\nSwitchName=a->b Nodes=c\n");
  ASSERT_GE(net.link_named("a->b->c"), 0);
  ASSERT_GE(net.link_named("a->b->c#1"), 0);
  EXPECT_EQ(net.vertex_name(net.link_dst(net.link_named("a->b->c"))), "b->c");
  EXPECT_EQ(net.vertex_name(net.link_dst(net.link_named("a->b->c#1"))), "c");
}

TEST(SlurmConf, Blocks) {
  const Network net = conf(
      "BlockName=block1 Nodes=node[1-4]\n"
      "BlockName=block2 Nodes=node[5-8]\n"
      "BlockName=block3 Nodes=node[9-13]\n"
      "BlockSizes=4,16\n");
  EXPECT_EQ(count_kind(net, VertexKind::Endpoint), 13);
  EXPECT_EQ(count_kind(net, VertexKind::Switch), 4);  // a switch per block, and block-top
  EXPECT_EQ(net.num_links(), 2 * (3 + 13));
  expect_hosts_named(net);
  EXPECT_EQ(route_names(net, "node1", "node4"), Names({"node1->block1", "block1->node4"}));
  EXPECT_EQ(route_names(net, "node1", "node9"),
            Names({"node1->block1", "block1->block-top", "block-top->block3", "block3->node9"}));
}

TEST(SlurmConf, BlockSizesAreCheckedAsSlurmDoes) {
  const std::string blocks = "BlockName=b1 Nodes=n[1-4]\nBlockName=b2 Nodes=n[5-8]\n";
  EXPECT_EQ(conf_error(blocks + "BlockSizes=4,12\n"),
            "t.conf:3: block size 12 is not a power-of-two multiple (at most 2^15) of the base block size 4");
  EXPECT_EQ(conf_error(blocks + "BlockSizes=4,0\n"), "t.conf:3: block sizes must be positive, got 0");
  EXPECT_EQ(conf_error(blocks + "BlockSizes=4,x\n"), "t.conf:3: BlockSizes: expected a whole number, got 'x'");
  EXPECT_EQ(conf_error(blocks + "BlockSizes=8\n"),
            "t.conf:1: block 'b1' has 4 nodes, fewer than the base block size 8");
  EXPECT_EQ(conf_error("BlockName=b1 Nodes=n[1-4]\nBlockName=b2 Nodes=n[5-7]\n"),
            "t.conf:2: block 'b2' has 3 nodes, fewer than the base block size 4 (the first block's, BlockSizes not "
            "being given)");
  EXPECT_EQ(conf_error(blocks + "BlockSizes=4\nBlockSizes=4\n"),
            "t.conf:4: BlockSizes is given twice (first at line 3)");
  EXPECT_EQ(conf_error("BlockName=b1\n"), "t.conf:1: block 'b1' has no Nodes");
  EXPECT_EQ(conf_error("BlockName=block-top Nodes=n1\n"),
            "t.conf:1: the block name 'block-top' is the name of the switch that joins the blocks; rename the block");
  EXPECT_EQ(conf(blocks + "BlockSizes=4,8,32\n").num_vertices(), 8 + 3);
}

TEST(SlurmConf, MalformedFilesGetOneLineErrorsWithFileAndLine) {
  const std::pair<std::string, std::string> cases[] = {
      {"SwitchName=s0 Nodes=a1 Foo=1\n",
       "t.conf:1: unknown key 'Foo' on a SwitchName line (known: Nodes, Switches, LinkSpeed)"},
      {"SwitchName=s0 Nodes=a1\nSwitchName=top Switches=s[0-1]\n",
       "t.conf:2: switch 'top' names 's1' as a child switch, but no switch of that name is defined"},
      {"SwitchName=s0 Nodes=a1\nSwitchName=top Switches=s0,a1\n",
       "t.conf:2: switch 'top' names 'a1' as a child switch, but it is a node (nodes go under Nodes)"},
      {"SwitchName=a Switches=b\nSwitchName=b Switches=c\nSwitchName=c Switches=a Nodes=n1\n",
       "t.conf:3: the switches form a cycle: a -> b -> c -> a"},
      {"SwitchName=a Switches=a Nodes=n1\n", "t.conf:1: switch 'a' lists itself as a child switch"},
      {"SwitchName=s0 Nodes=a1\nSwitchName=top Switches=s0 Nodes=s0\n",
       "t.conf:2: switch 'top' lists 's0' as a node, but it is a switch (child switches go under Switches)"},
      {"SwitchName=s0 Nodes=a1\n\nSwitchName=s0 Nodes=a2\n",
       "t.conf:3: switch 's0' is defined twice (first at line 1)"},
      {"SwitchName=s0 LinkSpeed=5\n", "t.conf:1: switch 's0' has neither nodes nor child switches"},
      {"SwitchName=s0 Nodes=a1\nSwitchName=s1 Nodes=a2\n",
       "t.conf: switches 's0' and 's1' share no common ancestor, so the network is not connected (optiq plans on one "
       "connected network)"},
      // A host under both switches is no way between them: hosts do not forward.
      {"SwitchName=s0 Nodes=a[1-2]\nSwitchName=s1 Nodes=a[2-3]\nSwitchName=top Switches=s1\n",
       "t.conf: switches 's0' and 's1' share no common ancestor, so the network is not connected (optiq plans on "
       "one connected network)"},
      {"SwitchName=s0 Nodes=a1 LinkSpeed=0\n", "t.conf:1: LinkSpeed must be from 1 to 4294967295, got 0"},
      {"SwitchName=s0 Nodes=a1 LinkSpeed=fast\n", "t.conf:1: LinkSpeed: expected a whole number, got 'fast'"},
      {"SwitchName=s0 Nodes=a1 Nodes=a2\n", "t.conf:1: Nodes is given twice"},
      {"Nodes=a1\n", "t.conf:1: unknown key 'Nodes' (a line starts with SwitchName, BlockName or BlockSizes)"},
      {"SwitchName=s0 Nodes=tux[0-3\n", "t.conf:1: bad host list 'tux[0-3': '[' at 4 is never closed"},
      {"SwitchName=s0 Nodes=\n", "t.conf:1: Nodes has no value"},
      {"SwitchName=s0 Nodes\n", "t.conf:1: expected KEY=VALUE, got 'Nodes'"},
      {"RingName=r0 Nodes=n[1-4]\n",
       "t.conf:1: RingName (topology/ring) is not imported: a ring orders nodes for allocation and describes no "
       "switches"},
      {"SwitchName=s0 Nodes=a1\nBlockName=b Nodes=a1\n",
       "t.conf:2: a file describes a tree (switches) or blocks, not both"},
      {"# nothing but comments\n\n", "t.conf: no switches and no blocks: nothing to import"},
      {"SwitchName=" + std::string(65, 'x') + " Nodes=a1\n",
       "t.conf:1: switch name '" + std::string(65, 'x') + "' is longer than 64 characters"},
  };
  for (const auto& [text, message] : cases) {
    const std::string e = conf_error(text);
    EXPECT_EQ(e, message);
    EXPECT_EQ(e.find('\n'), std::string::npos);
  }
}

// ------------------------------------------------------------------------- topology.yaml

TEST(SlurmYaml, TreeAndBlocksMatchTheirConf) {
  const Network y = yaml(
      "---\n"
      "# a comment\n"
      "- topology: blocks\n"
      "  cluster_default: False\n"
      "  block:\n"
      "    block_sizes: [4]\n"
      "    blocks:\n"
      "    - block: b1\n"
      "      nodes: dev[0-3]\n"
      "- topology: topo1\n"
      "  cluster_default: True\n"
      "  tree:\n"
      "    switches:\n"
      "      - switch: s0\n"
      "        nodes: dev[0-5]\n"
      "      - switch: s1\n"
      "        nodes: \"dev[6-11]\"   # quoted\n"
      "      - switch: s2\n"
      "        nodes: [dev12, dev13, 'dev[14-17]']\n"
      "      - switch: s3\n"
      "        children: s[0-2]\n"
      "- topology: flat\n"
      "  flat: true\n");
  const Network c = conf(kTwoLevel);
  EXPECT_EQ(y.digest(), c.digest());
  ASSERT_EQ(y.num_vertices(), c.num_vertices());
  for (NodeId v = 0; v < c.num_vertices(); ++v) EXPECT_EQ(y.vertex_name(v), c.vertex_name(v));
  EXPECT_EQ(y.capacities(), c.capacities());

  // Slurm's own example (man topology.yaml), with the block topology made the default.
  const Network yb = yaml(
      "- topology: topo1\n"
      "  cluster_default: False\n"
      "  tree:\n"
      "    switches:\n"
      "    - switch: sw_root\n"
      "      nodes: node[01-04]\n"
      "- topology: topo2\n"
      "  cluster_default: True\n"
      "  block:\n"
      "    block_sizes:\n"
      "      - 4\n"
      "      - 16\n"
      "    blocks:\n"
      "    - block: b1\n"
      "      nodes: node[01-04]\n"
      "    - block: b2\n"
      "      nodes: node[05-08]\n"
      "    - block: b3\n"
      "      nodes: node[09-12]\n"
      "    - block: b4\n"
      "      nodes: node[13-16]\n"
      "- topology: topo3\n"
      "  cluster_default: False\n"
      "  flat: True\n");
  const Network cb = conf(
      "BlockName=b1 Nodes=node[01-04]\nBlockName=b2 Nodes=node[05-08]\nBlockName=b3 Nodes=node[09-12]\n"
      "BlockName=b4 Nodes=node[13-16]\nBlockSizes=4,16\n");
  EXPECT_EQ(yb.digest(), cb.digest());
  EXPECT_EQ(yb.num_vertices(), 16 + 5);

  // Without a cluster default the first topology counts; link_speed as LinkSpeed.
  const Network first = yaml(
      "- topology: t\n"
      "  tree:\n"
      "    switches:\n"
      "    - switch: top\n"
      "      children: leaf[1-2]\n"
      "      link_speed: 2\n"
      "    - switch: leaf1\n"
      "      nodes: a\n"
      "    - switch: leaf2\n"
      "      nodes: b\n");
  const Network same =
      conf("SwitchName=top Switches=leaf[1-2] LinkSpeed=2\nSwitchName=leaf1 Nodes=a\nSwitchName=leaf2 Nodes=b\n");
  EXPECT_EQ(first.digest(), same.digest());
  EXPECT_EQ(first.capacities(), same.capacities());
  EXPECT_DOUBLE_EQ(first.capacity(link_between(first, "leaf1", "a")), kBw / 2);
}

TEST(SlurmYaml, OutsideTheSubsetOrTheFormatIsRefusedWithTheLine) {
  const std::string head = "- topology: t\n  tree:\n    switches:\n";
  const std::pair<std::string, std::string> cases[] = {
      {"", "t.yaml: the file is empty"},
      {"topology: t\n", "t.yaml:1: expected a list of topologies ('- topology: NAME'), got a mapping"},
      {"- topology: t\n  flat: true\n", "t.yaml:2: topology 't' is flat: it describes no network to import"},
      {"- topology: t\n  tree: {}\n", "t.yaml:2: flow mappings ('{...}') are not supported"},
      {"- topology: t\n  trees: 1\n",
       "t.yaml:2: unknown key 'trees' in a topology (known: topology, cluster_default, tree, block, flat)"},
      {"- topology: t\n  cluster_default: maybe\n  flat: true\n",
       "t.yaml:2: cluster_default is true or false, got 'maybe'"},
      {head + "    - switch: s0\n      node: a1\n",
       "t.yaml:5: unknown key 'node' in a switch (known: switch, children, nodes, link_speed)"},
      {head + "    - switch: s0\n      nodes: &a a1\n", "t.yaml:5: anchors ('&') are not supported"},
      {head + "    - switch: s0\n      nodes: |\n        a1\n", "t.yaml:5: block scalars ('|', '>') are not supported"},
      {head + "    - switch: s0\n      nodes: a1\n      nodes: a2\n",
       "t.yaml:6: the key 'nodes' appears twice in one mapping"},
      {head + "    - switch: s0\n      nodes: a1\n\tx: 1\n",
       "t.yaml:6: a tab in the indentation (YAML indents with spaces)"},
      {head + "    - switch: s0\n      nodes: [a[1-2]]\n",
       "t.yaml:5: a bracket inside a flow sequence item (nested collections are not supported; quote the item)"},
      {head + "    - switch: s0\n      nodes: a1\n       x: 1\n", "t.yaml:6: unexpected indentation inside a mapping"},
      {head + "    - switch: s0\n      children: s1\n    - switch: s2\n      nodes: a\n",
       "t.yaml:4: switch 's0' names 's1' as a child switch, but no switch of that name is defined"},
      {head + "    - switch: s0\n      nodes: \"a1\n", "t.yaml:5: a quoted scalar must end on its line"},
      {"- topology: t\n---\n- topology: u\n", "t.yaml:2: a second document ('---'); one document per file"},
  };
  for (const auto& [text, message] : cases) {
    const std::string e = yaml_error(text);
    EXPECT_EQ(e, message);
    EXPECT_EQ(e.find('\n'), std::string::npos);
  }
}

// ---------------------------------------- a fat-tree as topology.conf: the generator's links

// SimGrid's fat-tree as topology.conf: its switches by their names, its hosts as "node<i>".
std::string as_topology_conf(const Network& net) {
  const FatTreeShape& t = *net.fat_tree();
  auto name = [&](NodeId v) { return v < t.num_hosts() ? "node" + std::to_string(v) : net.vertex_name(v); };
  std::map<NodeId, std::vector<NodeId>> children;
  for (LinkId l = 0; l < net.num_links(); ++l)
    if (t.level(net.link_src(l)) < t.level(net.link_dst(l))) children[net.link_dst(l)].push_back(net.link_src(l));
  std::string text = "# " + net.spec() + "\n";
  for (const auto& [sw, below] : children) {
    text += "SwitchName=" + name(sw) + (t.level(sw) == 1 ? " Nodes=" : " Switches=");
    for (std::size_t i = 0; i < below.size(); ++i) text += (i ? "," : "") + name(below[i]);
    text += "\n";
  }
  return text;
}

// Per link, by the names of its ends, how many of the permutation's routes cross it.
std::map<std::pair<std::string, std::string>, int> permutation_loads(const Network& net, bool generator) {
  const auto routing = make_routing(net.default_routing(), net);
  const int n = static_cast<int>(net.endpoints().size());
  auto name = [&](NodeId v) {
    return generator && net.kind(v) == VertexKind::Endpoint ? "node" + std::to_string(v) : net.vertex_name(v);
  };
  std::map<std::pair<std::string, std::string>, int> load;
  for (int i = 0; i < n; ++i) {
    const int j = (5 * i + 3) % n;  // 5 is prime to the host counts used: a permutation
    const NodeId s = generator ? i : net.endpoint_named("node" + std::to_string(i));
    const NodeId d = generator ? j : net.endpoint_named("node" + std::to_string(j));
    for (LinkId l : routing->route(s, d)) ++load[{name(net.link_src(l)), name(net.link_dst(l))}];
  }
  return load;
}

// With one parent per node (w = 1 at every level) there is one route between two hosts, so the
// generator's default routing (dmodk) and the import's (shortest) must load the same links.
TEST(SlurmConf, AFatTreeWrittenAsTopologyConfLoadsTheGeneratorsLinks) {
  for (const char* spec : {"fattree:2;4,4;1,1;1,1", "fattree:3;2,3,2;1,1,1;1,1,1"}) {
    const Network gen = parse_network(spec, kBw);
    const Network imported = conf(as_topology_conf(gen));
    EXPECT_EQ(imported.num_vertices(), gen.num_vertices()) << spec;
    EXPECT_EQ(imported.num_links(), gen.num_links()) << spec;
    EXPECT_EQ(imported.endpoints().size(), gen.endpoints().size()) << spec;
    const auto a = permutation_loads(gen, true), b = permutation_loads(imported, false);
    EXPECT_EQ(a, b) << spec;
    EXPECT_FALSE(a.empty());
  }
}

// With two spines, dmodk and shortest may take different spines, but both routes of a pair
// climb to the pair's lowest common level and no further: per level and direction the total
// load is the same, and so is the sorted list of link loads' sum.
TEST(SlurmConf, AFatTreeWithTwoSpinesLoadsEachLevelAsTheGenerator) {
  const Network gen = parse_network("fattree:2;4,4;1,2;1,1", kBw);
  const Network imported = conf(as_topology_conf(gen));
  const FatTreeShape& t = *gen.fat_tree();
  std::map<std::string, int> level;
  for (NodeId v = 0; v < gen.num_vertices(); ++v)
    level[v < t.num_hosts() ? "node" + std::to_string(v) : gen.vertex_name(v)] = t.level(v);
  auto per_level = [&](const std::map<std::pair<std::string, std::string>, int>& loads) {
    std::map<std::pair<int, int>, int> total;  // (lower level, up or down) to load
    for (const auto& [ends, load] : loads) {
      const int a = level.at(ends.first), b = level.at(ends.second);
      total[{std::min(a, b), a < b}] += load;
    }
    return total;
  };
  const auto a = permutation_loads(gen, true), b = permutation_loads(imported, false);
  EXPECT_EQ(per_level(a), per_level(b));
  EXPECT_EQ(per_level(a).size(), 4u);  // hosts to leaves and leaves to spines, both ways
}

// ----------------------------------------------------------------------------- ibnetdiscover

// A small fat-tree: two leaves, two spines, leaf1 with two parallel HDR cables to spine1 and an
// EDR one to spine2; node01 has an HCA on each leaf. Written as ibnetdiscover prints it, with
// the -g "[ext N]" and -f " s= w= v=" variants on some lines.
const char* kFabric =
    "#\n"
    "# Topology file: generated on Tue Jan  1 00:00:00 2030\n"
    "#\n"
    "# Initiated from node 0002c90300000001 port 0002c90300000002\n"
    "\n"
    "vendid=0x2c9\n"
    "devid=0xcf08\n"
    "sysimgguid=0x2c903000000a1\n"
    "switchguid=0x2c903000000a1(2c903000000a1)\n"
    "Switch\t40 \"S-0002c903000000a1\"\t\t# \"spine1\" enhanced port 0 lid 1 lmc 0\n"
    "[1]\t\"S-0002c903000000b1\"[1]\t\t# \"leaf1\" lid 3 4xHDR\n"
    "[2]\t\"S-0002c903000000b1\"[2]\t\t# \"leaf1\" lid 3 4xHDR\n"
    "[3]\t\"S-0002c903000000b2\"[1]\t\t# \"leaf2\" lid 4 4xHDR\n"
    "\n"
    "switchguid=0x2c903000000a2(2c903000000a2)\n"
    "Switch\t40 \"S-0002c903000000a2\"\t\t# \"spine2\" enhanced port 0 lid 2 lmc 0\n"
    "[1][ext 7]\t\"S-0002c903000000b1\"[3]\t\t# \"leaf1\" lid 3 4xEDR\n"
    "[2]\t\"S-0002c903000000b2\"[2]\t\t# \"leaf2\" lid 4 4xHDR s=4 w=2 v=3\n"
    "\n"
    "Switch\t40 \"S-0002c903000000b1\"\t\t# \"leaf1\" enhanced port 0 lid 3 lmc 0\n"
    "[1]\t\"S-0002c903000000a1\"[1]\t\t# \"spine1\" lid 1 4xHDR\n"
    "[2]\t\"S-0002c903000000a1\"[2]\t\t# \"spine1\" lid 1 4xHDR\n"
    "[3]\t\"S-0002c903000000a2\"[1][ext 7]\t\t# \"spine2\" lid 2 4xEDR\n"
    "[10]\t\"H-0002c90300000001\"[1](2c90300000002) \t\t# \"node01 mlx5_0\" lid 10 4xHDR\n"
    "[11]\t\"H-0002c90300000011\"[1](2c90300000012) \t\t# \"node02 mlx5_0\" lid 11 4xEDR\n"
    "\n"
    "Switch\t40 \"S-0002c903000000b2\"\t\t# \"leaf2\" enhanced port 0 lid 4 lmc 0\n"
    "[1]\t\"S-0002c903000000a1\"[3]\t\t# \"spine1\" lid 1 4xHDR\n"
    "[2]\t\"S-0002c903000000a2\"[2]\t\t# \"spine2\" lid 2 4xHDR\n"
    "[10]\t\"H-0002c90300000003\"[1](2c90300000004) \t\t# \"node01 mlx5_1\" lid 12 4xHDR\n"
    "[11]\t\"H-0002c90300000021\"[1](2c90300000022) \t\t# \"node03 mlx5_0\" lid 13 4xHDR\n"
    "\n"
    "vendid=0x2c9\n"
    "devid=0x101b\n"
    "caguid=0x2c90300000001\n"
    "Ca\t1 \"H-0002c90300000001\"\t\t# \"node01 mlx5_0\"\n"
    "[1](2c90300000002) \t\"S-0002c903000000b1\"[10]\t\t# lid 10 lmc 0 \"leaf1\" lid 3 4xHDR\n"
    "\n"
    "Ca\t1 \"H-0002c90300000003\"\t\t# \"node01 mlx5_1\"\n"
    "[1](2c90300000004) \t\"S-0002c903000000b2\"[10]\t\t# lid 12 lmc 0 \"leaf2\" lid 4 4xHDR\n"
    "\n"
    "Ca\t1 \"H-0002c90300000011\"\t\t# \"node02 mlx5_0\"\n"
    "[1](2c90300000012) \t\"S-0002c903000000b1\"[11]\t\t# lid 11 lmc 0 \"leaf1\" lid 3 4xEDR\n"
    "\n"
    "Ca\t1 \"H-0002c90300000021\"\t\t# \"node03 mlx5_0\"\n"
    "[1](2c90300000022) \t\"S-0002c903000000b2\"[11]\t\t# lid 13 lmc 0 \"leaf2\" lid 4 4xHDR\n";

TEST(Ibnetdiscover, LinkBandwidthsFromWidthAndSpeed) {
  EXPECT_DOUBLE_EQ(ib_link_bandwidth("1xSDR"), 0.25e9);
  EXPECT_DOUBLE_EQ(ib_link_bandwidth("4xDDR"), 2e9);
  EXPECT_DOUBLE_EQ(ib_link_bandwidth("4xQDR"), 4e9);
  EXPECT_DOUBLE_EQ(ib_link_bandwidth("4xFDR10"), 5e9);
  EXPECT_DOUBLE_EQ(ib_link_bandwidth("4xFDR"), 4 * 14.0625 * 64 / 66 / 8 * 1e9);
  EXPECT_DOUBLE_EQ(ib_link_bandwidth("4xEDR"), 12.5e9);
  EXPECT_DOUBLE_EQ(ib_link_bandwidth("4xHDR"), 4 * 53.125 * 64 / 66 / 8 * 1e9);
  EXPECT_DOUBLE_EQ(ib_link_bandwidth("2xNDR"), 2 * 106.25 * 64 / 66 / 8 * 1e9);
  EXPECT_DOUBLE_EQ(ib_link_bandwidth("12xQDR"), 12e9);
  EXPECT_DOUBLE_EQ(ib_link_bandwidth("8xEDR"), 25e9);
  EXPECT_EQ(error_of([] { ib_link_bandwidth("3xEDR"); }), "unknown link width in '3xEDR' (known: 1x, 2x, 4x, 8x, 12x)");
  EXPECT_EQ(error_of([] { ib_link_bandwidth("4x?\?\?"); }),
            "unknown link speed in '4x?\?\?' (known: SDR, DDR, QDR, FDR10, FDR, EDR, HDR, NDR, XDR)");
}

TEST(Ibnetdiscover, ASmallFatTree) {
  const Network net = parse_ibnetdiscover(kFabric, "fabric.txt", "ibnetdiscover:fabric.txt");
  EXPECT_EQ(net.default_routing(), "shortest");
  EXPECT_EQ(count_kind(net, VertexKind::Endpoint), 3);  // node01's two HCAs are one host
  EXPECT_EQ(count_kind(net, VertexKind::Switch), 4);
  expect_hosts_named(net);
  EXPECT_EQ(net.vertex_name(0), "node01");
  EXPECT_EQ(net.vertex_name(1), "node02");
  EXPECT_EQ(net.vertex_name(2), "node03");
  // 5 switch cables (two of them parallel) and 4 host cables, each once although listed twice.
  EXPECT_EQ(net.num_links(), 2 * 9);
  const NodeId node01 = net.endpoint_named("node01");
  EXPECT_EQ(net.graph().out_end(node01) - net.graph().out_begin(node01), 2);
  const double hdr = ib_link_bandwidth("4xHDR"), edr = ib_link_bandwidth("4xEDR");
  for (const char* name : {"leaf1->spine1", "leaf1->spine1#1", "spine1->leaf1", "spine1->leaf1#1", "leaf2->spine2"})
    EXPECT_DOUBLE_EQ(net.capacity(net.link_named(name)), hdr) << name;
  for (const char* name : {"leaf1->spine2", "spine2->leaf1", "node02->leaf1", "leaf1->node02"})
    EXPECT_DOUBLE_EQ(net.capacity(net.link_named(name)), edr) << name;
  EXPECT_EQ(net.link_named("leaf1->spine1#2"), -1);
  EXPECT_EQ(route_names(net, "node02", "node03"),
            Names({"node02->leaf1", "leaf1->spine1", "spine1->leaf2", "leaf2->node03"}));
  EXPECT_EQ(route_names(net, "node02", "node01"), Names({"node02->leaf1", "leaf1->node01"}));
  // Switch cables come first: a host on two leaves is not the tie-breaker's relay between them.
  EXPECT_EQ(net.vertex_name(net.link_src(0)), "spine1");
}

TEST(Ibnetdiscover, SwitchesSharingADescriptionAreToldApartByGuid) {
  const std::string text =
      "Switch\t36 \"S-00000000000000a1\"\t\t# \"MF0;switch\" enhanced port 0 lid 1 lmc 0\n"
      "[1]\t\"S-00000000000000a2\"[1]\t\t# \"MF0;switch\" lid 2 4xQDR\n"
      "[2]\t\"H-0000000000000001\"[1](2) \t\t# \"h1 HCA-1\" lid 3 4xQDR\n"
      "Switch\t36 \"S-00000000000000a2\"\t\t# \"MF0;switch\" enhanced port 0 lid 2 lmc 0\n"
      "[1]\t\"S-00000000000000a1\"[1]\t\t# \"MF0;switch\" lid 1 4xQDR\n"
      "Ca\t2 \"H-0000000000000001\"\t\t# \"h1 HCA-1\"\n"
      "[1](2) \t\"S-00000000000000a1\"[2]\t\t# lid 3 lmc 0 \"MF0;switch\" lid 1 4xQDR\n";
  const Network net = parse_ibnetdiscover(text, "f", "ibnetdiscover:f");
  EXPECT_EQ(net.vertex_name(1), "MF0;switch S-00000000000000a1");
  EXPECT_EQ(net.vertex_name(2), "MF0;switch S-00000000000000a2");
  EXPECT_EQ(net.num_links(), 4);
}

TEST(Ibnetdiscover, MalformedFilesGetOneLineErrorsWithFileAndLine) {
  const std::string sw = "Switch\t36 \"S-00000000000000a1\"\t\t# \"sw\" enhanced port 0 lid 1 lmc 0\n";
  const std::string ca = "Ca\t1 \"H-0000000000000001\"\t\t# \"h1 mlx5_0\"\n";
  const std::pair<std::string, std::string> cases[] = {
      {"", "f: no Switch or Ca blocks: is this ibnetdiscover's output?"},
      {"# only a comment\n", "f: no Switch or Ca blocks: is this ibnetdiscover's output?"},
      {"[1]\t\"S-00000000000000a1\"[1]\t\t# \"sw\" lid 1 4xQDR\n" + sw,
       "f:1: a port line outside a Switch or Ca block"},
      // Truncated: the switch's block names a host whose block never comes.
      {sw + "[2]\t\"H-0000000000000001\"[1](2) \t\t# \"h1 mlx5_0\" lid 3 4xQDR\n",
       "f:2: port 2 leads to H-0000000000000001, which the file does not describe (is it cut short?)"},
      {sw + "[2]\t\"H-0000000000000001\"[1]\t\t# \"h1 mlx5_0\" lid 3 4xQDR\n" + ca +
           "[1](2) \t\"S-00000000000000a1\"[3]\t\t# lid 3 lmc 0 \"sw\" lid 1 4xQDR\n",
       "f:2: port 2 leads to port 1 of H-0000000000000001, but line 4 has that port lead to port 3 of "
       "S-00000000000000a1"},
      {sw + "[2]\t\"H-0000000000000001\"[1]\t\t# \"h1 mlx5_0\" lid 3 4xQDR\n" + ca +
           "[1](2) \t\"S-00000000000000a1\"[2]\t\t# lid 3 lmc 0 \"sw\" lid 1 4xQDR\n" + "garbage here\n",
       "f:5: malformed line: 'garbage here'"},
      {sw + "[2]\t\"H-0000000000000001\"[1]\t\t# \"h1 mlx5_0\" lid 3\n",
       "f:2: no link width and speed (like 4xEDR) on the port line"},
      {sw + "[2]\t\"H-0000000000000001\"[1]\t\t# \"h1 mlx5_0\" lid 3 4x?\?\?\n",
       "f:2: unknown link speed in '4x?\?\?' (known: SDR, DDR, QDR, FDR10, FDR, EDR, HDR, NDR, XDR)"},
      {sw + "[2]\t\"H-0000000000000001\"[1]\t\t# \"h1\" lid 3 4xQDR\n" +
           "[2]\t\"H-0000000000000001\"[1]\t\t# \"h1\" lid 3 4xQDR\n",
       
       "f:3: port 2 of S-00000000000000a1 is listed twice (first at line 2)"},
      {sw + "[37]\t\"H-0000000000000001\"[1]\t\t# \"h1\" lid 3 4xQDR\n", "f:2: port 37 of a 36-port switch"},
      {sw + "[2\t\"H-0000000000000001\"[1]\t\t# \"h1\" lid 3 4xQDR\n",
       "f:2: malformed line: expected ']' after the port number"},
      {sw + sw, "f:2: S-00000000000000a1 is described twice (first at line 1)"},
      {"Switch\t36 \"H-00000000000000a1\"\t\t# \"sw\"\n", "f:1: a switch block with the id of a Ca"},
      {sw + "[2]\t\"H-0000000000000001\"[1]\t\t# \"h1\" lid 3 4xQDR\n" + "Ca\t1 \"H-0000000000000001\"\t\t# \"\"\n",
       "f:3: H-0000000000000001 has no description to name its host"},
      {sw + "[2]\t\"H-0000000000000001\"[1]\t\t# \"h1\" lid 3 4xQDR\n" + ca +
           "Ca\t1 \"H-0000000000000002\"\t\t# \"h2\"\n",
       
       "f: 'h1' and 'h2' are not joined by any route (no cables, or only through a host, and hosts do not forward; "
       "optiq plans on one connected network)"},
      // Two switches joined only through a host with a port on each.
      {sw + "[1]\t\"H-0000000000000001\"[1]\t\t# \"h1\" lid 3 4xQDR\n" +
           "Switch\t36 \"S-00000000000000a2\"\t\t# \"sw2\" enhanced port 0 lid 2 lmc 0\n" +
           "[1]\t\"H-0000000000000001\"[2]\t\t# \"h1\" lid 5 4xQDR\n" +
           "[2]\t\"H-0000000000000003\"[1]\t\t# \"h3\" lid 6 4xQDR\n" +
           "Ca\t2 \"H-0000000000000001\"\t\t# \"h1\"\n" +
           "[1](2)\t\"S-00000000000000a1\"[1]\t\t# lid 3 lmc 0 \"sw\" lid 1 4xQDR\n" +
           "[2](3)\t\"S-00000000000000a2\"[1]\t\t# lid 5 lmc 0 \"sw2\" lid 2 4xQDR\n" +
           "Ca\t1 \"H-0000000000000003\"\t\t# \"h3\"\n" +
           "[1](4)\t\"S-00000000000000a2\"[2]\t\t# lid 6 lmc 0 \"sw2\" lid 2 4xQDR\n",
       "f: 'h1' and 'h3' are not joined by any route (no cables, or only through a host, and hosts do not "
       "forward; optiq plans on one connected network)"},
  };
  for (const auto& [text, message] : cases) {
    const std::string e = error_of([&] { parse_ibnetdiscover(text, "f", "ibnetdiscover:f"); });
    EXPECT_EQ(e, message);
    EXPECT_EQ(e.find('\n'), std::string::npos);
  }
}

// ----------------------------------------------------------------------------------- Slingshot

const char* kCabinets =
    "# three cabinets: x1000 with five hosts, x1001 with named ones, x1002 with two\n"
    "x1000c0s0b0n0\n"
    "x1000c1s0b0n0\n"
    "x1000c0s1b0n0\n"
    "x1000c0s0b0n1\n"
    "x1000c0s0b1n0\n"
    "nid000101 x1001c0s0b0n1\n"
    "nid000100 x1001c0s0b0n0   # a host name and its xname\n"
    "nid000102 x1001c2s0b0n0\n"
    "\n"
    "x1002c0s0b0n0\n"
    "x1002c0s0b0n1\n";

TEST(Slingshot, ThreeCabinetsAsADragonfly) {
  const Network net = parse_slingshot(kCabinets,
                                      "hosts.txt", "routers=2;global=2;host_bandwidth=5e9", kBw, "slingshot:hosts.txt");
  EXPECT_EQ(net.default_routing(), "shortest");
  EXPECT_EQ(count_kind(net, VertexKind::Endpoint), 10);
  EXPECT_EQ(count_kind(net, VertexKind::Switch), 6);
  // Per group one router pair, between every two groups two cables, and ten host cables.
  EXPECT_EQ(net.num_links(), 2 * (3 * 1 + 3 * 2 + 10));
  expect_hosts_named(net);
  // Hosts in xname order within their cabinet, cabinets in order.
  const Names order = {"x1000c0s0b0n0", "x1000c0s0b0n1", "x1000c0s0b1n0", "x1000c0s1b0n0", "x1000c1s0b0n0",
                       "nid000100",     "nid000101",     "nid000102",     "x1002c0s0b0n0", "x1002c0s0b0n1"};
  for (int i = 0; i < 10; ++i) EXPECT_EQ(net.vertex_name(i), order[i]);
  // Three hosts per router (5 hosts over 2 routers, rounded up): x1000's first three on r0.
  EXPECT_EQ(route_names(net, "x1000c0s0b0n0", "x1000c0s0b1n0"),
            Names({"x1000c0s0b0n0->x1000r0", "x1000r0->x1000c0s0b1n0"}));
  EXPECT_EQ(route_names(net, "x1000c0s0b0n0", "x1000c0s1b0n0"),
            Names({"x1000c0s0b0n0->x1000r0", "x1000r0->x1000r1", "x1000r1->x1000c0s1b0n0"}));
  EXPECT_DOUBLE_EQ(net.capacity(net.link_named("nid000100->x1001r0")), 5e9);
  EXPECT_DOUBLE_EQ(net.capacity(net.link_named("x1001r0->x1001r1")), kBw);
  // The two cables from x1000 to x1001 leave from different routers of each.
  EXPECT_GE(net.link_named("x1000r0->x1001r0"), 0);
  EXPECT_GE(net.link_named("x1000r1->x1001r1"), 0);
  // Routes between cabinets take one global link.
  const auto between = route_names(net, "x1000c0s0b0n0", "x1002c0s0b0n1");
  EXPECT_LE(between.size(), 5u);
}

TEST(Slingshot, OptionsAndMalformedFiles) {
  const Network defaults = parse_slingshot(kCabinets, "h", "", kBw, "slingshot:h");
  EXPECT_EQ(count_kind(defaults, VertexKind::Switch), 3 * 32);
  EXPECT_EQ(defaults.num_links(), 2 * (3 * 32 * 31 / 2 + 3 + 10));
  const std::pair<std::string, std::string> files[] = {
      {"x1000c0s0b0\n",
       "h:1: 'x1000c0s0b0' is not a node's xname like x1000c0s0b0n0 (cabinet, chassis, slot, board, node)"},
      {"x1000c0s0b0n0\nx1000c0s0b0n0\n", "h:2: xname x1000c0s0b0n0 is listed twice (first at line 1)"},
      {"a x1000c0s0b0n0\na x1000c0s0b0n1\n", "h:2: host a is listed twice (first at line 1)"},
      {"a b x1000c0s0b0n0\n", "h:1: expected an xname, or a host name and its xname, got 3 words"},
      {"# nothing\n", "h: no hosts (one xname, or a host name and its xname, per line)"},
  };
  for (const auto& [text, message] : files)
    EXPECT_EQ(error_of([&] { parse_slingshot(text, "h", "", kBw, "s"); }), message);
  const std::pair<std::string, std::string> options[] = {
      {"routers=0", "slingshot options 'routers=0': routers must be a whole number from 1 to 4194304, got '0'"},
      {"speed=1", "slingshot options 'speed=1': unknown option 'speed' (known: routers, hosts, global, bandwidth, "
                  "host_bandwidth, local_bandwidth, global_bandwidth)"},
      {"routers=2;routers=3", "slingshot options 'routers=2;routers=3': option 'routers' is given twice"},
      {"routers=2;", "slingshot options 'routers=2;': expected key=value, got ''"},
      {"bandwidth=-1", "slingshot options 'bandwidth=-1': bandwidth must be a positive number of bytes/s, got '-1'"},
      {"routers=2;hosts=2", "h: cabinet x1000 has 5 hosts, more than 2 routers x 2 hosts per router"},
  };
  for (const auto& [opts, message] : options)
    EXPECT_EQ(error_of([&] { parse_slingshot(kCabinets, "h", opts, kBw, "s"); }), message);
}

// ------------------------------------------------------------------------------ parse_network

TEST(ImportSpecs, ParseNetworkReadsEachKindFromItsFile) {
  const std::string dir = testing::TempDir();
  auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir + name) << text;
    return dir + name;
  };
  const std::string conf_path = write("optiq-import.conf", kTwoLevel);
  const Network c = parse_network("slurm:" + conf_path, 2e9);
  EXPECT_EQ(c.spec(), "slurm:" + conf_path);
  EXPECT_EQ(c.capacity(0), 2e9);
  const std::string yaml_path = write("optiq-import.yaml",
                                      "- topology: t\n  tree:\n    switches:\n    - switch: s0\n      nodes: a[1-2]\n");
  EXPECT_EQ(parse_network("slurm:" + yaml_path).num_vertices(), 3);
  const std::string ib = write("optiq-import.ib", kFabric);
  EXPECT_EQ(parse_network("ibnetdiscover:" + ib).num_links(), 18);
  const std::string hosts = write("optiq-import.hosts", kCabinets);
  const Network s = parse_network("slingshot:" + hosts + ";routers=2;global=2");
  // One network, one spec: the options in key order, however they were typed.
  EXPECT_EQ(s.spec(), "slingshot:" + hosts + ";global=2;routers=2");
  EXPECT_EQ(parse_network("slingshot:" + hosts + ";global=2;routers=2").spec(), s.spec());
  EXPECT_EQ(parse_network(s.spec()).digest(), s.digest());
  EXPECT_EQ(count_kind(s, VertexKind::Switch), 6);
  EXPECT_EQ(error_of([] { parse_network("slurm:/nonexistent/topology.conf"); }),
            "cannot read Slurm topology file '/nonexistent/topology.conf'");
  EXPECT_EQ(error_of([] { parse_network("slurm:"); }), "slurm: needs a file, e.g. slurm:/etc/slurm/topology.conf");
  EXPECT_NE(error_of([] { parse_network("sloorm:x"); }).find("slurm, ibnetdiscover, slingshot"), std::string::npos);
  for (const std::string& path : {conf_path, yaml_path, ib, hosts}) std::remove(path.c_str());
}

}  // namespace
