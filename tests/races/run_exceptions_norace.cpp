// Large float Views kept as runs, with a few elements changed one at a
// time by conditional accesses over several steps (particles that bounce):
// the runs keep those elements as exceptions, every later loop checks them,
// and nothing here races.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 600000;
    Kokkos::View<float *> x("x", n), v("v", n);
    Kokkos::parallel_for("init", n, KOKKOS_LAMBDA(const int i) {
      x(i) = (i % 1000) / 1000.0f;
      v(i) = ((i * 7) % 13 - 6) / 600.0f;
    });
    for (int s = 0; s < 4; ++s) {
      Kokkos::parallel_for("push", n, KOKKOS_LAMBDA(const int i) {
        float y = x(i) + v(i);
        if (y < 0.0f || y >= 1.0f) {
          v(i) = -v(i);
          y = x(i);
        }
        x(i) = y;
      });
      float sum = 0;
      Kokkos::parallel_reduce("energy", n, KOKKOS_LAMBDA(const int i, float &e) {
        e += v(i) * v(i);
      }, sum);
    }
    Kokkos::fence();
    double s = 0;
    for (int i = 0; i < n; ++i) s += v(i) + x(i);
    printf("%g\n", s);
  }
  Kokkos::finalize();
  return 0;
}
