// After many fenced dispatches, the work items far in the past are retired
// (ordered before everything to come, their records need nothing more);
// a race after that is still found, with both operations named, and the
// records the retired items left behind race with nothing.
// EXPECT: data-race view=y subkind=missing-fence nodes=parallel_for:late,host lines=29,30 ops=read,write
// KKRACE-OPTIONS: verbosity=1
// EXPECT-TEXT: kkrace: nodes retired: the first
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 64;
    Kokkos::View<double *, Kokkos::HostSpace> x("x", n), y("y", n), s("s", 16);
    Kokkos::parallel_for("old", n, KOKKOS_LAMBDA(const int i) { x(i) = i; });
    Kokkos::fence();
    // More than twice the nodes between two retirements.
    for (int r = 0; r < 80000; ++r) {
      Kokkos::parallel_for("step", 16, KOKKOS_LAMBDA(const int i) { s(i) += x(i); });
      if (r % 16 == 0)
        Kokkos::fence();
    }
    Kokkos::fence();
    // x's records are the retired items' ("old", "step"): ordered.
    x(5) = 1.0;
    printf("%g\n", s(3));
    Kokkos::parallel_for("late", n,
                         KOKKOS_LAMBDA(const int i) { y(i) = x(i) + 1.0; });
    printf("%g\n", y(3));
    Kokkos::fence();
  }
  Kokkos::finalize();
  return 0;
}
