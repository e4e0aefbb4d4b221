// Each iteration writes a whole 8-byte word, then reads back half of it;
// iteration i also reads the upper half of its neighbour's word, which that
// neighbour wrote: the read of another iteration's bytes races, even though
// each word was first touched by its own iteration.
// EXPECT: data-race view=w subkind=iteration-overlap nodes=parallel_for:halves,parallel_for:halves lines=21,23
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 64;
    Kokkos::View<std::uint64_t *> w("w", n);
    Kokkos::View<std::uint32_t *> out("out", n);
    Kokkos::parallel_for("halves", n, KOKKOS_LAMBDA(const int i) {
      const std::uint32_t *h =
          reinterpret_cast<const std::uint32_t *>(w.data());
      std::uint32_t mine = 0;
      if (i > 0)
        mine = h[2 * (i - 1) + 1];
      mine += 1;
      w(i) = (std::uint64_t)mine << 32 | (std::uint64_t)i;
      out(i) = h[2 * i];
    });
    Kokkos::fence();
    printf("%u\n", (unsigned)out(n - 1));
  }
  Kokkos::finalize();
  return 0;
}
