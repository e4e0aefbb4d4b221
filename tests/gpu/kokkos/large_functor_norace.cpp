// Kokkos' CUDA backend: the large functor (copied to constant memory) only
// reads the Views that a kernel on another instance reads at the same time,
// and its instance is fenced before the other reads what it wrote.
// EXPECT: no-report
// VARIANTS: preload
#include <Kokkos_Core.hpp>
#include <cstdio>
struct Big {
  Kokkos::View<double *> out;
  Kokkos::View<double *> in[32];
  KOKKOS_FUNCTION void operator()(int i) const {
    double s = 0;
    for (int k = 0; k < 32; ++k)
      s += in[k](i);
    out(i) = s;
  }
};
int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 1 << 18;
    auto inst = Kokkos::Experimental::partition_space(Kokkos::Cuda(), 1, 1);
    Big f;
    f.out = Kokkos::View<double *>("out", n);
    for (int k = 0; k < 32; ++k)
      f.in[k] = Kokkos::View<double *>("in", n);
    Kokkos::View<double *> b("b", n);
    Kokkos::fence();
    static_assert(sizeof(Big) > 512, "the functor goes through constant memory");
    Kokkos::parallel_for("big_write", Kokkos::RangePolicy<>(inst[0], 0, n), f);
    auto in0 = f.in[0];
    Kokkos::parallel_for("read_in", Kokkos::RangePolicy<>(inst[1], 0, n),
                         KOKKOS_LAMBDA(int i) { b(i) = in0(i); });
    inst[0].fence();
    auto out = f.out;
    Kokkos::parallel_for("read_out", Kokkos::RangePolicy<>(inst[1], 0, n),
                         KOKKOS_LAMBDA(int i) { b(i) += out(i); });
    Kokkos::fence();
    printf("done\n");
  }
  Kokkos::finalize();
  return 0;
}
