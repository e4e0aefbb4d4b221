// The same particles, read by the host before the fence: only the elements
// that the last push changed one at a time (the runs' exceptions) race with
// the host's loop; the other elements were written by the fenced steps
// before it.
// EXPECT: data-race view=v subkind=missing-fence nodes=parallel_for:push,host lines=23,31 ops=write,read
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
    Kokkos::fence();
    for (int s = 0; s < 3; ++s) {
      Kokkos::parallel_for("push", n, KOKKOS_LAMBDA(const int i) {
        float y = x(i) + v(i);
        if (y < 0.0f || y >= 1.0f) {
          v(i) = -v(i);
          y = x(i);
        }
        x(i) = y;
      });
    }
    double s = 0;
    for (int i = 0; i < n; ++i)
      s += v(i);
    Kokkos::fence();
    printf("%g\n", s);
  }
  Kokkos::finalize();
  return 0;
}
