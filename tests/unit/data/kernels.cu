#include "../../gpu/gpu_check.h"
struct Axpy {
  float a;
  const float *x;
  float *y;
  int n;
  __device__ void operator()(int i) const {
    if (i < n) y[i] += a * x[i];
  }
};
template <class F> __global__ void apply(F f) {
  f(blockIdx.x * blockDim.x + threadIdx.x);
}
template __global__ void apply<Axpy>(Axpy);
__global__ void readonly2(float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * in[(i + 1) % n];
}
// Kokkos' CUDA backend copies a functor too large for a kernel argument to
// this __constant__ variable and launches a kernel without parameters that
// reads it: in (words 0-69) read, out (word 70) written.
struct Wide {
  const double *in[70];
  double *out;
  int n;
};
__constant__ unsigned long kokkos_impl_cuda_constant_memory_buffer[4096];
__global__ void wide_from_constant() {
  const Wide &w = *(const Wide *)kokkos_impl_cuda_constant_memory_buffer;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < w.n) {
    double s = 0;
    for (int k = 0; k < 70; ++k)
      s += w.in[k][i];
    w.out[i] = s;
  }
}
