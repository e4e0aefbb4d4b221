// Vector loops done right, checked before they run (each lane's strand
// from its index): many lanes reading their own elements and writing
// others, kernel after kernel with no fence between them; lanes reading
// what their thread wrote before the loop, the thread writing it again
// after; a lane reading under a condition what an earlier kernel wrote;
// a second loop of the thread reading what the first one's lanes wrote.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

using policy = Kokkos::TeamPolicy<>;
using member = policy::member_type;

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int teams = 4, n = 8, lanes = 64;
    Kokkos::View<double **> a("a", teams * n, lanes), b("b", teams * n, lanes),
        c("c", teams * n, lanes), u("u", teams * n, lanes);
    Kokkos::View<double *> s("s", teams * n), x("x", lanes);
    Kokkos::deep_copy(a, 1.0);
    Kokkos::deep_copy(x, 0.5);
    for (int rep = 0; rep < 3; ++rep)
      Kokkos::parallel_for(
          "vector", policy(teams, Kokkos::AUTO, 8),
          KOKKOS_LAMBDA(const member &m) {
            const int t = m.league_rank();
            Kokkos::parallel_for(Kokkos::TeamThreadRange(m, n), [&](int j) {
              const int i = t * n + j;
              s(i) = rep;
              Kokkos::parallel_for(Kokkos::ThreadVectorRange(m, lanes), [&](int l) {
                double v = a(i, l) * x(l) + s(i);
                b(i, l) = v;
                if (l > 0)
                  c(i, l) = a(i, l - 1);
              });
              Kokkos::parallel_for(Kokkos::ThreadVectorRange(m, lanes), [&](int l) {
                u(i, l) = b(i, lanes - 1 - l);
              });
              s(i) = u(i, 0);
            });
          });
    Kokkos::fence();
    printf("%g %g %g\n", s(1), c(2, 1), u(3, 3));
  }
  Kokkos::finalize();
  return 0;
}
