// Loops over cells whose records are all ordered before them, decided in
// a tight loop: kernels of one instance, none fenced, sweep two arrays in
// turn (each reads what the one before wrote and writes what it read, as
// a stencil's steps do: records above the horizon, ordered by the
// instance), in rows of 80 words and of 20; each iteration then reads and
// writes its own element again (records of the running kernel, which the
// tight loop leaves to the general one); the host reads after a fence.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 64, m = 80, k = 20;
    Kokkos::View<double **> U("U", n, m), V("V", n, m);
    Kokkos::View<double **> W("W", n, k), X("X", n, k);
    using MD = Kokkos::MDRangePolicy<Kokkos::Rank<2>>;
    Kokkos::parallel_for("init", MD({0, 0}, {n, m}), KOKKOS_LAMBDA(const int i, const int j) {
      U(i, j) = V(i, j) = 1.0;
      if (j < k)
        W(i, j) = X(i, j) = 2.0;
    });
    for (int s = 0; s < 4; ++s) {
      Kokkos::parallel_for("step", MD({0, 0}, {n, m}), KOKKOS_LAMBDA(const int i, const int j) {
        V(i, j) = 0.5 * U(i, j);
      });
      Kokkos::parallel_for("short_step", MD({0, 0}, {n, k}), KOKKOS_LAMBDA(const int i, const int j) {
        X(i, j) = W(i, j) + 1.0;
      });
      auto t = U;
      U = V;
      V = t;
      auto x = W;
      W = X;
      X = x;
    }
    Kokkos::parallel_for("own", MD({0, 0}, {n, m}), KOKKOS_LAMBDA(const int i, const int j) {
      U(i, j) += V(i, j);
      V(i, j) = U(i, j);
    });
    Kokkos::fence();
    U(7, 50) = 3.0;
    printf("%g %g %g\n", U(7, 50), V(5, 40), W(3, 4) + X(3, 4));
  }
  Kokkos::finalize();
  return 0;
}
