/* The computation graph (rt/kkr_graph.c): vector clocks, FIFO edges between
 * work items on one instance, fences. */
#include <criterion/criterion.h>

#include "kkr_rt.h"

Test(vc, set_get_join_max) {
  kkr_vc a = {0}, b = {0};
  cr_assert_eq(kkr_vc_get(&a, 5), 0);
  kkr_vc_set(&a, 5, 3);
  kkr_vc_set(&b, 2, 9);
  kkr_vc_set(&b, 5, 1);
  kkr_vc_set(&b, 40, 4);
  kkr_vc_join(&a, &b);
  cr_assert_eq(kkr_vc_get(&a, 2), 9);
  cr_assert_eq(kkr_vc_get(&a, 5), 3);
  cr_assert_eq(kkr_vc_get(&a, 40), 4);
  cr_assert_eq(kkr_vc_get(&a, 41), 0);
  kkr_vc_max(&a, 5, 2);
  cr_assert_eq(kkr_vc_get(&a, 5), 3);
  kkr_vc_max(&a, 5, 8);
  cr_assert_eq(kkr_vc_get(&a, 5), 8);
  kkr_vc_assign(&b, &a);
  cr_assert_eq(kkr_vc_get(&b, 5), 8);
  kkr_vc_free(&a);
  kkr_vc_free(&b);
}

/* A clock assigned a shorter one and then grown by one component reads 0
 * in between: what the longer one held there is gone (a work item's clock
 * is the submitter's, assigned over the previous item's). */
Test(vc, grown_after_shorter_assign) {
  kkr_vc item = {0}, host = {0};
  kkr_vc_set(&item, 2, 1);
  kkr_vc_set(&item, 3, 5);
  kkr_vc_set(&host, 1, 7);
  kkr_vc_assign(&item, &host);
  kkr_vc_max(&item, 4, 1);
  cr_assert_eq(kkr_vc_get(&item, 1), 7);
  cr_assert_eq(kkr_vc_get(&item, 2), 0);
  cr_assert_eq(kkr_vc_get(&item, 3), 0);
  cr_assert_eq(kkr_vc_get(&item, 4), 1);
  kkr_vc_free(&item);
  kkr_vc_free(&host);
}

/* A host thread as the graph sees it, without a real OS thread. */
static kkr_thread *fake_thread(void) {
  kkr_thread *t = kkr_alloc(sizeof *t);
  t->info = kkr_alloc(sizeof *t->info);
  t->info->id = 100;
  t->info->tl = kkr_timeline_new(KKR_TL_HOST, t->info, NULL)->id;
  t->info->sites = kkr_host_sites();
  kkr_vc_set(&t->vc, t->info->tl, 1);
  t->host_node = kkr_node_new(t->info->tl, 1);
  kkr_node_host(t);
  return t;
}

static void submit(kkr_thread *t, kkr_instance *inst, kkr_op *op, int fifo) {
  op->kind = KKR_OP_EXEC_FOR;
  kkr_submit(t, inst, op, fifo, NULL);
  kkr_node_host(t);
}

Test(graph, fifo_on_one_instance_from_one_thread) {
  kkr_thread *a = fake_thread();
  kkr_instance *q = kkr_instance_get("Kokkos::Serial", (void *)0x1000);
  kkr_op x = {0}, y = {0};
  submit(a, q, &x, 1);
  submit(a, q, &y, 1);
  cr_assert_eq(x.item_tl, y.item_tl);
  cr_assert_eq(y.item_clk, x.item_clk + 1);
  /* y's clock orders x before it (FIFO). */
  cr_assert_geq(kkr_vc_get(&a->item_vc, x.item_tl), x.item_clk);
  /* The host after submitting is not ordered after either. */
  cr_assert_lt(kkr_vc_get(&a->vc, x.item_tl), x.item_clk);
}

Test(graph, no_fifo_under_minikokkos) {
  kkr_thread *a = fake_thread();
  kkr_instance *q = kkr_instance_get("Kokkos::Serial", (void *)0x2000);
  kkr_op x = {0}, y = {0};
  submit(a, q, &x, 0);
  submit(a, q, &y, 0);
  cr_assert_lt(kkr_vc_get(&a->item_vc, x.item_tl), x.item_clk);
}

Test(graph, unsynchronized_submitters_get_no_fifo_edge) {
  kkr_thread *a = fake_thread(), *b = fake_thread();
  kkr_instance *q = kkr_instance_get("Kokkos::Serial", (void *)0x3000);
  kkr_op x = {0}, y = {0};
  submit(a, q, &x, 1);
  submit(b, q, &y, 1);
  cr_assert_neq(x.item_tl, y.item_tl);
  cr_assert_lt(kkr_vc_get(&b->item_vc, x.item_tl), x.item_clk);
}

Test(graph, synchronized_submitters_get_the_fifo_edge) {
  kkr_thread *a = fake_thread(), *b = fake_thread();
  kkr_instance *q = kkr_instance_get("Kokkos::Serial", (void *)0x4000);
  kkr_op x = {0}, y = {0}, z = {0};
  submit(a, q, &x, 1);
  kkr_vc_join(&b->vc, &a->vc); /* b synchronizes with a after x: */
  kkr_host_tick(a);            /* a released (say, unlocked a mutex) */
  submit(a, q, &z, 1);         /* a submits again, unknown to b */
  submit(b, q, &y, 1);
  cr_assert_geq(kkr_vc_get(&b->item_vc, x.item_tl), x.item_clk);
  cr_assert_lt(kkr_vc_get(&b->item_vc, z.item_tl), z.item_clk);
}

Test(graph, fence_teaches_everything_submitted) {
  kkr_thread *a = fake_thread(), *b = fake_thread();
  kkr_instance *q = kkr_instance_get("Kokkos::Serial", (void *)0x5000);
  kkr_instance *r = kkr_instance_get("Kokkos::Serial", (void *)0x6000);
  kkr_op x = {0}, y = {0}, z = {0};
  submit(a, q, &x, 1);
  submit(b, q, &y, 1);
  submit(a, r, &z, 1);
  kkr_vc snap = {0};
  kkr_fence_snapshot(q, &snap);
  cr_assert_geq(kkr_vc_get(&snap, x.item_tl), x.item_clk);
  cr_assert_geq(kkr_vc_get(&snap, y.item_tl), y.item_clk);
  cr_assert_lt(kkr_vc_get(&snap, z.item_tl), z.item_clk);
  kkr_fence_all_snapshot(&snap);
  cr_assert_geq(kkr_vc_get(&snap, z.item_tl), z.item_clk);
}

Test(graph, instances_numbered_per_space) {
  kkr_instance *s0 = kkr_instance_get("Kokkos::OpenMP", (void *)0x10);
  kkr_instance *s1 = kkr_instance_get("Kokkos::OpenMP", (void *)0x20);
  cr_assert_eq(kkr_instance_get("Kokkos::OpenMP", (void *)0x10), s0);
  cr_assert_eq(s0->index, 0);
  cr_assert_eq(s1->index, 1);
  cr_assert_str_eq(kkr_space_short(s0->space), "OpenMP");
}
