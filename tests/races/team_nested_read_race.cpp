// TeamPolicy with a nested TeamThreadRange reduction that reads two
// elements past its team's block, which the next team overwrites: reads in
// a nested lambda race with another team's writes.
// EXPECT: data-race view=v subkind=iteration-overlap nodes=parallel_for:blocks,parallel_for:blocks lines=23,27
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    using team_t = Kokkos::TeamPolicy<>::member_type;
    const int teams = 4, block = 8;
    Kokkos::View<int *> v("v", teams * block + 2);
    Kokkos::View<double *> out("out", teams);
    Kokkos::parallel_for(
        "blocks", Kokkos::TeamPolicy<>(teams, Kokkos::AUTO),
        KOKKOS_LAMBDA(const team_t &team) {
          const int t = team.league_rank();
          double s = 0;
          Kokkos::parallel_reduce(
              Kokkos::TeamThreadRange(team, block + 2),
              [&](const int k, double &acc) {
                acc += v(t * block + k);
              }, s);
          Kokkos::single(Kokkos::PerTeam(team), [&]() {
            for (int j = 0; j < block; ++j)
              v(t * block + j) = j;
            out(t) = s;
          });
        });
    Kokkos::fence();
    printf("%g\n", out(0));
  }
  Kokkos::finalize();
  return 0;
}
