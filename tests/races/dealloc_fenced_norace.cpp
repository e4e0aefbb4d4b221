// The same, fenced before the View goes away.
// EXPECT: no-report
#include <Kokkos_Core.hpp>

void work(int n) {
  Kokkos::View<double *> tmp("tmp", n);
  Kokkos::parallel_for("fill", n, KOKKOS_LAMBDA(const int i) { tmp(i) = i; });
  Kokkos::fence();
}

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  work(100);
  Kokkos::finalize();
  return 0;
}
