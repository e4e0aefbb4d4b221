// The same tiles as team_phases_norace without the first team_barrier: a
// thread reads its neighbour's scratch element, which another thread of
// the team writes, with nothing between them.  After the barrier that
// remains, every team's single writes one shared element: the barrier
// orders a team's own threads, never two teams.
// EXPECT: data-race view=Kokkos::Serial::scratch_mem subkind=team-threads nodes=parallel_for:tiles,parallel_for:tiles lines=33,30 ops=read,write
// EXPECT: data-race view=total subkind=iteration-overlap nodes=parallel_for:tiles,parallel_for:tiles lines=36,36 ops=write,write
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
    const int teams = 200, n = 64;
    Kokkos::View<double *> x("x", teams * n), y("y", teams * n), total("total", 1);
    Kokkos::parallel_for("fill", teams * n, KOKKOS_LAMBDA(int i) { x(i) = i % 7; });
    Kokkos::parallel_for(
        "tiles",
        policy(teams, Kokkos::AUTO).set_scratch_size(0, Kokkos::PerTeam(scratch_view::shmem_size(n))),
        KOKKOS_LAMBDA(const member &m) {
          const int t = m.league_rank();
          scratch_view s(m.team_scratch(0), n);
          Kokkos::parallel_for(Kokkos::TeamThreadRange(m, n), [&](int j) {
            s(j) = x(t * n + j);
          });
          Kokkos::parallel_for(Kokkos::TeamThreadRange(m, n), [&](int j) {
            y(t * n + j) = s(j) + s((j + 1) % n);
          });
          m.team_barrier();
          Kokkos::single(Kokkos::PerTeam(m), [&]() { total(0) = y(t * n); });
        });
    Kokkos::fence();
    printf("%g %g\n", y(5), total(0));
  }
  Kokkos::finalize();
  return 0;
}
