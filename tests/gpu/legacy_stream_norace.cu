// A kernel on a blocking stream, then one on the legacy default stream: the
// default stream waits for the blocking stream's earlier work.
// EXPECT: no-report
#include "gpu_check.h"
int main() {
  const int n = 1 << 20;
  float *d, *e;
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  CHECK(cudaMalloc(&e, n * sizeof(float)));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  fill<<<n / 256, 256, 0, s>>>(d, 1.0f, n);
  scale<<<n / 256, 256>>>(e, d, n);
  fill<<<n / 256, 256, 0, s>>>(e, 3.0f, n);  // after the default stream's work
  CHECK(cudaDeviceSynchronize());
  printf("done\n");
  return 0;
}
