// Every thread of a team runs the team's own code (outside its nested
// loops), where Serial runs one: a write there is made by each thread of the
// team.  The team's result written from every thread (use single(PerTeam)
// or a branch on team_rank()), accumulated from every thread (counted once
// per thread, and racing), a team scratch array that every thread fills
// whole (a nested TeamThreadRange loop splits it), and a host variable
// captured by reference that every thread counts into.
// EXPECT: data-race view=y subkind=team-threads nodes=parallel_for:rows,parallel_for:rows lines=36,36
// EXPECT: data-race view=total subkind=team-threads nodes=parallel_for:rows,parallel_for:rows lines=37,37
// EXPECT: data-race view=Kokkos::Serial::scratch_mem subkind=team-threads nodes=parallel_for:rows,parallel_for:rows lines=32,32
// EXPECT: data-race view=- subkind=team-threads nodes=parallel_for:count,parallel_for:count lines=41,41
// EXPECT-TEXT: by parallel_for 'rows' team 0, another of its threads
// EXPECT-TEXT: Every thread of a team runs the team's own code
#include <Kokkos_Core.hpp>
#include <cstdio>

using policy = Kokkos::TeamPolicy<>;
using member = policy::member_type;
using scratch_t = Kokkos::View<double *, Kokkos::DefaultExecutionSpace::scratch_memory_space,
                               Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int N = 4, M = 16;
    Kokkos::View<double *> y("y", N), total("total", N);
    Kokkos::parallel_for(
        "rows", policy(N, Kokkos::AUTO).set_scratch_size(0, Kokkos::PerTeam(scratch_t::shmem_size(M))),
        KOKKOS_LAMBDA(const member &team) {
          const int row = team.league_rank();
          scratch_t tmp(team.team_scratch(0), M);
          for (int j = 0; j < M; ++j) tmp(j) = row + j;
          team.team_barrier();
          double sum = 0;
          Kokkos::parallel_reduce(Kokkos::TeamThreadRange(team, M), [&](int j, double &s) { s += tmp(j); }, sum);
          y(row) = sum;
          total(row) += sum;
        });
    int calls = 0;
    Kokkos::parallel_for("count", policy(1, Kokkos::AUTO), [&](const member &) {
      calls += 1;
    });
    Kokkos::fence();
    printf("%g %g %d\n", y(1), total(1), calls);
  }
  Kokkos::finalize();
  return 0;
}
