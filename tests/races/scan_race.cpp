// A scan whose final pass also writes the next element of its input.
// EXPECT: data-race view=in subkind=iteration-overlap nodes=parallel_scan:prefix,parallel_scan:prefix lines=17,19
#include <Kokkos_Core.hpp>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 64;
    Kokkos::View<int *> in("in", n + 1), out("out", n);
    Kokkos::parallel_for("init", n, KOKKOS_LAMBDA(const int i) { in(i) = i; });
    Kokkos::fence();
    Kokkos::parallel_scan(
        "prefix", n,
        KOKKOS_LAMBDA(const int i, int &update, const bool final) {
          if (final)
            out(i) = update;
          update += in(i);
          if (final)
            in(i + 1) = 0;
        });
    Kokkos::fence();
  }
  Kokkos::finalize();
  return 0;
}
