// DualView syncs that copy nothing do not fence: a sync_host() makes the
// device side's changes visible only when modify_device() marked them.
// Forgetting modify_device(), marking the wrong side, or clearing the
// marks leaves the host's read unordered with the kernel (on a GPU the
// host reads stale data).  Three DualViews, one case each.
// EXPECT: data-race view=a subkind=missing-fence nodes=parallel_for:fill_a,host lines=22,25
// EXPECT: data-race view=b subkind=missing-fence nodes=parallel_for:fill_b,host lines=27,31
// EXPECT: data-race view=c subkind=missing-fence nodes=parallel_for:fill_c,host lines=33,38
#include <Kokkos_Core.hpp>
#include <Kokkos_DualView.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 100;
    Kokkos::DualView<double *> a("a", n), b("b", n), c("c", n);
    auto da = a.d_view, db = b.d_view, dc = c.d_view;
    auto ha = a.h_view, hb = b.h_view, hc = c.h_view;
    double s = 0;
    // No modify_device(): sync_host() does nothing.
    Kokkos::parallel_for("fill_a", n, KOKKOS_LAMBDA(const int i) { da(i) = i; });
    a.sync_host();
    for (int i = 0; i < n; i++)
      s += ha(i);
    // The host side marked instead of the device's.
    Kokkos::parallel_for("fill_b", n, KOKKOS_LAMBDA(const int i) { db(i) = i; });
    b.modify_host();
    b.sync_host();
    for (int i = 0; i < n; i++)
      s += hb(i);
    // The marks cleared before the sync.
    Kokkos::parallel_for("fill_c", n, KOKKOS_LAMBDA(const int i) { dc(i) = i; });
    c.modify_device();
    c.clear_sync_state();
    c.sync_host();
    for (int i = 0; i < n; i++)
      s += hc(i);
    Kokkos::fence();
    printf("%g\n", s);
  }
  Kokkos::finalize();
  return 0;
}
