// A kernel writes pinned memory on stream s; a host function enqueued after
// it on s reads that memory (the stream orders them) and writes a result
// that the host reads after cudaStreamSynchronize; a stream callback does
// the same.
// EXPECT: no-report
#include "gpu_check.h"
struct Job {
  const float *h;
  int n;
  float sum;
};
void CUDART_CB consume(void *p) {
  Job *j = (Job *)p;
  float s = 0;
  for (int i = 0; i < j->n; ++i)
    s += j->h[i];
  j->sum = s;
}
void CUDART_CB consume_cb(cudaStream_t, cudaError_t, void *p) { consume(p); }
int main() {
  const int n = 1 << 16;
  float *h;
  CHECK(cudaMallocHost(&h, n * sizeof(float)));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  fill<<<n / 256, 256, 0, s>>>(h, 1.0f, n);
  Job job = {h, n, 0};
  CHECK(cudaLaunchHostFunc(s, consume, &job));
  CHECK(cudaStreamSynchronize(s));
  float first = job.sum;
  fill<<<n / 256, 256, 0, s>>>(h, 2.0f, n);
  CHECK(cudaStreamAddCallback(s, consume_cb, &job, 0));
  CHECK(cudaStreamSynchronize(s));
  printf("%g %g\n", first, job.sum);
  return 0;
}
