// Vector lanes on thread scratch: a thread's scratch (thread_scratch) is
// its own, but the lanes of one of its ThreadVectorRange loops run at the
// same time, and share it.  Lanes that add into one scratch entry race;
// so do lanes that write an entry a sibling lane reads.
// EXPECT: data-race view=Kokkos::Serial::scratch_mem subkind=team-threads nodes=parallel_for:lane_sum,parallel_for:lane_sum lines=31,31
// EXPECT: data-race view=Kokkos::Serial::scratch_mem subkind=team-threads nodes=parallel_for:lane_shift,parallel_for:lane_shift lines=43,43
// EXPECT-TEXT: vector lane 1:
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
    Kokkos::TeamPolicy<> pol(rows / 8, Kokkos::AUTO, 4);
    pol.set_scratch_size(0, Kokkos::PerThread(scratch_view::shmem_size(k + 1)));
    Kokkos::parallel_for("lane_sum", pol, KOKKOS_LAMBDA(const team_t &t) {
      scratch_view tmp(t.thread_scratch(0), k + 1);
      Kokkos::parallel_for(Kokkos::TeamThreadRange(t, 8), [&](int lr) {
        const int r = t.league_rank() * 8 + lr;
        Kokkos::single(Kokkos::PerThread(t), [&]() { tmp(k) = 0; });
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(t, k), [&](int j) {
          tmp(k) += a(r, j);
        });
        Kokkos::single(Kokkos::PerThread(t), [&]() { out(r) = tmp(k); });
      });
    });
    Kokkos::parallel_for("lane_shift", pol, KOKKOS_LAMBDA(const team_t &t) {
      scratch_view tmp(t.thread_scratch(0), k + 1);
      Kokkos::parallel_for(Kokkos::TeamThreadRange(t, 8), [&](int lr) {
        const int r = t.league_rank() * 8 + lr;
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(t, k),
                             [&](int j) { tmp(j) = a(r, j); });
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(t, k - 1),
                             [&](int j) { tmp(j) = tmp(j + 1); });
        out2(r) = tmp(0);
      });
    });
    Kokkos::fence();
    printf("%g %g\n", out(5), out2(5));
  }
  Kokkos::finalize();
  return 0;
}
