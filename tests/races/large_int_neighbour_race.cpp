// Large Views of 4-byte elements, whose loops the shadow keeps as runs of
// half-words: iteration i of 'shift' reads c(i + 1), which iteration i + 1
// writes (the two share no 8-byte word half, only a neighbour's); and
// iteration 0 of 'last' writes the element that iteration n - 1 writes.
// EXPECT: data-race view=c subkind=iteration-overlap nodes=parallel_for:shift,parallel_for:shift lines=17,17 ops=read,write
// EXPECT: data-race view=f subkind=iteration-overlap nodes=parallel_for:last,parallel_for:last lines=22,22 ops=write,write
#include <Kokkos_Core.hpp>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 300001;
    Kokkos::View<int *> c("c", n + 1);
    Kokkos::View<float *> f("f", n);
    Kokkos::parallel_for("init", n + 1, KOKKOS_LAMBDA(const int i) { c(i) = i; });
    Kokkos::parallel_for("shift", n,
                         KOKKOS_LAMBDA(const int i) { c(i) = c(i + 1); });
    Kokkos::parallel_for("fill", n, KOKKOS_LAMBDA(const int i) { f(i) = 1.0f; });
    Kokkos::fence();
    Kokkos::parallel_for(
        "last", n,
        KOKKOS_LAMBDA(const int i) { f(i == 0 ? n - 1 : i) = 2.0f * i; });
    Kokkos::fence();
  }
  Kokkos::finalize();
  return 0;
}
