// TeamThreadMDRange (Kokkos 4): each iteration of the nested 2-D range is
// a thread of the team (nested_mdrange_inner_race has iterations that
// differ in the inner index only).  Threads (i, j) and (i + 1, j) meet: one column sum is updated by every thread with no reduction,
// and each thread reads the row the next thread writes.
// REQUIRES: kokkos4
// EXPECT: data-race view=colsum subkind=team-threads nodes=parallel_for:mdtiles,parallel_for:mdtiles lines=26,26
// EXPECT: data-race view=a subkind=team-threads nodes=parallel_for:mdtiles,parallel_for:mdtiles lines=25,25
#include <Kokkos_Core.hpp>
#include <cstdio>

using policy = Kokkos::TeamPolicy<>;
using member = policy::member_type;

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int teams = 3, n = 4, m = 5;
    Kokkos::View<double ***> a("a", teams, n, m);
    Kokkos::View<double **> colsum("colsum", teams, m);
    Kokkos::parallel_for(
        "mdtiles", policy(teams, Kokkos::AUTO), KOKKOS_LAMBDA(const member &t) {
          const int l = t.league_rank();
          Kokkos::parallel_for(
              Kokkos::TeamThreadMDRange<Kokkos::Rank<2>, member>(t, n, m), [&](int i, int j) {
                a(l, i, j) = a(l, (i + 1) % n, j) + 1.0;
                colsum(l, j) += a(l, i, j);
              });
        });
    Kokkos::fence();
    printf("%g\n", colsum(1, 2));
  }
  Kokkos::finalize();
  return 0;
}
