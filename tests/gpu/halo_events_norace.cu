// Two streams each own half of a 1D grid in one buffer, and each step
// reads one cell beyond its half: after every step each stream waits on
// the other's event.  The kernels' footprints are bounded to their half
// and its two neighbours, and device memory's shadow is cut there, so the
// halves meet only at the cells the events order.
// EXPECT: no-report
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
  cudaEvent_t done[2];
  for (int k = 0; k < 2; k++) {
    CHECK(cudaStreamCreate(&s[k]));
    CHECK(cudaEventCreateWithFlags(&done[k], cudaEventDisableTiming));
  }
  float *cur = a, *next = b;
  for (int t = 0; t < 10; t++) {
    for (int k = 0; k < 2; k++) {
      step<<<half / 256, 256, 0, s[k]>>>(next, cur, k * half, (k + 1) * half, n);
      CHECK(cudaEventRecord(done[k], s[k]));
    }
    // Each half's next step reads the other half's border: wait for it.
    CHECK(cudaStreamWaitEvent(s[0], done[1], 0));
    CHECK(cudaStreamWaitEvent(s[1], done[0], 0));
    float *x = cur; cur = next; next = x;
  }
  CHECK(cudaDeviceSynchronize());
  printf("ok\n");
  return 0;
}
