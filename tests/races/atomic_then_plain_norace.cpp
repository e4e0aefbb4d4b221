// The twin of atomic_then_plain_race: atomic updates of one element by
// several strands, then plain accesses that are ordered after all of them
// -- the next kernel, the team's code after a team barrier, a thread's
// code after its vector loop -- or of elements that one strand alone
// updates atomically; and a strand's plain write of one short and atomic
// add to its neighbour in the same 4 bytes, which stay apart, so that
// another strand's atomic add to the neighbour does not race with it.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

using member = Kokkos::TeamPolicy<>::member_type;

struct Pair16 {
  short plain;
  short counted;
  int pad;
};

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 1000, league = 4;
    Kokkos::View<int *> count("count", 1), bins("bins", 16), key("key", n),
        own("own", n), seen("seen", n), team_sum("team_sum", league),
        lane_sum("lane_sum", league * 8);
    Kokkos::View<Pair16 *> pairs("pairs", 1);
    Kokkos::parallel_for("keys", n, KOKKOS_LAMBDA(const int i) { key(i) = i % 16; });
    Kokkos::fence();
    Kokkos::parallel_for("count", n, KOKKOS_LAMBDA(const int i) {
      Kokkos::atomic_add(&count(0), 1);
      Kokkos::atomic_add(&bins(key(i)), 1);
      Kokkos::atomic_add(&own(i), 1);
      seen(i) = own(i);
    });
    Kokkos::parallel_for("read", n, KOKKOS_LAMBDA(const int i) {
      seen(i) += count(0) + bins(key(i));
    });
    Kokkos::parallel_for("pair", 2, KOKKOS_LAMBDA(const int i) {
      if (i == 0)
        pairs(0).plain = 1;
      Kokkos::atomic_add(&pairs(0).counted, (short)1);
    });
    Kokkos::parallel_for("reset", 16, KOKKOS_LAMBDA(const int b) { bins(b) = 0; });
    Kokkos::parallel_for(
        "team", Kokkos::TeamPolicy<>(league, Kokkos::AUTO, 4), KOKKOS_LAMBDA(const member &t) {
          const int l = t.league_rank();
          Kokkos::parallel_for(Kokkos::TeamThreadRange(t, 8), [&](const int k) {
            Kokkos::atomic_add(&team_sum(l), k);
            Kokkos::parallel_for(Kokkos::ThreadVectorRange(t, 4), [&](const int v) {
              Kokkos::atomic_add(&lane_sum(l * 8 + k), v);
            });
            Kokkos::single(Kokkos::PerThread(t), [&]() { lane_sum(l * 8 + k) += 1; });
          });
          t.team_barrier();
          Kokkos::single(Kokkos::PerTeam(t), [&]() { team_sum(l) += 1; });
        });
    Kokkos::fence();
    printf("%d %d %d %d %d\n", count(0), seen(0), team_sum(0), lane_sum(0), pairs(0).counted);
  }
  Kokkos::finalize();
  return 0;
}
