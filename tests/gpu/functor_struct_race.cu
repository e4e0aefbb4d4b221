// A kernel whose pointers travel inside a struct passed by value (as a
// Kokkos functor's Views do): its footprint is the memory they reach, read
// and maybe written (conservative).  Two such kernels on two unordered
// streams race on the buffer both reach.
// EXPECT: data-race subkind=unordered-streams view=cudaMalloc#1 nodes=kernel:apply<Axpy>,kernel:apply<Axpy>
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
  float *x, *y, *z;
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  CHECK(cudaMalloc(&y, n * sizeof(float)));
  CHECK(cudaMalloc(&z, n * sizeof(float)));
  cudaStream_t s1, s2;
  CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  apply<<<n / 256, 256, 0, s1>>>(Axpy{2.0f, y, x, n});  // writes x
  apply<<<n / 256, 256, 0, s2>>>(Axpy{3.0f, x, z, n});  // reads x
  CHECK(cudaDeviceSynchronize());
  printf("done\n");
  return 0;
}
