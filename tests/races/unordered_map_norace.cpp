// UnorderedMap filled from a kernel: insert() is safe to call from many
// iterations at once, with distinct keys and with repeated ones (the first
// insert wins, the others find it).  A later kernel reads the entries.
// BUILD-FLAGS: -ltrilinos_kokkoscontainers
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <Kokkos_UnorderedMap.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 100;
    Kokkos::UnorderedMap<int, int> map(2 * n);
    Kokkos::View<int> failed("failed");
    Kokkos::parallel_for(
        "insert", n, KOKKOS_LAMBDA(const int i) {
          auto r = map.insert(i / 2, i / 2 * 10);
          if (r.failed()) Kokkos::atomic_increment(&failed());
        });
    Kokkos::fence();
    Kokkos::View<int> sum("sum");
    Kokkos::parallel_for(
        "read", map.capacity(), KOKKOS_LAMBDA(const int s) {
          if (map.valid_at(s))
            Kokkos::atomic_add(&sum(), map.key_at(s) + map.value_at(s));
        });
    Kokkos::fence();
    printf("%d entries, %d failed, sum %d\n", (int)map.size(), failed(),
           sum());
  }
  Kokkos::finalize();
  return 0;
}
