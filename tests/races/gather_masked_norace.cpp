// The twin of gather_masked_race: gathers whose index is cut to its low
// bits, checked by one call before their loops, where only the low bits
// keep strands apart.  An atomic histogram into bins(key(i) & 255); each
// strand reading x(key(i) & 1023), which is its own element (the key's
// high bits would point elsewhere), after writing it; and a scatter
// through a signed 8-bit index that gives each strand its own element.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 1024;
    Kokkos::View<int *> key("key", n), skey("skey", n);
    Kokkos::View<long *> bins("bins", 256), out("out", 256);
    Kokkos::View<double *> x("x", n), y("y", n);
    Kokkos::parallel_for("init", n, KOKKOS_LAMBDA(int i) {
      key(i) = (i * 7 + 3) << 10 | i;
      skey(i) = (i << 8) | ((i - 128) & 255);
    });
    Kokkos::fence();
    for (int r = 0; r < 2; ++r)
      Kokkos::parallel_for("hist", n, KOKKOS_LAMBDA(int i) {
        Kokkos::atomic_add(&bins(key(i) & 255), 1L);
      });
    Kokkos::parallel_for("own", n, KOKKOS_LAMBDA(int i) {
      x(i) = i;
      y(i) = 2 * x(key(i) & 1023);
    });
    Kokkos::parallel_for("signed_scatter", 256, KOKKOS_LAMBDA(int i) {
      out((int8_t)skey(i) + 128) = i;
    });
    Kokkos::fence();
    printf("%ld %f %ld\n", bins(17), y(5), out(200));
  }
  Kokkos::finalize();
  return 0;
}
