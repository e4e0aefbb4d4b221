// Every call that fences, made inside a kernel: forbidden by Kokkos, and a
// hang on the host backends of Kokkos 4.4 and later, which hold the
// instance's lock while a kernel runs.  kkrace reports each one (with the
// fencing call and the dispatch around it) and lets the program go on.
// A parallel_reduce of a top-level policy inside a kernel is reported as a
// dispatch inside a kernel (it would also fence).
// RUN: global -- global
// RUN: instance -- instance
// RUN: static -- static
// RUN: deep_copy -- deep_copy
// RUN: fill -- fill
// RUN: alloc -- alloc
// RUN: resize -- resize
// RUN: reduce -- reduce
// RUN: mirror -- mirror
// On Kokkos 4.4 and later the fence then waits forever for the lock its
// own thread holds: the watchdog reports the hang and ends the program.
// KKRACE-OPTIONS: hang_timeout_ms=2000
// EXPECT-KOKKOS44: deadlock subkind=hang
// EXPECT[global]: deadlock subkind=fence-in-kernel nodes=parallel_for:bad lines=45
// EXPECT[instance]: deadlock subkind=fence-in-kernel nodes=parallel_for:bad lines=47
// EXPECT[static]: deadlock subkind=fence-in-kernel nodes=parallel_for:bad lines=49
// EXPECT[deep_copy]: deadlock subkind=fence-in-kernel nodes=parallel_for:bad lines=51
// EXPECT[fill]: deadlock subkind=fence-in-kernel nodes=parallel_for:bad lines=53
// EXPECT[alloc]: deadlock subkind=fence-in-kernel nodes=parallel_for:bad lines=55
// EXPECT[resize]: deadlock subkind=fence-in-kernel nodes=parallel_for:bad lines=59
// EXPECT[reduce]: deadlock subkind=dispatch-in-kernel nodes=parallel_for:bad lines=62
// EXPECT[mirror]: deadlock subkind=fence-in-kernel nodes=parallel_for:bad lines=65
#include <Kokkos_Core.hpp>
#include <cstring>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const char *what = argc > 1 ? argv[1] : "global";
    Kokkos::DefaultExecutionSpace exec;
    Kokkos::View<double *> x("x", 10), y("y", 10);
    Kokkos::View<double *, Kokkos::HostSpace> h("h", 10);
    Kokkos::parallel_for(
        "bad", Kokkos::RangePolicy<>(exec, 0, 10), KOKKOS_LAMBDA(const int i) {
          x(i) = i;
          if (i != 3)
            return;
          if (!strcmp(what, "global"))
            Kokkos::fence();
          else if (!strcmp(what, "instance"))
            exec.fence();
          else if (!strcmp(what, "static"))
            Kokkos::DefaultExecutionSpace().fence();
          else if (!strcmp(what, "deep_copy"))
            Kokkos::deep_copy(h, y);
          else if (!strcmp(what, "fill"))
            Kokkos::deep_copy(y, 1.0);
          else if (!strcmp(what, "alloc")) {
            Kokkos::View<double *> tmp("tmp", 4);
            (void)tmp;
          } else if (!strcmp(what, "resize")) {
            Kokkos::View<double *> tmp;
            Kokkos::resize(tmp, 4);
          } else if (!strcmp(what, "reduce")) {
            double s = 0;
            Kokkos::parallel_reduce("inner", Kokkos::RangePolicy<>(0, 4),
                                    KOKKOS_LAMBDA(const int, double &v) { v += 1; }, s);
          } else if (!strcmp(what, "mirror")) {
            auto m = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
            (void)m;
          }
        });
    Kokkos::fence();
  }
  Kokkos::finalize();
  return 0;
}
