// Per-thread team scratch (thread_scratch): each thread of a team has its
// own, and the nested iterations that one thread runs follow one another,
// so a temporary in it, reused by every TeamThreadRange iteration, is
// race-free.  Made at the team's level, or inside the nested loop (then
// Kokkos' own scratch bookkeeping, set_team_thread_mode, runs in each
// iteration) with a team parallel_scan after it.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

using team_t = Kokkos::TeamPolicy<>::member_type;
using scratch_view =
    Kokkos::View<double *, Kokkos::DefaultExecutionSpace::scratch_memory_space,
                 Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int rows = 64, k = argc > 100 ? 1 : 16; // (not unrolled)
    Kokkos::View<double **> a("a", rows, k);
    Kokkos::View<double *> out("out", rows), out2("out2", rows);
    Kokkos::View<int *> off("off", rows);
    Kokkos::deep_copy(a, 1.0);
    Kokkos::TeamPolicy<> pol(rows / 8, Kokkos::AUTO);
    pol.set_scratch_size(0, Kokkos::PerThread(8 * scratch_view::shmem_size(k)));
    Kokkos::parallel_for("rows", pol, KOKKOS_LAMBDA(const team_t &t) {
      scratch_view tmp(t.thread_scratch(0), k);
      Kokkos::parallel_for(Kokkos::TeamThreadRange(t, 8), [&](int lr) {
        const int r = t.league_rank() * 8 + lr;
        for (int j = 0; j < k; ++j)
          tmp(j) = 2.0 * a(r, j);
        double s = 0;
        for (int j = 0; j < k; ++j)
          s += tmp(j);
        out(r) = s;
      });
    });
    Kokkos::parallel_for("rows_inner", pol, KOKKOS_LAMBDA(const team_t &t) {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(t, 8), [&](int lr) {
        scratch_view tmp(t.thread_scratch(0), k);
        const int r = t.league_rank() * 8 + lr;
        for (int j = 0; j < k; ++j)
          tmp(j) = a(r, j) + 1;
        double s = 0;
        for (int j = 0; j < k; ++j)
          s += tmp(j);
        out2(r) = s;
      });
      Kokkos::parallel_scan(Kokkos::TeamThreadRange(t, 8), [&](int lr, int &upd, bool fin) {
        if (fin)
          off(t.league_rank() * 8 + lr) = upd;
        upd += 1;
      });
    });
    Kokkos::fence();
    printf("%g %g %d\n", out(5), out2(5), off(9));
  }
  Kokkos::finalize();
  return 0;
}
