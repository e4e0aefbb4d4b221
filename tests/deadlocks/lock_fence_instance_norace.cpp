// The twin: the kernel takes the mutex, and the main thread fences before
// it takes the mutex (and fences a second time, outside any lock).
// (The kernel counts with an atomic: a lock taken inside a kernel does not
// order its iterations for kkrace.)
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <mutex>

std::mutex m;
long hits;

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    Kokkos::DefaultExecutionSpace exec;
    Kokkos::View<double *> v("v", 8);
    Kokkos::parallel_for(
        "count", Kokkos::RangePolicy<>(exec, 0, 8), KOKKOS_LAMBDA(const int i) {
          v(i) = i;
          std::lock_guard<std::mutex> g(m);
          Kokkos::atomic_increment(&hits);
        });
    exec.fence();
    {
      std::lock_guard<std::mutex> g(m);
      hits++;
    }
    Kokkos::fence();
    printf("%ld\n", hits);
  }
  Kokkos::finalize();
  return 0;
}
