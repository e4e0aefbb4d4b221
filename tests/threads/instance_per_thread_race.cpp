// Two threads, each with an execution space instance of its own, write
// overlapping ranges of one View.  The second thread starts its work only
// after the first has fenced and destroyed its instance, but nothing the
// program does orders the two: Kokkos' library takes a mutex of its own
// when it makes and destroys an instance (Kokkos 4's list of Serial
// instances), which must not count as an order, or the race would hide
// whenever the first thread happens to finish first.
// REQUIRES: kokkos4
// EXPECT: data-race view=data subkind=missing-fence nodes=parallel_for:first,parallel_for:second lines=26,37
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
      done.store(1, std::memory_order_relaxed);
    });
    std::thread b([=, &done]() {
      // A relaxed flag: the first thread is done, and nothing is ordered.
      while (!done.load(std::memory_order_relaxed)) {
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
