// An asynchronous copy on e1 into dst, and a kernel on e2 that reads dst
// before e1 is fenced.
// REQUIRES: kokkos4
// EXPECT: data-race view=dst subkind=missing-fence nodes=deep_copy,parallel_for:use lines=18,21
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
    Kokkos::parallel_for("use", Kokkos::RangePolicy<exec_t>(e2, 0, n),
                         KOKKOS_LAMBDA(const int i) {
                           out(i) = dst(i);
                         });
    Kokkos::fence();
    printf("%g\n", out(3));
  }
  Kokkos::finalize();
  return 0;
}
