// Long vector loops of many team threads (a dot product per thread, as in
// a matrix product): a thread writes an element that the next thread's
// lanes read.  The first 126 threads of a phase have lanes of their own;
// beyond them a thread's lanes are the thread itself: both are checked,
// loop by loop.
// EXPECT: data-race view=D subkind=team-threads nodes=parallel_for:mm,parallel_for:mm
// EXPECT: data-race view=B subkind=team-threads nodes=parallel_for:mm,parallel_for:mm
#include <Kokkos_Core.hpp>
#include <cstdio>

using policy = Kokkos::TeamPolicy<>;
using member = policy::member_type;

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 200;
    Kokkos::View<double **> A("A", n, n), B("B", n, n), D("D", n, n), C("C", n, n);
    Kokkos::deep_copy(A, 1.0);
    Kokkos::deep_copy(B, 2.0);
    Kokkos::parallel_for(
        "mm", policy(1, Kokkos::AUTO, 4),
        KOKKOS_LAMBDA(const member &t) {
          const int i = t.league_rank();
          Kokkos::parallel_for(Kokkos::TeamThreadRange(t, n), [&](int j) {
            if (j == 10)
              Kokkos::single(Kokkos::PerThread(t), [&]() { D(3, 11) = 0.25; });
            if (j == 140)
              Kokkos::single(Kokkos::PerThread(t), [&]() { B(3, 141) = 0.25; });
            double s = 0;
            Kokkos::parallel_reduce(Kokkos::ThreadVectorRange(t, n),
                                    [&](int k, double &acc) { acc += A(i, k) * B(k, j) + D(k, j); }, s);
            Kokkos::single(Kokkos::PerThread(t), [&]() { C(i, j) = s; });
          });
        });
    Kokkos::fence();
    printf("%g %g\n", C(0, 11), C(0, 141));
  }
  Kokkos::finalize();
  return 0;
}
