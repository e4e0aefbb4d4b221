// Chunks of one allocation on their own streams, with kernels that index
// with size_t: a grid-stride loop over the chunk's elements, given the
// chunk's pointer and length.  64-bit comparisons and addresses are two
// instructions each; each kernel still reaches only its chunk.
// EXPECT: no-report
#include "gpu_check.h"
__global__ void saxpy(float *y, const float *x, float a, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}
int main() {
  const int streams = 3;
  const size_t per = 100000, n = streams * per;
  float *hx, *hy, *x, *y;
  CHECK(cudaMallocHost(&hx, n * sizeof(float)));
  CHECK(cudaMallocHost(&hy, n * sizeof(float)));
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  CHECK(cudaMalloc(&y, n * sizeof(float)));
  for (size_t i = 0; i < n; i++) hx[i] = 1.0f, hy[i] = (float)i;
  cudaStream_t s[streams];
  for (int k = 0; k < streams; k++) CHECK(cudaStreamCreate(&s[k]));
  for (int k = 0; k < streams; k++) {
    size_t off = k * per;
    CHECK(cudaMemcpyAsync(x + off, hx + off, per * sizeof(float), cudaMemcpyHostToDevice, s[k]));
    CHECK(cudaMemcpyAsync(y + off, hy + off, per * sizeof(float), cudaMemcpyHostToDevice, s[k]));
    saxpy<<<64, 256, 0, s[k]>>>(y + off, x + off, 2.0f, per);
    CHECK(cudaMemcpyAsync(hy + off, y + off, per * sizeof(float), cudaMemcpyDeviceToHost, s[k]));
  }
  CHECK(cudaDeviceSynchronize());
  printf("%g\n", hy[n - 1]);
  return 0;
}
