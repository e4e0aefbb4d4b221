// cudaMemset2DAsync on stream s1 clears a pitched allocation that a kernel
// on stream s2 reads at the same time; after cudaStreamSynchronize(s1), a
// second reader is fine.
// EXPECT: data-race subkind=unordered-streams view=cudaMalloc#1 nodes=cudaMemset:cudaMemset2DAsync,kernel:scale lines=17,18
#include "gpu_check.h"
int main() {
  const int w = 1024, h = 256;
  float *dp, *e;
  size_t pitch;
  CHECK(cudaMallocPitch(&dp, &pitch, w * sizeof(float), h));
  int m = (int)(pitch / sizeof(float)) * h;
  CHECK(cudaMalloc(&e, pitch * h));
  CHECK(cudaDeviceSynchronize());
  cudaStream_t s1, s2;
  CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  CHECK(cudaMemset2DAsync(dp, pitch, 0, w * sizeof(float), h, s1));
  scale<<<m / 256, 256, 0, s2>>>(e, dp, m);
  CHECK(cudaStreamSynchronize(s1));
  scale<<<m / 256, 256, 0, s2>>>(e, dp, m);
  CHECK(cudaDeviceSynchronize());
  printf("done\n");
  return 0;
}
