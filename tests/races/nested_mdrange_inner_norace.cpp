// The twin of nested_mdrange_inner_race: the same nested MD ranges, each
// iteration writing its own element (every index of the range picks it),
// nested MD reductions into the team's value, and a team_barrier before
// the team's threads read what other iterations wrote.
// REQUIRES: kokkos4
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

using policy = Kokkos::TeamPolicy<>;
using member = policy::member_type;
template <int R> using rank = Kokkos::Rank<R>;

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int teams = 2;
    Kokkos::View<double ***> a("a", teams, 4, 4), c("c", teams, 4, 16), d("d", teams, 4, 4);
    Kokkos::View<double ****> b("b", teams, 4, 2, 3);
    Kokkos::View<double *****> e("e", teams, 4, 1, 2, 1);
    Kokkos::View<double **> sums("sums", teams, 3);
    Kokkos::parallel_for("md2", policy(teams, Kokkos::AUTO), KOKKOS_LAMBDA(const member &t) {
      const int r = t.league_rank();
      Kokkos::parallel_for(Kokkos::TeamThreadMDRange<rank<2>, member>(t, 4, 4),
                           [&](int i, int j) { a(r, i, j) += j; });
      t.team_barrier();
      double s = 0;
      Kokkos::parallel_reduce(Kokkos::TeamThreadMDRange<rank<2>, member>(t, 4, 4),
                              [&](int i, int j, double &acc) { acc += a(r, j, i); }, s);
      Kokkos::single(Kokkos::PerTeam(t), [&]() { sums(r, 0) = s; });
    });
    Kokkos::parallel_for("md3", policy(teams, Kokkos::AUTO), KOKKOS_LAMBDA(const member &t) {
      const int r = t.league_rank();
      Kokkos::parallel_for(Kokkos::TeamThreadMDRange<rank<3>, member>(t, 4, 2, 3),
                           [&](int i, int j, int k) { b(r, i, j, k) = j * (k + 1); });
    });
    Kokkos::parallel_for("lanes", policy(teams, Kokkos::AUTO), KOKKOS_LAMBDA(const member &t) {
      const int r = t.league_rank();
      Kokkos::parallel_for(Kokkos::TeamThreadRange(t, 4), [&](int i) {
        Kokkos::parallel_for(Kokkos::ThreadVectorMDRange<rank<2>, member>(t, 4, 4),
                             [&](int p, int q) { c(r, i, p * 4 + q) += q; });
        double s = 0;
        Kokkos::parallel_reduce(Kokkos::ThreadVectorMDRange<rank<2>, member>(t, 4, 4),
                                [&](int p, int q, double &acc) { acc += c(r, i, q * 4 + p); }, s);
        Kokkos::single(Kokkos::PerThread(t), [&]() { c(r, i, 0) += s; });
      });
    });
    Kokkos::parallel_for("teamvec", policy(teams, Kokkos::AUTO), KOKKOS_LAMBDA(const member &t) {
      const int r = t.league_rank();
      Kokkos::parallel_for(Kokkos::TeamVectorMDRange<rank<2>, member>(t, 4, 4),
                           [&](int i, int j) { d(r, i, j) += j; });
      double s = 0;
      Kokkos::parallel_reduce(Kokkos::TeamVectorMDRange<rank<2>, member>(t, 4, 4),
                              [&](int i, int j, double &acc) { acc += i * j; }, s);
      Kokkos::single(Kokkos::PerTeam(t), [&]() { sums(r, 1) = s; });
    });
    Kokkos::parallel_for("md4", policy(teams, Kokkos::AUTO), KOKKOS_LAMBDA(const member &t) {
      const int r = t.league_rank();
      Kokkos::parallel_for(Kokkos::TeamThreadMDRange<rank<4>, member>(t, 4, 1, 2, 1),
                           [&](int i, int j, int k, int l) { e(r, i, j, k, l) += j + k + l; });
    });
    Kokkos::fence();
    printf("%g %g %g %g %g %g\n", a(1, 2, 1), b(1, 2, 1, 2), c(1, 2, 3), d(1, 2, 3),
           e(1, 2, 0, 1, 0), sums(1, 0) + sums(1, 1));
  }
  Kokkos::finalize();
  return 0;
}
