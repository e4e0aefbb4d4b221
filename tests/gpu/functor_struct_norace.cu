// The twin of functor_struct_race: the two kernels touch disjoint buffers.
// EXPECT: no-report
#include "gpu_check.h"
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
int main() {
  const int n = 1 << 20;
  float *x, *y, *u, *v;
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  CHECK(cudaMalloc(&y, n * sizeof(float)));
  CHECK(cudaMalloc(&u, n * sizeof(float)));
  CHECK(cudaMalloc(&v, n * sizeof(float)));
  cudaStream_t s1, s2;
  CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  apply<<<n / 256, 256, 0, s1>>>(Axpy{2.0f, x, y, n});
  apply<<<n / 256, 256, 0, s2>>>(Axpy{3.0f, u, v, n});
  CHECK(cudaDeviceSynchronize());
  printf("done\n");
  return 0;
}
