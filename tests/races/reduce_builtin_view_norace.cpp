// Built-in reducers into Views (host Views and Views of the default memory
// space): asynchronous like any dispatch, so the host reads the results
// after a fence; a later kernel on the same instance reads them without one
// (FIFO).
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 100;
    using MinLocT = Kokkos::MinLoc<double, int>;
    using MaxLocT = Kokkos::MaxLoc<double, int>;
    using MinMaxT = Kokkos::MinMax<double>;
    Kokkos::View<double *> x("x", n), y("y", n);
    Kokkos::View<double, Kokkos::HostSpace> sum("sum"), mn("mn"), mx("mx");
    Kokkos::View<double, Kokkos::HostSpace> prod("prod");
    Kokkos::View<int, Kokkos::HostSpace> band("band"), bor("bor"), lor("lor");
    Kokkos::View<MinLocT::value_type, Kokkos::HostSpace> minloc("minloc");
    Kokkos::View<MaxLocT::value_type, Kokkos::HostSpace> maxloc("maxloc");
    Kokkos::View<MinMaxT::value_type, Kokkos::HostSpace> minmax("minmax");
    Kokkos::View<double> dsum("dsum"); // the default memory space

    Kokkos::parallel_for(
        "init", n, KOKKOS_LAMBDA(const int i) { x(i) = (i * 37) % 101 - 50.0; });
    Kokkos::parallel_reduce(
        "sum", n, KOKKOS_LAMBDA(const int i, double &s) { s += x(i); },
        Kokkos::Sum<double>(sum));
    Kokkos::parallel_reduce(
        "dsum", n, KOKKOS_LAMBDA(const int i, double &s) { s += x(i); }, dsum);
    Kokkos::parallel_reduce(
        "prod", n,
        KOKKOS_LAMBDA(const int i, double &p) { p *= 1.0 + 1e-3 * x(i); },
        Kokkos::Prod<double>(prod));
    Kokkos::parallel_reduce(
        "min", n,
        KOKKOS_LAMBDA(const int i, double &m) {
          if (x(i) < m) m = x(i);
        },
        Kokkos::Min<double>(mn));
    Kokkos::parallel_reduce(
        "max", n,
        KOKKOS_LAMBDA(const int i, double &m) {
          if (x(i) > m) m = x(i);
        },
        Kokkos::Max<double>(mx));
    Kokkos::parallel_reduce(
        "band", n, KOKKOS_LAMBDA(const int i, int &v) { v &= 0xff ^ (i & 3); },
        Kokkos::BAnd<int>(band));
    Kokkos::parallel_reduce(
        "bor", n, KOKKOS_LAMBDA(const int i, int &v) { v |= 1 << (i % 16); },
        Kokkos::BOr<int>(bor));
    Kokkos::parallel_reduce(
        "lor", n, KOKKOS_LAMBDA(const int i, int &v) { v = v || x(i) > 40; },
        Kokkos::LOr<int>(lor));
    Kokkos::parallel_reduce(
        "minloc", n,
        KOKKOS_LAMBDA(const int i, MinLocT::value_type &v) {
          if (x(i) < v.val) {
            v.val = x(i);
            v.loc = i;
          }
        },
        MinLocT(minloc));
    Kokkos::parallel_reduce(
        "maxloc", n,
        KOKKOS_LAMBDA(const int i, MaxLocT::value_type &v) {
          if (x(i) > v.val) {
            v.val = x(i);
            v.loc = i;
          }
        },
        MaxLocT(maxloc));
    Kokkos::parallel_reduce(
        "minmax", n,
        KOKKOS_LAMBDA(const int i, MinMaxT::value_type &v) {
          if (x(i) < v.min_val) v.min_val = x(i);
          if (x(i) > v.max_val) v.max_val = x(i);
        },
        MinMaxT(minmax));
    // The next kernel on the same instance reads the results: FIFO.
    Kokkos::parallel_for(
        "center", n,
        KOKKOS_LAMBDA(const int i) { y(i) = x(i) - dsum() / n + minloc().val; });
    Kokkos::fence();
    printf("sum %g %g prod %g min %g max %g\n", sum(), dsum(), prod(), mn(),
           mx());
    printf("band %x bor %x lor %d\n", band(), bor(), lor());
    printf("minloc %g@%d maxloc %g@%d minmax %g %g y0 %g\n", minloc().val,
           minloc().loc, maxloc().val, maxloc().loc, minmax().min_val,
           minmax().max_val, y(0));
  }
  Kokkos::finalize();
  return 0;
}
