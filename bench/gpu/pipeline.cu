// A multi-stream pipeline: 4 streams, 256 chunks of 4 MiB, each chunk copied
// in, computed on and copied out on its stream; events order a shared
// accumulation stream after each chunk.
#include "bench_common.h"
__global__ void work(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float x = in[i];
    for (int k = 0; k < 16; k++) x = x * 0.999f + 0.5f;
    out[i] = x;
  }
}
__global__ void accumulate(float *acc, const float *part, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) acc[i] += part[i];
}
int main() {
  const int n = 1 << 20, nstreams = 4, chunks = 256;
  float *h[nstreams], *din[nstreams], *dout[nstreams], *acc;
  cudaStream_t s[nstreams], sum;
  cudaEvent_t done[nstreams], used[nstreams];
  CHECK(cudaMalloc(&acc, n * sizeof(float)));
  CHECK(cudaMemset(acc, 0, n * sizeof(float)));
  CHECK(cudaStreamCreateWithFlags(&sum, cudaStreamNonBlocking));
  for (int i = 0; i < nstreams; i++) {
    CHECK(cudaMallocHost(&h[i], n * sizeof(float)));
    CHECK(cudaMalloc(&din[i], n * sizeof(float)));
    CHECK(cudaMalloc(&dout[i], n * sizeof(float)));
    CHECK(cudaStreamCreateWithFlags(&s[i], cudaStreamNonBlocking));
    CHECK(cudaEventCreateWithFlags(&done[i], cudaEventDisableTiming));
    CHECK(cudaEventCreateWithFlags(&used[i], cudaEventDisableTiming));
    for (int j = 0; j < n; j++) h[i][j] = (float)j;
  }
  CHECK(cudaDeviceSynchronize());
  {
    Timer t;
    for (int c = 0; c < chunks; c++) {
      int i = c % nstreams;
      CHECK(cudaStreamWaitEvent(s[i], used[i], 0));
      CHECK(cudaMemcpyAsync(din[i], h[i], n * sizeof(float), cudaMemcpyHostToDevice, s[i]));
      work<<<n / 256, 256, 0, s[i]>>>(dout[i], din[i], n);
      CHECK(cudaEventRecord(done[i], s[i]));
      CHECK(cudaStreamWaitEvent(sum, done[i], 0));
      accumulate<<<n / 256, 256, 0, sum>>>(acc, dout[i], n);
      CHECK(cudaEventRecord(used[i], sum));
    }
    CHECK(cudaDeviceSynchronize());
  }
  return 0;
}
