// A histogram: a kernel of many iterations, each adding one to a bin it
// hashes to, with no loop in it, until the bins' shadow turns into
// half-cells in the middle of the kernel; then a kernel that reads each
// bin and writes the pair of bins beside it as one word, and the host's
// reads after a fence: no report.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <cstdio>

KOKKOS_INLINE_FUNCTION unsigned bin_of(unsigned i, unsigned nb) {
  return (i * 2654435761u) % nb;
}

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const unsigned nb = 65536, n = 1u << 19;
    Kokkos::View<int *> bins("bins", nb);
    Kokkos::View<long *> sums("sums", nb / 4);
    Kokkos::parallel_for(
        "hist", n, KOKKOS_LAMBDA(const unsigned i) { Kokkos::atomic_add(&bins(bin_of(i, nb)), 1); });
    Kokkos::View<std::int64_t *, Kokkos::MemoryTraits<Kokkos::Unmanaged>> pairs(
        reinterpret_cast<std::int64_t *>(bins.data()), nb / 2);
    Kokkos::parallel_for(
        "fold", nb / 4, KOKKOS_LAMBDA(const unsigned k) {
          sums(k) = bins(4 * k) + bins(4 * k + 1);
          pairs(2 * k + 1) = 0;
        });
    Kokkos::fence();
    long total = 0;
    for (unsigned b = 0; b < nb; ++b)
      total += bins(b);
    for (unsigned k = 0; k < nb / 4; ++k)
      total += sums(k);
    printf("%ld\n", total);
  }
  Kokkos::finalize();
  return 0;
}
