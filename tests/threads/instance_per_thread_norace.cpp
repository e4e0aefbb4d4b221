// The twin of instance_per_thread_race: the second thread waits for the
// first through an acquire of the flag the first released after its fence,
// which orders the two kernels.
// REQUIRES: kokkos4
// EXPECT: no-report
#include <Kokkos_Core.hpp>

#include <atomic>
#include <thread>

using exec_t = Kokkos::DefaultHostExecutionSpace;

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    Kokkos::View<double *> data("data", 20);
    Kokkos::fence();
    std::atomic<int> done{0};
    std::thread a([=, &done]() {
      exec_t mine = Kokkos::Experimental::partition_space(exec_t(), 1)[0];
      Kokkos::parallel_for("first", Kokkos::RangePolicy<exec_t>(mine, 0, 11),
                           KOKKOS_LAMBDA(const int i) { data(i) = 1; });
      mine.fence();
      done.store(1, std::memory_order_release);
    });
    std::thread b([=, &done]() {
      while (!done.load(std::memory_order_acquire)) {
      }
      exec_t mine = Kokkos::Experimental::partition_space(exec_t(), 1)[0];
      Kokkos::parallel_for("second",
                           Kokkos::RangePolicy<exec_t>(mine, 10, 20),
                           KOKKOS_LAMBDA(const int i) { data(i) = 2; });
      mine.fence();
    });
    a.join();
    b.join();
  }
  Kokkos::finalize();
  return 0;
}
