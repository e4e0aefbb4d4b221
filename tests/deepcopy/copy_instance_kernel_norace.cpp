// The same with e1.fence() between the copy and the kernel on e2.
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
    Kokkos::View<double *, Kokkos::HostSpace> src("src", n), dst("dst", n),
        out("out", n);
    Kokkos::deep_copy(src, 3.0);
    Kokkos::deep_copy(e1, dst, src);
    e1.fence();
    Kokkos::parallel_for("use", Kokkos::RangePolicy<exec_t>(e2, 0, n),
                         KOKKOS_LAMBDA(const int i) { out(i) = dst(i); });
    Kokkos::fence();
    printf("%g\n", out(3));
  }
  Kokkos::finalize();
  return 0;
}
