// fill_random fills Views from a generator pool (uniform in a range, and in
// [begin, end)); a kernel then reads them.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <Kokkos_Random.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 100;
    Kokkos::Random_XorShift64_Pool<> pool(12345);
    Kokkos::View<double *> x("x", n);
    Kokkos::View<int **> m("m", 10, 10);
    Kokkos::fill_random(x, pool, 10.0);
    Kokkos::fill_random(m, pool, -5, 5);
    Kokkos::View<double> s("s");
    Kokkos::parallel_for(
        "use", n, KOKKOS_LAMBDA(const int i) {
          Kokkos::atomic_add(&s(), x(i) + m(i / 10, i % 10));
        });
    Kokkos::fence();
    printf("%g\n", s());
  }
  Kokkos::finalize();
  return 0;
}
