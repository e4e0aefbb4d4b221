// A View's allocation and zero-initialization complete when the constructor
// returns: the host may use it right away, and a kernel after it.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    Kokkos::View<double *, Kokkos::HostSpace> a("a", 10);
    a(3) = 1.0;
    printf("%g\n", a(0) + a(3));
    Kokkos::View<int **> b("b", 4, 4);
    Kokkos::parallel_for("use", 4, KOKKOS_LAMBDA(const int i) { b(i, i) += 1; });
    Kokkos::fence();
    printf("%d\n", b(2, 2));
  }
  Kokkos::finalize();
  return 0;
}
