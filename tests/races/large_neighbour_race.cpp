// Each iteration of a kernel over a large View reads a(i + 1), which the
// next iteration writes.
// EXPECT: data-race view=a subkind=iteration-overlap nodes=parallel_for:shift,parallel_for:shift lines=13,13 ops=read,write
#include <Kokkos_Core.hpp>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 400000;
    Kokkos::View<double *> a("a", n + 1);
    Kokkos::parallel_for("init", n + 1, KOKKOS_LAMBDA(const int i) { a(i) = i; });
    Kokkos::parallel_for("shift", n,
                         KOKKOS_LAMBDA(const int i) { a(i) = a(i + 1); });
    Kokkos::fence();
  }
  Kokkos::finalize();
  return 0;
}
