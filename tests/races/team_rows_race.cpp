// Team rows: team j of a TeamPolicy reads (or writes) its row j of a
// matrix in a TeamThreadRange, the row's element i by the team's thread
// i % 126 + 1.  The matrices are large (rows of 300 doubles over more than
// a MiB, one row across each MiB border), so that their rows' records are
// kept as one rule of team rows; the races below are each between an
// access and a record of that rule.
// "reads": team j reads row j; then the team after the one whose row
// crosses the first MiB border of A writes that row's last element (read
// by another team: teams are unordered);
// "writes": team j writes row j of B, then reads the last element of the
// row before (another team's write);
// "threads": team j reads row j of C, then the team whose row crosses the
// border writes, in the same phase, the border's element plus one from the
// thread of the border's element (the element was read by the team's next
// thread);
// "threads2": the same on E, the border's element from the thread of the
// element after it (read by the team's thread before);
// "shifted": team j writes row j + 1 of F, then reads row j (another
// team's write);
// "host": the host reads the last element of the row that crosses the
// border of D after the teams of "fill" wrote their rows, without a fence.
// EXPECT: data-race view=A subkind=iteration-overlap nodes=parallel_for:reads,parallel_for:reads lines=65,63 ops=write,read
// EXPECT: data-race view=B subkind=iteration-overlap nodes=parallel_for:writes,parallel_for:writes lines=72,70 ops=read,write
// EXPECT: data-race view=C subkind=team-threads nodes=parallel_for:threads,parallel_for:threads lines=83,78 ops=write,read
// EXPECT: data-race view=E subkind=team-threads nodes=parallel_for:threads2,parallel_for:threads2 lines=95,90 ops=write,read
// EXPECT: data-race view=F subkind=iteration-overlap nodes=parallel_for:shifted,parallel_for:shifted lines=103,101 ops=read,write
// EXPECT: data-race view=D subkind=missing-fence nodes=host,parallel_for:fill lines=113,110 ops=read,write
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <cstdio>

using policy = Kokkos::TeamPolicy<>;
using member = policy::member_type;

// The row of m holding the first MiB border past its start, and the
// column of the border's element in it.
static void border(const Kokkos::View<double **> &m, int &row, int &col) {
  const uintptr_t a = (uintptr_t)m.data(), mib = (uintptr_t)1 << 20;
  const uintptr_t e = (((a + mib - 1) & ~(mib - 1)) - a) / sizeof(double);
  row = (int)(e / m.extent(1));
  col = (int)(e % m.extent(1));
}

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int N = 600, M = 300;
    Kokkos::View<double **> A("A", N, M), B("B", N, M), C("C", N, M), D("D", N, M), E("E", N, M), F("F", N, M);
    Kokkos::View<double *> out("out", N);
    Kokkos::deep_copy(A, 1.0);
    Kokkos::deep_copy(B, 1.0);
    Kokkos::deep_copy(C, 1.0);
    Kokkos::deep_copy(E, 1.0);
    Kokkos::deep_copy(F, 1.0);
    int ra, ca, rc, cc, rd, cd, re, ce;
    border(A, ra, ca);
    border(C, rc, cc);
    border(D, rd, cd);
    border(E, re, ce);
    Kokkos::parallel_for("reads", policy(N, Kokkos::AUTO), KOKKOS_LAMBDA(const member &team) {
      const int j = team.league_rank();
      double s = 0;
      Kokkos::parallel_reduce(Kokkos::TeamThreadRange(team, M), [&](const int i, double &t) { t += A(j, i); }, s);
      if (j == ra + 1)
        Kokkos::single(Kokkos::PerTeam(team), [&]() { A(ra, M - 1) = s; });
    });
    Kokkos::fence();
    Kokkos::parallel_for("writes", policy(N, Kokkos::AUTO), KOKKOS_LAMBDA(const member &team) {
      const int j = team.league_rank();
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, M), [&](const int i) { B(j, i) = i; });
      if (j > 0)
        Kokkos::single(Kokkos::PerTeam(team), [&]() { out(j) = B(j - 1, M - 1); });
    });
    Kokkos::fence();
    Kokkos::parallel_for("threads", policy(N, Kokkos::AUTO), KOKKOS_LAMBDA(const member &team) {
      const int j = team.league_rank();
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, M), [&](const int i) {
        if (C(j, i) < 0)
          out(j) = i;
      });
      if (j == rc)
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, cc, cc + 1), [&](const int i) {
          C(j, (i + 1) % M) = 2;
        });
    });
    Kokkos::fence();
    Kokkos::parallel_for("threads2", policy(N, Kokkos::AUTO), KOKKOS_LAMBDA(const member &team) {
      const int j = team.league_rank();
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, M), [&](const int i) {
        if (E(j, i) < 0)
          out(j) = i;
      });
      if (j == re)
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, ce + 1, ce + 2), [&](const int i) {
          E(j, i - 1) = 2;
        });
    });
    Kokkos::fence();
    Kokkos::parallel_for("shifted", policy(N - 1, Kokkos::AUTO), KOKKOS_LAMBDA(const member &team) {
      const int j = team.league_rank();
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, M), [&](const int i) { F(j + 1, i) = i; });
      double s = 0;
      Kokkos::parallel_reduce(Kokkos::TeamThreadRange(team, M), [&](const int i, double &t) { t += F(j, i); }, s);
      Kokkos::single(Kokkos::PerTeam(team), [&]() { out(j) = s; });
    });
    Kokkos::fence();
    Kokkos::parallel_for("fill", policy(N, Kokkos::AUTO), KOKKOS_LAMBDA(const member &team) {
      const int j = team.league_rank();
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, M), [&](const int i) {
        D(j, i) = j + i;
      });
    });
    const double last = D(rd, M - 1);
    Kokkos::fence();
    printf("%d %d %d %d %d %d %d %d %g %g\n", ra, ca, rc, cc, rd, cd, re, ce, out(3), last);
  }
  Kokkos::finalize();
  return 0;
}
