// An array reduction (value_type = double[], value_count entries) with a
// large value: a histogram of 300 bins, 2400 bytes.  Each iteration updates
// only its own array, however large.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <vector>

const int BINS = 300;

struct Histogram {
  using value_type = double[];
  using size_type = int;
  const int value_count;
  Kokkos::View<int *> key;
  Histogram(int bins, Kokkos::View<int *> k) : value_count(bins), key(k) {}
  KOKKOS_INLINE_FUNCTION void operator()(const int i, double sums[]) const {
    sums[key(i) % value_count] += 1.0;
  }
  KOKKOS_INLINE_FUNCTION void init(double sums[]) const {
    for (int b = 0; b < value_count; b++) sums[b] = 0;
  }
  KOKKOS_INLINE_FUNCTION void join(double dst[], const double src[]) const {
    for (int b = 0; b < value_count; b++) dst[b] += src[b];
  }
  KOKKOS_INLINE_FUNCTION void join(volatile double dst[],
                                   const volatile double src[]) const {
    for (int b = 0; b < value_count; b++) dst[b] += src[b];
  }
};

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 1000;
    Kokkos::View<int *> key("key", n);
    Kokkos::parallel_for(
        "init", n, KOKKOS_LAMBDA(const int i) { key(i) = (i * 7919) % 997; });
    Kokkos::fence();
    std::vector<double> h(BINS);
    Kokkos::View<double *, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> r(
        h.data(), BINS);
    Kokkos::parallel_reduce("hist", n, Histogram(BINS, key), r);
    Kokkos::fence();
    printf("%g %g\n", h[0], h[BINS - 1]);
  }
  Kokkos::finalize();
  return 0;
}
