// A View of int with the Atomic trait, updated and read by the vector
// lanes of teams through an index View of int, as a token-indexed
// histogram is: on a host backend, Kokkos makes each update a load and a
// store through a volatile pointer between its atomic marks, and each
// read a volatile load, which kkrace checks as one atomic access each.
// Atomic updates do not race with each other, but team 5's plain write of
// the bin that team 0's first lane updates does, and so does the host's
// plain write of a bin that the "sum" kernel, not waited for, reads.  In
// "sums", each team's vector reduction reads its row of four atomically,
// and team 0 writes the last element of team 9's row plainly.
// EXPECT: data-race view=hist subkind=iteration-overlap nodes=parallel_for:count,parallel_for:count atomic=0,1 lines=35,38
// EXPECT: data-race view=hist subkind=missing-fence nodes=host,parallel_for:sum lines=42,43
// EXPECT: data-race view=four subkind=iteration-overlap nodes=parallel_for:sums,parallel_for:sums atomic=0,1 lines=57,61
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int teams = 64, per = 256, nb = teams * per;
    Kokkos::View<int **> idx("idx", teams, per);
    Kokkos::View<int *, Kokkos::MemoryTraits<Kokkos::Atomic>> hist("hist", nb);
    Kokkos::View<int *> plain(hist.data(), nb), total("total", nb);
    Kokkos::parallel_for(
        "init", teams * per, KOKKOS_LAMBDA(const int k) {
          idx(k / per, k % per) = (int)(((long)k * 7919) % nb);
        });
    Kokkos::fence();
    using member = Kokkos::TeamPolicy<>::member_type;
    Kokkos::parallel_for(
        "count", Kokkos::TeamPolicy<>(teams, Kokkos::AUTO),
        KOKKOS_LAMBDA(const member &team) {
          const int t = team.league_rank();
          Kokkos::parallel_for(Kokkos::TeamVectorRange(team, per),
                               [=](const int j) { hist(idx(t, j))++; });
          if (t == 5)
            Kokkos::single(Kokkos::PerTeam(team),
                           [=]() { plain(idx(0, 0)) = 0; });
        });
    Kokkos::fence();
    Kokkos::parallel_for(
        "sum", nb, KOKKOS_LAMBDA(const int b) { total(b) = hist(b); });
    plain(7) = 1;
    Kokkos::fence();
    // Each team sums four bins in a vector reduction of atomic reads
    // (checked before its loop); team 0 writes one of team 9's plainly.
    Kokkos::View<int **, Kokkos::MemoryTraits<Kokkos::Atomic>> four("four",
                                                                    teams, 4);
    Kokkos::View<int **> four_plain(four.data(), teams, 4);
    Kokkos::parallel_for(
        "sums", Kokkos::TeamPolicy<>(teams, Kokkos::AUTO),
        KOKKOS_LAMBDA(const member &team) {
          const int t = team.league_rank();
          int r = 0;
          Kokkos::parallel_reduce(
              Kokkos::TeamVectorRange(team, 4),
              [=](const int c, int &a) { a += four(t, c); }, r);
          Kokkos::single(Kokkos::PerTeam(team), [=]() {
            total(t) = r;
            if (t == 0)
              four_plain(9, 3) = 1;
          });
        });
    Kokkos::fence();
    long s = 0;
    for (int b = 0; b < nb; ++b) s += total(b);
    printf("%ld\n", s);
  }
  Kokkos::finalize();
  return 0;
}
