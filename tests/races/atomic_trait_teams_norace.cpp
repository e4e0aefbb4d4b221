// A token-indexed histogram as the Kokkos tutorials write it: the vector
// lanes of each team add into one of four copies of the bins, a View of
// int with the Atomic trait, through an index View of int (many lanes of
// many teams add into the same bin); then a team per bin sums its four
// copies in a vector reduction of atomic reads.  On a host backend each
// update is a load and a store through a volatile pointer between Kokkos'
// atomic marks, each read a volatile load: atomic accesses, which race
// with no other atomic access.  A last kernel's teams add into the bins
// while other teams read them.  The sums are checked.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  int bad = 0;
  {
    const int teams = 200, per = 300, nb = 97, copies = 4;
    Kokkos::View<int **> idx("idx", teams, per);
    Kokkos::View<int **, Kokkos::MemoryTraits<Kokkos::Atomic>> hist(
        "hist", copies, nb);
    Kokkos::View<int *> total("total", nb);
    Kokkos::parallel_for(
        "init", teams * per, KOKKOS_LAMBDA(const int k) {
          idx(k / per, k % per) = (k * 31) % nb;
        });
    using member = Kokkos::TeamPolicy<>::member_type;
    Kokkos::parallel_for(
        "count", Kokkos::TeamPolicy<>(teams, Kokkos::AUTO),
        KOKKOS_LAMBDA(const member &team) {
          const int t = team.league_rank(), c = t % copies;
          Kokkos::parallel_for(Kokkos::TeamVectorRange(team, per),
                               [=](const int j) { hist(c, idx(t, j))++; });
        });
    Kokkos::parallel_for(
        "sum", Kokkos::TeamPolicy<>(nb, Kokkos::AUTO),
        KOKKOS_LAMBDA(const member &team) {
          const int b = team.league_rank();
          int s = 0;
          Kokkos::parallel_reduce(
              Kokkos::TeamVectorRange(team, copies),
              [=](const int c, int &r) { r += hist(c, b); }, s);
          Kokkos::single(Kokkos::PerTeam(team), [=]() { total(b) = s; });
        });
    // Teams that add into the bins while others read them, atomically too
    // (a vector reduction of atomic reads, checked before its loop).
    Kokkos::View<int *> seen("seen", teams);
    Kokkos::parallel_for(
        "mix", Kokkos::TeamPolicy<>(teams, Kokkos::AUTO),
        KOKKOS_LAMBDA(const member &team) {
          const int t = team.league_rank(), b = t % nb;
          Kokkos::parallel_for(Kokkos::TeamVectorRange(team, per),
                               [=](const int j) { hist(t % copies, idx(t, j))++; });
          int s = 0;
          Kokkos::parallel_reduce(
              Kokkos::TeamVectorRange(team, copies),
              [=](const int c, int &r) { r += hist(c, b); }, s);
          Kokkos::single(Kokkos::PerTeam(team), [=]() { seen(t) = s; });
        });
    Kokkos::fence();
    long all = 0;
    for (int b = 0; b < nb; ++b) all += total(b);
    bad = all != (long)teams * per || seen(teams - 1) < total((teams - 1) % nb);
    printf("%ld\n", all);
  }
  Kokkos::finalize();
  return bad;
}
