// The twin of repeat_loops_race: loops that repeat their accesses, made
// race-free.  Each team thread's repeated vector loops write its own row,
// then read its neighbour's after a team barrier; each RangePolicy
// iteration sweeps its own row several times; the host sweeps an array
// several times before a kernel reads it; and the lanes of a thread's
// repeated vector loops write elements that other lanes of its previous
// loop wrote (lanes of two loops of one thread are ordered: checked on
// every iteration, each loop's lanes its own).
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

using policy = Kokkos::TeamPolicy<>;
using member = policy::member_type;

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    // (Counts the compiler cannot see, so that it unrolls none of the loops.)
    const int teams = 2, threads = argc > 5 ? 1 : 4, lanes = argc > 5 ? 1 : 8;
    const int n = argc > 5 ? 1 : 16, reps = argc > 5 ? 1 : 10;
    Kokkos::View<double **> rows("rows", teams * threads, lanes);
    Kokkos::View<double **> sums("sums", teams * threads, lanes);
    Kokkos::View<double **> own("own", 4, n);
    Kokkos::View<double *> host("host", n), out("out", n);
    Kokkos::View<double **> moving("moving", teams, threads * (lanes + reps));
    Kokkos::parallel_for(
        "vector_repeat", policy(teams, Kokkos::AUTO, lanes),
        KOKKOS_LAMBDA(const member &m) {
          const int t = m.league_rank();
          Kokkos::parallel_for(Kokkos::TeamThreadRange(m, threads), [&](int j) {
            const int row = t * threads + j;
            for (int r = 0; r < reps; ++r)
              Kokkos::parallel_for(Kokkos::ThreadVectorRange(m, lanes), [&](int l) {
                rows(row, l) = l;
              });
          });
          m.team_barrier();
          Kokkos::parallel_for(Kokkos::TeamThreadRange(m, threads), [&](int j) {
            const int row = t * threads + j;
            const int next = t * threads + (j + 1) % threads;
            Kokkos::parallel_for(Kokkos::ThreadVectorRange(m, lanes), [&](int l) {
              sums(row, l) = rows(next, l);
            });
          });
        });
    Kokkos::parallel_for(
        "sweep_repeat", Kokkos::RangePolicy<>(0, 4),
        KOKKOS_LAMBDA(const int i) {
          for (int r = 0; r < reps; ++r)
            for (int k = 0; k < n; ++k)
              own(i, k) = own(i, k) * 0.5 + i;
        });
    for (int r = 0; r < reps; ++r)
      for (int k = 0; k < n; ++k)
        host(k) = host(k) * 0.5 + 1;
    Kokkos::parallel_for(
        "read_host", Kokkos::RangePolicy<>(0, n),
        KOKKOS_LAMBDA(const int k) { out(k) = host(k); });
    Kokkos::parallel_for(
        "moving_repeat", policy(teams, Kokkos::AUTO, lanes),
        KOKKOS_LAMBDA(const member &m) {
          const int t = m.league_rank();
          Kokkos::parallel_for(Kokkos::TeamThreadRange(m, threads), [&](int j) {
            for (int r = 0; r < reps; ++r)
              Kokkos::parallel_for(Kokkos::ThreadVectorRange(m, lanes), [&](int l) {
                moving(t, j * (lanes + reps) + l + r) = l;
              });
          });
        });
    Kokkos::fence();
    printf("%g %g %g %g\n", sums(0, 1), own(1, 1), out(1), moving(0, 1));
  }
  Kokkos::finalize();
  return 0;
}
