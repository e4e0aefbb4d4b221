// Vector loops whose lanes touch no memory (a ThreadVectorRange reduction
// into a register, unrolled or kept a loop) are not checked lane by lane; what the team's threads
// and lanes do around them still is: every thread of a team writes its
// team's total after its own reduction, and after another such reduction
// the lanes of one thread add into one element.
// EXPECT: data-race view=total subkind=team-threads nodes=parallel_for:idle,parallel_for:idle lines=35,35
// EXPECT: data-race view=acc subkind=team-threads nodes=parallel_for:idle,parallel_for:idle lines=43,43
#include <Kokkos_Core.hpp>
#include <cstdio>

using policy = Kokkos::TeamPolicy<>;
using member = policy::member_type;

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int teams = 3, n = 4, lanes = 8;
    const int some = argc > 99 ? 4 : 8; // (a loop the compiler keeps)
    Kokkos::View<double *> total("total", teams), acc("acc", teams * n);
    Kokkos::View<double **> z("z", teams * n, lanes);
    Kokkos::parallel_for(
        "idle", policy(teams, Kokkos::AUTO),
        KOKKOS_LAMBDA(const member &m) {
          const int t = m.league_rank();
          Kokkos::parallel_for(Kokkos::TeamThreadRange(m, n), [&](int j) {
            const int i = t * n + j;
            double s = 0;
            for (int r = 0; r < 3; ++r) {
              double v = 0;
              Kokkos::parallel_reduce(
                  Kokkos::ThreadVectorRange(m, lanes),
                  [&](const int l, double &x) { x += l * (r + 1); }, v);
              s += v;
            }
            total(t) = s;
            double u = 0;
            Kokkos::parallel_reduce(
                Kokkos::ThreadVectorRange(m, some),
                [&](const int l, double &x) { x += 2 * l; }, u);
            Kokkos::parallel_for(Kokkos::ThreadVectorRange(m, lanes),
                                 [&](int l) {
                                   z(i, l) = u + l;
                                   acc(i) += l;
                                 });
          });
        });
    Kokkos::fence();
    printf("%g %g %g\n", total(1), acc(2), z(3, 1));
  }
  Kokkos::finalize();
  return 0;
}
