// The event is recorded before the copy: waiting on it does not wait for the
// copy, and the host writes the buffer the copy reads.
// EXPECT[inst]: data-race subkind=missing-sync view=cudaMallocHost#1 nodes=cudaMemcpy:cudaMemcpyAsync(HtoD),host
// EXPECT[preload]: no-report (the host code's access is not instrumented)
#include "gpu_check.h"
int main() {
  const int n = 1 << 20;
  float *d, *h;
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  CHECK(cudaMallocHost(&h, n * sizeof(float)));
  cudaStream_t s;
  cudaEvent_t before;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaEventCreate(&before));
  CHECK(cudaEventRecord(before, s));
  CHECK(cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s));
  CHECK(cudaEventSynchronize(before));
  h[0] = 5.0f;
  CHECK(cudaStreamSynchronize(s));
  printf("done\n");
  return 0;
}
