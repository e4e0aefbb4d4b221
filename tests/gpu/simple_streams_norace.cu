// The CUDA samples' simpleStreams pattern: one buffer in four chunks, a
// kernel per chunk on its own stream whose loop count is read from device
// memory, each chunk copied back on its stream.  The kernels have no
// guard: their footprint is exactly their grid, one chunk each.
// EXPECT: no-report
#include "gpu_check.h"
__global__ void init_array(int *g_data, int *factor, int num_iterations) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = 0; i < num_iterations; i++) g_data[idx] += *factor;
}
int main() {
  const int nstreams = 4, n = 16 * 1024 * 1024, nbytes = n * sizeof(int);
  int *a, *d_a, *d_c, c = 5;
  cudaStream_t streams[nstreams];
  for (int i = 0; i < nstreams; i++) CHECK(cudaStreamCreate(&streams[i]));
  CHECK(cudaMallocHost(&a, nbytes));
  CHECK(cudaMalloc(&d_a, nbytes));
  CHECK(cudaMalloc(&d_c, sizeof(int)));
  CHECK(cudaMemcpy(d_c, &c, sizeof(int), cudaMemcpyHostToDevice));
  dim3 threads(512, 1), blocks(n / (nstreams * threads.x), 1);
  CHECK(cudaMemset(d_a, 0, nbytes));
  for (int k = 0; k < 3; k++) {
    for (int i = 0; i < nstreams; i++)
      init_array<<<blocks, threads, 0, streams[i]>>>(d_a + i * n / nstreams, d_c, 5);
    for (int i = 0; i < nstreams; i++)
      CHECK(cudaMemcpyAsync(a + i * n / nstreams, d_a + i * n / nstreams, nbytes / nstreams, cudaMemcpyDeviceToHost, streams[i]));
  }
  CHECK(cudaDeviceSynchronize());
  printf("%d\n", a[n - 1]);
  return 0;
}
