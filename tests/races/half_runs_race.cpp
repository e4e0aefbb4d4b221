// A large float View kept as runs, then touched by conditional single
// accesses (its shadow becomes half-cells): an iteration that sometimes
// writes its neighbour's element races with that neighbour.
// EXPECT: data-race view=f subkind=iteration-overlap nodes=parallel_for:bounce,parallel_for:bounce lines=16,17 ops=write,write
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 300001;
    Kokkos::View<float *> f("f", n + 1);
    Kokkos::parallel_for("init", n + 1, KOKKOS_LAMBDA(const int i) { f(i) = i % 7; });
    Kokkos::parallel_for("scale", n, KOKKOS_LAMBDA(const int i) { f(i) *= 2.0f; });
    Kokkos::parallel_for("bounce", n, KOKKOS_LAMBDA(const int i) {
      if (i % 1000 == 999) f(i + 1) = 0.0f;
      f(i) = 1.0f;
    });
    Kokkos::fence();
  }
  Kokkos::finalize();
  return 0;
}
