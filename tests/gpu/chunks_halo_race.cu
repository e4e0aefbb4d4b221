// Chunks of one allocation on their own streams, but each chunk's kernel
// also reads the first element of the next chunk, which the next stream is
// copying in: nothing orders that copy before the kernel.
// EXPECT: data-race subkind=unordered-streams view=cudaMalloc#1 nodes=cudaMemcpy:cudaMemcpyAsync(HtoD),kernel:halo lines=23,24
#include "gpu_check.h"
__global__ void halo(float *out, const float *in, int offset, int len, int n) {
  int i = offset + blockIdx.x * blockDim.x + threadIdx.x;
  if (i < offset + len)
    out[i] = in[i] + (i + 1 < n ? in[i + 1] : 0.0f);
}
int main() {
  const int streams = 2, per = 1 << 16, n = streams * per;
  float *h, *d, *e;
  CHECK(cudaMallocHost(&h, n * sizeof(float)));
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  CHECK(cudaMalloc(&e, n * sizeof(float)));
  for (int i = 0; i < n; i++) h[i] = (float)i;
  cudaStream_t s[streams];
  for (int k = 0; k < streams; k++) CHECK(cudaStreamCreate(&s[k]));
  for (int k = 0; k < streams; k++) {
    int off = k * per;
    // The copy of chunk 1 (line 23) races with chunk 0's kernel (line 24).
    CHECK(cudaMemcpyAsync(d + off, h + off, per * sizeof(float), cudaMemcpyHostToDevice, s[k]));
    halo<<<per / 256, 256, 0, s[k]>>>(e, d, off, per, n);
  }
  CHECK(cudaDeviceSynchronize());
  printf("%g\n", h[0]);
  return 0;
}
