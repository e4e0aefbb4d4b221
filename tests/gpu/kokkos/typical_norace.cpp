// Kokkos' CUDA backend: what a correct program does every day (for-loops,
// reductions and scans into host scalars, a team kernel, an MDRange, deep
// copies to and from host mirrors, a DualView-like round trip), on the
// default instance: no report, also from Kokkos' own internal work.
// EXPECT: no-report
// VARIANTS: preload
#include <Kokkos_Core.hpp>
#include <cstdio>
int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 1 << 16;
    Kokkos::View<double *> x("x", n), y("y", n);
    Kokkos::View<double **> m("m", 256, 256);
    auto hx = Kokkos::create_mirror_view(x);
    for (int i = 0; i < n; ++i)
      hx(i) = i % 7;
    Kokkos::deep_copy(x, hx);
    Kokkos::parallel_for("axpy", n, KOKKOS_LAMBDA(int i) { y(i) = 2 * x(i) + 1; });
    double dot = 0;
    Kokkos::parallel_reduce("dot", n,
                            KOKKOS_LAMBDA(int i, double &s) { s += x(i) * y(i); }, dot);
    int last = 0;
    Kokkos::parallel_scan("scan", n,
                          KOKKOS_LAMBDA(int i, int &s, bool final) {
                            if (final) y(i) = s;
                            s += 1;
                          },
                          last);
    using team_t = Kokkos::TeamPolicy<>::member_type;
    Kokkos::parallel_for("rows", Kokkos::TeamPolicy<>(256, Kokkos::AUTO),
                         KOKKOS_LAMBDA(const team_t &t) {
                           const int r = t.league_rank();
                           double s = 0;
                           Kokkos::parallel_reduce(
                               Kokkos::TeamThreadRange(t, 256),
                               [&](int j, double &p) { p += x(r * 256 + j); }, s);
                           Kokkos::single(Kokkos::PerTeam(t), [&]() { m(r, 0) = s; });
                         });
    Kokkos::parallel_for("md", Kokkos::MDRangePolicy<Kokkos::Rank<2>>({0, 1}, {256, 256}),
                         KOKKOS_LAMBDA(int i, int j) { m(i, j) = i + j; });
    double mx = 0;
    Kokkos::parallel_reduce("max", n, KOKKOS_LAMBDA(int i, double &v) {
      if (y(i) > v) v = y(i);
    }, Kokkos::Max<double>(mx));
    auto hm = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m);
    Kokkos::deep_copy(hx, y);
    Kokkos::deep_copy(x, 0.5);
    Kokkos::fence();
    printf("dot %g last %d max %g m %g hx %g\n", dot, last, mx, hm(1, 2), hx(5));
  }
  Kokkos::finalize();
  return 0;
}
