// b is a deep copy of a (its own memory): no race.
// EXPECT: no-report
#include <Kokkos_Core.hpp>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 100;
    Kokkos::View<double *> a("a", n + 1);
    Kokkos::View<double *> b("b", n + 1);
    Kokkos::deep_copy(b, a);
    Kokkos::parallel_for(
        "update", n,
        KOKKOS_LAMBDA(const int i) {
          a(i) = b(i + 1) + 1.0;
        });
    Kokkos::fence();
  }
  Kokkos::finalize();
  return 0;
}
