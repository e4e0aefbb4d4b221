// Vector loops whose accesses kkrace checks before the loop runs (each
// lane's strand from its index): lanes of one thread writing one element,
// a lane reading under a condition the element its neighbour writes in the
// same loop, two threads' lanes writing one row, and lanes 0 and 1 of a
// loop of many writing one element between them.
// EXPECT: data-race view=flag subkind=team-threads nodes=parallel_for:vector,parallel_for:vector lines=32,32
// EXPECT: data-race view=b subkind=team-threads nodes=parallel_for:vector,parallel_for:vector lines=33,35
// EXPECT: data-race view=q subkind=team-threads nodes=parallel_for:vector,parallel_for:vector lines=36,36
// EXPECT: data-race view=pair subkind=team-threads nodes=parallel_for:vector,parallel_for:vector lines=37,37
#include <Kokkos_Core.hpp>
#include <cstdio>

using policy = Kokkos::TeamPolicy<>;
using member = policy::member_type;

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int teams = 4, n = 8, lanes = 64;
    Kokkos::View<double **> a("a", teams * n, lanes), b("b", teams * n, lanes),
        c("c", teams * n, lanes), q("q", teams, lanes);
    Kokkos::View<double *> flag("flag", teams * n), pair("pair", teams * n * lanes);
    Kokkos::deep_copy(a, 1.0);
    Kokkos::parallel_for(
        "vector", policy(teams, Kokkos::AUTO, 8),
        KOKKOS_LAMBDA(const member &m) {
          const int t = m.league_rank();
          Kokkos::parallel_for(Kokkos::TeamThreadRange(m, n), [&](int j) {
            const int i = t * n + j;
            Kokkos::parallel_for(Kokkos::ThreadVectorRange(m, lanes), [&](int l) {
              double v = a(i, l);
              flag(i) = v;
              b(i, l) = 2 * v;
              if (l > 0)
                c(i, l) = b(i, l - 1);
              q(t, l) = j;
              pair(i * lanes + l / 2) = l;
            });
          });
        });
    Kokkos::fence();
    printf("%g %g %g %g\n", flag(1), c(2, 1), q(1, 1), pair(3));
  }
  Kokkos::finalize();
  return 0;
}
