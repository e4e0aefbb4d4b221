// Built with --default-stream per-thread: two kernels on the thread's
// default stream run in order.
// NVCC-FLAGS: --default-stream per-thread
// EXPECT: no-report
#include "gpu_check.h"
int main() {
  const int n = 1 << 20;
  float *d, *e;
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  CHECK(cudaMalloc(&e, n * sizeof(float)));
  fill<<<n / 256, 256>>>(d, 1.0f, n);
  scale<<<n / 256, 256>>>(e, d, n);
  CHECK(cudaStreamSynchronize(cudaStreamPerThread));
  printf("done\n");
  return 0;
}
