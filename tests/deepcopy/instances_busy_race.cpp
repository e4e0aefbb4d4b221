// Work on two instances, each busy before the kernels that race: a kernel on
// e1 writes a, another on e1 reads it (FIFO after the first), unrelated work
// runs on e2, and then a kernel on e2 reads a with no fence of e1 between.
// EXPECT: data-race view=a subkind=missing-fence nodes=parallel_for:fill_a,parallel_for:combine lines=20,26
// REQUIRES: kokkos4
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    using exec_t = Kokkos::DefaultHostExecutionSpace;
    using range = Kokkos::RangePolicy<exec_t>;
    auto inst = Kokkos::Experimental::partition_space(exec_t(), 1, 1);
    const int n = 1000;
    Kokkos::View<double *> a("a", n), b("b", n), c("c", n);
    Kokkos::View<double *, Kokkos::HostSpace> ha("ha", n), hb("hb", n);
    Kokkos::parallel_for(
        "fill_a", range(inst[0], 0, n),
        KOKKOS_LAMBDA(const int i) { a(i) = 0.5 * i; });
    Kokkos::parallel_for(
        "copy_a", range(inst[0], 0, n), KOKKOS_LAMBDA(const int i) { ha(i) = a(i); });
    Kokkos::deep_copy(inst[1], hb, b);
    Kokkos::parallel_for(
        "combine", range(inst[1], 0, n),
        KOKKOS_LAMBDA(const int i) { c(i) = a(i) + hb(i); });
    Kokkos::fence();
    printf("%g %g\n", c(5), ha(5));
  }
  Kokkos::finalize();
  return 0;
}
