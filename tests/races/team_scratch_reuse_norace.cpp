// Team scratch at levels 0 and 1, per team and per thread: a host backend
// hands the same scratch bytes to every team in turn (and to the next
// kernel), but logically each team has its own scratch: never a race.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

using policy = Kokkos::TeamPolicy<>;
using member = policy::member_type;
using scratch_view =
    Kokkos::View<double *, Kokkos::DefaultExecutionSpace::scratch_memory_space,
                 Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    Kokkos::View<double *> out("out", 16), out2("out2", 16);
    const size_t bytes = scratch_view::shmem_size(8);
    Kokkos::parallel_for(
        "scratch",
        policy(16, Kokkos::AUTO)
            .set_scratch_size(0, Kokkos::PerTeam(bytes))
            .set_scratch_size(1, Kokkos::PerTeam(bytes), Kokkos::PerThread(bytes)),
        KOKKOS_LAMBDA(const member &m) {
          scratch_view s0(m.team_scratch(0), 8);
          scratch_view s1(m.team_scratch(1), 8);
          scratch_view p(m.thread_scratch(1), 8);
          Kokkos::parallel_for(Kokkos::TeamThreadRange(m, 8), [&](int j) {
            s0(j) = j * m.league_rank();
            s1(j) = j;
          });
          m.team_barrier();
          double t = 0;
          Kokkos::parallel_reduce(
              Kokkos::TeamThreadRange(m, 8),
              [&](int j, double &v) { v += s0(7 - j) + s1(j); }, t);
          Kokkos::single(Kokkos::PerThread(m), [&]() { p(0) = t; });
          Kokkos::single(Kokkos::PerTeam(m), [&]() { out(m.league_rank()) = t; });
        });
    Kokkos::parallel_for(
        "scratch_again", policy(16, Kokkos::AUTO).set_scratch_size(0, Kokkos::PerTeam(bytes)),
        KOKKOS_LAMBDA(const member &m) {
          scratch_view s0(m.team_scratch(0), 8);
          Kokkos::single(Kokkos::PerTeam(m), [&]() {
            s0(0) = out(m.league_rank());
            out2(m.league_rank()) = 2 * s0(0);
          });
        });
    Kokkos::fence();
    printf("%g\n", out2(3));
  }
  Kokkos::finalize();
  return 0;
}
