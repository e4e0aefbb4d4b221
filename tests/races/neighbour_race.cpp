// Each iteration reads a(i + 1), which the next iteration writes: a race on
// CUDA, OpenMP or Threads, though Serial runs the iterations in order.
// EXPECT: data-race view=a subkind=iteration-overlap nodes=parallel_for:shift,parallel_for:shift lines=14,14 ops=read,write
// EXPECT-TEXT: Nothing orders two iterations of one parallel_for
// EXPECT-TEXT: SUMMARY: kkrace: data race on View 'a' neighbour_race.cpp:14
#include <Kokkos_Core.hpp>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 1000;
    Kokkos::View<double *> a("a", n + 1);
    Kokkos::parallel_for("shift", n,
                         KOKKOS_LAMBDA(const int i) { a(i) = a(i + 1); });
    Kokkos::fence();
  }
  Kokkos::finalize();
  return 0;
}
