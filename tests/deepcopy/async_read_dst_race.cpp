// deep_copy(exec, dst, src) runs asynchronously on exec: the host reads dst
// before exec.fence().
// EXPECT: data-race view=dst subkind=missing-fence nodes=deep_copy,host lines=17,18
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 64;
    Kokkos::DefaultExecutionSpace exec;
    Kokkos::View<double *> src("src", n);
    Kokkos::View<double *, Kokkos::HostSpace> dst("dst", n);
    Kokkos::parallel_for("fill", Kokkos::RangePolicy<>(exec, 0, n),
                         KOKKOS_LAMBDA(const int i) { src(i) = i; });
    Kokkos::fence();
    Kokkos::deep_copy(exec, dst, src);
    printf("%g\n", dst(5));
    exec.fence();
  }
  Kokkos::finalize();
  return 0;
}
