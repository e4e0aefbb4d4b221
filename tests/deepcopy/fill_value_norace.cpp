// An asynchronous fill takes its value by reference, and Kokkos copies it
// into the fill's functor before the call returns: the value may be a
// temporary on the caller's stack, which the caller's next statement
// reuses while the fill is still pending (unoptimized code keeps the
// -2.5 of each call in one stack slot).  Also a value in a variable that
// the host changes right after the call.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

using view_t = Kokkos::View<double *, Kokkos::HostSpace>;

static void reset(const Kokkos::DefaultHostExecutionSpace &e, view_t y) {
  Kokkos::deep_copy(e, y, -2.5);
}

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    Kokkos::DefaultHostExecutionSpace exec;
    view_t y1("y1", 512), y2("y2", 512);
    for (int r = 0; r < 3; ++r) {
      reset(exec, y1);
      reset(exec, y2);
    }
    double value = 1.5;
    Kokkos::deep_copy(exec, y1, value);
    value = 4.0;
    Kokkos::deep_copy(exec, y2, value);
    value = 0.0;
    exec.fence();
    printf("%g %g %g\n", y1(0), y2(0), value);
  }
  Kokkos::finalize();
  return 0;
}
