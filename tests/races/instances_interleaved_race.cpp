// Two instances of the host space, unfenced: e1's kernels "add" and
// "again" update x in submission order, and e2's "peek" reads x between
// them.  The other instance's first kernel ("other") stops the horizon of
// e1's later kernels, and "add" lies above it: "again" meets in each cell
// the write of "add", ordered before it, and the read of "peek", which is
// not.  Both of peek's neighbours race with it.
// REQUIRES: kokkos4
// EXPECT: data-race view=x subkind=missing-fence nodes=parallel_for:add,parallel_for:peek lines=27,29
// EXPECT: data-race view=x subkind=missing-fence nodes=parallel_for:peek,parallel_for:again lines=29,31
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    using exec_t = Kokkos::DefaultHostExecutionSpace;
    auto inst = Kokkos::Experimental::partition_space(exec_t(), 1, 1);
    const exec_t e1 = inst[0], e2 = inst[1];
    const int n = 4096;
    Kokkos::View<double *, Kokkos::HostSpace> x("x", n), z("z", n), w("w", n);
    Kokkos::fence();
    Kokkos::parallel_for("fill", Kokkos::RangePolicy<exec_t>(e1, 0, n),
                         KOKKOS_LAMBDA(const int i) { x(i) = i; });
    Kokkos::parallel_for("other", Kokkos::RangePolicy<exec_t>(e2, 0, n),
                         KOKKOS_LAMBDA(const int i) { z(i) = i; });
    Kokkos::parallel_for("add", Kokkos::RangePolicy<exec_t>(e1, 0, n),
                         KOKKOS_LAMBDA(const int i) { x(i) += 1.0; });
    Kokkos::parallel_for("peek", Kokkos::RangePolicy<exec_t>(e2, 0, n),
                         KOKKOS_LAMBDA(const int i) { w(i) = x(i) + z(i); });
    Kokkos::parallel_for("again", Kokkos::RangePolicy<exec_t>(e1, 0, n),
                         KOKKOS_LAMBDA(const int i) { x(i) += 1.0; });
    Kokkos::fence();
    printf("%g %g\n", x(5), w(5));
  }
  Kokkos::finalize();
  return 0;
}
