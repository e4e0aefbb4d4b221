// The main thread writes a global, then makes many fenced dispatches: its
// own nodes fall below its horizon, but not below that of a thread that
// nothing orders with it, so they are not retired, and that thread's later
// write of the global still races with the main thread's, both named.
// The two threads take turns through a relaxed atomic, which orders
// nothing.
// EXPECT: data-race subkind=host-threads nodes=host,host lines=23,26 ops=write,write
#include <Kokkos_Core.hpp>
#include <atomic>
#include <cstdio>
#include <thread>

int shared_value = 0;
std::atomic<int> turn{0};

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    Kokkos::View<double *, Kokkos::HostSpace> s("s", 16);
    std::thread b([]() {
      while (turn.load(std::memory_order_relaxed) != 1) {
      }
      shared_value = 1;
    });
    Kokkos::fence();
    shared_value = 2;
    // More than twice the nodes between two retirements.
    for (int r = 0; r < 80000; ++r) {
      Kokkos::parallel_for("step", 16, KOKKOS_LAMBDA(const int i) { s(i) += 1.0; });
      if (r % 16 == 0)
        Kokkos::fence();
    }
    Kokkos::fence();
    turn.store(1, std::memory_order_relaxed);
    b.join();
    printf("%d %g\n", shared_value, s(0));
  }
  Kokkos::finalize();
  return 0;
}
