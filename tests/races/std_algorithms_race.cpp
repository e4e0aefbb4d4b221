// The twin of std_algorithms_norace: Kokkos' std algorithms given ranges
// that overlap, shifted by one (transform and copy of v(0..n-2) into
// v(1..n-1): iteration i reads v(i), which iteration i - 1 writes), and a
// for_each whose lambda writes its neighbour's element.  The reports name
// the algorithm's call, where the functor's accesses are.
// REQUIRES: kokkos4
// EXPECT: data-race view=v subkind=iteration-overlap nodes=parallel_for:Kokkos::transform_iterator_api_default,parallel_for:Kokkos::transform_iterator_api_default lines=25,25
// EXPECT: data-race view=w subkind=iteration-overlap nodes=parallel_for:Kokkos::copy_iterator_api_default,parallel_for:Kokkos::copy_iterator_api_default lines=27,27
// EXPECT: data-race view=x subkind=iteration-overlap nodes=parallel_for:Kokkos::for_each_view_api_default,parallel_for:Kokkos::for_each_view_api_default lines=29,29
// EXPECT-TEXT: by parallel_for 'Kokkos::transform_iterator_api_default' iteration 1
#include <Kokkos_Core.hpp>
#include <Kokkos_StdAlgorithms.hpp>
#include <cstdio>

namespace KE = Kokkos::Experimental;

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 1000;
    Kokkos::DefaultExecutionSpace ex;
    Kokkos::View<double *> v("v", n), w("w", n), x("x", n + 1);
    Kokkos::parallel_for("ramp", n, KOKKOS_LAMBDA(int i) { v(i) = i; w(i) = i; });
    Kokkos::fence();
    KE::transform(ex, KE::cbegin(v), KE::cend(v) - 1, KE::begin(v) + 1,
                  KOKKOS_LAMBDA(double y) { return 2 * y; });
    KE::copy(ex, KE::cbegin(w), KE::cend(w) - 1, KE::begin(w) + 1);
    auto xs = Kokkos::subview(x, Kokkos::make_pair(0, n));
    KE::for_each(ex, xs, KOKKOS_LAMBDA(double &e) { (&e)[1] = e + 1; });
    Kokkos::fence();
    printf("%g %g %g\n", v(5), w(5), x(5));
  }
  Kokkos::finalize();
  return 0;
}
