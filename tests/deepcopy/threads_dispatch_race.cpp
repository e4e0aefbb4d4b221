// Two host threads dispatch kernels that write one View on the same
// instance, without synchronizing with each other (they take turns through
// a relaxed atomic, which orders nothing).
// EXPECT: data-race view=v subkind=submission-order nodes=parallel_for:first,parallel_for:second lines=19,27
#include <Kokkos_Core.hpp>
#include <atomic>
#include <cstdio>
#include <thread>

std::atomic<int> turn{0};

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 64;
    Kokkos::View<double *> v("v", n);
    std::thread a([=]() {
      Kokkos::parallel_for("first", n, KOKKOS_LAMBDA(const int i) {
        v(i) = 1.0;
      });
      turn.store(1, std::memory_order_relaxed);
    });
    std::thread b([=]() {
      while (turn.load(std::memory_order_relaxed) != 1) {
      }
      Kokkos::parallel_for("second", n, KOKKOS_LAMBDA(const int i) {
        v(i) = 2.0;
      });
    });
    a.join();
    b.join();
    Kokkos::fence();
  }
  Kokkos::finalize();
  return 0;
}
