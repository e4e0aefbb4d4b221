// An array reduction whose functor also clears the key of the next
// iteration, which that iteration reads.  The result array lies just below
// the View (allocated first): the reduction's value is the result array, of
// a size only the functor knows, and the View past it is not part of it.
// EXPECT: data-race view=key subkind=iteration-overlap nodes=parallel_reduce:hist,parallel_reduce:hist lines=17,18
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <vector>

struct Histogram {
  using value_type = double[];
  using size_type = int;
  const int value_count;
  const int n;
  Kokkos::View<int *> key;
  KOKKOS_INLINE_FUNCTION void operator()(const int i, double sums[]) const {
    sums[key(i) % value_count] += 1.0;
    if (i + 1 < n) key(i + 1) = 0;
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
    std::vector<double> h(8);
    Kokkos::View<int *> key("key", n);
    Kokkos::parallel_for(
        "init", n, KOKKOS_LAMBDA(const int i) { key(i) = (i * 7919) % 997; });
    Kokkos::View<double *, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> r(
        h.data(), 8);
    Kokkos::parallel_reduce("hist", n, Histogram{8, n, key}, r);
    Kokkos::fence();
    printf("%g %g\n", h[0], h[7]);
  }
  Kokkos::finalize();
  return 0;
}
