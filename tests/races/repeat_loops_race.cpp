// Loops inside a kernel's iteration that repeat the same accesses (a
// benchmark's inner repeat, a sweep made several times) are checked on
// their first iteration only: the later ones would find the strand's own
// records.  What races is still found -- vector loops of two team threads
// writing one row, repeated; iterations of a RangePolicy each sweeping one
// shared array several times -- and a loop whose later iterations do
// something else is checked on every iteration: a write on every third
// one only, and vector lanes whose elements move with the repeat (thread j's
// lanes reach thread j + 1's first element from the second repeat on).  So
// is a loop of a team's nested iterations: the same threads come back in
// each repeat, and a later repeat meets what the first could not (three
// threads writing one element at three lines: the third pair).
// EXPECT: data-race view=rows subkind=team-threads nodes=parallel_for:vector_repeat,parallel_for:vector_repeat lines=45,45
// EXPECT: data-race view=acc subkind=iteration-overlap nodes=parallel_for:sweep_repeat,parallel_for:sweep_repeat lines=54,54
// EXPECT: data-race view=last subkind=iteration-overlap nodes=parallel_for:last_repeat,parallel_for:last_repeat lines=63,63
// EXPECT: data-race view=moving subkind=team-threads nodes=parallel_for:moving_repeat,parallel_for:moving_repeat lines=73,73
// EXPECT: data-race view=three subkind=team-threads nodes=parallel_for:team_repeat,parallel_for:team_repeat lines=82,83
// EXPECT: data-race view=three subkind=team-threads nodes=parallel_for:team_repeat,parallel_for:team_repeat lines=83,84
// EXPECT: data-race view=three subkind=team-threads nodes=parallel_for:team_repeat,parallel_for:team_repeat lines=84,82
#include <Kokkos_Core.hpp>
#include <cstdio>

using policy = Kokkos::TeamPolicy<>;
using member = policy::member_type;

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    // (Counts the compiler cannot see, so that it unrolls none of the loops.)
    const int teams = 2, threads = argc > 5 ? 1 : 4, lanes = argc > 5 ? 1 : 8;
    const int n = argc > 5 ? 1 : 16, reps = argc > 5 ? 1 : 10;
    Kokkos::View<double **> rows("rows", teams * threads / 2, lanes);
    Kokkos::View<double *> acc("acc", n), last("last", 1);
    Kokkos::View<double **> own("own", 4, n);
    Kokkos::View<double **> moving("moving", teams, threads * lanes + reps);
    Kokkos::View<double *> three("three", 2 * n + 4);
    Kokkos::parallel_for(
        "vector_repeat", policy(teams, Kokkos::AUTO, lanes),
        KOKKOS_LAMBDA(const member &m) {
          const int t = m.league_rank();
          Kokkos::parallel_for(Kokkos::TeamThreadRange(m, threads), [&](int j) {
            const int row = (t * threads + j) / 2;
            for (int r = 0; r < reps; ++r)
              Kokkos::parallel_for(Kokkos::ThreadVectorRange(m, lanes), [&](int l) {
                rows(row, l) = l;
              });
          });
        });
    Kokkos::parallel_for(
        "sweep_repeat", Kokkos::RangePolicy<>(0, 4),
        KOKKOS_LAMBDA(const int i) {
          for (int r = 0; r < reps; ++r)
            for (int k = 0; k < n; ++k)
              acc(k) = acc(k) * 0.5 + i;
        });
    Kokkos::parallel_for(
        "last_repeat", Kokkos::RangePolicy<>(0, 4),
        KOKKOS_LAMBDA(const int i) {
          for (int r = 0; r < reps; ++r) {
            for (int k = 0; k < n; ++k)
              own(i, k) = own(i, k) * 0.5 + 1;
            if (r % 3 == 2)
              last(0) = i;
          }
        });
    Kokkos::parallel_for(
        "moving_repeat", policy(teams, Kokkos::AUTO, lanes),
        KOKKOS_LAMBDA(const member &m) {
          const int t = m.league_rank();
          Kokkos::parallel_for(Kokkos::TeamThreadRange(m, threads), [&](int j) {
            for (int r = 0; r < reps; ++r)
              Kokkos::parallel_for(Kokkos::ThreadVectorRange(m, lanes), [&](int l) {
                moving(t, j * lanes + l + r) = l;
              });
          });
        });
    Kokkos::parallel_for(
        "team_repeat", policy(1, Kokkos::AUTO),
        KOKKOS_LAMBDA(const member &m) {
          for (int r = 0; r < reps; ++r)
            Kokkos::parallel_for(Kokkos::TeamThreadRange(m, n), [&](int i) {
              three(2 * i) = 1;
              three(2 * i + 2) = 2;
              three(2 * i + 4) = 3;
            });
        });
    Kokkos::fence();
    printf("%g %g %g %g %g %g\n", rows(0, 1), acc(1), own(0, 1), last(0), moving(0, 1),
           three(2));
  }
  Kokkos::finalize();
  return 0;
}
