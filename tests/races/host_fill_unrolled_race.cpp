// A host loop filling a View through its pointer, which the compiler
// unrolls and vectorizes into several stores an iteration (checked as one
// access of their whole stride), while a kernel that reads the View may
// still run: no fence between them.
// EXPECT: data-race view=a subkind=missing-fence nodes=host,parallel_for:reader lines=11,21
#include <Kokkos_Core.hpp>
#include <cstdio>

__attribute__((noinline)) void fill(double *p, int n, double v) {
  for (int i = 0; i < n; ++i)
    p[i] = v;
}

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 100003; // (and a remainder loop)
    Kokkos::View<double *> a("a", n), b("b", n);
    Kokkos::parallel_for(
        "reader", n, KOKKOS_LAMBDA(const int i) {
          b(i) = a(i) + 1.0;
        });
    fill(a.data(), n, 2.0);
    Kokkos::fence();
    printf("%g\n", b(n - 1));
  }
  Kokkos::finalize();
  return 0;
}
