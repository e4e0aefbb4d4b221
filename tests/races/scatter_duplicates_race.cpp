// Scatter through an index array with repeated entries: two iterations
// write the same element.
// EXPECT: data-race view=hist subkind=iteration-overlap nodes=parallel_for:scatter,parallel_for:scatter lines=17,17
#include <Kokkos_Core.hpp>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 64;
    Kokkos::View<int *> idx("idx", n);
    Kokkos::View<double *> hist("hist", n);
    Kokkos::parallel_for("index", n,
                         KOKKOS_LAMBDA(const int i) { idx(i) = i / 2; });
    Kokkos::fence();
    Kokkos::parallel_for(
        "scatter", n,
        KOKKOS_LAMBDA(const int i) { hist(idx(i)) = 1.0 * i; });
    Kokkos::fence();
  }
  Kokkos::finalize();
  return 0;
}
