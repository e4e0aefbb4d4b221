// Many teams, each staging its tile in team scratch: the team's threads
// write the tile, meet at a team_barrier, then read their neighbours'
// elements (and the tile's last one, through a single) and write the
// result.  The barrier orders the two phases of each team; every team
// has scratch of its own although a host backend hands all of them the
// same bytes; a second kernel does it again.  No race.
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
    const int teams = 200, n = 64;
    Kokkos::View<double *> x("x", teams * n), y("y", teams * n), last("last", teams);
    Kokkos::parallel_for("fill", teams * n, KOKKOS_LAMBDA(int i) { x(i) = i % 7; });
    for (int step = 0; step < 2; ++step)
      Kokkos::parallel_for(
          "tiles",
          policy(teams, Kokkos::AUTO).set_scratch_size(0, Kokkos::PerTeam(scratch_view::shmem_size(n))),
          KOKKOS_LAMBDA(const member &m) {
            const int t = m.league_rank();
            scratch_view s(m.team_scratch(0), n);
            Kokkos::parallel_for(Kokkos::TeamThreadRange(m, n), [&](int j) { s(j) = x(t * n + j); });
            m.team_barrier();
            Kokkos::parallel_for(Kokkos::TeamThreadRange(m, n), [&](int j) {
              y(t * n + j) = s(j) + s((j + 1) % n);
            });
            Kokkos::single(Kokkos::PerTeam(m), [&]() { last(t) = s(n - 1); });
            m.team_barrier();
            Kokkos::parallel_for(Kokkos::TeamThreadRange(m, n), [&](int j) { s(j) = 0; });
          });
    Kokkos::fence();
    printf("%g %g\n", y(5), last(3));
  }
  Kokkos::finalize();
  return 0;
}
