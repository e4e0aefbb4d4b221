// Nested MD ranges (Kokkos 4): all the iterations of a TeamThreadMDRange,
// ThreadVectorMDRange or TeamVectorMDRange are unordered, whichever index
// they differ in.  Kokkos' host backends hand one index to the team's
// threads (or lanes) and loop over the others inside, so that iterations
// differing only in those run in order there: on a GPU they do not.  Each
// kernel below races between iterations that differ in an inner index only.
// REQUIRES: kokkos4
// EXPECT: data-race view=a subkind=team-threads nodes=parallel_for:md2,parallel_for:md2 lines=34,34
// EXPECT: data-race view=b subkind=team-threads nodes=parallel_for:md3,parallel_for:md3 lines=39,39
// EXPECT: data-race view=c subkind=team-threads nodes=parallel_for:lanes,parallel_for:lanes lines=45,45
// EXPECT: data-race view=d subkind=team-threads nodes=parallel_for:teamvec,parallel_for:teamvec lines=51,51
// EXPECT: data-race view=e subkind=team-threads nodes=parallel_for:md4,parallel_for:md4 lines=56,56
// EXPECT-TEXT: by parallel_for 'md2' team 0, nested iteration (0, 1):
// EXPECT-TEXT: by parallel_for 'md2' team 0, nested iteration (0, 0):
// EXPECT-TEXT: by parallel_for 'md3' team 0, nested iteration (0, 1, 0):
// EXPECT-TEXT: nested iteration 0, vector lane (0, 1):
// EXPECT-TEXT: by parallel_for 'md4' team 0, nested iteration (0, 0, 1, 0):
#include <Kokkos_Core.hpp>
#include <cstdio>

using policy = Kokkos::TeamPolicy<>;
using member = policy::member_type;
template <int R> using rank = Kokkos::Rank<R>;

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int teams = 2;
    Kokkos::View<double **> a("a", teams, 4), b("b", teams, 4), d("d", teams, 4), e("e", teams, 4);
    Kokkos::View<double ***> c("c", teams, 4, 4);
    Kokkos::parallel_for("md2", policy(teams, Kokkos::AUTO), KOKKOS_LAMBDA(const member &t) {
      const int r = t.league_rank();
      Kokkos::parallel_for(Kokkos::TeamThreadMDRange<rank<2>, member>(t, 4, 4),
                           [&](int i, int j) { a(r, i) += j; });
    });
    Kokkos::parallel_for("md3", policy(teams, Kokkos::AUTO), KOKKOS_LAMBDA(const member &t) {
      const int r = t.league_rank();
      Kokkos::parallel_for(Kokkos::TeamThreadMDRange<rank<3>, member>(t, 4, 2, 3),
                           [&](int i, int j, int k) { b(r, i) += j * (k + 1); });
    });
    Kokkos::parallel_for("lanes", policy(teams, Kokkos::AUTO), KOKKOS_LAMBDA(const member &t) {
      const int r = t.league_rank();
      Kokkos::parallel_for(Kokkos::TeamThreadRange(t, 4), [&](int i) {
        Kokkos::parallel_for(Kokkos::ThreadVectorMDRange<rank<2>, member>(t, 4, 4),
                             [&](int p, int q) { c(r, i, p) += q; });
      });
    });
    Kokkos::parallel_for("teamvec", policy(teams, Kokkos::AUTO), KOKKOS_LAMBDA(const member &t) {
      const int r = t.league_rank();
      Kokkos::parallel_for(Kokkos::TeamVectorMDRange<rank<2>, member>(t, 4, 4),
                           [&](int i, int j) { d(r, i) += j; });
    });
    Kokkos::parallel_for("md4", policy(teams, Kokkos::AUTO), KOKKOS_LAMBDA(const member &t) {
      const int r = t.league_rank();
      Kokkos::parallel_for(Kokkos::TeamThreadMDRange<rank<4>, member>(t, 4, 1, 2, 1),
                           [&](int i, int j, int k, int l) { e(r, i) += j + k + l; });
    });
    Kokkos::fence();
    printf("%g %g %g %g %g\n", a(1, 2), b(1, 2), c(1, 2, 3), d(1, 2), e(1, 2));
  }
  Kokkos::finalize();
  return 0;
}
