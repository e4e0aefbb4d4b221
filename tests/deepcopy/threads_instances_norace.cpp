// Each thread works on its own instance and its own View, fences it, and
// the main thread reads both after joining.
// REQUIRES: kokkos4
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <thread>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    using exec_t = Kokkos::DefaultHostExecutionSpace;
    auto inst = Kokkos::Experimental::partition_space(exec_t(), 1, 1);
    const int n = 64;
    Kokkos::View<double *, Kokkos::HostSpace> a("a", n), b("b", n);
    Kokkos::fence();
    auto work = [=](exec_t e, Kokkos::View<double *, Kokkos::HostSpace> v) {
      Kokkos::parallel_for("work", Kokkos::RangePolicy<exec_t>(e, 0, n),
                           KOKKOS_LAMBDA(const int i) { v(i) = i; });
      e.fence();
    };
    std::thread t1(work, inst[0], a), t2(work, inst[1], b);
    t1.join();
    t2.join();
    printf("%g %g\n", a(3), b(4));
  }
  Kokkos::finalize();
  return 0;
}
