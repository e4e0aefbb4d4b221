// The twin of idle_lanes_race.cpp, race-free: each thread writes its own
// total, and each lane adds into its own element, around vector loops
// whose lanes touch no memory.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

using policy = Kokkos::TeamPolicy<>;
using member = policy::member_type;

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int teams = 3, n = 4, lanes = 8;
    const int some = argc > 99 ? 4 : 8; // (a loop the compiler keeps)
    Kokkos::View<double *> total("total", teams * n), acc("acc", teams * n * 8);
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
            total(i) = s;
            double u = 0;
            Kokkos::parallel_reduce(
                Kokkos::ThreadVectorRange(m, some),
                [&](const int l, double &x) { x += 2 * l; }, u);
            Kokkos::parallel_for(Kokkos::ThreadVectorRange(m, lanes),
                                 [&](int l) {
                                   z(i, l) = u + l;
                                   acc(i * lanes + l) += l;
                                 });
          });
        });
    Kokkos::fence();
    printf("%g %g %g\n", total(1), acc(2), z(3, 1));
  }
  Kokkos::finalize();
  return 0;
}
