// Every iteration reads a whole array (an n-body kernel's positions, as
// 3-vectors: a stride of three words), whose blocks, once several
// iterations have read them, are skipped as shared, one run of them at a
// time.  A write into the middle of such a run must still race: with the
// reads of the iterations before it, and of the ones after it, which find
// the write's block no longer shared.
// EXPECT: data-race view=p subkind=iteration-overlap nodes=parallel_for:forces,parallel_for:forces lines=25,29 ops=read,write
// EXPECT: data-race view=q subkind=iteration-overlap nodes=parallel_for:gather,parallel_for:gather lines=34,37 ops=read,write
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 700;
    Kokkos::View<double *[3]> p("p", n), a("a", n);
    Kokkos::View<double *> q("q", 4 * n), s("s", n);
    Kokkos::parallel_for("init", n, KOKKOS_LAMBDA(const int i) {
      p(i, 0) = p(i, 1) = p(i, 2) = 0.5 * i;
    });
    Kokkos::fence();
    Kokkos::parallel_for("forces", n, KOKKOS_LAMBDA(const int i) {
      double t = 0;
      for (int j = 0; j < n; ++j)
        t += p(j, 0) * p(j, 1) - p(j, 2);
      a(i, 0) = t;
      // Iteration 400 moves body 500, which every iteration reads.
      if (i == 400)
        p(500, 1) = t;
    });
    Kokkos::parallel_for("gather", n, KOKKOS_LAMBDA(const int i) {
      double t = 0;
      for (int j = 0; j < 4 * n; ++j)
        t += q(j);
      s(i) = t;
      if (i == 350)
        q(2 * n + 3) = t;
    });
    Kokkos::fence();
    printf("%g %g\n", a(3, 0), s(3));
  }
  Kokkos::finalize();
  return 0;
}
