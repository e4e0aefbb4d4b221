// team_barrier inside a nested TeamThreadRange and inside a single: on a
// backend that runs a team with several threads, only some threads reach
// the barrier (or reach it a different number of times) and the others
// wait there forever.  Serial runs teams of one thread: the program ends.
// EXPECT: deadlock subkind=divergent-barrier nodes=parallel_for:loop lines=23
// EXPECT: deadlock subkind=divergent-barrier nodes=parallel_for:single lines=32
// EXPECT-TEXT: team_barrier that not every thread of the team reaches
#include <Kokkos_Core.hpp>

using policy = Kokkos::TeamPolicy<>;
using member = policy::member_type;

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int teams = 4, n = 10;
    Kokkos::View<double *> x("x", teams * n);
    Kokkos::parallel_for(
        "loop", policy(teams, Kokkos::AUTO), KOKKOS_LAMBDA(const member &m) {
          const int t = m.league_rank();
          Kokkos::parallel_for(Kokkos::TeamThreadRange(m, n), [&](int j) {
            x(t * n + j) = j;
            m.team_barrier();
          });
        });
    Kokkos::parallel_for(
        "single", policy(teams, Kokkos::AUTO), KOKKOS_LAMBDA(const member &m) {
          const int t = m.league_rank();
          Kokkos::single(Kokkos::PerTeam(m), [&]() {
            for (int j = 0; j < n; ++j)
              x(t * n + j) += 1.0;
            m.team_barrier();
          });
        });
    Kokkos::fence();
  }
  Kokkos::finalize();
  return 0;
}
