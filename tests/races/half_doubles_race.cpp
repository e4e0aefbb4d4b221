// Doubles in the same MiB as an int array that a team kernel splits
// element by element, so that their shadow keeps half-cells only: a team's
// nested loop reading the double its neighbour iteration writes, and the
// host reading doubles that an unfenced kernel writes, are still found,
// as accesses of 8 bytes.
// EXPECT: data-race view=buf subkind=team-threads nodes=parallel_for:shift,parallel_for:shift lines=41,41 ops=read,write
// EXPECT: data-race view=buf subkind=missing-fence nodes=parallel_for:late,host lines=47,50 ops=write,read
// EXPECT-TEXT: Previous read of size 8
// EXPECT-TEXT: Previous write of size 8
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    // One MiB, aligned: 512 KiB of int, then 512 KiB of double.
    const int ni = 128 * 1024, nd = 64 * 1024, rows = 64;
    Kokkos::View<char *> buf("buf", 3 << 20);
    char *p = (char *)(((uintptr_t)buf.data() + (1 << 20) - 1) & ~(uintptr_t)((1 << 20) - 1));
    Kokkos::View<int *, Kokkos::MemoryUnmanaged> idx((int *)p, ni);
    Kokkos::View<double *, Kokkos::MemoryUnmanaged> d((double *)(p + 4 * ni), nd);
    Kokkos::parallel_for("fill", ni, KOKKOS_LAMBDA(const int i) { idx(i) = i % nd; });
    Kokkos::parallel_for("init", nd, KOKKOS_LAMBDA(const int i) { d(i) = 1.0; });
    Kokkos::fence();
    using team_t = Kokkos::TeamPolicy<>::member_type;
    const int per_team = ni / rows;
    Kokkos::View<int *> count("count", rows);
    Kokkos::parallel_for("gather", Kokkos::TeamPolicy<>(rows, Kokkos::AUTO), KOKKOS_LAMBDA(const team_t &team) {
      const int r = team.league_rank();
      int c = 0;
      Kokkos::parallel_reduce(Kokkos::TeamThreadRange(team, r * per_team, (r + 1) * per_team),
                              [&](const int k, int &s) { s += idx(k) & 1; }, c);
      Kokkos::single(Kokkos::PerTeam(team), [&]() { count(r) = c; });
    });
    Kokkos::fence();
    const int dper = (nd - 1) / rows;
    Kokkos::parallel_for("shift", Kokkos::TeamPolicy<>(rows, Kokkos::AUTO), KOKKOS_LAMBDA(const team_t &team) {
      const int r = team.league_rank();
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, r * dper, (r + 1) * dper),
                           [&](const int k) { d(k) = d(k + 1) * 0.5; });
    });
    Kokkos::fence();
    Kokkos::parallel_for("late", Kokkos::TeamPolicy<>(rows, Kokkos::AUTO), KOKKOS_LAMBDA(const team_t &team) {
      const int r = team.league_rank();
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, r * dper, (r + 1) * dper),
                           [&](const int k) { d(k) = k; });
    });
    double s = 0;
    for (int k = 0; k < 100; ++k) s += d(k);
    Kokkos::fence();
    printf("%g\n", s);
  }
  Kokkos::finalize();
  return 0;
}
