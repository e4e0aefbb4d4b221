// Every built-in reducer into a host scalar, from a RangePolicy and from an
// MDRangePolicy: the value each iteration updates is private to it, the
// backend combines the values, and a reduction into a host scalar fences.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 100;
    Kokkos::View<double *> x("x", n);
    Kokkos::View<int *> b("b", n);
    Kokkos::parallel_for(
        "init", n, KOKKOS_LAMBDA(const int i) {
          x(i) = (i * 37) % 101 - 50.0;
          b(i) = (1 << (i % 8)) | 0x100;
        });
    Kokkos::fence();

    double sum = 0, dflt = 0, prod = 0, mn = 0, mx = 0, mdsum = 0;
    int land = 0, lor = 0, band = 0, bor = 0;
    using MinLocT = Kokkos::MinLoc<double, int>;
    using MaxLocT = Kokkos::MaxLoc<double, int>;
    using MinMaxT = Kokkos::MinMax<double>;
    using MinMaxLocT = Kokkos::MinMaxLoc<double, int>;
    MinLocT::value_type minloc;
    MaxLocT::value_type maxloc;
    MinMaxT::value_type minmax;
    MinMaxLocT::value_type minmaxloc;

    Kokkos::parallel_reduce(
        "sum", n, KOKKOS_LAMBDA(const int i, double &s) { s += x(i); },
        Kokkos::Sum<double>(sum));
    Kokkos::parallel_reduce(
        "default", n, KOKKOS_LAMBDA(const int i, double &s) { s += 2 * x(i); },
        dflt);
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
        "land", n,
        KOKKOS_LAMBDA(const int i, int &l) { l = l && (b(i) != 0); },
        Kokkos::LAnd<int>(land));
    Kokkos::parallel_reduce(
        "lor", n,
        KOKKOS_LAMBDA(const int i, int &l) { l = l || (b(i) & 0x80); },
        Kokkos::LOr<int>(lor));
    Kokkos::parallel_reduce(
        "band", n, KOKKOS_LAMBDA(const int i, int &v) { v &= b(i); },
        Kokkos::BAnd<int>(band));
    Kokkos::parallel_reduce(
        "bor", n, KOKKOS_LAMBDA(const int i, int &v) { v |= b(i); },
        Kokkos::BOr<int>(bor));
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
    Kokkos::parallel_reduce(
        "minmaxloc", n,
        KOKKOS_LAMBDA(const int i, MinMaxLocT::value_type &v) {
          if (x(i) < v.min_val) {
            v.min_val = x(i);
            v.min_loc = i;
          }
          if (x(i) > v.max_val) {
            v.max_val = x(i);
            v.max_loc = i;
          }
        },
        MinMaxLocT(minmaxloc));
    Kokkos::parallel_reduce(
        "mdsum",
        Kokkos::MDRangePolicy<Kokkos::Rank<2>>({0, 0}, {10, 10}),
        KOKKOS_LAMBDA(const int i, const int j, double &s) {
          s += x(10 * i + j);
        },
        Kokkos::Sum<double>(mdsum));

    printf("sum %g %g prod %g min %g max %g\n", sum, dflt, prod, mn, mx);
    printf("land %d lor %d band %x bor %x\n", land, lor, band, bor);
    printf("minloc %g@%d maxloc %g@%d minmax %g %g\n", minloc.val, minloc.loc,
           maxloc.val, maxloc.loc, minmax.min_val, minmax.max_val);
    printf("minmaxloc %g@%d %g@%d mdsum %g\n", minmaxloc.min_val,
           minmaxloc.min_loc, minmaxloc.max_val, minmaxloc.max_loc, mdsum);
  }
  Kokkos::finalize();
  return 0;
}
