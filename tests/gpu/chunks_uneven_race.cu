// Three chunks of 1000 floats on their own streams, but each chunk's copy
// back to the host (line 26) takes one float too many: the first float of
// the next chunk, which the next stream copies in (line 24).  One report
// for the pair, on 2 elements (chunks 0-1 and 1-2); the next kernel's write
// (line 25) comes after that copy on its stream, and a location's first
// race is its only one.
// EXPECT: data-race subkind=unordered-streams view=cudaMalloc#1 nodes=cudaMemcpy:cudaMemcpyAsync(DtoH),cudaMemcpy:cudaMemcpyAsync(HtoD) lines=24,26
#include "gpu_check.h"
__global__ void work(float *a, int offset, int len) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i < len) a[offset + i] = 3.0f * a[offset + i] + 1.0f;
}
int main() {
  const int streams = 3, per = 1000, n = streams * per;
  float *h, *o, *d;
  CHECK(cudaMallocHost(&h, n * sizeof(float)));
  CHECK(cudaMallocHost(&o, streams * (per + 1) * sizeof(float)));
  CHECK(cudaMalloc(&d, (n + 1) * sizeof(float)));
  for (int i = 0; i < n; i++) h[i] = (float)i;
  cudaStream_t s[streams];
  for (int k = 0; k < streams; k++) CHECK(cudaStreamCreate(&s[k]));
  for (int k = 0; k < streams; k++) {
    int off = k * per;
    CHECK(cudaMemcpyAsync(d + off, h + off, per * sizeof(float), cudaMemcpyHostToDevice, s[k]));
    work<<<(per + 127) / 128, 128, 0, s[k]>>>(d, off, per);
    CHECK(cudaMemcpyAsync(o + k * (per + 1), d + off, (per + 1) * sizeof(float), cudaMemcpyDeviceToHost, s[k]));
  }
  CHECK(cudaDeviceSynchronize());
  printf("%g\n", o[per]);
  return 0;
}
