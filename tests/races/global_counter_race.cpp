// A global variable (not a View) incremented by every iteration.
// EXPECT: data-race view=- subkind=iteration-overlap nodes=parallel_for:tally,parallel_for:tally lines=15,15
// EXPECT-TEXT: data race on global 'hits'
#include <Kokkos_Core.hpp>
#include <cstdio>

long hits = 0;

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    Kokkos::View<int *> flags("flags", 32);
    Kokkos::parallel_for(
        "tally", 32, KOKKOS_LAMBDA(const int i) {
          if (flags(i) == 0) hits++;
        });
    Kokkos::fence();
    printf("%ld\n", hits);
  }
  Kokkos::finalize();
  return 0;
}
