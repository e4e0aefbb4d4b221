// The same kernels done right: the team_barrier after the nested loop and
// after the single, where every thread of the team reaches it once, and a
// team_broadcast and a nested reduction, which every thread reaches too.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

using policy = Kokkos::TeamPolicy<>;
using member = policy::member_type;

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int teams = 4, n = 10;
    Kokkos::View<double *> x("x", teams * n), s("s", teams);
    Kokkos::parallel_for(
        "loop", policy(teams, Kokkos::AUTO), KOKKOS_LAMBDA(const member &m) {
          const int t = m.league_rank();
          Kokkos::parallel_for(Kokkos::TeamThreadRange(m, n), [&](int j) {
            x(t * n + j) = j;
          });
          m.team_barrier();
          Kokkos::single(Kokkos::PerTeam(m), [&]() {
            for (int j = 0; j < n; ++j)
              x(t * n + j) += 1.0;
          });
          m.team_barrier();
          double v = m.team_rank() == 0 ? x(t * n) : 0.0;
          m.team_broadcast(v, 0);
          double total = 0;
          Kokkos::parallel_reduce(
              Kokkos::TeamThreadRange(m, n),
              [&](int j, double &acc) { acc += x(t * n + j) * v; }, total);
          Kokkos::single(Kokkos::PerTeam(m), [&]() { s(t) = total; });
        });
    Kokkos::fence();
    printf("%g\n", s(0));
  }
  Kokkos::finalize();
  return 0;
}
