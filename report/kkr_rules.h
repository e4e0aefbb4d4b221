/* Every rule kkrace can report, with what it means: the SARIF rule table of
 * the runtime's writer (kkr_report_sarif.c) and of kkrace-report.  A rule id
 * is "<kind>/<subkind>", the kind and subkind of the JSON Lines reports; a
 * result's ruleIndex is the rule's position here: add new rules at the end.
 *
 *   #define X(id, text) ...
 *   KKR_RULES(X)
 *   #undef X
 */
#ifndef KKR_RULES_H
#define KKR_RULES_H

#define KKR_RULES(X)                                                           \
  X("data-race/iteration-overlap",                                             \
    "Two iterations (or teams) of one parallel dispatch access the same "      \
    "memory, at least one writes, and nothing orders them.")                   \
  X("data-race/missing-fence",                                                 \
    "Work on an execution space instance and another access are not ordered "  \
    "by any fence.")                                                           \
  X("data-race/submission-order",                                              \
    "Two host threads submit conflicting work to one instance without "        \
    "synchronizing: the instance runs them in an order nothing fixes.")        \
  X("data-race/host-threads",                                                  \
    "Two host threads access the same memory without synchronization.")        \
  X("data-race/use-after-free",                                                \
    "Memory is freed while work that accesses it may still be running.")       \
  X("data-race/team-threads",                                                 \
    "Two threads of one team (nested TeamThreadRange or ThreadVectorRange "    \
    "iterations, a single, the team's own code) access the same memory, at "  \
    "least one writes, and no team_barrier orders them.")                      \
  X("data-race/mpi-pending",                                                   \
    "A buffer of a pending nonblocking MPI operation is accessed before "      \
    "MPI_Wait or MPI_Test completes it.")                                      \
  X("deadlock/fence-in-kernel",                                                \
    "A fence (or a call that fences) runs inside a kernel, which Kokkos "      \
    "forbids and which hangs on backends that lock the instance.")             \
  X("deadlock/dispatch-in-kernel",                                             \
    "A parallel dispatch of a top-level policy runs inside a kernel, which "   \
    "Kokkos forbids and which hangs on backends that lock the instance.")      \
  X("deadlock/lock-order-inversion",                                           \
    "Threads take the same locks (or a lock and an instance's pending work) "  \
    "in opposite orders: at the same time, they wait for each other forever.") \
  X("deadlock/hang",                                                           \
    "No thread made progress for hang_timeout_ms: the threads wait for each "  \
    "other in a cycle of the wait-for graph.")                                 \
  X("data-race/unordered-streams",                                             \
    "GPU work on two CUDA streams accesses the same memory, at least one "     \
    "writes, and no event or synchronization orders the two.")                 \
  X("data-race/missing-sync",                                                  \
    "The host accesses memory that GPU work may still be accessing: no "       \
    "stream, event or device synchronization came between.")                   \
  X("deadlock/divergent-barrier",                                              \
    "A team_barrier that only some threads of the team reach, or reach a "     \
    "different number of times (inside a nested TeamThreadRange, "             \
    "ThreadVectorRange or single): the others wait at it forever.")

#endif /* KKR_RULES_H */
