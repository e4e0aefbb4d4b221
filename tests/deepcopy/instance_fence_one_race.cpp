// e1.fence() orders only e1's work: after it the host may read a, written
// on e1, but not b, written on e2.
// REQUIRES: kokkos4
// EXPECT: data-race view=b subkind=missing-fence nodes=parallel_for:write_b,host lines=21,24
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    using exec_t = Kokkos::DefaultHostExecutionSpace;
    auto inst = Kokkos::Experimental::partition_space(exec_t(), 1, 1);
    const exec_t e1 = inst[0], e2 = inst[1];
    const int n = 64;
    Kokkos::View<double *, Kokkos::HostSpace> a("a", n), b("b", n);
    Kokkos::fence();
    Kokkos::parallel_for("write_a", Kokkos::RangePolicy<exec_t>(e1, 0, n),
                         KOKKOS_LAMBDA(const int i) { a(i) = i; });
    Kokkos::parallel_for("write_b", Kokkos::RangePolicy<exec_t>(e2, 0, n),
                         KOKKOS_LAMBDA(const int i) {
                           b(i) = -i;
                         });
    e1.fence();
    printf("%g %g\n", a(3), b(3));
    Kokkos::fence();
  }
  Kokkos::finalize();
  return 0;
}
