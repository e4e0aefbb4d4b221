// Each iteration touches only its own int and float, though neighbours share
// 8-byte words.
// EXPECT: no-report
#include <Kokkos_Core.hpp>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 257;
    Kokkos::View<int *> c("c", n);
    Kokkos::View<float *> f("f", n);
    Kokkos::View<short *> s("s", n);
    Kokkos::parallel_for(
        "own", n, KOKKOS_LAMBDA(const int i) {
          c(i) += i;
          f(i) = 0.5f * c(i);
          s(i) = (short)i;
        });
    Kokkos::fence();
  }
  Kokkos::finalize();
  return 0;
}
