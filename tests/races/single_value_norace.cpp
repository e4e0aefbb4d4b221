// A single with a broadcast value (single(PerTeam(t), f, value)) and a
// team_broadcast of what a functor computes: the team's root runs f, then
// the team meets, so that f's reads are ordered before what every thread
// writes after it.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

using team_t = Kokkos::TeamPolicy<>::member_type;

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    Kokkos::View<double **> a("a", 2, 8), b("b", 2, 8);
    Kokkos::View<double *> out("out", 2);
    Kokkos::parallel_for("team", Kokkos::TeamPolicy<>(2, Kokkos::AUTO), KOKKOS_LAMBDA(const team_t &t) {
      const int r = t.league_rank();
      double sv = 0, bv = 0;
      Kokkos::single(Kokkos::PerTeam(t), [&](double &v) { v = a(r, 7); }, sv);
      Kokkos::parallel_for(Kokkos::TeamThreadRange(t, 8), [&](int j) { a(r, j) = j + sv; });
      t.team_broadcast([&](double &v) { v = b(r, 3); }, bv, 0);
      Kokkos::parallel_for(Kokkos::TeamThreadRange(t, 8), [&](int j) { b(r, j) = j + bv; });
      Kokkos::single(Kokkos::PerTeam(t), [&]() { out(r) = sv + bv; });
    });
    Kokkos::fence();
    printf("%g\n", out(1));
  }
  Kokkos::finalize();
  return 0;
}
