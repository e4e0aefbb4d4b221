// Many small kernels: 20000 launches (or argv[1]) of a kernel over 64 Ki
// floats on one stream, each reading the last one's output (launch overhead
// dominates).
#include "bench_common.h"
__global__ void step(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * 0.5f + 1.0f;
}
int main(int argc, char **argv) {
  const int n = 1 << 16, iters = argc > 1 ? atoi(argv[1]) : 20000;
  float *a, *b;
  CHECK(cudaMalloc(&a, n * sizeof(float)));
  CHECK(cudaMalloc(&b, n * sizeof(float)));
  CHECK(cudaMemset(a, 0, n * sizeof(float)));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaDeviceSynchronize());
  {
    Timer t;
    for (int k = 0; k < iters; k++) {
      step<<<n / 256, 256, 0, s>>>(k % 2 ? a : b, k % 2 ? b : a, n);
    }
    CHECK(cudaStreamSynchronize(s));
  }
  return 0;
}
