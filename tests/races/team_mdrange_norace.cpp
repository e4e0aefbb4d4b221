// TeamThreadMDRange (Kokkos 4): each nested 2-D iteration writes its own
// element; a team_barrier, then one row sum per thread of a TeamThreadRange.
// REQUIRES: kokkos4
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

using policy = Kokkos::TeamPolicy<>;
using member = policy::member_type;

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int teams = 3, n = 4, m = 5;
    Kokkos::View<double ***> a("a", teams, n, m);
    Kokkos::View<double **> rowsum("rowsum", teams, n);
    Kokkos::parallel_for(
        "mdtiles", policy(teams, Kokkos::AUTO), KOKKOS_LAMBDA(const member &t) {
          const int l = t.league_rank();
          Kokkos::parallel_for(
              Kokkos::TeamThreadMDRange<Kokkos::Rank<2>, member>(t, n, m),
              [&](int i, int j) { a(l, i, j) = i * m + j; });
          t.team_barrier();
          Kokkos::parallel_for(Kokkos::TeamThreadRange(t, n), [&](int i) {
            double s = 0;
            for (int j = 0; j < m; j++) s += a(l, i, j);
            rowsum(l, i) = s;
          });
        });
    Kokkos::fence();
    printf("%g\n", rowsum(1, 2));
  }
  Kokkos::finalize();
  return 0;
}
