// The twin of part_shared_race: a 2D stencil over rows of 45 words, whose
// blocks of 16 words hold the end of one row and the start of the next,
// read by several strands each and stamped in parts (part-shared blocks).
// Each iteration writes its own element of the other View, and the sweeps
// swap the two Views, a fence between: nothing races.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int m = 40, c = 45;
    Kokkos::View<double **> u("u", m, c), v("v", m, c);
    Kokkos::deep_copy(u, 1.0);
    using MD = Kokkos::MDRangePolicy<Kokkos::Rank<2>>;
    for (int s = 0; s < 4; ++s) {
      Kokkos::parallel_for("stencil", MD({1, 1}, {m - 1, c - 1}),
                           KOKKOS_LAMBDA(const int i, const int j) {
                             v(i, j) = 0.25 * (u(i - 1, j) + u(i + 1, j) +
                                               u(i, j - 1) + u(i, j + 1));
                           });
      Kokkos::fence();
      auto t = u;
      u = v;
      v = t;
    }
    Kokkos::fence();
    printf("%g\n", u(5, 5));
  }
  Kokkos::finalize();
  return 0;
}
