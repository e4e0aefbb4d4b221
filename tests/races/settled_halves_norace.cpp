// As settled_halves_race, with a fence after "words": its reads are then
// ordered before everything to come, and the read of each low half by
// "halves" replaces the word's read instead of splitting the cell (the
// host's later writes of the high halves race with nothing).
// EXPECT: no-report
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
    Kokkos::fence();
    Kokkos::parallel_for("halves", n, KOKKOS_LAMBDA(const int i) { t(i) = x(2 * i); });
    for (int i = 0; i < n; ++i)
      x(2 * i + 1) = -i;
    Kokkos::fence();
    printf("%lld %lld\n", (long long)s(7), (long long)t(7));
  }
  Kokkos::finalize();
  return 0;
}
