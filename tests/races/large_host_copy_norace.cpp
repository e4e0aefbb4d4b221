// A large View that the host fills in a vectorized loop, that kernels then
// update, and that the host copies out with memcpy after a fence.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <cstring>
#include <vector>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 300000;
    Kokkos::View<double *, Kokkos::HostSpace> x("x", n);
    std::vector<double> out(n);
    for (int i = 0; i < n; ++i) x(i) = 0.25 * i;
    for (int r = 0; r < 3; ++r)
      Kokkos::parallel_for("scale", n,
                           KOKKOS_LAMBDA(const int i) { x(i) = 2.0 * x(i); });
    Kokkos::fence();
    for (int r = 0; r < 3; ++r)
      std::memcpy(out.data(), x.data(), n * sizeof(double));
    Kokkos::fence();
    printf("%g\n", out[n - 1]);
  }
  Kokkos::finalize();
  return 0;
}
