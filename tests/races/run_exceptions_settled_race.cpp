// Conditional writes into a run (a particle's velocity flipped where its
// position says so) are the run's exceptions.  A later loop that reads the
// run drops the exceptions that hold nothing but what the run's rule says
// or records a fence settled; here the "flip" kernel is not fenced before
// "scan" reads the velocities, so its writes must stay, and the host's
// read of a flipped velocity, before any fence, races with the flip.  The
// second flip is fenced before "scan" runs again: nothing races with it.
// EXPECT: data-race view=v subkind=missing-fence nodes=host,parallel_for:flip lines=35,27 ops=read,write
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 600000;
    Kokkos::View<float *> x("x", n), v("v", n), w("w", n);
    Kokkos::parallel_for("init", n, KOKKOS_LAMBDA(const int i) {
      x(i) = (i % 1000) / 1000.0f;
      v(i) = 1.0f / (1 + i % 7);
    });
    Kokkos::fence();
    double s = 0;
    for (int round = 0; round < 2; ++round) {
      Kokkos::parallel_for("flip", n, KOKKOS_LAMBDA(const int i) {
        float y = x(i) + v(i) * 0.001f;
        if (y >= 0.999f)
          v(i) = -v(i);
      });
      if (round == 1)
        Kokkos::fence();
      Kokkos::parallel_for("scan", n, KOKKOS_LAMBDA(const int i) {
        w(i) = 2.0f * v(i);
      });
      if (round == 0)
        s += v(999);
      Kokkos::fence();
      s += v(1999);
    }
    printf("%g\n", s);
  }
  Kokkos::finalize();
  return 0;
}
