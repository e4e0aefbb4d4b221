// ThreadVectorMDRange (Kokkos 4): the 2-D iterations are the vector lanes
// of the calling thread, unordered with each other: every lane adds into
// the thread's row total.
// REQUIRES: kokkos4
// EXPECT: data-race view=total subkind=team-threads nodes=parallel_for:mdlanes,parallel_for:mdlanes lines=25,25
#include <Kokkos_Core.hpp>
#include <cstdio>

using policy = Kokkos::TeamPolicy<>;
using member = policy::member_type;

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int teams = 2, n = 4, a = 3, b = 3;
    Kokkos::View<double ***> y("y", teams * n, a, b);
    Kokkos::View<double *> total("total", teams * n);
    Kokkos::deep_copy(y, 1.0);
    Kokkos::parallel_for(
        "mdlanes", policy(teams, Kokkos::AUTO), KOKKOS_LAMBDA(const member &m) {
          const int t = m.league_rank();
          Kokkos::parallel_for(Kokkos::TeamThreadRange(m, n), [&](int j) {
            const int i = t * n + j;
            Kokkos::parallel_for(Kokkos::ThreadVectorMDRange<Kokkos::Rank<2>, member>(m, a, b), [&](int k, int l) {
              total(i) += y(i, k, l);
            });
          });
        });
    Kokkos::fence();
    printf("%g\n", total(3));
  }
  Kokkos::finalize();
  return 0;
}
