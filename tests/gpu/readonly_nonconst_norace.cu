// Two kernels on two streams read one buffer through a plain float * (not
// const): their machine code shows they only load through it, so reads meet
// reads.  Each writes a buffer of its own.
// EXPECT: no-report
#include "gpu_check.h"
__global__ void twice(float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2 * in[i];
}
int main() {
  const int n = 1 << 20;
  float *in, *o1, *o2;
  CHECK(cudaMalloc(&in, n * sizeof(float)));
  CHECK(cudaMalloc(&o1, n * sizeof(float)));
  CHECK(cudaMalloc(&o2, n * sizeof(float)));
  CHECK(cudaMemset(in, 0, n * sizeof(float)));
  CHECK(cudaDeviceSynchronize());
  cudaStream_t s1, s2;
  CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  twice<<<n / 256, 256, 0, s1>>>(in, o1, n);
  twice<<<n / 256, 256, 0, s2>>>(in, o2, n);
  CHECK(cudaDeviceSynchronize());
  printf("done\n");
  return 0;
}
