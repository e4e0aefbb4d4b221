// A strand that updates an element atomically and then reads or writes it
// plainly races with the other strands' atomic updates of it, even when
// its own atomic update came last: the atomic writes of one element by
// strands that nothing orders keep the earliest one, which the plain
// access meets: in a RangePolicy, a counter read back after each add, and
// in a gather of atomic adds, a bin reset by the last iteration.
// EXPECT: data-race view=count subkind=iteration-overlap nodes=parallel_for:count,parallel_for:count atomic=0,1 lines=22,23 ops=write,read
// EXPECT: data-race view=bins subkind=iteration-overlap nodes=parallel_for:bin,parallel_for:bin atomic=0,1 lines=27,29 ops=write,write
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 1000;
    Kokkos::View<int *> count("count", 1), bins("bins", 16), key("key", n),
        seen("seen", n);
    Kokkos::parallel_for("keys", n, KOKKOS_LAMBDA(const int i) { key(i) = i % 16; });
    Kokkos::fence();
    Kokkos::parallel_for(
        "count", n, KOKKOS_LAMBDA(const int i) {
          Kokkos::atomic_add(&count(0), 1);
          seen(i) = count(0);
        });
    Kokkos::parallel_for(
        "bin", n, KOKKOS_LAMBDA(const int i) {
          Kokkos::atomic_add(&bins(key(i)), 1);
          if (i == n - 1)
            bins(key(i)) = 0;
        });
    Kokkos::fence();
    printf("%d %d\n", seen(n - 1), bins(0));
  }
  Kokkos::finalize();
  return 0;
}
