// Fences between kernels, never inside one.
// EXPECT: no-report
#include <Kokkos_Core.hpp>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    Kokkos::View<double *> x("x", 10);
    for (int step = 0; step < 3; ++step) {
      Kokkos::parallel_for("good", 10, KOKKOS_LAMBDA(const int i) { x(i) += i; });
      Kokkos::fence();
      x(0) = 0;
    }
  }
  Kokkos::finalize();
  return 0;
}
