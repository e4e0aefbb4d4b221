// A team's single(PerTeam) begun inline, as its nested iterations are: it
// is a thread of the team of its own, unordered with the others in the
// same phase.  A nested iteration's write and the single's read of the
// same element race; the single's write and the next phase's reads do not
// (a barrier between), nor the single's own read and write.
// EXPECT: data-race view=x subkind=team-threads nodes=parallel_for:rows,parallel_for:rows lines=26,30 ops=write,read
// EXPECT-TEXT: by parallel_for 'rows' team 0, in a single:
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int league = 64, m = 10;
    Kokkos::View<double *> x("x", league * m), y("y", league), z("z", league);
    using member = Kokkos::TeamPolicy<>::member_type;
    Kokkos::parallel_for("rows", Kokkos::TeamPolicy<>(league, Kokkos::AUTO),
                         KOKKOS_LAMBDA(const member &t) {
      const int r = t.league_rank();
      Kokkos::single(Kokkos::PerTeam(t), [&]() {
        y(r) = 1.0;
        y(r) += 2.0;
      });
      t.team_barrier();
      Kokkos::parallel_for(Kokkos::TeamThreadRange(t, m), [&](const int k) {
        x(r * m + k) = y(r) + k;
      });
      // No barrier: the single reads what the iterations wrote.
      Kokkos::single(Kokkos::PerTeam(t), [&]() {
        z(r) = x(r * m + 3);
      });
    });
    Kokkos::fence();
    printf("%g %g\n", y(5), z(5));
  }
  Kokkos::finalize();
  return 0;
}
