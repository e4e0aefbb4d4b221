// The same team code done right: a team_barrier between writing the
// scratch tile and reading neighbours, a nested reduction instead of
// accumulating into one element, a single with a broadcast value (a team
// meeting), a barrier after a single that writes memory, ThreadVectorRange
// lanes writing their own elements, and team_broadcast.
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
    const int teams = 4, n = 8, lanes = 4;
    Kokkos::View<double *> x("x", teams * n), sum("sum", teams), scale("scale", teams);
    Kokkos::View<double **> y("y", teams * n, lanes);
    Kokkos::parallel_for(
        "tiles",
        policy(teams, Kokkos::AUTO).set_scratch_size(0, Kokkos::PerTeam(scratch_view::shmem_size(n))),
        KOKKOS_LAMBDA(const member &m) {
          const int t = m.league_rank();
          scratch_view s(m.team_scratch(0), n);
          Kokkos::parallel_for(Kokkos::TeamThreadRange(m, n), [&](int j) {
            s(j) = x(t * n + j);
          });
          m.team_barrier();
          double total = 0;
          Kokkos::parallel_reduce(Kokkos::TeamThreadRange(m, n), [&](int j, double &acc) {
            x(t * n + j) = s((j + 1) % n);
            acc += s(j);
          }, total);
          double factor = 0;
          Kokkos::single(Kokkos::PerTeam(m), [&](double &f) { f = 2.0; sum(t) = total; }, factor);
          Kokkos::single(Kokkos::PerTeam(m), [&]() { scale(t) = factor; });
          m.team_barrier();
          Kokkos::parallel_for(Kokkos::TeamThreadRange(m, n), [&](int j) {
            x(t * n + j) *= scale(t);
            Kokkos::parallel_for(Kokkos::ThreadVectorRange(m, lanes), [&](int l) {
              y(t * n + j, l) = x(t * n + j) * l;
            });
          });
          int root = t;
          m.team_broadcast(root, 0);
          Kokkos::single(Kokkos::PerTeam(m), [&]() { scale(t) += root; });
        });
    Kokkos::fence();
    printf("%g %g %g\n", sum(1), x(3), y(3, 2));
  }
  Kokkos::finalize();
  return 0;
}
