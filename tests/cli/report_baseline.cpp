// The program of kkrace-report's test (test_report_tool.py): one race in
// every build, and a second one only when built with -DNEW_RACE, as a change
// under review would add it.  The lines marked RACE are where they are.
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    Kokkos::View<double *> a("shifted", 101);
    Kokkos::parallel_for("shift", 100, KOKKOS_LAMBDA(const int i) { a(i) = a(i + 1); });  // RACE: shifted
    Kokkos::fence();
#ifdef NEW_RACE
    Kokkos::View<double *> b("unfenced", 64);
    Kokkos::View<double *> c("other", 64);
    Kokkos::parallel_for("fill", 64, KOKKOS_LAMBDA(const int i) { b(i) = i; });  // RACE: unfenced (kernel)
    // Many kernels, none of them fenced, between the fill and the host's
    // read: the graph around the race is bigger than what --graph draws.
    for (int k = 0; k < 48; k++)
      Kokkos::parallel_for("step", 64, KOKKOS_LAMBDA(const int i) { c(i) += 1; });
    double v = b(10);  // RACE: unfenced (host)
    Kokkos::fence();
    std::printf("%g %g\n", v, c(0));
#endif
  }
  Kokkos::finalize();
  return 0;
}
