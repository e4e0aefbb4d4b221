// A user functor written like KokkosBlas::Impl::Axpby_Functor (scalars a, b,
// index by const reference) with a planted race: y(i) = a x(i) + b y(i + 1)
// reads the element iteration i + 1 writes.  Around it, KokkosKernels' own
// axpby and dot (instantiated here, see blas1_norace.cpp) add no report.
// REQUIRES: kokkoskernels
// EXPECT: data-race view=y subkind=iteration-overlap nodes=parallel_for:shifted_axpby,parallel_for:shifted_axpby lines=30,30
#if __has_include(<KokkosKernels_config.h>)
#define KOKKOSKERNELS_IMPL_COMPILE_LIBRARY true
#include <KokkosKernels_config.h>
#undef KOKKOSKERNELS_ENABLE_TPL_BLAS
#include <KokkosBlas1_axpby.hpp>
#include <KokkosBlas1_dot.hpp>
#define HAVE_KOKKOSKERNELS 1
#endif
#include <Kokkos_Core.hpp>
#include <cstdio>

template <class XV, class YV, class SizeType = typename YV::size_type>
struct ShiftedAxpbyFunctor {
  using execution_space = typename YV::execution_space;
  using size_type = SizeType;
  using scalar = typename YV::non_const_value_type;
  XV m_x;
  YV m_y;
  scalar m_a, m_b;
  ShiftedAxpbyFunctor(const XV &x, const YV &y, scalar a, scalar b)
      : m_x(x), m_y(y), m_a(a), m_b(b) {}
  KOKKOS_INLINE_FUNCTION void operator()(const size_type &i) const {
    // Meant: m_y(i) = m_a * m_x(i) + m_b * m_y(i).
    m_y(i) = m_a * m_x(i) + m_b * m_y(i + 1);
  }
};

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 1000;
    using view = Kokkos::View<double *>;
    view x("x", n), y("y", n + 1);
    Kokkos::parallel_for(
        "init", n + 1, KOKKOS_LAMBDA(const int i) {
          if (i < n) x(i) = i;
          y(i) = 1;
        });
    auto y0 = Kokkos::subview(y, std::make_pair(0, n));
#ifdef HAVE_KOKKOSKERNELS
    KokkosBlas::axpby(2.0, x, 3.0, y0);
#endif
    Kokkos::parallel_for("shifted_axpby",
                         Kokkos::RangePolicy<view::execution_space, int>(0, n),
                         ShiftedAxpbyFunctor<view, view, int>(x, y, 2.0, 3.0));
    double d = 0;
#ifdef HAVE_KOKKOSKERNELS
    d = KokkosBlas::dot(x, y0);
#endif
    Kokkos::fence();
    printf("%g %g\n", d, y(3));
  }
  Kokkos::finalize();
  return 0;
}
