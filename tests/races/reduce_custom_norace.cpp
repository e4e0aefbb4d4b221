// User-defined reductions: a reducer class (init, join, reference), a
// functor with its own value_type, init, join and final, and a tagged
// functor.  Kokkos calls init, join and final outside the iterations; each
// iteration updates only its own value.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

// A reducer: the largest absolute value.
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

struct Stats {
  double sum, sumsq;
  int count;
};

// A functor reduction with a struct value.
struct MeanVar {
  using value_type = Stats;
  Kokkos::View<double *> x;
  KOKKOS_INLINE_FUNCTION void operator()(const int i, Stats &s) const {
    s.sum += x(i);
    s.sumsq += x(i) * x(i);
    s.count += 1;
  }
  KOKKOS_INLINE_FUNCTION void init(Stats &s) const {
    s.sum = s.sumsq = 0;
    s.count = 0;
  }
  KOKKOS_INLINE_FUNCTION void join(Stats &d, const Stats &s) const {
    d.sum += s.sum;
    d.sumsq += s.sumsq;
    d.count += s.count;
  }
  KOKKOS_INLINE_FUNCTION void join(volatile Stats &d,
                                   const volatile Stats &s) const {
    d.sum += s.sum;
    d.sumsq += s.sumsq;
    d.count += s.count;
  }
  KOKKOS_INLINE_FUNCTION void final(Stats &s) const {
    s.sum /= s.count;
    s.sumsq = s.sumsq / s.count - s.sum * s.sum;
  }
};

struct Evens {};
struct Odds {};
// A tagged functor: two reductions over one functor.
struct Tagged {
  Kokkos::View<double *> x;
  KOKKOS_INLINE_FUNCTION void operator()(const Evens &, const int i,
                                         double &s) const {
    if (i % 2 == 0) s += x(i);
  }
  KOKKOS_INLINE_FUNCTION void operator()(Odds, const int i, double &s) const {
    if (i % 2) s += x(i);
  }
};

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 100;
    Kokkos::View<double *> x("x", n);
    Kokkos::parallel_for(
        "init", n, KOKKOS_LAMBDA(const int i) { x(i) = (i * 37) % 101 - 50.0; });
    Kokkos::fence();
    double amax = 0, evens = 0, odds = 0;
    Stats st;
    Kokkos::parallel_reduce(
        "absmax", n,
        KOKKOS_LAMBDA(const int i, double &m) {
          const double a = x(i) < 0 ? -x(i) : x(i);
          if (a > m) m = a;
        },
        AbsMax(amax));
    Kokkos::parallel_reduce("meanvar", n, MeanVar{x}, st);
    Kokkos::parallel_reduce(
        "evens", Kokkos::RangePolicy<Evens>(0, n), Tagged{x}, evens);
    Kokkos::parallel_reduce(
        "odds", Kokkos::RangePolicy<Odds>(0, n), Tagged{x}, odds);
    printf("absmax %g mean %g var %g (%d) %g %g\n", amax, st.sum, st.sumsq,
           st.count, evens, odds);
  }
  Kokkos::finalize();
  return 0;
}
