// KokkosKernels sparse: a CrsMatrix (the 1D Laplacian, built by kernels)
// and spmv (y = A x, and the transpose),
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
#include <KokkosSparse_CrsMatrix.hpp>
#include <KokkosSparse_spmv.hpp>
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    using space = Kokkos::Serial;
    using matrix = KokkosSparse::CrsMatrix<double, int, space, void, int>;
    const int n = 200, nnz = 3 * n - 2;
    matrix::row_map_type::non_const_type rowmap("rowmap", n + 1);
    matrix::index_type::non_const_type cols("cols", nnz);
    matrix::values_type::non_const_type vals("vals", nnz);
    Kokkos::parallel_for(
        "rows", n + 1,
        KOKKOS_LAMBDA(const int i) { rowmap(i) = i == 0 ? 0 : 3 * i - 1; });
    Kokkos::parallel_for(
        "entries", n, KOKKOS_LAMBDA(const int i) {
          int p = i == 0 ? 0 : 3 * i - 1;
          for (int j = i - 1; j <= i + 1; j++) {
            if (j < 0 || j >= n) continue;
            cols(p) = j;
            vals(p) = j == i ? 2.0 : -1.0;
            p++;
          }
        });
    matrix A("A", n, n, nnz, vals, rowmap, cols);
    Kokkos::View<double *> x("x", n), y("y", n), z("z", n);
    Kokkos::parallel_for(
        "initx", n, KOKKOS_LAMBDA(const int i) { x(i) = i * i; });
    KokkosSparse::spmv("N", 1.0, A, x, 0.0, y); // y = A x
    KokkosSparse::spmv("T", 2.0, A, y, 0.0, z); // z = 2 A^T y
    Kokkos::fence();
    printf("%g %g\n", y(5), z(5));
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
