// Every lane of a vector loop reads one element (a broadcast: kkrace keeps
// the reads of several lanes together, as their thread's) and one lane
// writes it in the same loop: the lanes of one loop run at the same time,
// whichever lane writes.  Sixteen lanes, more than the eight that a loop's
// strand ids tell apart; the writer is one of the last ones.
// EXPECT: data-race view=s subkind=team-threads nodes=parallel_for:broadcast,parallel_for:broadcast lines=26,27
// EXPECT: data-race view=c subkind=team-threads nodes=parallel_for:broadcast,parallel_for:broadcast lines=28,29
#include <Kokkos_Core.hpp>
#include <cstdio>

using policy = Kokkos::TeamPolicy<>;
using member = policy::member_type;

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int teams = 2, n = 3, lanes = 16;
    Kokkos::View<double **> y("y", teams * n, lanes);
    Kokkos::View<double *> s("s", teams * n), c("c", teams * n);
    Kokkos::parallel_for(
        "broadcast", policy(teams, Kokkos::AUTO),
        KOKKOS_LAMBDA(const member &m) {
          Kokkos::parallel_for(Kokkos::TeamThreadRange(m, n), [&](int j) {
            const int i = m.league_rank() * n + j;
            Kokkos::parallel_for(Kokkos::ThreadVectorRange(m, lanes), [&](int l) {
              y(i, l) = s(i);
              if (l == lanes - 3) s(i) = l;
              y(i, l) += c(i);
              if (l == 9) c(i) = -1;
            });
          });
        });
    Kokkos::fence();
    printf("%g\n", y(1, 1));
  }
  Kokkos::finalize();
  return 0;
}
