// exitcode=3: a program that reported something exits with status 3.
// KKRACE-OPTIONS: exitcode=3
// EXPECT: data-race view=a subkind=iteration-overlap nodes=parallel_for:shift,parallel_for:shift
// EXPECT-EXIT: 3
#include <Kokkos_Core.hpp>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    Kokkos::View<double *> a("a", 11);
    Kokkos::parallel_for("shift", 10, KOKKOS_LAMBDA(const int i) { a(i) = a(i + 1); });
    Kokkos::fence();
  }
  Kokkos::finalize();
  return 0;
}
