// KokkosKernels BLAS 1 (axpby, dot, nrm2, scal, update) on double vectors,
// with the kernels instantiated from KokkosKernels' headers in this program
// (so that kkrace instruments them) rather than taken from
// libtrilinos_kokkoskernels or the BLAS library:
//   KOKKOSKERNELS_IMPL_COMPILE_LIBRARY true  makes the headers define the
//     Impl::<Kernel><..., eti_spec_avail = true> specializations (the types
//     the library was built for: double, LayoutLeft, Serial, HostSpace);
//   #undef KOKKOSKERNELS_ENABLE_TPL_BLAS     drops the specializations that
//     call the host BLAS (daxpy, ddot, ...).
// Only the library's types may be used that way: other types have no
// definition left.  The program then links without
// libtrilinos_kokkoskernels, and nm -C shows the kernels' functors
// (KokkosBlas::Impl::Axpby_Functor & co.) in it.  Without Kokkos Kernels
// next to Kokkos (a Kokkos 4 build), the program checks nothing.
// REQUIRES: kokkoskernels
// EXPECT: no-report
#if __has_include(<KokkosKernels_config.h>)
#define KOKKOSKERNELS_IMPL_COMPILE_LIBRARY true
#include <KokkosKernels_config.h>
#undef KOKKOSKERNELS_ENABLE_TPL_BLAS
#include <KokkosBlas1_axpby.hpp>
#include <KokkosBlas1_dot.hpp>
#include <KokkosBlas1_nrm2.hpp>
#include <KokkosBlas1_scal.hpp>
#include <KokkosBlas1_update.hpp>
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 1000;
    Kokkos::View<double *> x("x", n), y("y", n), z("z", n), w("w", n);
    Kokkos::parallel_for(
        "init", n, KOKKOS_LAMBDA(const int i) {
          x(i) = i;
          y(i) = 1;
        });
    KokkosBlas::axpby(2.0, x, 3.0, y);           // y = 2x + 3y
    const double d = KokkosBlas::dot(x, y);      // fences: a host scalar
    const double nr = KokkosBlas::nrm2(y);
    KokkosBlas::scal(z, 0.5, y);                 // z = y / 2
    KokkosBlas::update(1.0, x, -1.0, z, 0.0, w); // w = x - z
    KokkosBlas::axpby(1.0, w, 0.0, w);           // in place, b = 0
    const double nw = KokkosBlas::nrm2(w);
    printf("%g %g %g\n", d, nr, nw);
  }
  Kokkos::finalize();
  return 0;
}
#else
#include <cstdio>
int main() {
  puts("KokkosKernels not found next to Kokkos: nothing to check");
  return 0;
}
#endif
