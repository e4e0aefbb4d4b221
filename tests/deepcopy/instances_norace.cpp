// The same two instances, with e1.fence() between the kernels; and two
// kernels on one instance, which run in submission order.
// REQUIRES: kokkos4
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    using exec_t = Kokkos::DefaultHostExecutionSpace;
    auto inst = Kokkos::Experimental::partition_space(exec_t(), 1, 1);
    const exec_t e1 = inst[0], e2 = inst[1];
    const int n = 64;
    Kokkos::View<double *, Kokkos::HostSpace> v("v", n), w("w", n);
    Kokkos::fence();
    Kokkos::parallel_for("write", Kokkos::RangePolicy<exec_t>(e1, 0, n),
                         KOKKOS_LAMBDA(const int i) { v(i) = i; });
    Kokkos::parallel_for("rewrite", Kokkos::RangePolicy<exec_t>(e1, 0, n),
                         KOKKOS_LAMBDA(const int i) { v(i) += 1.0; });
    e1.fence();
    Kokkos::parallel_for("read", Kokkos::RangePolicy<exec_t>(e2, 0, n),
                         KOKKOS_LAMBDA(const int i) { w(i) = v(i) + 1.0; });
    e2.fence();
    printf("%g\n", w(3));
  }
  Kokkos::finalize();
  return 0;
}
