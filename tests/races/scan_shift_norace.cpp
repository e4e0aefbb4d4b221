// An inclusive scan stored one place further: the final pass of iteration i
// writes out(i + 1) and nothing else writes it (the host set out(0)).
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 64;
    Kokkos::View<int *> in("in", n), out("out", n + 1);
    Kokkos::parallel_for("init", n, KOKKOS_LAMBDA(const int i) { in(i) = i; });
    Kokkos::fence();
    out(0) = 0;
    Kokkos::parallel_scan(
        "offsets", n,
        KOKKOS_LAMBDA(const int i, int &update, const bool final) {
          update += in(i);
          if (final) out(i + 1) = update;
        });
    Kokkos::fence();
    printf("%d\n", out(n));
  }
  Kokkos::finalize();
  return 0;
}
