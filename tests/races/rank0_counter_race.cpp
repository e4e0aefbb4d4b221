// Every iteration increments one counter held in a rank-0 View.
// EXPECT: data-race view=count subkind=iteration-overlap nodes=parallel_for:count,parallel_for:count lines=13,13
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    Kokkos::View<int> count("count");
    Kokkos::View<double *> x("x", 100);
    Kokkos::parallel_for(
        "count", 100, KOKKOS_LAMBDA(const int i) {
          if (x(i) == 0.0) count() += 1;
        });
    Kokkos::fence();
    printf("%d\n", count());
  }
  Kokkos::finalize();
  return 0;
}
