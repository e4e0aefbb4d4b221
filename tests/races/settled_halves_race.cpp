// A kernel ("words") reads an int array a word at a time (through a View
// of 8-byte integers over the same memory), the next one ("halves") reads
// the low half of each word, and the host then writes the high halves
// without a fence.  "words" is not ordered before the host's writes: its
// read of each high half stays beside the read of the low half, and races
// with the write.
// EXPECT: data-race view=x subkind=missing-fence nodes=parallel_for:words,host lines=22,25 ops=read,write
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 4096;
    Kokkos::View<int *> x("x", 2 * n);
    Kokkos::View<std::int64_t *> s("s", n), t("t", n);
    for (int i = 0; i < 2 * n; ++i)
      x(i) = i;
    Kokkos::View<std::int64_t *, Kokkos::MemoryTraits<Kokkos::Unmanaged>> w(
        reinterpret_cast<std::int64_t *>(x.data()), n);
    Kokkos::parallel_for("words", n, KOKKOS_LAMBDA(const int i) { s(i) = w(i); });
    Kokkos::parallel_for("halves", n, KOKKOS_LAMBDA(const int i) { t(i) = x(2 * i); });
    for (int i = 0; i < n; ++i)
      x(2 * i + 1) = -i;
    Kokkos::fence();
    printf("%lld %lld\n", (long long)s(7), (long long)t(7));
  }
  Kokkos::finalize();
  return 0;
}
