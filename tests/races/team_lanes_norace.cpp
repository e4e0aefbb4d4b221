// Vector lanes done right: a thread's lanes see what the thread wrote
// before the loop and the thread sees what they wrote once the loop
// returns; two loops of one thread are ordered; a vector reduction, a
// vector scan and a single(PerThread) are the thread's; the lanes of a
// single(PerTeam) write their own elements; more lanes than kkrace tells
// apart in one phase.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

using policy = Kokkos::TeamPolicy<>;
using member = policy::member_type;

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int teams = 3, n = 40, lanes = 12;
    Kokkos::View<double **> y("y", teams * n, lanes), z("z", teams * n, lanes),
        v("v", teams, lanes);
    Kokkos::View<double *> x("x", teams * n), row("row", teams * n), dot("dot", teams * n);
    Kokkos::deep_copy(x, 1.0);
    Kokkos::parallel_for(
        "lanes", policy(teams, Kokkos::AUTO),
        KOKKOS_LAMBDA(const member &m) {
          const int t = m.league_rank();
          Kokkos::parallel_for(Kokkos::TeamThreadRange(m, n), [&](int j) {
            const int i = t * n + j;
            x(i) *= 2;
            Kokkos::parallel_for(Kokkos::ThreadVectorRange(m, lanes), [&](int l) {
              y(i, l) = x(i) * l;
            });
            double s = 0;
            for (int l = 0; l < lanes; ++l)
              s += y(i, l);
            row(i) = s;
            Kokkos::parallel_for(Kokkos::ThreadVectorRange(m, lanes), [&](int l) {
              z(i, l) = y(i, (l + 1) % lanes) + row(i);
            });
            double d = 0;
            Kokkos::parallel_reduce(Kokkos::ThreadVectorRange(m, lanes), [&](int l, double &acc) {
              acc += z(i, l) * y(i, l);
            }, d);
            dot(i) = d;
            Kokkos::parallel_scan(Kokkos::ThreadVectorRange(m, lanes), [&](int l, double &s, bool final) {
              s += y(i, l);
              if (final) z(i, l) = s;
            });
            Kokkos::single(Kokkos::PerThread(m), [&]() { dot(i) += row(i); });
            x(i) = dot(i);
          });
          m.team_barrier();
          Kokkos::single(Kokkos::PerTeam(m), [&]() {
            Kokkos::parallel_for(Kokkos::ThreadVectorRange(m, lanes), [&](int l) {
              v(t, l) = x(t * n + l);
            });
            v(t, 0) += v(t, lanes - 1);
          });
        });
    Kokkos::fence();
    printf("%g %g %g\n", row(1), dot(2), v(1, 0));
  }
  Kokkos::finalize();
  return 0;
}
