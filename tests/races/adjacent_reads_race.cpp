// A sparse matrix's row bounds, rp(row) and rp(row + 1), read on one line
// by a team's own code: kkrace checks both elements with one check (one
// word, or the halves of two words when the pair straddles them).  Team 0
// rewrites the last bound of each matrix, which only the last row reads,
// as the second of its pair: in an aligned pair (rows of the first
// matrix, last row 8) and in one across two words (the second, last row
// 9).  Both race with the last team's read.
// EXPECT: data-race view=rp1 subkind=iteration-overlap nodes=parallel_for:rows,parallel_for:rows lines=35,51
// EXPECT: data-race view=rp2 subkind=iteration-overlap nodes=parallel_for:rows,parallel_for:rows lines=42,52
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n1 = 9, n2 = 10, per = 2, teams = 5;
    Kokkos::View<int *> rp1("rp1", n1 + 1), rp2("rp2", n2 + 1);
    Kokkos::View<double *> val("val", 3 * n2), y("y", n1 + n2);
    Kokkos::parallel_for(
        "init", n2 + 1, KOKKOS_LAMBDA(const int i) {
          if (i <= n1)
            rp1(i) = 3 * i;
          rp2(i) = 3 * i;
          if (i < n2)
            val(3 * i) = val(3 * i + 1) = val(3 * i + 2) = i;
        });
    Kokkos::fence();
    using member = Kokkos::TeamPolicy<>::member_type;
    Kokkos::parallel_for(
        "rows", Kokkos::TeamPolicy<>(teams, Kokkos::AUTO),
        KOKKOS_LAMBDA(const member &team) {
          const int t = team.league_rank();
          for (int row = t * per; row < t * per + per; ++row) {
            if (row < n1) {
              const int b = rp1(row), e = rp1(row + 1);
              double s = 0;
              Kokkos::parallel_reduce(
                  Kokkos::TeamThreadRange(team, b, e),
                  [&](const int k, double &a) { a += val(k); }, s);
              Kokkos::single(Kokkos::PerTeam(team), [&]() { y(row) = s; });
            }
            const int b = rp2(row), e = rp2(row + 1);
            double s = 0;
            Kokkos::parallel_reduce(
                Kokkos::TeamThreadRange(team, b, e),
                [&](const int k, double &a) { a += val(k); }, s);
            Kokkos::single(Kokkos::PerTeam(team), [&]() { y(n1 + row) = s; });
          }
          if (t == 0)
            Kokkos::single(Kokkos::PerTeam(team), [&]() {
              rp1(n1) = 3 * n1;
              rp2(n2) = 3 * n2;
            });
        });
    Kokkos::fence();
    double s = 0;
    for (int i = 0; i < n1 + n2; ++i) s += y(i);
    printf("%g\n", s);
  }
  Kokkos::finalize();
  return 0;
}
