// A thread dispatches a kernel and fences; the main thread joins it, then
// dispatches its own kernel on the View and reads it after a fence.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <thread>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 64;
    Kokkos::View<double *> v("v", n);
    std::thread a([=]() {
      Kokkos::parallel_for("first", n, KOKKOS_LAMBDA(const int i) { v(i) = 1.0; });
      Kokkos::fence();
    });
    a.join();
    Kokkos::parallel_for("second", n, KOKKOS_LAMBDA(const int i) { v(i) += 2.0; });
    Kokkos::fence();
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
    printf("%g\n", h(3));
  }
  Kokkos::finalize();
  return 0;
}
