// KokkosKernels sparse: C = A * A with spgemm (symbolic, then numeric),
// instantiated from KokkosKernels' headers in this program, as in
// spmv_norace.cpp.  spgemm's kernels hand each team a chunk of a memory
// pool ("pool data"): on Serial every team gets thread 0's chunk, which is
// no race (each thread of a parallel backend has its own).  Kokkos Kernels
// 3.4's headers need -fdelayed-template-parsing with clang 19.
// REQUIRES: kokkoskernels
// BUILD-FLAGS: -fdelayed-template-parsing
// EXPECT: no-report
#if __has_include(<KokkosKernels_config.h>)
#define KOKKOSKERNELS_IMPL_COMPILE_LIBRARY true
#include <KokkosKernels_config.h>
#undef KOKKOSKERNELS_ENABLE_TPL_BLAS
#include <KokkosSparse_CrsMatrix.hpp>
#include <KokkosSparse_spgemm.hpp>
#include <KokkosKernels_Handle.hpp>
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    using space = Kokkos::Serial;

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
    using handle_t = KokkosKernels::Experimental::KokkosKernelsHandle<
        int, int, double, space, Kokkos::HostSpace, Kokkos::HostSpace>;
    handle_t kh;
    kh.create_spgemm_handle(KokkosSparse::SPGEMM_KK);
    matrix C;
    KokkosSparse::spgemm_symbolic(kh, A, false, A, false, C);
    KokkosSparse::spgemm_numeric(kh, A, false, A, false, C);
    kh.destroy_spgemm_handle();
    Kokkos::fence();
    printf("%d %g\n", (int)C.nnz(), C.values(0));
  }
  Kokkos::finalize();
  return 0;
}
#endif
