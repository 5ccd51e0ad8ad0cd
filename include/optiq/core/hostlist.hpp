// Slurm's host list expressions, the way sites write sets of node names in topology.conf,
// topology.yaml and elsewhere: `tux[0-3,12,18-20]`.
#pragma once

#include <string>
#include <vector>

#include "optiq/core/network.hpp"

namespace optiq {

// The names a host list expression stands for, in the order it lists them:
//   - a plain name:                      `login1`
//   - a bracket group of numbers and ranges, with text before or after it:
//                                        `tux[0-3,12,18-20]`, `n[7]x`
//   - zero padding, the width of a range's lower bound: `n[001-010]` is n001..n010, `n[8-10]`
//     is n8, n9, n10
//   - several bracket groups in one name, the cartesian product with the first group
//     outermost: `rack[1-2]n[01-02]` is rack1n01 rack1n02 rack2n01 rack2n02
//   - a comma-separated list of any of these at top level: `a1,b[2-3],c`
// Repeated names stay repeated (a host list is a list; callers that want a set dedupe).
// Throws optiq::Error("<where>: bad host list '<expr>': <why>") for an empty list or item, an
// unclosed or stray bracket, a nested bracket, an empty range, a bound that is not decimal
// digits (or has more than 18), a reversed range (`[5-3]`), blanks and control characters (the
// message shows those as \xNN), and when the expression stands for more than `limit` names: the
// count is known before any name is made, so a short expression for 10^12 names costs nothing.
std::vector<std::string> expand_hostlist(const std::string& expr, const std::string& where,
                                         long long limit = kMaxVertices);

}  // namespace optiq
