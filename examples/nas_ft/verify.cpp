#include "verify.hpp"

#include <cmath>
#include <cstdio>

#include <fftw3.h>

#include "evolve.hpp"
#include "random_field.hpp"

namespace ft {

namespace {

// NPB's published checksums (its FT verification routine), classes S to C.
const std::vector<NpbClass>& classes() {
  static const std::vector<NpbClass> all = {
      {'S', 64, 64, 64, 6,
       {{5.546087004964e+02, 4.845363331978e+02},
        {5.546385409189e+02, 4.865304269511e+02},
        {5.546148406171e+02, 4.883910722336e+02},
        {5.545423607415e+02, 4.901273169046e+02},
        {5.544255039624e+02, 4.917475857993e+02},
        {5.542683411902e+02, 4.932597244941e+02}}},
      {'W', 128, 128, 32, 6,
       {{5.673612178944e+02, 5.293246849175e+02},
        {5.631436885271e+02, 5.282149986629e+02},
        {5.594024089970e+02, 5.270996558037e+02},
        {5.560698047020e+02, 5.260027904925e+02},
        {5.530898991250e+02, 5.249400845633e+02},
        {5.504159734538e+02, 5.239212247086e+02}}},
      {'A', 256, 256, 128, 6,
       {{5.046735008193e+02, 5.114047905510e+02},
        {5.059412319734e+02, 5.098809666433e+02},
        {5.069376896287e+02, 5.098144042213e+02},
        {5.077892868474e+02, 5.101336130759e+02},
        {5.085233095391e+02, 5.104914655194e+02},
        {5.091487099959e+02, 5.107917842803e+02}}},
      {'B', 512, 256, 256, 20,
       {{5.177643571579e+02, 5.077803458597e+02}, {5.154521291263e+02, 5.088249431599e+02},
        {5.146409228649e+02, 5.096208912659e+02}, {5.142378756213e+02, 5.101023387619e+02},
        {5.139626667737e+02, 5.103976610617e+02}, {5.137423460082e+02, 5.105948019802e+02},
        {5.135547056878e+02, 5.107404165783e+02}, {5.133910925466e+02, 5.108576573661e+02},
        {5.132470705390e+02, 5.109577278523e+02}, {5.131197729984e+02, 5.110460304483e+02},
        {5.130070319283e+02, 5.111252433800e+02}, {5.129070537032e+02, 5.111968077718e+02},
        {5.128182883502e+02, 5.112616233064e+02}, {5.127393733383e+02, 5.113203605551e+02},
        {5.126691062020e+02, 5.113735928093e+02}, {5.126064276004e+02, 5.114218460548e+02},
        {5.125504076570e+02, 5.114656139760e+02}, {5.125002331720e+02, 5.115053595966e+02},
        {5.124551951846e+02, 5.115415130407e+02}, {5.124146770029e+02, 5.115744692211e+02}}},
      {'C', 512, 512, 512, 20,
       {{5.195078707457e+02, 5.149019699238e+02}, {5.155422171134e+02, 5.127578201997e+02},
        {5.144678022222e+02, 5.122251847514e+02}, {5.140150594328e+02, 5.121090289018e+02},
        {5.137550426810e+02, 5.121143685824e+02}, {5.135811056728e+02, 5.121496764568e+02},
        {5.134569343165e+02, 5.121870921893e+02}, {5.133651975661e+02, 5.122193250322e+02},
        {5.132955192805e+02, 5.122454735794e+02}, {5.132410471738e+02, 5.122663649603e+02},
        {5.131971141679e+02, 5.122830879827e+02}, {5.131605205716e+02, 5.122965869718e+02},
        {5.131290734194e+02, 5.123075927445e+02}, {5.131012720314e+02, 5.123166486553e+02},
        {5.130760908195e+02, 5.123241541685e+02}, {5.130528295923e+02, 5.123304037599e+02},
        {5.130310107773e+02, 5.123356167976e+02}, {5.130103090133e+02, 5.123399592211e+02},
        {5.129905029333e+02, 5.123435588985e+02}, {5.129714421109e+02, 5.123465164008e+02}}},
  };
  return all;
}

// The same problem on one process: NPB's field in natural order [z][y][x], FFTW's 3-D
// transforms with NPB's signs, the same evolve and checksum.
std::vector<cplx> serial_checksums(int nx, int ny, int nz, int iterations) {
  const std::size_t points = static_cast<std::size_t>(nx) * ny * nz;
  std::vector<cplx> field(points), spectrum(points);
  fill_initial_field(field.data(), nx, ny, 0, ny, 0, nz);
  auto* f = reinterpret_cast<fftw_complex*>(field.data());
  auto* s = reinterpret_cast<fftw_complex*>(spectrum.data());
  fftw_plan forward = fftw_plan_dft_3d(nz, ny, nx, f, s, kForward, FFTW_ESTIMATE);
  fftw_plan inverse = fftw_plan_dft_3d(nz, ny, nx, f, f, kInverse, FFTW_ESTIMATE);
  fftw_execute(forward);

  std::vector<double> decay(points);
  std::size_t at = 0;
  for (int z = 0; z < nz; ++z)
    for (int y = 0; y < ny; ++y)
      for (int x = 0; x < nx; ++x) decay[at++] = step_decay(x, y, z, nx, ny, nz);

  std::vector<cplx> sums;
  for (int t = 1; t <= iterations; ++t) {
    evolve(spectrum.data(), decay.data(), field.data(), points);
    fftw_execute(inverse);
    cplx sum = 0;
    for (int j = 1; j <= 1024; ++j)
      sum += field[(static_cast<std::size_t>((5 * j) % nz) * ny + (3 * j) % ny) * nx + j % nx];
    sums.push_back(sum / static_cast<double>(points));
  }
  fftw_destroy_plan(forward);
  fftw_destroy_plan(inverse);
  return sums;
}

}  // namespace

const NpbClass* npb_class(char name) {
  for (const NpbClass& c : classes())
    if (c.name == name) return &c;
  return nullptr;
}

const NpbClass* npb_class_of(int nx, int ny, int nz) {
  for (const NpbClass& c : classes())
    if (c.nx == nx && c.ny == ny && c.nz == nz) return &c;
  return nullptr;
}

double relative_error(cplx value, cplx reference) { return std::abs(value - reference) / std::abs(reference); }

cplx checksum(const Decomposition& d, const cplx* x_pencils, MPI_Comm world) {
  cplx local = 0;
  for (int j = 1; j <= 1024; ++j) {
    const int x = j % d.nx, y = (3 * j) % d.ny, z = (5 * j) % d.nz;
    if (y / d.ny1 != d.r1 || z / d.nz2 != d.r2) continue;  // another rank's point
    local += x_pencils[(static_cast<std::size_t>(z % d.nz2) * d.ny1 + y % d.ny1) * d.nx + x];
  }
  double parts[2] = {local.real(), local.imag()}, sums[2];
  MPI_Allreduce(parts, sums, 2, MPI_DOUBLE, MPI_SUM, world);
  const double points = static_cast<double>(d.nx) * d.ny * d.nz;
  return cplx(sums[0], sums[1]) / points;
}

Reference reference_checksums(int nx, int ny, int nz, int iterations, MPI_Comm world) {
  Reference ref;
  const NpbClass* c = npb_class_of(nx, ny, nz);
  if (c && iterations <= c->iterations) {
    ref.checksums.assign(c->checksums.begin(), c->checksums.begin() + iterations);
    ref.source = std::string("NPB's published checksums for class ") + c->name;
    ref.published = true;
    return ref;
  }
  const long long points = static_cast<long long>(nx) * ny * nz;
  if (points > kSerialLimit) {
    ref.source = "no reference: not an NPB class, and " + std::to_string(points) +
                 " points are too many for the single-process check (at most " + std::to_string(kSerialLimit) + ")";
    return ref;
  }
  int rank = 0;
  MPI_Comm_rank(world, &rank);
  std::vector<cplx> sums(iterations);
  if (rank == 0) sums = serial_checksums(nx, ny, nz, iterations);
  MPI_Bcast(sums.data(), 2 * iterations, MPI_DOUBLE, 0, world);
  ref.checksums = std::move(sums);
  ref.source = "a single-process 3-D FFT of the same field on rank 0";
  return ref;
}

}  // namespace ft
