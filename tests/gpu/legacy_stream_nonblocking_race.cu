// The twin of legacy_stream_norace with a non-blocking stream: the legacy
// default stream does not wait for it.
// EXPECT: data-race subkind=unordered-streams view=cudaMalloc#1 nodes=kernel:fill,kernel:scale lines=12,13
#include "gpu_check.h"
int main() {
  const int n = 1 << 20;
  float *d, *e;
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  CHECK(cudaMalloc(&e, n * sizeof(float)));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  fill<<<n / 256, 256, 0, s>>>(d, 1.0f, n);
  scale<<<n / 256, 256>>>(e, d, n);
  CHECK(cudaDeviceSynchronize());
  printf("done\n");
  return 0;
}
