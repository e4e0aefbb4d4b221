// With an execution space in view_alloc, create_mirror_view_and_copy copies
// asynchronously on it (Kokkos 4): reading the mirror before exec.fence()
// races with the kernel that wrote the View (on Serial the mirror is the
// View itself) or with the copy.
// REQUIRES: kokkos4
// EXPECT: data-race view=v subkind=missing-fence nodes=parallel_for:fill,host lines=16,20
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    Kokkos::DefaultExecutionSpace exec;
    Kokkos::View<double *> v("v", 32);
    Kokkos::parallel_for("fill", Kokkos::RangePolicy<>(exec, 0, 32),
                         KOKKOS_LAMBDA(const int i) { v(i) = i; });
    auto h = Kokkos::create_mirror_view_and_copy(
        Kokkos::view_alloc(Kokkos::HostSpace(), exec), v);
    static_assert(std::is_same<decltype(h)::memory_space, Kokkos::HostSpace>::value, "");
    printf("%g\n", h(3));
    exec.fence();
  }
  Kokkos::finalize();
  return 0;
}
