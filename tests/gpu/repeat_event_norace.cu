// The twin of repeat_event_race: the event is recorded after the last
// launch of the loop, so the kernel on the second stream that waits for it
// is ordered after every launch, those checked as an earlier repeat too.
// EXPECT: no-report
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
    if (k == 19) CHECK(cudaEventRecord(e, s1));
  }
  CHECK(cudaStreamWaitEvent(s2, e, 0));
  clobber<<<n / 256, 256, 0, s2>>>(a, n);
  CHECK(cudaDeviceSynchronize());
  printf("ok\n");
  return 0;
}
