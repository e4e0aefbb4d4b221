// An `Atomic` View of int, filled by deep_copy (one record for all its
// words, kept as a run), then read by column: team i sums column i with a
// nested reduction, each element an atomic read of a thread of its own, so
// that two teams read the two halves of every word.  Its chunks become
// half-cells at the first of these reads.  Team 5 also writes an element
// of column 6 plainly: it races with team 6's atomic read of it, which
// comes later in the same kernel.  After a fence, the host writes one
// element while a second kernel, not fenced, reads that column.
// EXPECT: data-race view=r subkind=iteration-overlap nodes=parallel_for:columns,parallel_for:columns atomic=0,1 lines=31,28
// EXPECT: data-race view=r subkind=missing-fence nodes=host,parallel_for:again atomic=0,1 lines=44,41
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int rows = 64, cols = 20000; /* 5 MB: several chunks */
    Kokkos::View<int **, Kokkos::MemoryTraits<Kokkos::Atomic>> r("r", rows, cols);
    Kokkos::View<int **> p(r.data(), rows, cols);
    Kokkos::View<long *> sums("sums", cols);
    Kokkos::deep_copy(r, 1);
    using team_t = Kokkos::TeamPolicy<>::member_type;
    Kokkos::parallel_for(
        "columns", Kokkos::TeamPolicy<>(cols, Kokkos::AUTO), KOKKOS_LAMBDA(const team_t &team) {
          const int i = team.league_rank();
          long s = 0;
          Kokkos::parallel_reduce(
              Kokkos::TeamThreadRange(team, rows), [&](const int k, long &t) { t += r(k, i); }, s);
          Kokkos::single(Kokkos::PerTeam(team), [&]() {
            if (i == 5)
              p(rows / 2, 6) = 2;
            sums(i) = s;
          });
        });
    Kokkos::fence();
    Kokkos::parallel_for(
        "again", Kokkos::TeamPolicy<>(cols, Kokkos::AUTO), KOKKOS_LAMBDA(const team_t &team) {
          const int i = team.league_rank();
          long s = 0;
          Kokkos::parallel_reduce(
              Kokkos::TeamThreadRange(team, rows), [&](const int k, long &t) { t += r(k, i); }, s);
          Kokkos::single(Kokkos::PerTeam(team), [&]() { sums(i) = s; });
        });
    p(3, 7) = 4;
    Kokkos::fence();
    long total = 0;
    for (int i = 0; i < cols; i += 100)
      total += sums(i);
    printf("%ld\n", total);
  }
  Kokkos::finalize();
  return 0;
}
