// Nested TeamThreadRange loops of 300 iterations (more than the 126
// threads a team is modelled with): each iteration writes its element and
// reads its right neighbour's, which another thread of the team writes,
// with no team_barrier in between.
// EXPECT: data-race view=y subkind=team-threads nodes=parallel_for:wide,parallel_for:wide lines=21,21 ops=read,write
#include <Kokkos_Core.hpp>
#include <cstdio>

using policy = Kokkos::TeamPolicy<>;
using member = policy::member_type;

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int teams = 3, n = 300;
    Kokkos::View<double *> y("y", teams * (n + 1));
    Kokkos::parallel_for(
        "wide", policy(teams, Kokkos::AUTO), KOKKOS_LAMBDA(const member &m) {
          const int t = m.league_rank() * (n + 1);
          Kokkos::parallel_for(Kokkos::TeamThreadRange(m, n), [&](int j) {
            y(t + j) = 0.5 * y(t + j + 1);
          });
        });
    Kokkos::fence();
    printf("%g\n", y(0));
  }
  Kokkos::finalize();
  return 0;
}
