// Many tiny dispatches: the cost of the dispatch itself (and of fences).
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <cstdlib>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int reps = argc > 1 ? atoi(argv[1]) : 100000;
    Kokkos::View<double *> x("x", 16), y("y", 16);
    for (int r = 0; r < reps; ++r) {
      Kokkos::parallel_for("axpy", 16, KOKKOS_LAMBDA(const int i) { y(i) += 0.5 * x(i) + r; });
      if (r % 16 == 0) Kokkos::fence();
    }
    double s = 0;
    Kokkos::parallel_reduce("sum", 16, KOKKOS_LAMBDA(const int i, double &t) { t += y(i); }, s);
    Kokkos::fence();
    printf("tiny reps=%d sum=%.6e\n", reps, s);
  }
  Kokkos::finalize();
  return 0;
}
