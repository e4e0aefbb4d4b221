// The host waits on an event recorded after the copy (cudaEventSynchronize)
// before it reads the pinned buffer.
// EXPECT: no-report
#include "gpu_check.h"
int main() {
  const int n = 1 << 20;
  float *d, *h;
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  CHECK(cudaMallocHost(&h, n * sizeof(float)));
  cudaStream_t s;
  cudaEvent_t done;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaEventCreate(&done));
  fill<<<n / 256, 256, 0, s>>>(d, 1.0f, n);
  CHECK(cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s));
  CHECK(cudaEventRecord(done, s));
  CHECK(cudaEventSynchronize(done));
  h[0] += 1.0f;
  printf("%g\n", h[0]);
  return 0;
}
