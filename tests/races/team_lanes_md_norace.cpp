// ThreadVectorMDRange (Kokkos 4) done right: the lanes read what their
// thread wrote before the loop and write their own elements, which the
// thread reads once the loop returns.
// REQUIRES: kokkos4
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

using policy = Kokkos::TeamPolicy<>;
using member = policy::member_type;

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int teams = 2, n = 4, a = 3, b = 3;
    Kokkos::View<double *> x("x", teams * n);
    Kokkos::View<double ***> y("y", teams * n, a, b);
    Kokkos::parallel_for(
        "mdlanes", policy(teams, Kokkos::AUTO), KOKKOS_LAMBDA(const member &m) {
          const int t = m.league_rank();
          Kokkos::parallel_for(Kokkos::TeamThreadRange(m, n), [&](int j) {
            const int i = t * n + j;
            x(i) = i;
            Kokkos::parallel_for(Kokkos::ThreadVectorMDRange<Kokkos::Rank<2>, member>(m, a, b), [&](int k, int l) {
              y(i, k, l) = x(i) + k * l;
            });
            x(i) += y(i, 1, 1);
          });
        });
    Kokkos::fence();
    printf("%g\n", x(3));
  }
  Kokkos::finalize();
  return 0;
}
