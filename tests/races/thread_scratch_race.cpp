// The twin of thread_scratch_norace: a temporary in team scratch
// (team_scratch) is the team's, one for all its threads, so that the
// TeamThreadRange iterations that reuse it race; so does one made from
// team_scratch after thread_scratch (the space hands out team memory
// again).
// EXPECT: data-race view=Kokkos::Serial::scratch_mem subkind=team-threads nodes=parallel_for:shared_tmp,parallel_for:shared_tmp lines=31,31
// EXPECT: data-race view=Kokkos::Serial::scratch_mem subkind=team-threads nodes=parallel_for:switched,parallel_for:switched lines=43,43
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
    Kokkos::deep_copy(a, 1.0);
    Kokkos::TeamPolicy<> pol(rows / 8, Kokkos::AUTO);
    pol.set_scratch_size(0, Kokkos::PerTeam(scratch_view::shmem_size(k)),
                         Kokkos::PerThread(scratch_view::shmem_size(k)));
    Kokkos::parallel_for("shared_tmp", pol, KOKKOS_LAMBDA(const team_t &t) {
      scratch_view tmp(t.team_scratch(0), k);
      Kokkos::parallel_for(Kokkos::TeamThreadRange(t, 8), [&](int lr) {
        const int r = t.league_rank() * 8 + lr;
        for (int j = 0; j < k; ++j)
          tmp(j) = 2.0 * a(r, j);
        out(r) = a(r, 0);
      });
    });
    Kokkos::parallel_for("switched", pol, KOKKOS_LAMBDA(const team_t &t) {
      scratch_view mine(t.thread_scratch(0), k);
      scratch_view shared(t.team_scratch(0), k);
      Kokkos::parallel_for(Kokkos::TeamThreadRange(t, 8), [&](int lr) {
        const int r = t.league_rank() * 8 + lr;
        for (int j = 0; j < k; ++j)
          mine(j) = a(r, j);
        for (int j = 0; j < k; ++j)
          shared(j) = 2.0 * a(r, j);
        out2(r) = mine(0);
      });
    });
    Kokkos::fence();
    printf("%g %g\n", out(5), out2(5));
  }
  Kokkos::finalize();
  return 0;
}
