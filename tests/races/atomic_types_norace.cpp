// Kokkos atomics on int, long, double, Kokkos::complex<double> and a
// 32-byte struct (which Kokkos implements with its lock table, or, on a
// Serial-only Kokkos 3, with plain code), and a View with the Atomic memory
// trait: atomics never race with each other.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

struct Vec4 {
  double v[4];
  KOKKOS_INLINE_FUNCTION Vec4() : v{0, 0, 0, 0} {}
  KOKKOS_INLINE_FUNCTION Vec4(double a) : v{a, a, a, a} {}
  KOKKOS_INLINE_FUNCTION Vec4(const Vec4 &o) : v{o.v[0], o.v[1], o.v[2], o.v[3]} {}
  KOKKOS_INLINE_FUNCTION Vec4(const volatile Vec4 &o)
      : v{o.v[0], o.v[1], o.v[2], o.v[3]} {}
  KOKKOS_INLINE_FUNCTION Vec4 &operator=(const Vec4 &o) {
    for (int k = 0; k < 4; k++) v[k] = o.v[k];
    return *this;
  }
  KOKKOS_INLINE_FUNCTION void operator=(const Vec4 &o) volatile {
    for (int k = 0; k < 4; k++) v[k] = o.v[k];
  }
  KOKKOS_INLINE_FUNCTION Vec4 &operator+=(const Vec4 &o) {
    for (int k = 0; k < 4; k++) v[k] += o.v[k];
    return *this;
  }
  KOKKOS_INLINE_FUNCTION Vec4 operator+(const Vec4 &o) const {
    Vec4 r;
    for (int k = 0; k < 4; k++) r.v[k] = v[k] + o.v[k];
    return r;
  }
};

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 100;
    using cplx = Kokkos::complex<double>;
    Kokkos::View<int> ci("ci"), cmin("cmin"), cmax("cmax"), cinc("cinc");
    Kokkos::View<int> cx("cx"), ccas("ccas");
    Kokkos::View<long> cl("cl"), clsub("clsub"), clmax("clmax");
    Kokkos::View<double> cd("cd"), cdx("cdx"), cdmin("cdmin");
    Kokkos::View<cplx> cc("cc");
    Kokkos::View<Vec4> sx("sx"), sa("sa");
    Kokkos::View<int *> hist("hist", 8);
    Kokkos::View<int *, Kokkos::MemoryTraits<Kokkos::Atomic>> ahist = hist;
    Kokkos::View<double *> out("out", n);
    Kokkos::parallel_for(
        "atomics", n, KOKKOS_LAMBDA(const int i) {
          Kokkos::atomic_add(&ci(), 1);
          Kokkos::atomic_fetch_min(&cmin(), -i);
          Kokkos::atomic_fetch_max(&cmax(), i);
          Kokkos::atomic_increment(&cinc());
          const int old = Kokkos::atomic_exchange(&cx(), i);
          Kokkos::atomic_compare_exchange(&ccas(), i - 1, i);
          Kokkos::atomic_fetch_add(&cl(), long(i));
          Kokkos::atomic_fetch_sub(&clsub(), long(i));
          Kokkos::atomic_max_fetch(&clmax(), long(i));
          Kokkos::atomic_add(&cd(), 0.5 * i);
          const double dold = Kokkos::atomic_exchange(&cdx(), 1.0 * i);
          Kokkos::atomic_min_fetch(&cdmin(), -1.0 * i);
          Kokkos::atomic_add(&cc(), cplx(i, -i));
          const Vec4 sold = Kokkos::atomic_exchange(&sx(), Vec4(i));
          Kokkos::atomic_add(&sa(), Vec4(i));
          ahist(i % 8) += 1;
#if KOKKOS_VERSION >= 40000
          Kokkos::atomic_min(&cmin(), -2 * i);
          Kokkos::atomic_max(&cmax(), 2 * i);
          Kokkos::atomic_sub(&cl(), long(i));
#endif
          out(i) = old + dold + sold.v[0];
        });
    Kokkos::fence();
    printf("%d %d %d %d %d %d\n", ci(), cmin(), cmax(), cinc(), cx(), ccas());
    printf("%ld %ld %ld %g %g %g\n", cl(), clsub(), clmax(), cd(), cdx(),
           cdmin());
    printf("%g %g %g %g %d\n", cc().real(), cc().imag(), sx().v[0], sa().v[3],
           hist(3));
  }
  Kokkos::finalize();
  return 0;
}
