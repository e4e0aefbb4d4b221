// The twin of managed_host_race: cudaDeviceSynchronize before the read.
// EXPECT: no-report
#include "gpu_check.h"
int main() {
  const int n = 1 << 16;
  float *m;
  CHECK(cudaMallocManaged(&m, n * sizeof(float)));
  fill<<<n / 256, 256>>>(m, 1.0f, n);
  CHECK(cudaDeviceSynchronize());
  float x = m[0];
  printf("%g\n", x);
  return 0;
}
