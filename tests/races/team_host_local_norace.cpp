// TeamPolicy: the same count, made atomic; and each team's own local,
// summed by a nested TeamThreadRange reduction and captured by reference by
// the nested lambdas, is private to the team's thread.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    using team_t = Kokkos::TeamPolicy<>::member_type;
    Kokkos::View<double *> x("x", 64), partial("partial", 8);
    int count = 0;
    Kokkos::parallel_for(
        "count", Kokkos::TeamPolicy<>(8, Kokkos::AUTO),
        [&](const team_t &team) {
          const int t = team.league_rank();
          double s = 0;
          Kokkos::parallel_reduce(
              Kokkos::TeamThreadRange(team, 8),
              [&](const int k, double &acc) { acc += x(8 * t + k); }, s);
          Kokkos::single(Kokkos::PerTeam(team), [&]() {
            partial(t) = s;
            Kokkos::atomic_add(&count, 1);
          });
        });
    Kokkos::fence();
    printf("%d\n", count);
  }
  Kokkos::finalize();
  return 0;
}
