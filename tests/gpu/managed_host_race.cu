// The host reads managed memory while a kernel that writes it may still run.
// EXPECT[inst]: data-race subkind=missing-sync view=cudaMallocManaged#1 nodes=kernel:fill,host
// EXPECT[preload]: no-report (the host code's access is not instrumented)
#include "gpu_check.h"
int main() {
  const int n = 1 << 16;
  float *m;
  CHECK(cudaMallocManaged(&m, n * sizeof(float)));
  fill<<<n / 256, 256>>>(m, 1.0f, n);
  float x = m[0];
  CHECK(cudaDeviceSynchronize());
  printf("%g\n", x);
  return 0;
}
