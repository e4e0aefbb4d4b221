// Each iteration's own locals, written by helpers that are not inlined
// (through a pointer, and through a struct holding one), and a team's
// local written by Kokkos' team reduction through a Max reducer: every
// strand has its own copy, so nothing races.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

__attribute__((noinline)) void fill3(double *v, int i) {
  v[0] = i;
  v[1] = 2.0 * i;
  v[2] = 3.0 * i;
}
struct Out {
  double *p;
};
__attribute__((noinline)) void put(const Out &o, int i) { *o.p = 0.5 * i; }

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    Kokkos::View<double *> a("a", 100), b("b", 8);
    Kokkos::parallel_for("locals", 100, KOKKOS_LAMBDA(const int i) {
      double v[3];
      fill3(v, i);
      double s = 0;
      put(Out{&s}, i);
      a(i) = v[0] + v[1] + v[2] + s;
    });
    using member = Kokkos::TeamPolicy<>::member_type;
    Kokkos::parallel_for(
        "teams", Kokkos::TeamPolicy<>(8, Kokkos::AUTO),
        KOKKOS_LAMBDA(const member &t) {
          double m = 0;
          Kokkos::parallel_reduce(
              Kokkos::TeamThreadRange(t, 16),
              [&](const int j, double &x) {
                if (a(t.league_rank() * 12 + j) > x)
                  x = a(t.league_rank() * 12 + j);
              },
              Kokkos::Max<double>(m));
          Kokkos::single(Kokkos::PerTeam(t), [&]() { b(t.league_rank()) = m; });
        });
    Kokkos::fence();
    printf("%g %g\n", a(99), b(7));
  }
  Kokkos::finalize();
  return 0;
}
