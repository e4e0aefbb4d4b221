// Gathers whose index is cut to its low bits (bins(key(i) & 255), a key
// cast to a signed char), checked by one call before their loops: a plain
// += into a bin that several strands share races, and so does a plain
// write through a signed 8-bit index that two strands share.  The keys'
// high bits point outside the Views: only their low bits name an element.
// EXPECT: data-race view=bins subkind=iteration-overlap nodes=parallel_for:plain_hist,parallel_for:plain_hist lines=30,30
// EXPECT: data-race view=out subkind=iteration-overlap nodes=parallel_for:signed_scatter,parallel_for:signed_scatter lines=34,34
// EXPECT-TEXT: (bins[17], element 17 of 256)
// EXPECT-TEXT: (out[200], element 200 of 256)
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 4096;
    Kokkos::View<int *> key("key", n), skey("skey", n);
    Kokkos::View<long *> bins("bins", 256), out("out", 256);
    // Every key's low byte is 17 for the first 64 strands (then spread);
    // the signed keys' low bytes are 72 (200 - 128) for strands 0 and 1,
    // and i - 128 for the others.
    Kokkos::parallel_for("init", n, KOKKOS_LAMBDA(int i) {
      key(i) = (i << 8) | (i < 64 ? 17 : i & 255);
      skey(i) = (i << 8) | (i < 2 ? 72 : (i - 128) & 255);
    });
    Kokkos::fence();
    // Several strands add to bin 17 with a plain +=.
    Kokkos::parallel_for("plain_hist", n, KOKKOS_LAMBDA(int i) {
      bins(key(i) & 255) += 1;
    });
    // Strands 0 and 1 both write out(200); strand i > 1 writes out(i).
    Kokkos::parallel_for("signed_scatter", 200, KOKKOS_LAMBDA(int i) {
      out((int8_t)skey(i) + 128) = i;
    });
    Kokkos::fence();
    printf("%ld %ld\n", bins(17), out(200));
  }
  Kokkos::finalize();
  return 0;
}
