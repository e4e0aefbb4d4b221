// A Kokkos program built for CUDA: conjugate-gradient-like iterations on a
// 1D Laplacian (a matrix-free product, two dot products, three axpys per
// iteration) with n = 2^22, plus a halo-like copy to a pinned mirror every
// 10 iterations on a second instance.  Built with Kokkos' CUDA backend
// (bench/gpu/run.sh with KOKKOS=<prefix>); run plain and with the runtime
// preloaded.
#include <Kokkos_Core.hpp>
#include <chrono>
#include <cstdio>
int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 1 << 22, iters = 200;
    using V = Kokkos::View<double *>;
    V x("x", n), r("r", n), p("p", n), ap("ap", n);
    Kokkos::View<double *, Kokkos::CudaHostPinnedSpace> halo("halo", 1024);
    auto inst = Kokkos::Experimental::partition_space(Kokkos::Cuda(), 1, 1);
    Kokkos::deep_copy(r, 1.0);
    Kokkos::deep_copy(p, 1.0);
    Kokkos::fence();
    auto t0 = std::chrono::steady_clock::now();
    double rr = n;
    for (int it = 0; it < iters; ++it) {
      Kokkos::parallel_for("matvec", n, KOKKOS_LAMBDA(int i) {
        double left = i > 0 ? p(i - 1) : 0, right = i < n - 1 ? p(i + 1) : 0;
        ap(i) = 2 * p(i) - left - right + 0.01 * p(i);
      });
      double pap = 0;
      Kokkos::parallel_reduce("pap", n, KOKKOS_LAMBDA(int i, double &s) {
        s += p(i) * ap(i);
      }, pap);
      const double alpha = rr / pap;
      Kokkos::parallel_for("update_x", n, KOKKOS_LAMBDA(int i) { x(i) += alpha * p(i); });
      Kokkos::parallel_for("update_r", n, KOKKOS_LAMBDA(int i) { r(i) -= alpha * ap(i); });
      double rr_new = 0;
      Kokkos::parallel_reduce("rr", n, KOKKOS_LAMBDA(int i, double &s) {
        s += r(i) * r(i);
      }, rr_new);
      const double beta = rr_new / rr;
      rr = rr_new;
      Kokkos::parallel_for("update_p", n, KOKKOS_LAMBDA(int i) { p(i) = r(i) + beta * p(i); });
      if (it % 10 == 0) {
        Kokkos::fence();
        Kokkos::deep_copy(inst[0], halo, Kokkos::subview(x, Kokkos::make_pair(0, 1024)));
        inst[0].fence();
      }
    }
    Kokkos::fence();
    double ms = std::chrono::duration<double, std::milli>(
                    std::chrono::steady_clock::now() - t0).count();
    printf("rr=%g halo=%g\ntime_ms=%.3f\n", rr, halo(7), ms);
  }
  Kokkos::finalize();
  return 0;
}
