// A team's nested iterations read a vector through int indices (a gather
// decided in its tight loop).  After the team's barrier, iteration k reads
// the element that iteration 63 - k read before it (the barrier orders
// that read before it, so the new read takes its place), and a second
// nested loop of the same phase has iteration k - 1 write it: nothing
// orders the two iterations, and the write races with the read.
// EXPECT: data-race view=x subkind=team-threads nodes=parallel_for:phases,parallel_for:phases lines=31,33 ops=read,write
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    using team_t = Kokkos::TeamPolicy<>::member_type;
    const int n = 64;
    Kokkos::View<double *> x("x", n), y("y", n);
    Kokkos::View<int *> col("col", n), rev("rev", n);
    Kokkos::parallel_for("cols", n, KOKKOS_LAMBDA(const int i) {
      col(i) = (5 * i) % n;
      rev(n - 1 - i) = (5 * i) % n;
    });
    Kokkos::fence();
    Kokkos::parallel_for(
        "phases", Kokkos::TeamPolicy<>(1, Kokkos::AUTO), KOKKOS_LAMBDA(const team_t &team) {
          double s = 0;
          Kokkos::parallel_reduce(
              Kokkos::TeamThreadRange(team, n),
              [&](const int k, double &t) { t += x(col(k)); }, s);
          team.team_barrier();
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n),
                               [&](const int k) { y(k) = x(rev(k)) + s; });
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n),
                               [&](const int k) { x(rev((k + 1) % n)) = y(k); });
        });
    Kokkos::parallel_for(
        "shared", Kokkos::TeamPolicy<>(4, Kokkos::AUTO), KOKKOS_LAMBDA(const team_t &team) {
          double s = 0;
          Kokkos::parallel_reduce(
              Kokkos::TeamThreadRange(team, n),
              [&](const int k, double &t) { t += x(col((k + team.league_rank()) % n)); }, s);
          Kokkos::single(Kokkos::PerTeam(team), [&]() { y(team.league_rank()) = s; });
        });
    Kokkos::fence();
    printf("%g %g\n", x(3), y(1));
  }
  Kokkos::finalize();
  return 0;
}
