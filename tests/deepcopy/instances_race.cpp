// Two instances of the host space (Kokkos 4's partition_space): a kernel on
// the first writes v, a kernel on the second reads it, and nothing fences
// the first in between.  Instances run their work independently.
// REQUIRES: kokkos4
// EXPECT: data-race view=v subkind=missing-fence nodes=parallel_for:write,parallel_for:read lines=19,22
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
    Kokkos::parallel_for("read", Kokkos::RangePolicy<exec_t>(e2, 0, n),
                         KOKKOS_LAMBDA(const int i) {
                           w(i) = v(i) + 1.0;
                         });
    Kokkos::fence();
    printf("%g\n", w(3));
  }
  Kokkos::finalize();
  return 0;
}
