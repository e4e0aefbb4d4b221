// Doubles in the same MiB as an int array that a team kernel splits
// element by element, so that their shadow keeps half-cells only, updated
// in place by a team's nested loops, by a RangePolicy kernel, then read by
// the host after a fence: no report.
// EXPECT: no-report
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
                           [&](const int k) { d(k) = d(k) * 0.5 + idx(k); });
    });
    Kokkos::fence();
    Kokkos::parallel_for("late", Kokkos::TeamPolicy<>(rows, Kokkos::AUTO), KOKKOS_LAMBDA(const team_t &team) {
      const int r = team.league_rank();
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, r * dper, (r + 1) * dper),
                           [&](const int k) { d(k) = k; });
    });
    Kokkos::parallel_for("scale", nd, KOKKOS_LAMBDA(const int i) { d(i) += d(i) * idx(i); });
    Kokkos::fence();
    double s = 0;
    for (int k = 0; k < 100; ++k) s += d(k);
    printf("%g\n", s);
  }
  Kokkos::finalize();
  return 0;
}
