// cudaMemcpy device to host returns when the copy is done, after the
// default stream's earlier kernel: the host may read and reuse everything.
// EXPECT: no-report
#include "gpu_check.h"
int main() {
  const int n = 1 << 20;
  float *d, *e, *h;
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  CHECK(cudaMalloc(&e, n * sizeof(float)));
  CHECK(cudaMallocHost(&h, n * sizeof(float)));
  fill<<<n / 256, 256>>>(d, 1.0f, n);
  CHECK(cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost));
  h[0] += 1.0f;
  CHECK(cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice));
  scale<<<n / 256, 256>>>(e, d, n);
  CHECK(cudaMemcpy(h, e, n * sizeof(float), cudaMemcpyDeviceToHost));
  printf("%g\n", h[1]);
  return 0;
}
