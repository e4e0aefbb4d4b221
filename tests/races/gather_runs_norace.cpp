// Random updates through an index of large Views that a loop filled (kept
// as runs, their elements decided one by one as the runs' exceptions), with
// nothing unordered: a permutation updated by two kernels in turn, an index
// with repeats updated atomically, an int View, and loops over the whole
// Views after them (which decide the exceptions with the runs' rules).
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int m = 1 << 18, n = 4096;
    Kokkos::View<double *> data("data", m), h("h", m);
    Kokkos::View<int *> data4("data4", 2 * m);
    Kokkos::View<long *> idx("idx", n), perm("perm", n);
    Kokkos::parallel_for("init", m, KOKKOS_LAMBDA(const int i) {
      data(i) = i;
      h(i) = 0;
      data4(2 * i) = data4(2 * i + 1) = 1;
    });
    Kokkos::parallel_for("indices", n, KOKKOS_LAMBDA(const int i) {
      idx(i) = (long)(i % 100) * 61 % m;
      perm(i) = ((long)i * 7919) % n * 64 + 5;
    });
    Kokkos::parallel_for("update", n,
                         KOKKOS_LAMBDA(const int i) { data(perm(i)) += 1.0; });
    Kokkos::parallel_for("again", n,
                         KOKKOS_LAMBDA(const int i) { data(perm(i)) *= 2.0; });
    Kokkos::parallel_for("update4", n,
                         KOKKOS_LAMBDA(const int i) { data4(perm(i)) ^= 3; });
    Kokkos::parallel_for("histogram", n, KOKKOS_LAMBDA(const int i) {
      Kokkos::atomic_add(&h(idx(i)), 1.0);
    });
    Kokkos::parallel_for("read", n,
                         KOKKOS_LAMBDA(const int i) { h(perm(i)) += data(idx(i)); });
    double sum = 0;
    Kokkos::parallel_reduce("sum", m, KOKKOS_LAMBDA(const int i, double &s) {
      s += data(i) + h(i) + data4(2 * i);
    }, sum);
    Kokkos::parallel_for("scale", m, KOKKOS_LAMBDA(const int i) { data(i) *= 0.5; });
    Kokkos::fence();
    printf("%g %g %d\n", sum, data(5), data4(5));
  }
  Kokkos::finalize();
  return 0;
}
