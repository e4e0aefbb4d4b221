// A scan whose final pass writes both out(i) (the exclusive prefix) and
// out(i + 1) (the inclusive one): iterations i and i + 1 both write
// out(i + 1), even though with the same value.
// EXPECT: data-race view=out subkind=iteration-overlap nodes=parallel_scan:offsets,parallel_scan:offsets lines=19,20
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 64;
    Kokkos::View<int *> in("in", n), out("out", n + 1);
    Kokkos::parallel_for("init", n, KOKKOS_LAMBDA(const int i) { in(i) = i; });
    Kokkos::fence();
    Kokkos::parallel_scan(
        "offsets", n,
        KOKKOS_LAMBDA(const int i, int &update, const bool final) {
          if (final) {
            out(i) = update;
            out(i + 1) = update + in(i);
          }
          update += in(i);
        });
    Kokkos::fence();
    printf("%d\n", out(n));
  }
  Kokkos::finalize();
  return 0;
}
