// A loop of launches on one stream, ping-pong between two buffers: from the
// third on, each repeats one of the two before it (same kernel, same line,
// same footprint).  An event is recorded in the middle of the loop, and a
// kernel on a second stream waits for it and then writes a: it is ordered
// after the launches before the event, not after those that follow it,
// which read and write a.  A repeated launch is checked as the one it
// repeats only while nothing (an event, here) comes between them.
// EXPECT: data-race subkind=unordered-streams view=cudaMalloc#1 nodes=kernel:step,kernel:clobber lines=29,33
#include "gpu_check.h"
__global__ void step(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * 0.5f + 1.0f;
}
__global__ void clobber(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = 0.0f;
}
int main() {
  const int n = 1 << 16;
  float *a, *b;
  CHECK(cudaMalloc(&a, n * sizeof(float)));
  CHECK(cudaMalloc(&b, n * sizeof(float)));
  cudaStream_t s1, s2;
  cudaEvent_t e;
  CHECK(cudaStreamCreate(&s1));
  CHECK(cudaStreamCreate(&s2));
  CHECK(cudaEventCreate(&e));
  for (int k = 0; k < 20; k++) {
    step<<<n / 256, 256, 0, s1>>>(k % 2 ? a : b, k % 2 ? b : a, n);
    if (k == 9) CHECK(cudaEventRecord(e, s1));
  }
  CHECK(cudaStreamWaitEvent(s2, e, 0));
  clobber<<<n / 256, 256, 0, s2>>>(a, n);
  CHECK(cudaDeviceSynchronize());
  printf("ok\n");
  return 0;
}
