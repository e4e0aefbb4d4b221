// Iterations that read their own element and write it back (y(i) += ...),
// in short and long loops, of doubles and of ints (neighbouring ints share
// an 8-byte word), in MDRange rows and in a team's nested loop, one kernel
// after another on one instance, and again after a fence: no report.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 64, m = 5000, rows = 40, cols = 1500;
    Kokkos::View<double *> x("x", m), y("y", m);
    Kokkos::View<int *> c("c", n);
    Kokkos::View<double **> a("a", rows, cols);
    Kokkos::parallel_for("init", m, KOKKOS_LAMBDA(const int i) { x(i) = i; });
    for (int r = 0; r < 3; ++r) {
      Kokkos::parallel_for("axpy", n, KOKKOS_LAMBDA(const int i) { y(i) += 0.5 * x(i) + r; });
      Kokkos::parallel_for("twice", n, KOKKOS_LAMBDA(const int i) {
        y(i) *= 2.0;
        y(i) -= x(i);
      });
      Kokkos::parallel_for("long", m, KOKKOS_LAMBDA(const int i) { y(i) += x(i); });
      Kokkos::parallel_for("ints", n, KOKKOS_LAMBDA(const int i) { c(i) += i; });
      if (r == 1)
        Kokkos::fence();
    }
    Kokkos::parallel_for(
        "rows", Kokkos::MDRangePolicy<Kokkos::Rank<2>>({0, 0}, {rows, cols}),
        KOKKOS_LAMBDA(const int i, const int j) { a(i, j) += x(j) * i; });
    using team_t = Kokkos::TeamPolicy<>::member_type;
    Kokkos::parallel_for(
        "team", Kokkos::TeamPolicy<>(rows, Kokkos::AUTO),
        KOKKOS_LAMBDA(const team_t &t) {
          const int i = t.league_rank();
          Kokkos::parallel_for(Kokkos::TeamThreadRange(t, cols),
                               [&](const int j) { a(i, j) += 1.0; });
        });
    Kokkos::fence();
    printf("%g %d %g\n", y(3), c(5), a(2, 3));
  }
  Kokkos::finalize();
  return 0;
}
