// The twin of thread_scratch_lanes_race: each lane of a thread's vector
// loop writes its own entry of the thread's scratch, a vector reduction
// sums them, and the next loop (ordered after the first: a thread's loops
// follow one another) reads a neighbour's entry.  Every TeamThreadRange
// iteration reuses the same scratch: the iterations one thread runs follow
// one another.
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
    Kokkos::deep_copy(a, 1.0);
    Kokkos::TeamPolicy<> pol(rows / 8, Kokkos::AUTO, 4);
    pol.set_scratch_size(0, Kokkos::PerThread(2 * scratch_view::shmem_size(k + 1)));
    Kokkos::parallel_for("lane_sum", pol, KOKKOS_LAMBDA(const team_t &t) {
      scratch_view tmp(t.thread_scratch(0), k + 1);
      Kokkos::parallel_for(Kokkos::TeamThreadRange(t, 8), [&](int lr) {
        const int r = t.league_rank() * 8 + lr;
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(t, k),
                             [&](int j) { tmp(j) = 2.0 * a(r, j); });
        double s = 0;
        Kokkos::parallel_reduce(Kokkos::ThreadVectorRange(t, k),
                                [&](int j, double &acc) { acc += tmp(j); }, s);
        Kokkos::single(Kokkos::PerThread(t), [&]() { out(r) = s; });
      });
    });
    Kokkos::parallel_for("lane_shift", pol, KOKKOS_LAMBDA(const team_t &t) {
      scratch_view tmp(t.thread_scratch(0), k + 1);
      scratch_view nxt(t.thread_scratch(0), k + 1);
      Kokkos::parallel_for(Kokkos::TeamThreadRange(t, 8), [&](int lr) {
        const int r = t.league_rank() * 8 + lr;
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(t, k),
                             [&](int j) { tmp(j) = a(r, j); });
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(t, k - 1),
                             [&](int j) { nxt(j) = tmp(j + 1) + tmp(j); });
        out2(r) = nxt(0);
      });
    });
    Kokkos::fence();
    printf("%g %g\n", out(5), out2(5));
  }
  Kokkos::finalize();
  return 0;
}
