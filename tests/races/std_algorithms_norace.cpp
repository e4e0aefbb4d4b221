// Kokkos' std algorithms (Kokkos 4): their functors are the kernels'
// iterations, as the user's own would be.  Race-free uses of most of
// them: each iteration reads and writes its own elements (or reduces, or
// scans), and the host reads their results after the algorithms, which
// fence.
// REQUIRES: kokkos4
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <Kokkos_StdAlgorithms.hpp>
#include <cstdio>

namespace KE = Kokkos::Experimental;

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 1000;
    using exec = Kokkos::DefaultExecutionSpace;
    exec ex;
    Kokkos::View<double *> a("a", n), b("b", n), c("c", n), d("d", n);
    Kokkos::View<int *> k("k", n), u("u", n);
    KE::fill(ex, a, 1.0);
    Kokkos::parallel_for("ramp", n, KOKKOS_LAMBDA(int i) { b(i) = i; k(i) = i / 3; });
    KE::copy(ex, b, c);
    KE::transform(ex, KE::cbegin(b), KE::cend(b), KE::begin(d),
                  KOKKOS_LAMBDA(double x) { return 2 * x; });
    KE::transform(ex, a, b, c, KOKKOS_LAMBDA(double x, double y) { return x + y; });
    KE::for_each(ex, d, KOKKOS_LAMBDA(double &x) { x += 1; });
    double s = KE::reduce(ex, d);
    double t = KE::transform_reduce(ex, a, b, 0.0);
    auto nbig = KE::count_if(ex, c, KOKKOS_LAMBDA(double x) { return x > 500; });
    auto it = KE::find_if(ex, KE::cbegin(b), KE::cend(b), KOKKOS_LAMBDA(double x) { return x > 10; });
    auto mx = KE::max_element(ex, c);
    auto nu = KE::unique_copy(ex, k, u);
    KE::replace(ex, a, 1.0, 3.0);
    KE::reverse(ex, c);
    KE::exclusive_scan(ex, KE::cbegin(b), KE::cend(b), KE::begin(d), 0.0);
    KE::adjacent_difference(ex, KE::cbegin(b), KE::cend(b), KE::begin(c));
    bool sorted = KE::is_sorted(ex, b);
    bool same = KE::equal(ex, a, a);
    KE::swap_ranges(ex, a, c);
    printf("%g %g %ld %ld %ld %ld %d %d\n", s, t, (long)nbig,
           (long)(it - KE::cbegin(b)), (long)(mx - KE::begin(c)),
           (long)(nu - KE::begin(u)), sorted, same);
  }
  Kokkos::finalize();
  return 0;
}
