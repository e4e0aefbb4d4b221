// Passes over the same elements, repeated in one kernel, with nothing that
// races: a team's threads read rows and update their own elements several
// times, then, after a barrier, each writes the element of the thread
// before and reads its neighbour's update; passes of other threads'
// elements between them (reads only); a RangePolicy iteration that reads
// and rewrites its own row several times; vector lanes that read their
// thread's row between two passes; passes in phases 0 and 8 of a team
// (the same thread ids) with another phase's reads between them, and a
// write after a barrier.
// EXPECT: no-report
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
    const int M = argc > 100 ? atoi(argv[2]) : 64;
    Kokkos::View<double **> A("A", N, K), B("B", N, K), out("out", N, K), acc("acc", N, K);
    Kokkos::View<double **> x("x", 1000, M), y("y", 1000, M);
    Kokkos::View<double *> res("res", N);
    Kokkos::parallel_for("init", N * K, KOKKOS_LAMBDA(const int e) {
      A(e / K, e % K) = e;
      B(e / K, e % K) = 2 * e;
    });
    Kokkos::fence();
    Kokkos::parallel_for("passes", policy(N, Kokkos::AUTO), KOKKOS_LAMBDA(const member &team) {
      const int n = team.league_rank();
      for (int r = 0; r < R; ++r) {
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, K), [&](const int i) {
          out(n, i) += A(n, i);
        });
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, K / 3, 2 * K / 3), [&](const int i) {
          acc(n, i) += A(n, i + 1) + B(n, i);
        });
      }
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, K), [&](const int i) {
        double t = 0;
        Kokkos::parallel_reduce(Kokkos::ThreadVectorRange(team, 4), [&](const int v, double &u) {
          u += v * A(n, i);
        }, t);
        acc(n, i) += t;
      });
      for (int r = 0; r < R; ++r)
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, K), [&](const int i) {
          out(n, i) += A(n, i);
        });
      team.team_barrier();
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, K), [&](const int i) {
        A(n, (i + 1) % K) = out(n, (i + 1) % K);
      });
      double s = 0;
      Kokkos::parallel_reduce(Kokkos::TeamThreadRange(team, K), [&](const int i, double &t) {
        t += out(n, (i + 1) % K);
      }, s);
      Kokkos::single(Kokkos::PerTeam(team), [&]() { res(n) = s; });
    });
    Kokkos::fence();
    Kokkos::parallel_for("rows", 1000, KOKKOS_LAMBDA(const int i) {
      for (int r = 0; r < R; ++r)
        for (int j = 0; j < M; ++j)
          y(i, j) += x(i, j) + r;
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
        team.team_barrier();
      }
      Kokkos::single(Kokkos::PerTeam(team), [&]() { B(n, K / 2) = -1; });
    });
    Kokkos::fence();
    printf("%g %g %g %g\n", res(1), acc(1, 2), B(1, 3), y(5, 5));
  }
  Kokkos::finalize();
  return 0;
}
