// The correct twins of divergent_rank_deadlock.cpp: branches on team_rank()
// that every thread of the team leaves with the same collectives, and
// collectives behind branches that are the same for the whole team.
// EXPECT: no-report
#include <Kokkos_Core.hpp>

using policy = Kokkos::TeamPolicy<>;
using member = policy::member_type;

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int teams = 4, n = 10;
    Kokkos::View<double *> x("x", teams * n), s("s", teams);
    Kokkos::parallel_for(
        "both_ways", policy(teams, Kokkos::AUTO), KOKKOS_LAMBDA(const member &m) {
          // One barrier on each way.
          if (m.team_rank() == 0) {
            x(m.league_rank() * n) = 1.0;
            m.team_barrier();
          } else {
            m.team_barrier();
          }
        });
    Kokkos::parallel_for(
        "branch_then_barrier", policy(teams, Kokkos::AUTO), KOKKOS_LAMBDA(const member &m) {
          // The branch decides a write only; every thread meets after it.
          if (m.team_rank() == 0)
            x(m.league_rank() * n + 1) = 2.0;
          m.team_barrier();
          for (int j = 0; j < n; ++j) // the same trip count for all
            m.team_barrier();
        });
    Kokkos::parallel_for(
        "per_team", policy(teams, Kokkos::AUTO), KOKKOS_LAMBDA(const member &m) {
          // league_rank() is the same for every thread of a team.
          if (m.league_rank() % 2 == 0)
            m.team_barrier();
          double sum = 0;
          Kokkos::parallel_reduce(
              Kokkos::TeamThreadRange(m, n),
              [&](int j, double &acc) { acc += x(m.league_rank() * n + j); }, sum);
          Kokkos::single(Kokkos::PerTeam(m), [&]() { s(m.league_rank()) = sum; });
        });
    Kokkos::parallel_for(
        "abort_path", policy(teams, Kokkos::AUTO), KOKKOS_LAMBDA(const member &m) {
          // A way that ends the program waits for nobody.
          if (m.team_rank() >= m.team_size())
            Kokkos::abort("team_rank out of range");
          m.team_barrier();
        });
    Kokkos::fence();
  }
  Kokkos::finalize();
  return 0;
}
