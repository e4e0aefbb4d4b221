// Each iteration sums the whole of x in an inner loop, and iteration 3
// also rescales one element of x: that write races with every other
// iteration's reads of it.
// EXPECT: data-race view=x subkind=iteration-overlap nodes=parallel_for:sums,parallel_for:sums lines=18,20
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 64;
    Kokkos::View<double *> x("x", n), sums("sums", n);
    Kokkos::parallel_for("init", n, KOKKOS_LAMBDA(const int i) { x(i) = i; });
    Kokkos::fence();
    Kokkos::parallel_for("sums", n, KOKKOS_LAMBDA(const int i) {
      double s = 0;
      for (int j = 0; j < n; ++j)
        s += x(j);
      if (i == 3)
        x(7) *= 0.5;
      sums(i) = s;
    });
    Kokkos::fence();
    printf("%g\n", sums(0));
  }
  Kokkos::finalize();
  return 0;
}
