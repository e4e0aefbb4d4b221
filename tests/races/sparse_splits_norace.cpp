// An array of int that the host fills one element at a time (cells), read
// by a TeamPolicy kernel in rows of 1,025 elements (copied to team
// scratch), each overlapping the next team's row by one element: one word
// in 512 is split by two teams, and each MiB of the array becomes compact
// halves at its first split.  A second kernel, ordered after the first on
// the same instance, doubles each row's elements but the last; the host
// reads everything after a fence: no report, and the sums are right.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <cstdlib>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int row = 1024, nteams = 768; /* 3 MiB */
    Kokkos::View<int *> data("data", row * nteams + 1);
    Kokkos::View<long *> sums("sums", nteams);
    srand(7);
    long expect = 0;
    for (int i = 0; i < row * nteams + 1; i++) {
      data(i) = rand() % 16;
      expect += data(i);
    }
    for (int n = 1; n < nteams; n++)
      expect += data(n * row); /* (read by two rows) */
    using team_t = Kokkos::TeamPolicy<>::member_type;
    using scratch_t = Kokkos::View<int *, Kokkos::DefaultExecutionSpace::scratch_memory_space,
                                   Kokkos::MemoryUnmanaged>;
    Kokkos::parallel_for(
        "rows", Kokkos::TeamPolicy<>(nteams, 1).set_scratch_size(0, Kokkos::PerTeam(8192)),
        KOKKOS_LAMBDA(const team_t &team) {
          const int n = team.league_rank();
          scratch_t l(team.team_scratch(0), row + 1);
          for (int j = team.team_rank(); j <= row; j += team.team_size())
            l(j) = data(n * row + j);
          team.team_barrier();
          Kokkos::single(Kokkos::PerTeam(team), [&]() {
            long s = 0;
            for (int j = 0; j <= row; j++)
              s += l(j);
            sums(n) = s;
          });
        });
    Kokkos::parallel_for(
        "double", Kokkos::TeamPolicy<>(nteams, 1), KOKKOS_LAMBDA(const team_t &team) {
          const int n = team.league_rank();
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, row),
                               [&](const int j) { data(n * row + j) *= 2; });
        });
    Kokkos::fence();
    long total = 0, doubled = 0;
    for (int n = 0; n < nteams; n++)
      total += sums(n);
    for (int i = 0; i < row * nteams; i += 4099)
      doubled += data(i) % 2;
    if (total != expect || doubled != 0) {
      printf("wrong: %ld %ld %ld\n", total, expect, doubled);
      return 1;
    }
    printf("%ld\n", total);
  }
  Kokkos::finalize();
  return 0;
}
