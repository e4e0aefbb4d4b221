// Elements of 1 and 2 bytes: the iterations between two that write the same
// element write its neighbours, in the same word, first.
// EXPECT: data-race view=cnt8 subkind=iteration-overlap nodes=parallel_for:hist8,parallel_for:hist8 lines=18,18
// EXPECT: data-race view=cnt16 subkind=iteration-overlap nodes=parallel_for:hist16,parallel_for:hist16 lines=21,21
// EXPECT: data-race view=flags subkind=iteration-overlap nodes=parallel_for:mark,parallel_for:mark lines=24,24
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 64;
    Kokkos::View<uint8_t *> cnt8("cnt8", 4);
    Kokkos::View<int16_t *> cnt16("cnt16", 4);
    Kokkos::View<bool *> flags("flags", 16);
    Kokkos::parallel_for(
        "hist8", n, KOKKOS_LAMBDA(const int i) { cnt8(i % 4)++; });
    Kokkos::parallel_for(
        "hist16", n, KOKKOS_LAMBDA(const int i) {
          cnt16(i % 2) = (int16_t)i;
        });
    Kokkos::parallel_for(
        "mark", 32, KOKKOS_LAMBDA(const int i) { flags((i * 5) % 16) = true; });
    Kokkos::fence();
    printf("%d %d %d\n", (int)cnt8(0), (int)cnt16(0), (int)flags(0));
  }
  Kokkos::finalize();
  return 0;
}
