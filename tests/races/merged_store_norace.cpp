// The race-free twin of merged_store_race.cpp: the branch picks the element
// that the kernel does not read (a(n - 1), which shares a shadow word with
// a(n - 2), which it does), and the optimizer makes the two stores one.
// ARGS: last
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <cstring>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const char *m = argc > 1 ? argv[1] : "";
    const int n = 100;
    Kokkos::View<int *> a("a", n), b("b", n);
    Kokkos::parallel_for(
        "copy", n - 1, KOKKOS_LAMBDA(int i) { b(i) = a(i); });
    if (strcmp(m, "last") != 0) a(n - 2) = 5; else a(n - 1) = 5;
    Kokkos::fence();
    printf("%d\n", b(3));
  }
  Kokkos::finalize();
  return 0;
}
