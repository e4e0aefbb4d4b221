// TeamPolicy reductions: a reduction over teams whose teams reduce over
// their threads (TeamThreadRange, ThreadVectorRange) and add the result
// once per team (single); a parallel_for whose teams each reduce into their
// own element.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    using team_t = Kokkos::TeamPolicy<>::member_type;
    const int league = 8, m = 16;
    Kokkos::View<double **> a("a", league, m);
    Kokkos::View<double *> rowsum("rowsum", league);
    Kokkos::parallel_for(
        "init", Kokkos::MDRangePolicy<Kokkos::Rank<2>>({0, 0}, {league, m}),
        KOKKOS_LAMBDA(const int i, const int j) { a(i, j) = i + 0.5 * j; });
    Kokkos::fence();
    double total = 0;
    Kokkos::parallel_reduce(
        "teamsum", Kokkos::TeamPolicy<>(league, Kokkos::AUTO),
        KOKKOS_LAMBDA(const team_t &team, double &s) {
          const int t = team.league_rank();
          double row = 0;
          Kokkos::parallel_reduce(
              Kokkos::TeamThreadRange(team, m),
              [&](const int j, double &r) { r += a(t, j); }, row);
          Kokkos::single(Kokkos::PerTeam(team), [&]() { s += row; });
        },
        total);
    Kokkos::parallel_for(
        "rowsums", Kokkos::TeamPolicy<>(league, Kokkos::AUTO),
        KOKKOS_LAMBDA(const team_t &team) {
          const int t = team.league_rank();
          double row = 0;
          Kokkos::parallel_reduce(
              Kokkos::ThreadVectorRange(team, m),
              [&](const int j, double &r) { r += a(t, j); }, row);
          Kokkos::single(Kokkos::PerTeam(team), [&]() { rowsum(t) = row; });
        });
    Kokkos::fence();
    printf("%g %g\n", total, rowsum(league - 1));
  }
  Kokkos::finalize();
  return 0;
}
