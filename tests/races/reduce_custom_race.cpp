// A reduction with a user-defined reducer whose functor also counts its
// calls in a shared View element without an atomic.
// EXPECT: data-race view=calls subkind=iteration-overlap nodes=parallel_reduce:absmax,parallel_reduce:absmax lines=39,39
#include <Kokkos_Core.hpp>
#include <cstdio>

struct AbsMax {
  using reducer = AbsMax;
  using value_type = double;
  using result_view_type =
      Kokkos::View<double, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;
  result_view_type value;
  KOKKOS_INLINE_FUNCTION AbsMax(double &v) : value(&v) {}
  KOKKOS_INLINE_FUNCTION void join(double &dst, const double &src) const {
    if (src > dst) dst = src;
  }
  KOKKOS_INLINE_FUNCTION void join(volatile double &dst,
                                   const volatile double &src) const {
    if (src > dst) dst = src;
  }
  KOKKOS_INLINE_FUNCTION void init(double &v) const { v = 0; }
  KOKKOS_INLINE_FUNCTION double &reference() const { return *value.data(); }
  KOKKOS_INLINE_FUNCTION result_view_type view() const { return value; }
  KOKKOS_INLINE_FUNCTION bool references_scalar() const { return true; }
};

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 100;
    Kokkos::View<double *> x("x", n);
    Kokkos::View<int> calls("calls");
    Kokkos::parallel_for(
        "init", n, KOKKOS_LAMBDA(const int i) { x(i) = (i * 37) % 101 - 50.0; });
    double amax = 0;
    Kokkos::parallel_reduce(
        "absmax", n,
        KOKKOS_LAMBDA(const int i, double &m) {
          calls() += 1;
          const double a = x(i) < 0 ? -x(i) : x(i);
          if (a > m) m = a;
        },
        AbsMax(amax));
    printf("%g %d\n", amax, calls());
  }
  Kokkos::finalize();
  return 0;
}
