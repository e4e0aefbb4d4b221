// halt_on_error=1: the program stops at the first report; the second race
// (in a later kernel) is never reached.
// KKRACE-OPTIONS: halt_on_error=1
// EXPECT: data-race view=a subkind=iteration-overlap nodes=parallel_for:first,parallel_for:first
// EXPECT-TEXT: WARNING: kkrace: data race on View 'a'
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    Kokkos::View<double *> a("a", 11), b("b", 11);
    Kokkos::parallel_for("first", 10, KOKKOS_LAMBDA(const int i) { a(i) = a(i + 1); });
    Kokkos::parallel_for("second", 10, KOKKOS_LAMBDA(const int i) { b(i) = b(i + 1); });
    Kokkos::fence();
    printf("not reached\n");
  }
  Kokkos::finalize();
  return 0;
}
