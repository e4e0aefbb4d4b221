// cudaMemcpyAsync from pageable memory stages the source before it returns:
// the host may overwrite it at once.
// EXPECT: no-report
#include <vector>
#include "gpu_check.h"
int main() {
  const int n = 1 << 20;
  std::vector<float> h(n, 1.0f);
  float *d;
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaMemcpyAsync(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice, s));
  h[0] = 2.0f;
  CHECK(cudaStreamSynchronize(s));
  printf("done\n");
  return 0;
}
