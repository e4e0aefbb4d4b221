// An `Atomic` View of int, filled by deep_copy (one record for all its
// words, kept as a run), then read by column: team i sums column i with a
// nested reduction, each element an atomic read of a thread of its own, so
// that two teams read the two halves of every word (decided in half-cells
// made from the fill's run).  A second kernel, ordered after the first on
// the same instance, increments every element plainly, one row per
// iteration; the host reads the sums and the array after a fence: no
// report, and the sums are the fill's.
// EXPECT: no-report
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
          Kokkos::single(Kokkos::PerTeam(team), [&]() { sums(i) = s; });
        });
    Kokkos::parallel_for(
        "bump", rows, KOKKOS_LAMBDA(const int k) {
          for (int i = 0; i < cols; i++)
            p(k, i) += 1;
        });
    Kokkos::fence();
    long total = 0, cells = 0;
    for (int i = 0; i < cols; i++)
      total += sums(i);
    for (int k = 0; k < rows; k += 7)
      cells += p(k, k * 13);
    if (total != (long)rows * cols || cells != 2 * ((rows + 6) / 7)) {
      printf("wrong: %ld %ld\n", total, cells);
      return 1;
    }
    printf("%ld %ld\n", total, cells);
  }
  Kokkos::finalize();
  return 0;
}
