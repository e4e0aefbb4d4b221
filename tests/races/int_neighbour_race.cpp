// Views of 4-byte elements: neighbours share an 8-byte word, and the race is
// between iterations i and i + 1 on one int.
// EXPECT: data-race view=c subkind=iteration-overlap nodes=parallel_for:carry,parallel_for:carry lines=14,14
#include <Kokkos_Core.hpp>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 256;
    Kokkos::View<int *> c("c", n + 1);
    Kokkos::View<float *> f("f", n + 1);
    Kokkos::parallel_for(
        "carry", n,
        KOKKOS_LAMBDA(const int i) { c(i + 1) += c(i) > 9 ? 1 : 0; f(i) = 1.0f; });
    Kokkos::fence();
  }
  Kokkos::finalize();
  return 0;
}
