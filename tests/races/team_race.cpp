// TeamPolicy: every league member (team) accumulates into one element (one
// thread of each team: the race is between teams).
// EXPECT: data-race view=total subkind=iteration-overlap nodes=parallel_for:teams,parallel_for:teams lines=16,16
#include <Kokkos_Core.hpp>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    using team_t = Kokkos::TeamPolicy<>::member_type;
    Kokkos::View<double *> x("x", 64);
    Kokkos::View<double *> total("total", 1);
    Kokkos::parallel_for(
        "teams", Kokkos::TeamPolicy<>(8, Kokkos::AUTO),
        KOKKOS_LAMBDA(const team_t &team) {
          const int t = team.league_rank();
          if (team.team_rank() == 0) total(0) += x(8 * t);
        });
    Kokkos::fence();
  }
  Kokkos::finalize();
  return 0;
}
