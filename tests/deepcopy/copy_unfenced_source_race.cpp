// A kernel on e2 writes src and is not fenced; an asynchronous copy on e1
// reads src.  (The two-argument deep_copy would have fenced everything.)
// REQUIRES: kokkos4
// EXPECT: data-race view=src subkind=missing-fence nodes=parallel_for:produce,deep_copy lines=18,19
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    using exec_t = Kokkos::DefaultHostExecutionSpace;
    auto inst = Kokkos::Experimental::partition_space(exec_t(), 1, 1);
    const exec_t e1 = inst[0], e2 = inst[1];
    const int n = 64;
    Kokkos::View<double *, Kokkos::HostSpace> src("src", n), dst("dst", n);
    Kokkos::fence();
    Kokkos::parallel_for("produce", Kokkos::RangePolicy<exec_t>(e2, 0, n),
                         KOKKOS_LAMBDA(const int i) { src(i) = i; });
    Kokkos::deep_copy(e1, dst, src);
    Kokkos::fence();
    printf("%g\n", dst(3));
  }
  Kokkos::finalize();
  return 0;
}
