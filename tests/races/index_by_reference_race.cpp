// RangePolicy kernels whose functor takes its index by const reference
// (KOKKOS_LAMBDA(const int &i), operator()(const size_type &i) as in Kokkos
// Kernels): each call is still one iteration, and the report names it so.
// EXPECT: data-race view=a subkind=iteration-overlap nodes=parallel_for:lambda_ref,parallel_for:lambda_ref lines=28,28
// EXPECT: data-race view=b subkind=iteration-overlap nodes=parallel_for:functor_ref,parallel_for:functor_ref lines=14,14
// EXPECT-TEXT: by parallel_for 'lambda_ref' iteration
// EXPECT-TEXT: by parallel_for 'functor_ref' iteration
#include <Kokkos_Core.hpp>

struct Shift {
  using size_type = int;
  Kokkos::View<double *> b;
  KOKKOS_INLINE_FUNCTION void operator()(const size_type &i) const {
    b(i) = b(i + 1);
  }
};

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 100;
    Kokkos::View<double *> a("a", n + 1), b("b", n + 1);
    Kokkos::parallel_for(
        "init", n + 1, KOKKOS_LAMBDA(const int i) { a(i) = b(i) = i; });
    Kokkos::fence();
    Kokkos::parallel_for(
        "lambda_ref", n,
        KOKKOS_LAMBDA(const int &i) { a(i) = a(i + 1); });
    Kokkos::parallel_for("functor_ref", n, Shift{b});
    Kokkos::fence();
  }
  Kokkos::finalize();
  return 0;
}
