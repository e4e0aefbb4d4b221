// Atomics of several types and widths mixed with a plain access to the same
// element from another iteration: each kernel has one race, an atomic
// against a plain access.
// EXPECT: data-race view=cl subkind=iteration-overlap nodes=parallel_for:long,parallel_for:long atomic=0,1 lines=43,45
// EXPECT: data-race view=cd subkind=iteration-overlap nodes=parallel_for:double,parallel_for:double atomic=0,1 lines=50,52
// EXPECT: data-race view=cc subkind=iteration-overlap nodes=parallel_for:complex,parallel_for:complex atomic=0,1 lines=57,59
// EXPECT: data-race view=sx subkind=iteration-overlap nodes=parallel_for:struct,parallel_for:struct atomic=0,1 lines=64,66
// EXPECT: data-race view=hist subkind=iteration-overlap nodes=parallel_for:trait,parallel_for:trait atomic=0,1 lines=71,73
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
};

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 100;
    using cplx = Kokkos::complex<double>;
    Kokkos::View<long> cl("cl");
    Kokkos::View<double> cd("cd");
    Kokkos::View<cplx> cc("cc");
    Kokkos::View<Vec4> sx("sx");
    Kokkos::View<int *> hist("hist", 8);
    Kokkos::View<int *, Kokkos::MemoryTraits<Kokkos::Atomic>> ahist = hist;
    Kokkos::View<double *> out("out", n);
    Kokkos::parallel_for(
        "long", n, KOKKOS_LAMBDA(const int i) {
          if (i != 7)
            Kokkos::atomic_compare_exchange(&cl(), long(i - 1), long(i));
          else
            cl() = 0;
        });
    Kokkos::parallel_for(
        "double", n, KOKKOS_LAMBDA(const int i) {
          if (i != 7)
            Kokkos::atomic_fetch_add(&cd(), 0.5);
          else
            out(i) = cd();
        });
    Kokkos::parallel_for(
        "complex", n, KOKKOS_LAMBDA(const int i) {
          if (i != 7)
            Kokkos::atomic_add(&cc(), cplx(i, 1));
          else
            out(i) = cc().real();
        });
    Kokkos::parallel_for(
        "struct", n, KOKKOS_LAMBDA(const int i) {
          if (i != 7)
            Kokkos::atomic_exchange(&sx(), Vec4(i));
          else
            out(i) = sx().v[0];
        });
    Kokkos::parallel_for(
        "trait", n, KOKKOS_LAMBDA(const int i) {
          if (i != 7)
            ahist(i % 8) += 1;
          else
            hist(7) = 0;
        });
    Kokkos::fence();
    printf("%ld %g %g %g %d\n", cl(), cd(), cc().real(), sx().v[0], hist(3));
  }
  Kokkos::finalize();
  return 0;
}
