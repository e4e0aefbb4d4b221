// The twin of lanes_broadcast_race: every lane of a vector loop reads one
// element (kept as their thread's reads), and what writes it is ordered
// after them: the thread after the loop (Kokkos joins the lanes when the
// loop returns), and a lane of the thread's next loop.  A lane also writes
// an element that its thread read before the loop (ordered: the thread
// forks its lanes), in a loop whose lanes share reads elsewhere; and a
// loop repeated over a moving element writes, from a lane, the element
// that its previous round's lanes read at the same line (ordered: a
// thread's loops follow one another).
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

using policy = Kokkos::TeamPolicy<>;
using member = policy::member_type;

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int teams = 2, n = 3, lanes = 16, reps = argc > 100 ? 1 : 3;
    Kokkos::View<double **> y("y", teams * n, lanes);
    Kokkos::View<double *> s("s", teams * n), c("c", teams * n), t("t", teams * n);
    Kokkos::View<double **> q("q", teams * n, reps + 1);
    Kokkos::parallel_for(
        "broadcast", policy(teams, Kokkos::AUTO),
        KOKKOS_LAMBDA(const member &m) {
          Kokkos::parallel_for(Kokkos::TeamThreadRange(m, n), [&](int j) {
            const int i = m.league_rank() * n + j;
            for (int r = 0; r < reps; ++r) {
              const double before = t(i);
              Kokkos::parallel_for(Kokkos::ThreadVectorRange(m, lanes), [&](int l) {
                y(i, l) = s(i) + c(i) + before;
                if (l == lanes - 3) t(i) = l;
              });
              s(i) += 1;
              Kokkos::parallel_for(Kokkos::ThreadVectorRange(m, lanes), [&](int l) {
                if (l == 11) c(i) = l;
              });
            }
            for (int r = 1; r <= reps; ++r)
              Kokkos::parallel_for(Kokkos::ThreadVectorRange(m, lanes), [&](int l) {
                y(i, l) += q(i, r);
                if (l == 2) q(i, r - 1) = l;
              });
          });
        });
    Kokkos::fence();
    printf("%g\n", y(1, 1));
  }
  Kokkos::finalize();
  return 0;
}
