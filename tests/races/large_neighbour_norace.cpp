// A kernel over a large View reads b(i + 1) and writes a(i): the
// iterations touch disjoint elements of a, and b is only read.
// EXPECT: no-report
#include <Kokkos_Core.hpp>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 400000;
    Kokkos::View<double *> a("a", n + 1), b("b", n + 1);
    Kokkos::parallel_for("init", n + 1, KOKKOS_LAMBDA(const int i) { b(i) = i; });
    Kokkos::parallel_for("shift", n,
                         KOKKOS_LAMBDA(const int i) { a(i) = b(i + 1); });
    Kokkos::parallel_for("back", n,
                         KOKKOS_LAMBDA(const int i) { b(i) = a(i) + b(i); });
    Kokkos::fence();
  }
  Kokkos::finalize();
  return 0;
}
