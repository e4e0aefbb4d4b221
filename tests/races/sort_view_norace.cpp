// Kokkos::sort on a View the kernel before it filled: sort is an operation
// on the View's execution space, ordered after the work submitted to it
// before (Kokkos 4 fences before its std::sort; Kokkos 3.4 calls std::sort
// on a host View without a fence).  Then a kernel reads the sorted data.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <Kokkos_Sort.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 200;
    Kokkos::View<int *> a("a", n);
    Kokkos::parallel_for(
        "init", n, KOKKOS_LAMBDA(const int i) { a(i) = (i * 7919) % 211; });
    Kokkos::sort(a);
    Kokkos::View<int> unsorted("unsorted");
    Kokkos::parallel_for(
        "check", n - 1, KOKKOS_LAMBDA(const int i) {
          if (a(i) > a(i + 1)) Kokkos::atomic_increment(&unsorted());
        });
    Kokkos::fence();
    printf("%d\n", unsorted());
  }
  Kokkos::finalize();
  return 0;
}
