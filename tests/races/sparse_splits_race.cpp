// An array of int that the host fills one element at a time (cells), read
// by a TeamPolicy kernel in rows of 1,025 elements (copied to team
// scratch), each overlapping the next team's row by one element: one word
// in 512 is split by two teams, and each MiB of the array becomes compact
// halves at its first split.
// Team 300 also writes an element of team 301's row plainly, which team
// 301 reads later in the same kernel; the host then writes an element of
// row 600 while the kernel may still run.
// EXPECT: data-race view=data subkind=iteration-overlap nodes=parallel_for:rows,parallel_for:rows lines=41,33
// EXPECT: data-race view=data subkind=missing-fence nodes=host,parallel_for:rows lines=44,33
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
    for (int i = 0; i < row * nteams + 1; i++)
      data(i) = rand() % 16;
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
            if (n == 300)
              data(301 * row + 5) = -1;
          });
        });
    data(600 * row + 9) = 3;
    Kokkos::fence();
    printf("%ld\n", sums(0));
  }
  Kokkos::finalize();
  return 0;
}
