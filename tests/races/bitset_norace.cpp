// Bitset: many iterations set and reset bits of the same words at once
// (atomic or / and); a later kernel on the same instance tests them, and the
// host counts them (a reduction into a host scalar, which fences).
// EXPECT: no-report
#include <Kokkos_Bitset.hpp>
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 200;
    Kokkos::Bitset<> bs(n);
    Kokkos::View<int *> flags("flags", n);
    bs.clear();
    Kokkos::parallel_for(
        "set", n, KOKKOS_LAMBDA(const int i) {
          if (i % 3 == 0) bs.set(i);
          if (i % 5 == 0) bs.set((i + 1) % n);
        });
    Kokkos::parallel_for(
        "reset", n, KOKKOS_LAMBDA(const int i) {
          if (i % 9 == 0) bs.reset(i);
        });
    Kokkos::parallel_for(
        "test", n, KOKKOS_LAMBDA(const int i) { flags(i) = bs.test(i); });
    const unsigned c = bs.count();
    Kokkos::ConstBitset<> cbs(bs);
    Kokkos::View<int> both("both");
    Kokkos::parallel_for(
        "const", n, KOKKOS_LAMBDA(const int i) {
          if (cbs.test(i) && flags(i)) Kokkos::atomic_increment(&both());
        });
    Kokkos::fence();
    printf("%u %d\n", c, both());
  }
  Kokkos::finalize();
  return 0;
}
