// Halo exchange without the events: two streams each own half of a 1D
// grid, and each half's next step reads the border cell that the other
// stream's step writes, with nothing ordering them.  One report for the
// pair of launches (line 23), on the border cells of both buffers.
// EXPECT: data-race subkind=unordered-streams view=cudaMalloc#1 nodes=kernel:step,kernel:step lines=23,23
#include "gpu_check.h"
__global__ void step(float *next, const float *cur, int lo, int hi, int n) {
  int i = lo + blockIdx.x * blockDim.x + threadIdx.x;
  if (i < hi) next[i] = 0.5f * cur[i] + 0.25f * ((i > 0 ? cur[i - 1] : 0.f) + (i + 1 < n ? cur[i + 1] : 0.f));
}
int main() {
  const int n = 1 << 20, half = n / 2;
  float *a, *b;
  CHECK(cudaMalloc(&a, n * sizeof(float)));
  CHECK(cudaMalloc(&b, n * sizeof(float)));
  CHECK(cudaMemset(a, 0, n * sizeof(float)));
  CHECK(cudaMemset(b, 0, n * sizeof(float)));
  cudaStream_t s[2];
  for (int k = 0; k < 2; k++) CHECK(cudaStreamCreate(&s[k]));
  float *cur = a, *next = b;
  for (int t = 0; t < 10; t++) {
    for (int k = 0; k < 2; k++)
      step<<<half / 256, 256, 0, s[k]>>>(next, cur, k * half, (k + 1) * half, n);
    float *x = cur; cur = next; next = x;
  }
  CHECK(cudaDeviceSynchronize());
  printf("ok\n");
  return 0;
}
