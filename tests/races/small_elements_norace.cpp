// Elements of 1 and 2 bytes, each iteration writing its own: one element,
// or several side by side (three bytes of a pixel), counted atomically where
// iterations share an element.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 64;
    Kokkos::View<uint8_t *> cnt8("cnt8", 4), rgb("rgb", 3 * n);
    Kokkos::View<int16_t *> cnt16("cnt16", n);
    Kokkos::View<bool *> flags("flags", 2 * n);
    Kokkos::View<int *> hist("hist", 4);
    Kokkos::parallel_for(
        "hist8", n, KOKKOS_LAMBDA(const int i) {
          Kokkos::atomic_add(&hist(i % 4), 1);
          if (i < 4)
            cnt8(i) = (uint8_t)i;
        });
    Kokkos::parallel_for(
        "own16", n, KOKKOS_LAMBDA(const int i) { cnt16(i) = (int16_t)i; });
    Kokkos::parallel_for(
        "mark", n, KOKKOS_LAMBDA(const int i) { flags((i * 5) % (2 * n)) = true; });
    Kokkos::parallel_for(
        "pixels", n, KOKKOS_LAMBDA(const int i) {
          rgb(3 * i) = (uint8_t)i;
          rgb(3 * i + 1) = (uint8_t)(i + 1);
          rgb(3 * i + 2) = (uint8_t)(i + 2);
        });
    Kokkos::parallel_for(
        "shift", n, KOKKOS_LAMBDA(const int i) {
          cnt16(i) = (int16_t)(cnt16(i) + rgb(3 * i + 1) + flags(i));
        });
    Kokkos::fence();
    for (int i = 0; i < n; ++i)
      cnt16(i) += rgb(3 * i);
    Kokkos::parallel_for(
        "again", n, KOKKOS_LAMBDA(const int i) { rgb(3 * i + 2) = (uint8_t)cnt16(i); });
    Kokkos::fence();
    printf("%d %d %d %d\n", (int)cnt8(3), (int)cnt16(5), (int)flags(5), (int)rgb(7));
  }
  Kokkos::finalize();
  return 0;
}
