// An exclusive prefix sum with its total, used on the host: the scan with a
// total fences, and the update value is private to each iteration.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 64;
    Kokkos::View<int *> in("in", n), out("out", n);
    Kokkos::parallel_for("init", n, KOKKOS_LAMBDA(const int i) { in(i) = i; });
    int total = 0;
    Kokkos::parallel_scan(
        "prefix", n,
        KOKKOS_LAMBDA(const int i, int &update, const bool final) {
          if (final)
            out(i) = update;
          update += in(i);
        },
        total);
    printf("%d %d\n", total, out(n - 1));
  }
  Kokkos::finalize();
  return 0;
}
