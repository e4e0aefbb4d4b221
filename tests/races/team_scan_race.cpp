// A nested parallel_scan over a team's TeamThreadRange whose final pass reads
// the prefix that the previous iteration's final pass writes: iterations of
// one nested loop are threads of the team, never ordered.
// EXPECT: data-race view=prefix subkind=team-threads nodes=parallel_for:scan,parallel_for:scan lines=26,28
#include <Kokkos_Core.hpp>
#include <cstdio>

using policy = Kokkos::TeamPolicy<>;
using member = policy::member_type;

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int teams = 3, n = 16;
    Kokkos::View<int **> x("x", teams, n), prefix("prefix", teams, n),
        step("step", teams, n);
    Kokkos::parallel_for(
        "fill", Kokkos::MDRangePolicy<Kokkos::Rank<2>>({0, 0}, {teams, n}),
        KOKKOS_LAMBDA(int t, int i) { x(t, i) = i % 3; });
    Kokkos::parallel_for(
        "scan", policy(teams, Kokkos::AUTO), KOKKOS_LAMBDA(const member &m) {
          const int l = m.league_rank();
          Kokkos::parallel_scan(Kokkos::TeamThreadRange(m, n),
                                [&](int i, int &acc, bool final) {
                                  if (final) {
                                    prefix(l, i) = acc;
                                    if (i > 0)
                                      step(l, i) = acc - prefix(l, i - 1);
                                  }
                                  acc += x(l, i);
                                });
        });
    Kokkos::fence();
    printf("%d\n", step(2, 5));
  }
  Kokkos::finalize();
  return 0;
}
