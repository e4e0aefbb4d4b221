// KokkosKernels BLAS 2 and 3 (gemv, gemm, plain and transposed) on double
// LayoutLeft matrices,
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
#include <KokkosBlas2_gemv.hpp>
#include <KokkosBlas3_gemm.hpp>
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int m = 100, n = 130, k = 40; // several teams of gemm blocks
    using matrix = Kokkos::View<double **, Kokkos::LayoutLeft>;
    matrix A("A", m, k), B("B", k, n), C("C", m, n), G("G", n, n);
    Kokkos::View<double *> x("x", n), y("y", m), xt("xt", m), yt("yt", n);
    Kokkos::parallel_for(
        "initA", Kokkos::MDRangePolicy<Kokkos::Rank<2>>({0, 0}, {m, k}),
        KOKKOS_LAMBDA(const int i, const int j) { A(i, j) = i - 0.5 * j; });
    Kokkos::parallel_for(
        "initB", Kokkos::MDRangePolicy<Kokkos::Rank<2>>({0, 0}, {k, n}),
        KOKKOS_LAMBDA(const int i, const int j) { B(i, j) = 0.25 * i + j; });
    Kokkos::parallel_for(
        "initx", n, KOKKOS_LAMBDA(const int i) { x(i) = 1.0 / (i + 1); });
    Kokkos::parallel_for(
        "initxt", m, KOKKOS_LAMBDA(const int i) { xt(i) = i % 3; });
    KokkosBlas::gemm("N", "N", 1.0, A, B, 0.0, C); // C = A B
    KokkosBlas::gemm("T", "N", 1.0, C, C, 0.0, G); // G = C^T C
    KokkosBlas::gemv("N", 1.0, C, x, 0.0, y);      // y = C x
    KokkosBlas::gemv("T", 2.0, C, xt, 0.0, yt);    // yt = 2 C^T xt
    Kokkos::fence();
    printf("%g %g %g %g\n", C(1, 2), G(0, 0), y(m - 1), yt(0));
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
