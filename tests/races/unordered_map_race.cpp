// UnorderedMap used as a counter without atomics: two iterations with the
// same key find the same entry and both add to its value (the View
// 'UnorderedMap values'; an EXPECT line cannot name a label with a space).
// BUILD-FLAGS: -ltrilinos_kokkoscontainers
// EXPECT: data-race subkind=iteration-overlap nodes=parallel_for:count,parallel_for:count lines=20,20
#include <Kokkos_Core.hpp>
#include <Kokkos_UnorderedMap.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 100;
    Kokkos::UnorderedMap<int, int> map(2 * n);
    for (int k = 0; k < n / 2; k++) map.insert(k, 0);
    Kokkos::parallel_for(
        "count", n, KOKKOS_LAMBDA(const int i) {
          const auto idx = map.find(i / 2);
          if (map.valid_at(idx))
            map.value_at(idx) += 1;
        });
    Kokkos::fence();
    printf("%d\n", map.value_at(map.find(7)));
  }
  Kokkos::finalize();
  return 0;
}
