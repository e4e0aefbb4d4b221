// The vector lanes of a team's threads (ThreadVectorRange iterations) are
// strands of their own, even on Serial: lanes of one thread accumulating
// into one element, a lane reading its neighbour's element that the
// neighbour writes in the same loop, and lanes of two threads (two
// TeamThreadRange iterations) writing one element.
// EXPECT: data-race view=row subkind=team-threads nodes=parallel_for:lanes,parallel_for:lanes lines=31,31
// EXPECT: data-race view=z subkind=team-threads nodes=parallel_for:lanes,parallel_for:lanes lines=32,33
// EXPECT: data-race view=q subkind=team-threads nodes=parallel_for:lanes,parallel_for:lanes lines=34,34
#include <Kokkos_Core.hpp>
#include <cstdio>

using policy = Kokkos::TeamPolicy<>;
using member = policy::member_type;

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int teams = 3, n = 4, lanes = 4;
    Kokkos::View<double **> y("y", teams * n, lanes), z("z", teams * n, lanes),
        w("w", teams * n, lanes), q("q", teams, lanes);
    Kokkos::View<double *> row("row", teams * n);
    Kokkos::deep_copy(y, 1.0);
    Kokkos::parallel_for(
        "lanes", policy(teams, Kokkos::AUTO),
        KOKKOS_LAMBDA(const member &m) {
          const int t = m.league_rank();
          Kokkos::parallel_for(Kokkos::TeamThreadRange(m, n), [&](int j) {
            const int i = t * n + j;
            row(i) = 0;
            Kokkos::parallel_for(Kokkos::ThreadVectorRange(m, lanes), [&](int l) {
              row(i) += y(i, l);
              z(i, l) = l;
              w(i, l) = z(i, (l + 1) % lanes);
              q(t, l) = j;
            });
          });
        });
    Kokkos::fence();
    printf("%g %g %g\n", row(1), w(2, 1), q(1, 1));
  }
  Kokkos::finalize();
  return 0;
}
