// Gathers whose counts are known at run time only (1, and 32 into Views
// of 1 MiB), with nothing unordered: entities read their neighbours' values
// in a View that no iteration of the kernel writes, kernel after kernel
// (each value read by several iterations, then by the next kernel's), a
// kernel in order after them writes the values, and an iteration reads its
// own element through the index before writing it.  In "halves", iteration
// i reads the float e(2i) through the index and writes e(2i - 1), the
// other half of the word that iteration i - 1 read: bytes apart.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <cstdlib>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    // (Counts the compiler cannot see: 1 and 32.)
    const int K = argc > 100 ? atoi(argv[1]) : 1;
    const int K2 = argc > 100 ? atoi(argv[2]) : 32;
    const int n = 4096, m = 1 << 17;
    Kokkos::View<double *> a("a", n), out("out", n);
    Kokkos::View<float *> c("c", n), outc("outc", n);
    Kokkos::View<double *> b("b", m), outb("outb", m);
    Kokkos::View<float *> e("e", n);
    Kokkos::View<int **> conn("conn", n, K), self("self", n, K),
        conn2("conn2", m, K2), pairs("pairs", n / 2, K), pairs2("pairs2", n / 2, K2);
    Kokkos::parallel_for("init", m, KOKKOS_LAMBDA(const int i) {
      if (i < n) {
        a(i) = i % 7;
        c(i) = i % 5;
        for (int k = 0; k < K; ++k) {
          conn(i, k) = (i - 1 + n) % n;
          self(i, k) = i;
        }
      }
      b(i) = i % 3;
      for (int k = 0; k < K2; ++k)
        conn2(i, k) = (i - 1 - 37 * k + 64 * m) % m;
      if (i < n / 2) {
        for (int k = 0; k < K; ++k)
          pairs(i, k) = 2 * i;
        for (int k = 0; k < K2; ++k)
          pairs2(i, k) = 2 * i;
      }
    });
    Kokkos::fence();
    for (int step = 0; step < 3; ++step) {
      Kokkos::parallel_for("pull", n, KOKKOS_LAMBDA(const int i) {
        double s = 0;
        float t = 0;
        for (int k = 0; k < K; ++k) {
          const int j = conn(i, k);
          s += a(j);
          t += c(j);
        }
        out(i) = s;
        outc(i) = t;
      });
      Kokkos::parallel_for("smooth", m, KOKKOS_LAMBDA(const int i) {
        double s = 0;
        for (int k = 0; k < K2; ++k) {
          const int j = conn2(i, k);
          s += b(j);
        }
        outb(i) = s / K2;
      });
    }
    // In order after the kernels that read them.
    Kokkos::parallel_for("update", m, KOKKOS_LAMBDA(const int i) {
      b(i) += 1;
      if (i < n) {
        a(i) += 1;
        c(i) += 1;
      }
    });
    Kokkos::parallel_for("own", n, KOKKOS_LAMBDA(const int i) {
      double s = 0;
      for (int k = 0; k < K; ++k)
        s += a(self(i, k));
      a(i) = s * 2;
    });
    Kokkos::parallel_for("halves", n / 2, KOKKOS_LAMBDA(const int i) {
      float t = 0;
      for (int k = 0; k < K; ++k)
        t += e(pairs(i, k));
      e(2 * ((i - 1 + n / 2) % (n / 2)) + 1) = t;
    });
    Kokkos::parallel_for("halves32", n / 2, KOKKOS_LAMBDA(const int i) {
      float t = 0;
      for (int k = 0; k < K2; ++k)
        t += e(pairs2(i, k));
      e(2 * ((i - 1 + n / 2) % (n / 2)) + 1) = t;
    });
    Kokkos::fence();
    printf("%g %g %g %g %g\n", out(7), outc(7), outb(7), a(7), e(7));
  }
  Kokkos::finalize();
  return 0;
}
