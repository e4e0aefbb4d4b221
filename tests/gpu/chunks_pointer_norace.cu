// One allocation split in chunks whose length is not a multiple of the
// block: each stream's kernel gets a pointer to its chunk and the chunk's
// length, and its threads past the length return.  No chunk's kernel
// reaches the next chunk, which another stream copies and computes.
// (kkrace keeps device memory at 1/32 of an allocation at most, rounded
// to a power of two: chunk boundaries must fall on that grid, as four
// chunks of 384 floats do.)
// EXPECT: no-report
#include "gpu_check.h"
int main() {
  const int streams = 4, per = 384, n = streams * per;
  float *h, *d, *e;
  CHECK(cudaMallocHost(&h, n * sizeof(float)));
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  CHECK(cudaMalloc(&e, n * sizeof(float)));
  for (int i = 0; i < n; i++) h[i] = (float)i;
  cudaStream_t s[streams];
  for (int k = 0; k < streams; k++) CHECK(cudaStreamCreate(&s[k]));
  for (int k = 0; k < streams; k++) {
    int off = k * per;
    CHECK(cudaMemcpyAsync(d + off, h + off, per * sizeof(float), cudaMemcpyHostToDevice, s[k]));
    scale<<<(per + 255) / 256, 256, 0, s[k]>>>(e + off, d + off, per);
    CHECK(cudaMemcpyAsync(h + off, e + off, per * sizeof(float), cudaMemcpyDeviceToHost, s[k]));
  }
  CHECK(cudaDeviceSynchronize());
  printf("%g\n", h[n - 1]);
  return 0;
}
