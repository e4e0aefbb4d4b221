// TeamPolicy: each league member writes its own element (one thread of
// the team writes it).
// EXPECT: no-report
#include <Kokkos_Core.hpp>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    using team_t = Kokkos::TeamPolicy<>::member_type;
    Kokkos::View<double *> x("x", 64);
    Kokkos::View<double *> partial("partial", 8);
    Kokkos::parallel_for(
        "teams", Kokkos::TeamPolicy<>(8, Kokkos::AUTO),
        KOKKOS_LAMBDA(const team_t &team) {
          const int t = team.league_rank();
          double s = 0;
          for (int k = 0; k < 8; ++k)
            s += x(8 * t + k);
          Kokkos::single(Kokkos::PerTeam(team), [&]() { partial(t) = s; });
        });
    Kokkos::fence();
  }
  Kokkos::finalize();
  return 0;
}
