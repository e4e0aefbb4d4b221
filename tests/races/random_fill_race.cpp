// fill_random's writes are checked, though the fill's own fields (its View,
// its bounds, which each draw reads) are not: a thread that nothing orders
// with the fills reads an element of a uniform fill, and another writes an
// element of a fill in [begin, end), while the main thread fills both.
// EXPECT: data-race view=x subkind=missing-fence nodes=parallel_for:Kokkos::fill_random,host lines=22,28
// EXPECT: data-race view=m subkind=missing-fence nodes=parallel_for:Kokkos::fill_random,host lines=26,29
#include <Kokkos_Core.hpp>
#include <Kokkos_Random.hpp>
#include <cstdio>
#include <thread>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 1000;
    Kokkos::Random_XorShift64_Pool<> pool(12345);
    Kokkos::View<double *> x("x", n);
    Kokkos::View<int **> m("m", 40, 30);
    double seen = 0;
    std::thread reader([&]() {
      for (int k = 0; k < 1000; k++)
        seen += x(5 + k % 3);
    });
    std::thread writer([&]() {
      for (int k = 0; k < 1000; k++)
        m(2, 3) = k;
    });
    Kokkos::fill_random(x, pool, 10.0);
    Kokkos::fill_random(m, pool, -5, 5);
    reader.join();
    writer.join();
    Kokkos::fence();
    printf("%g %d\n", seen, m(2, 3));
  }
  Kokkos::finalize();
  return 0;
}
