// The threads of one team, as the graph sees them even on Serial (one
// thread per team): nested TeamThreadRange iterations write team scratch
// and read their neighbours' elements with no team_barrier in between;
// every iteration accumulates into one element of a View; and a single
// writes what the nested loop then reads, with no barrier either.
// EXPECT: data-race view=Kokkos::Serial::scratch_mem subkind=team-threads nodes=parallel_for:tiles,parallel_for:tiles lines=30,31
// EXPECT: data-race view=sum subkind=team-threads nodes=parallel_for:tiles,parallel_for:tiles lines=32,32
// EXPECT: data-race view=scale subkind=team-threads nodes=parallel_for:tiles,parallel_for:tiles lines=34,36
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
    const int teams = 4, n = 8;
    Kokkos::View<double *> x("x", teams * n), sum("sum", teams), scale("scale", teams);
    Kokkos::parallel_for(
        "tiles",
        policy(teams, Kokkos::AUTO).set_scratch_size(0, Kokkos::PerTeam(scratch_view::shmem_size(n))),
        KOKKOS_LAMBDA(const member &m) {
          const int t = m.league_rank();
          scratch_view s(m.team_scratch(0), n);
          Kokkos::parallel_for(Kokkos::TeamThreadRange(m, n), [&](int j) {
            s(j) = x(t * n + j);
            x(t * n + j) = s((j + 1) % n);
            sum(t) += s(j);
          });
          Kokkos::single(Kokkos::PerTeam(m), [&]() { scale(t) = 2.0; });
          Kokkos::parallel_for(Kokkos::TeamThreadRange(m, n), [&](int j) {
            x(t * n + j) *= scale(t);
          });
        });
    Kokkos::fence();
    printf("%g %g\n", sum(1), x(3));
  }
  Kokkos::finalize();
  return 0;
}
