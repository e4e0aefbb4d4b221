// Nested TeamThreadRange loops of 300 iterations (more than the 126
// threads a team is modelled with): each iteration reads one View and
// writes its own element of another, then a barrier, then the other way.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

using policy = Kokkos::TeamPolicy<>;
using member = policy::member_type;

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int teams = 3, n = 300;
    Kokkos::View<double *> x("x", teams * (n + 1)), y("y", teams * (n + 1));
    Kokkos::parallel_for(
        "wide", policy(teams, Kokkos::AUTO), KOKKOS_LAMBDA(const member &m) {
          const int t = m.league_rank() * (n + 1);
          Kokkos::parallel_for(Kokkos::TeamThreadRange(m, n), [&](int j) {
            y(t + j) = 0.5 * x(t + j + 1);
          });
          m.team_barrier();
          Kokkos::parallel_for(Kokkos::TeamThreadRange(m, n), [&](int j) {
            x(t + j) = y(t + j) + y(t + j + 1);
          });
        });
    Kokkos::fence();
    printf("%g\n", x(0));
  }
  Kokkos::finalize();
  return 0;
}
