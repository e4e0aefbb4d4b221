// A three-stage pipeline over two streams, chunk by chunk: copy in on the
// copy stream, compute after an event, copy out on the compute stream; the
// host reuses a staging buffer only after the event that says its copy is
// done.  (Each buffer is an allocation of its own; tests/gpu/chunks_*.cu
// split one allocation instead.)
// EXPECT: no-report
#include "gpu_check.h"
int main() {
  const int n = 1 << 18, chunks = 8;
  float *h[2], *d[2], *e[2];
  for (int b = 0; b < 2; b++) {
    CHECK(cudaMallocHost(&h[b], n * sizeof(float)));
    CHECK(cudaMalloc(&d[b], n * sizeof(float)));
    CHECK(cudaMalloc(&e[b], n * sizeof(float)));
  }
  cudaStream_t copy, compute;
  cudaEvent_t in[2], out[2];
  CHECK(cudaStreamCreateWithFlags(&copy, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&compute, cudaStreamNonBlocking));
  for (int b = 0; b < 2; b++) {
    CHECK(cudaEventCreateWithFlags(&in[b], cudaEventDisableTiming));
    CHECK(cudaEventCreateWithFlags(&out[b], cudaEventDisableTiming));
    CHECK(cudaEventRecord(out[b], compute));
  }
  for (int c = 0; c < chunks; c++) {
    int b = c % 2;
    float *hb = h[b], *db = d[b], *eb = e[b];
    CHECK(cudaEventSynchronize(out[b]));  // the last use of this buffer
    for (int i = 0; i < n; i++) hb[i] = (float)c;
    CHECK(cudaStreamWaitEvent(copy, out[b], 0));
    CHECK(cudaMemcpyAsync(db, hb, n * sizeof(float), cudaMemcpyHostToDevice, copy));
    CHECK(cudaEventRecord(in[b], copy));
    CHECK(cudaStreamWaitEvent(compute, in[b], 0));
    scale<<<n / 256, 256, 0, compute>>>(eb, db, n);
    CHECK(cudaMemcpyAsync(hb, eb, n * sizeof(float), cudaMemcpyDeviceToHost, compute));
    CHECK(cudaEventRecord(out[b], compute));
  }
  CHECK(cudaDeviceSynchronize());
  printf("%g\n", h[0][0]);
  return 0;
}
