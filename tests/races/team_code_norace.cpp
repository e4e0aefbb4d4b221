// Writes of a team's own code that one thread makes, or that each thread
// makes to its own memory: under a branch on team_rank() (and after an early
// return of the other threads), in a single(PerTeam), to an element indexed
// by the thread's rank, to thread scratch, to the thread's own locals; the
// team's atomics.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

using policy = Kokkos::TeamPolicy<>;
using member = policy::member_type;
using scratch_t = Kokkos::View<double *, Kokkos::DefaultExecutionSpace::scratch_memory_space,
                               Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int N = 4, M = 16, T = 64;
    Kokkos::View<double *> y("y", N), z("z", N), w("w", N), u("u", N), v("v", N);
    Kokkos::View<double *> part("part", N * T);
    Kokkos::parallel_for(
        "rows",
        policy(N, Kokkos::AUTO)
            .set_scratch_size(0, Kokkos::PerTeam(scratch_t::shmem_size(T)),
                              Kokkos::PerThread(scratch_t::shmem_size(M))),
        KOKKOS_LAMBDA(const member &team) {
          const int row = team.league_rank();
          scratch_t shared(team.team_scratch(0), T);
          scratch_t mine(team.thread_scratch(0), M);
          shared(team.team_rank()) = row;
          part(row * T + team.team_rank()) = 1.0;
          for (int j = 0; j < M; ++j) mine(j) = j;
          team.team_barrier();
          double sum = 0;
          Kokkos::parallel_reduce(
              Kokkos::TeamThreadRange(team, M), [&](int j, double &s) { s += j + shared(0); }, sum);
          sum += mine(3);
          if (team.team_rank() == 0)
            y(row) = sum;
          Kokkos::single(Kokkos::PerTeam(team), [&]() { z(row) = sum; });
          Kokkos::atomic_add(&w(row), 1.0);
          const int r = team.team_rank();
          if (r != 0)
            return;
          u(row) = 2 * sum;
          v(row) = u(row) + 1;
        });
    Kokkos::fence();
    printf("%g %g %g %g %g\n", y(1), z(1), w(1), u(1), v(1));
  }
  Kokkos::finalize();
  return 0;
}
