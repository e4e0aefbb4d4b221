// The same without the fence: the mutex orders A's dispatch before B's
// read, but not A's kernel, which may still be running.
// EXPECT: data-race view=v subkind=missing-fence nodes=parallel_for:write,host lines=21,28
#include <Kokkos_Core.hpp>
#include <atomic>
#include <cstdio>
#include <mutex>
#include <thread>

std::mutex m;
std::atomic<int> turn{0};

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 64;
    Kokkos::View<double *, Kokkos::HostSpace> v("v", n);
    std::thread a([=]() {
      std::lock_guard<std::mutex> g(m);
      Kokkos::parallel_for("write", Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, n),
                           KOKKOS_LAMBDA(const int i) { v(i) = i; });
      turn.store(1, std::memory_order_relaxed);
    });
    std::thread b([=]() {
      while (turn.load(std::memory_order_relaxed) != 1) {
      }
      std::lock_guard<std::mutex> g(m);
      printf("%g\n", v(7));
    });
    a.join();
    b.join();
    Kokkos::fence();
  }
  Kokkos::finalize();
  return 0;
}
