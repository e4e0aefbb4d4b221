// The global counter is a std::atomic: no race.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <atomic>
#include <cstdio>

std::atomic<long> hits{0};

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    Kokkos::View<int *> flags("flags", 32);
    Kokkos::parallel_for(
        "tally", 32, KOKKOS_LAMBDA(const int i) {
          if (flags(i) == 0) hits.fetch_add(1, std::memory_order_relaxed);
        });
    Kokkos::fence();
    printf("%ld\n", hits.load());
  }
  Kokkos::finalize();
  return 0;
}
