// Chunks of one allocation whose sizes are no power of two (3 chunks of
// 1000 floats, then 7 of 333 in a second buffer), one stream per chunk:
// copy in, a guarded kernel on the chunk, copy out.  Device memory's shadow
// is cut where the accesses begin and end, so neighbouring chunks never
// meet, wherever their boundary falls.
// EXPECT: no-report
#include "gpu_check.h"
__global__ void work(float *a, int offset, int len) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i < len) a[offset + i] = 3.0f * a[offset + i] + 1.0f;
}
static void chunks(int streams, int per, float *h, float *d, cudaStream_t *s) {
  for (int k = 0; k < streams; k++) {
    int off = k * per;
    CHECK(cudaMemcpyAsync(d + off, h + off, per * sizeof(float), cudaMemcpyHostToDevice, s[k]));
    work<<<(per + 127) / 128, 128, 0, s[k]>>>(d, off, per);
    CHECK(cudaMemcpyAsync(h + off, d + off, per * sizeof(float), cudaMemcpyDeviceToHost, s[k]));
  }
}
int main() {
  const int most = 7 * 1000;
  float *h, *d, *e;
  CHECK(cudaMallocHost(&h, most * sizeof(float)));
  CHECK(cudaMalloc(&d, 3 * 1000 * sizeof(float)));
  CHECK(cudaMalloc(&e, 7 * 333 * sizeof(float)));
  for (int i = 0; i < most; i++) h[i] = (float)i;
  cudaStream_t s[7];
  for (int k = 0; k < 7; k++) CHECK(cudaStreamCreate(&s[k]));
  chunks(3, 1000, h, d, s);
  CHECK(cudaDeviceSynchronize());
  chunks(7, 333, h, e, s);
  CHECK(cudaDeviceSynchronize());
  printf("%g %g\n", h[0], h[7 * 333 - 1]);
  return 0;
}
