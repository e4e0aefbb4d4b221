// Team collectives behind a branch on the thread's team_rank(): on a
// backend that runs a team with several threads, the threads go different
// ways, some never reach the collective (or reach it a different number of
// times) and the others wait there forever.  Serial runs teams of one
// thread (rank 0), which returns at once, whichever way it goes.
// EXPECT: deadlock subkind=divergent-barrier nodes=parallel_for:only_rank0 lines=25
// EXPECT: deadlock subkind=divergent-barrier nodes=parallel_for:strided lines=32
// EXPECT: deadlock subkind=divergent-barrier nodes=parallel_for:early_return lines=40
// EXPECT: deadlock subkind=divergent-barrier nodes=parallel_for:nested_reduce lines=51
// EXPECT-TEXT: branch on team_rank() by parallel_for 'only_rank0'
// EXPECT-TEXT: the team's threads go different ways to the team_barrier at divergent_rank_deadlock.cpp:26
#include <Kokkos_Core.hpp>

using policy = Kokkos::TeamPolicy<>;
using member = policy::member_type;

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int teams = 4, n = 10;
    Kokkos::View<double *> x("x", teams * n), s("s", teams);
    Kokkos::parallel_for(
        "only_rank0", policy(teams, Kokkos::AUTO), KOKKOS_LAMBDA(const member &m) {
          x(m.league_rank() * n + m.team_rank()) = 1.0;
          if (m.team_rank() == 0)
            m.team_barrier();
        });
    Kokkos::parallel_for(
        "strided", policy(teams, Kokkos::AUTO), KOKKOS_LAMBDA(const member &m) {
          // A trip count of its own per thread: a barrier in the loop is
          // reached a different number of times.
          for (int j = m.team_rank(); j < n; j += 3) {
            x(m.league_rank() * n + j) = j;
            m.team_barrier();
          }
        });
    Kokkos::parallel_for(
        "early_return", policy(teams, Kokkos::AUTO), KOKKOS_LAMBDA(const member &m) {
          const int r = m.team_rank();
          if (r >= 2)
            return;
          x(m.league_rank() * n + r) = 2.0;
          m.team_barrier();
        });
    Kokkos::parallel_for(
        "nested_reduce", policy(teams, Kokkos::AUTO), KOKKOS_LAMBDA(const member &m) {
          const int t = m.league_rank();
          const bool lead = m.team_rank() % 2 == 0;
          double sum = 0;
          // The nested reduction ends in a team reduction: a collective.
          if (lead)
            Kokkos::parallel_reduce(
                Kokkos::TeamThreadRange(m, n),
                [&](int j, double &acc) { acc += x(t * n + j); }, sum);
          Kokkos::single(Kokkos::PerTeam(m), [&]() { s(t) = sum; });
        });
    Kokkos::fence();
  }
  Kokkos::finalize();
  return 0;
}
