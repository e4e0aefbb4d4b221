/* The floor that CUPTI sets: a preloaded library that subscribes to the
 * same kernel launch callbacks as libkkrace_cupti (the driver's launch
 * calls) and returns from each at once.  bench/gpu/run.sh runs the plain
 * build with it, so that kkrace's own share of a launch's cost shows. */
#include <cupti.h>
#include <stdio.h>

static void CUPTIAPI nothing(void *userdata, CUpti_CallbackDomain domain,
                             CUpti_CallbackId id, const void *data) {
  (void)userdata;
  (void)domain;
  (void)id;
  (void)data;
}

__attribute__((constructor)) static void subscribe(void) {
  static const CUpti_CallbackId ids[] = {
      CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
      CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
      CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
      CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
      CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
      CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
  };
  CUpti_SubscriberHandle sub;
  if (cuptiSubscribe(&sub, nothing, NULL) != CUPTI_SUCCESS) {
    fprintf(stderr, "cupti_floor: cuptiSubscribe failed\n");
    return;
  }
  for (size_t i = 0; i < sizeof ids / sizeof *ids; i++)
    cuptiEnableCallback(1, sub, CUPTI_CB_DOMAIN_DRIVER_API, ids[i]);
}
