// Team rows without a race: team j of a TeamPolicy reads or writes its own
// row j of a large matrix in TeamThreadRange loops (rows of 200 doubles,
// 1100 of them: more teams than a team's strand id tells apart, and rows
// across MiB borders), whose records are kept as one rule of team rows.
// "yAx" three times (each kernel's reads ordered after the last's);
// "fill" writes the rows, "use" reads its own row and the row before (the
// kernel before wrote it); "twice" reads its row twice and then updates
// it, each element by the same thread; "phases" reads its row of C, then
// after a barrier each thread writes the element after its own; "pairs" has two
// teams read each row (reads of several teams); the host reads the rows
// after a fence.  The sums are checked.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

using policy = Kokkos::TeamPolicy<>;
using member = policy::member_type;

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  int bad = 0;
  {
    const int N = 1100, M = 200;
    Kokkos::View<double **> A("A", N, M), B("B", N, M), C("C", N, M);
    Kokkos::View<double *> x("x", M), y("y", N);
    Kokkos::deep_copy(A, 1.0);
    Kokkos::deep_copy(C, 1.0);
    Kokkos::deep_copy(x, 2.0);
    for (int r = 0; r < 3; ++r) {
      Kokkos::parallel_for("yAx", policy(N, Kokkos::AUTO), KOKKOS_LAMBDA(const member &team) {
        const int j = team.league_rank();
        double s = 0;
        Kokkos::parallel_reduce(Kokkos::TeamThreadRange(team, M), [&](const int i, double &t) { t += A(j, i) * x(i); }, s);
        Kokkos::single(Kokkos::PerTeam(team), [&]() { y(j) = s; });
      });
    }
    Kokkos::parallel_for("fill", policy(N, Kokkos::AUTO), KOKKOS_LAMBDA(const member &team) {
      const int j = team.league_rank();
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, M), [&](const int i) { B(j, i) = j + i; });
    });
    Kokkos::parallel_for("use", policy(N, Kokkos::AUTO), KOKKOS_LAMBDA(const member &team) {
      const int j = team.league_rank();
      double s = 0, p = 0;
      Kokkos::parallel_reduce(Kokkos::TeamThreadRange(team, M), [&](const int i, double &t) { t += B(j, i); }, s);
      if (j > 0)
        Kokkos::parallel_reduce(Kokkos::TeamThreadRange(team, M), [&](const int i, double &t) { t += B(j - 1, i); }, p);
      Kokkos::single(Kokkos::PerTeam(team), [&]() { y(j) = s + p; });
    });
    Kokkos::parallel_for("twice", policy(N, Kokkos::AUTO), KOKKOS_LAMBDA(const member &team) {
      const int j = team.league_rank();
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, M), [&](const int i) {
        if (A(j, i) < 0)
          y(j) = -1;
      });
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, M), [&](const int i) {
        if (A(j, i) > 10)
          y(j) = -2;
      });
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, M), [&](const int i) { A(j, i) += 1; });
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, M), [&](const int i) {
        if (A(j, i) != 2)
          y(j) = -3;
      });
    });
    Kokkos::parallel_for("phases", policy(N, Kokkos::AUTO), KOKKOS_LAMBDA(const member &team) {
      const int j = team.league_rank();
      double s = 0;
      Kokkos::parallel_reduce(Kokkos::TeamThreadRange(team, M), [&](const int i, double &t) { t += C(j, i); }, s);
      team.team_barrier();
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, M), [&](const int i) { C(j, (i + 1) % M) = s + j; });
    });
    Kokkos::parallel_for("pairs", policy(2 * N, Kokkos::AUTO), KOKKOS_LAMBDA(const member &team) {
      const int j = team.league_rank() / 2;
      double s = 0;
      Kokkos::parallel_reduce(Kokkos::TeamThreadRange(team, M), [&](const int i, double &t) { t += A(j, i); }, s);
      if (team.league_rank() % 2 == 0)
        Kokkos::single(Kokkos::PerTeam(team), [&]() { y(j) = s; });
    });
    Kokkos::fence();
    for (int j = 0; j < N; ++j) {
      if (y(j) != 2.0 * M)
        ++bad;
      if (B(j, 7) != j + 7 || C(j, 7) != M + j)
        ++bad;
    }
    printf("bad %d\n", bad);
  }
  Kokkos::finalize();
  return bad != 0;
}
