#include "local_fft.hpp"

#include <cstdio>
#include <cstdlib>

#include "work_model.hpp"

namespace ft {

LineFfts::~LineFfts() {
  for (auto& entry : plans_) fftw_destroy_plan(entry.second);
}

void LineFfts::run(cplx* lines, int n, int count, Direction direction) {
  if (count <= 0) return;
  const auto key = std::make_tuple(n, count, static_cast<int>(direction));
  auto it = plans_.find(key);
  if (it == plans_.end()) {
    // FFTW_ESTIMATE never touches the arrays while planning, so the data may be in use.
    auto* data = reinterpret_cast<fftw_complex*>(lines);
    fftw_plan plan = fftw_plan_many_dft(1, &n, count, data, nullptr, 1, n, data, nullptr, 1, n, direction,
                                        FFTW_ESTIMATE | FFTW_UNALIGNED);
    if (!plan) {
      std::fprintf(stderr, "nas-ft: error: FFTW could not plan %d transforms of %d points\n", count, n);
      std::abort();
    }
    it = plans_.emplace(key, plan).first;
  }
  auto* data = reinterpret_cast<fftw_complex*>(lines);
  fftw_execute_dft(it->second, data, data);
  charge_fft(n, count);
}

}  // namespace ft
