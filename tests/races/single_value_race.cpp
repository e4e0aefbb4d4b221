// The twin of single_value_norace: the team meets after a single's
// functor, not before it, so the root's read in f races with what the
// nested iterations wrote just before the single (no team_barrier there).
// EXPECT: data-race view=a subkind=team-threads nodes=parallel_for:team,parallel_for:team lines=18,19
#include <Kokkos_Core.hpp>
#include <cstdio>

using team_t = Kokkos::TeamPolicy<>::member_type;

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    Kokkos::View<double **> a("a", 2, 8);
    Kokkos::View<double *> out("out", 2);
    Kokkos::parallel_for("team", Kokkos::TeamPolicy<>(2, Kokkos::AUTO), KOKKOS_LAMBDA(const team_t &t) {
      const int r = t.league_rank();
      double sv = 0;
      Kokkos::parallel_for(Kokkos::TeamThreadRange(t, 8), [&](int j) { a(r, j) = j; });
      Kokkos::single(Kokkos::PerTeam(t), [&](double &v) { v = a(r, 7); }, sv);
      Kokkos::single(Kokkos::PerTeam(t), [&]() { out(r) = sv; });
    });
    Kokkos::fence();
    printf("%g\n", out(1));
  }
  Kokkos::finalize();
  return 0;
}
