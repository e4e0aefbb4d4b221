// The host writes one of two elements, chosen by a branch, while a kernel
// may still read it.  The optimizer makes the two stores one, sunk below
// the branch and without a line of its own; the report names the line of
// the `if` that chose it, at -O2 as at -O0.
// EXPECT: data-race view=a subkind=missing-fence nodes=host,parallel_for:copy lines=19,18
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <cstring>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const char *m = argc > 1 ? argv[1] : "";
    const int n = 100;
    // (int elements: a(n - 2) and a(n - 1) share a shadow word.)
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
