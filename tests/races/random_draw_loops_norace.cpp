// A generator's draws inside loops whose accesses are checked before them:
// each iteration fills and weighs its own row only, and draws until a
// value falls below a bound (a loop of unknown length around the draws).
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <Kokkos_Random.hpp>
#include <cstdio>
#include <cstdlib>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 64, m = 16;
    Kokkos::Random_XorShift64_Pool<> pool(2024);
    Kokkos::View<int *> out("out", n * m);
    Kokkos::View<double *> w("w", n * m);
    Kokkos::deep_copy(w, 1.0);
    Kokkos::parallel_for(
        "rows", n, KOKKOS_LAMBDA(const int i) {
          auto gen = pool.get_state();
          for (int j = 0; j < m; j++)
            out(i * m + j) = gen.rand(0, 100);
          pool.free_state(gen);
        });
    double total = 0;
    Kokkos::parallel_reduce(
        "weights", n,
        KOKKOS_LAMBDA(const int i, double &s) {
          auto gen = pool.get_state();
          for (int j = 0; j < m; j++) {
            const double x = gen.drand(0.5, 1.5);
            s += w(i * m + j) * x;
            w(i * m + j) = x;
          }
          pool.free_state(gen);
        },
        total);
    int bad = 0;
    Kokkos::parallel_reduce(
        "tries", n,
        KOKKOS_LAMBDA(const int i, int &b) {
          auto gen = pool.get_state();
          int tries = 0;
          while (gen.drand() > 0.1 && tries < 1000)
            tries++;
          out(i * m) += tries;
          pool.free_state(gen);
          b += out(i * m) < 0;
        },
        bad);
    int outside = 0;
    Kokkos::parallel_reduce(
        "check", n * m,
        KOKKOS_LAMBDA(const int k, int &c) { c += w(k) < 0.5 || w(k) >= 1.5; }, outside);
    if (bad || outside || total < 0.5 * n * m || total >= 1.5 * n * m) {
      printf("bad %d outside %d total %g\n", bad, outside, total);
      abort();
    }
    printf("ok\n");
  }
  Kokkos::finalize();
  return 0;
}
