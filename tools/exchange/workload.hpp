// The seed paper's microbenchmark: in every exchange each rank sends one message of a fixed
// size to k distinct random other ranks, a new draw per exchange. Every rank can recompute
// any rank's draw, so receivers check what they got without being told.
#pragma once

#include <cstdint>
#include <vector>

namespace optiq::sxdriver {

// The k destinations (ascending, distinct, none equal to rank) of `rank` in exchange number
// `call`, among `size` ranks; k must be at most size - 1.
std::vector<int> neighbours(std::uint64_t seed, std::uint64_t call, int rank, int size, int k);

// Message bytes are a function of (source, destination, call, offset), so a message from
// another exchange, another sender or another offset is caught.
void fill(unsigned char* p, int src, int dst, std::uint64_t call, std::uint64_t bytes);
bool intact(const unsigned char* p, int src, int dst, std::uint64_t call, std::uint64_t bytes);

}  // namespace optiq::sxdriver
