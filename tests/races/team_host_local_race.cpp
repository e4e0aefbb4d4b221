// TeamPolicy: a host variable captured by reference, counted into by one
// thread of every team: the teams are unordered, so it races.
// EXPECT: data-race view=- subkind=iteration-overlap nodes=parallel_for:count,parallel_for:count lines=17,17
// EXPECT-TEXT: a variable on the stack of main thread
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    using team_t = Kokkos::TeamPolicy<>::member_type;
    int count = 0;
    Kokkos::parallel_for(
        "count", Kokkos::TeamPolicy<>(8, Kokkos::AUTO),
        [&](const team_t &team) {
          Kokkos::single(Kokkos::PerTeam(team), [&]() {
            count += 1;
          });
        });
    Kokkos::fence();
    printf("%d\n", count);
  }
  Kokkos::finalize();
  return 0;
}
