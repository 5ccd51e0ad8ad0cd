// Reading SimGrid's topo_parameters of FAT_TREE and DRAGONFLY clusters from a topology spec.
#pragma once

#include <string>

#include "optiq/dragonfly.hpp"
#include "optiq/fat_tree.hpp"

namespace optiq::detail {

// "L;m_1,..,m_L;w_1,..,w_L;p_1,..,p_L" and "G,nblue;C,nblack;B,ngreen;N": the fields SimGrid
// reads, each a decimal number (blanks around it allowed, as SimGrid allows). Counts and sizes
// are checked by the shapes. `spec` names the text in errors.
FatTreeParams parse_fat_tree_params(const std::string& text, const std::string& spec);
DragonflyParams parse_dragonfly_params(const std::string& text, const std::string& spec);

}  // namespace optiq::detail
