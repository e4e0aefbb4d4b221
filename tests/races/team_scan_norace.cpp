// A nested parallel_scan over a team's TeamThreadRange: the scan's two passes
// are the team's collective work; a team_barrier after it, then a single
// reads the last prefix (the twin of team_scan_race).
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

using policy = Kokkos::TeamPolicy<>;
using member = policy::member_type;

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int teams = 3, n = 16;
    Kokkos::View<int **> x("x", teams, n), prefix("prefix", teams, n);
    Kokkos::View<int *> total("total", teams);
    Kokkos::parallel_for(
        "fill", Kokkos::MDRangePolicy<Kokkos::Rank<2>>({0, 0}, {teams, n}),
        KOKKOS_LAMBDA(int t, int i) { x(t, i) = i % 3; });
    Kokkos::parallel_for(
        "scan", policy(teams, Kokkos::AUTO), KOKKOS_LAMBDA(const member &m) {
          const int l = m.league_rank();
          Kokkos::parallel_scan(Kokkos::TeamThreadRange(m, n),
                                [&](int i, int &acc, bool final) {
                                  if (final) prefix(l, i) = acc;
                                  acc += x(l, i);
                                });
          m.team_barrier();
          Kokkos::single(Kokkos::PerTeam(m), [&]() {
            total(l) = prefix(l, n - 1) + x(l, n - 1);
          });
        });
    Kokkos::fence();
    printf("%d\n", total(2));
  }
  Kokkos::finalize();
  return 0;
}
