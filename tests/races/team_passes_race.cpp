// A team's threads pass over the same rows several times in one phase (a
// repeated nested loop, as in a benchmark's inner repeats): from the third
// pass on, the blocks where each element is its own thread's are skipped.
// Races after such passes: "passes" writes a row that its threads read,
// each element by the thread of the element before, reads another row
// that they wrote the same way, and writes a row that the threads passed
// over, after one more pass over its middle third that each thread made
// at the next element (reads of several threads, reported at the first
// pass's line);
// "phases" reads row B in phase 0 and again in phase 8 (whose
// thread ids are those of phase 0: a team's phase counts modulo 8 in its
// ids), after other threads read the row in phase 1, and a single thread
// writes one element in phase 8, which races with the phase-8 read only.
// EXPECT: data-race view=A subkind=team-threads nodes=parallel_for:passes,parallel_for:passes lines=44,47 ops=read,write
// EXPECT: data-race view=out subkind=team-threads nodes=parallel_for:passes,parallel_for:passes lines=44,61 ops=write,read
// EXPECT: data-race view=C subkind=team-threads nodes=parallel_for:passes,parallel_for:passes lines=57,51 ops=write,read
// EXPECT: data-race view=B subkind=team-threads nodes=parallel_for:phases,parallel_for:phases lines=72,82 ops=read,write
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <cstdlib>

using policy = Kokkos::TeamPolicy<>;
using member = policy::member_type;

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int N = 4, K = 96;
    // (Counts the compiler cannot see.)
    const int R = argc > 100 ? atoi(argv[1]) : 4;
    const int j0 = argc > 100 ? atoi(argv[2]) : 50;
    Kokkos::View<double **> A("A", N, K), B("B", N, K), C("C", N, K), out("out", N, K), acc("acc", N, K);
    Kokkos::View<double *> res("res", N);
    Kokkos::parallel_for("init", N * K, KOKKOS_LAMBDA(const int e) {
      A(e / K, e % K) = e;
      B(e / K, e % K) = 2 * e;
      C(e / K, e % K) = 3 * e;
    });
    Kokkos::fence();
    Kokkos::parallel_for("passes", policy(N, Kokkos::AUTO), KOKKOS_LAMBDA(const member &team) {
      const int n = team.league_rank();
      for (int r = 0; r < R; ++r)
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, K), [&](const int i) {
          out(n, i) += A(n, i);
        });
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, K), [&](const int i) {
        A(n, (i + 1) % K) = i;
      });
      for (int r = 0; r < R; ++r)
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, K), [&](const int i) {
          acc(n, i) += C(n, i);
        });
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, K / 3, 2 * K / 3), [&](const int i) {
        acc(n, i) += C(n, i + 1);
      });
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, K), [&](const int i) {
        C(n, i) = i;
      });
      double s = 0;
      Kokkos::parallel_reduce(Kokkos::TeamThreadRange(team, K), [&](const int i, double &t) {
        t += out(n, (i + 1) % K);
      }, s);
      Kokkos::single(Kokkos::PerTeam(team), [&]() { res(n) = s; });
    });
    Kokkos::fence();
    Kokkos::parallel_for("phases", policy(N, Kokkos::AUTO), KOKKOS_LAMBDA(const member &team) {
      const int n = team.league_rank();
      for (int p = 0; p < 9; ++p) {
        if (p == 0 || p == 8)
          for (int r = 0; r < 2; ++r)
            Kokkos::parallel_for(Kokkos::TeamThreadRange(team, K), [&](const int i) {
              acc(n, i) += B(n, i);
            });
        if (p == 1)
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, K), [&](const int i) {
            acc(n, i) += B(n, K - 1 - i);
          });
        if (p < 8)
          team.team_barrier();
      }
      Kokkos::single(Kokkos::PerTeam(team), [&]() {
        B(n, j0) = -1;
      });
    });
    Kokkos::fence();
    printf("%g %g %g\n", res(1), acc(1, 2), B(1, j0));
  }
  Kokkos::finalize();
  return 0;
}
