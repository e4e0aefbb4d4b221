// A cycle through an instance: a kernel on exec takes the mutex m, and the
// main thread fences exec while it holds m.  On a backend that runs kernels
// asynchronously the fence waits for the kernel, which waits for m: the
// program hangs.  On Serial the kernel ran at once, so this run does not.
// (The kernel counts with an atomic: a lock taken inside a kernel does not
// order its iterations for kkrace.)
// EXPECT: deadlock subkind=lock-order-inversion lines=20,23,27,28
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
    {
      std::lock_guard<std::mutex> g(m);
      exec.fence();
    }
    printf("%ld\n", hits);
  }
  Kokkos::finalize();
  return 0;
}
