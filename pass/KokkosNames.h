//===- KokkosNames.h - Recognize Kokkos operations by their names ---------===//
//
// Kokkos is a header library: its dispatches, fences and copies are template
// functions instantiated in the user's translation unit.  kkrace recognizes
// them by their demangled names, before inlining, so that one pass works on
// Kokkos 3.x and 4.x alike.  This file holds the name logic only; it does not
// touch IR, so it can be tested on names alone.
//
//===----------------------------------------------------------------------===//
#ifndef KKRACE_PASS_KOKKOSNAMES_H
#define KKRACE_PASS_KOKKOSNAMES_H

#include <string>
#include <vector>

namespace kkrace {

/// What a call into Kokkos means to kkrace.
enum class CallKind {
  None,
  Op,          ///< A Kokkos operation: wrapped in op_begin/op_end.
  Strand,      ///< The backend calls the user's functor: one strand.
  ExecRef,     ///< Returns (a reference to) an execution space instance.
  ExecIdent,   ///< Returns an execution space's internal instance pointer.
  RawCopy,     ///< Kokkos copies raw memory in its library.
  Atomic,      ///< A Kokkos atomic operation.
  VectorLoop,  ///< A nested parallel_* over a thread's vector lanes.
  Token,       ///< Takes a resource a strand then holds alone (a
               ///< UniqueToken's value, a random pool's state): atomic.
  ScratchMode, ///< A team member's scratch space set to hand out thread
               ///< scratch (thread_scratch) or team scratch (team_scratch).
  ScratchTake, ///< A scratch space hands out memory (get_shmem_common).
};

/// Which argument of the call carries the operation's object.
enum class ObjArg { None, This, First };

struct CallInfo {
  CallKind Kind = CallKind::None;
  unsigned OpKind = 0;     ///< KKR_OP_* for CallKind::Op.
  std::string Space;       ///< Execution space type, e.g. "Kokkos::Serial".
  ObjArg Obj = ObjArg::None;
  bool ObjIsSpaceMember = false; ///< The object's first member is the space.
  bool TokenInThis = false; ///< Token: the constructed object holds it.
  bool ThreadScratch = false; ///< ScratchMode: thread scratch (else team).
};

/// The parts of a demangled function name.
struct NameParts {
  bool Valid = false;
  std::string Base;      ///< "execute", "operator()", "parallel_for".
  std::string Context;   ///< "Kokkos::Impl::ParallelFor<F, P, Kokkos::Serial>"
  std::string Params;    ///< "(int, double&)"
  bool CtorOrDtor = false;
  bool Qualified = false; ///< cv- or ref-qualified: "operator()(int) const"
};

NameParts demangleParts(const std::string &Mangled);

/// "Kokkos::Impl::ParallelFor" for "Kokkos::Impl::ParallelFor<A, B<C>>".
std::string stripTemplateArgs(const std::string &Name);
/// The top-level template arguments of the last component of Name.
std::vector<std::string> templateArgs(const std::string &Name);
/// The top-level parameter types of "(A, B<C, D>, E)".
std::vector<std::string> splitParams(const std::string &Params);

/// True for execution space types: Kokkos::Serial, Kokkos::OpenMP, ...
bool isExecSpace(const std::string &Type);
/// True for View-like parameter types (View, DynRankView, ...).
bool isViewType(const std::string &Type);
/// True if code in this context is Kokkos' own (or desul's).
bool isKokkosContext(const std::string &Context);

/// Classifies a call to the function named Mangled made from a function
/// whose own code is Kokkos' (CallerIsKokkos).
CallInfo classifyCall(const std::string &Mangled, bool CallerIsKokkos);

/// True if the function named Mangled is Kokkos' own code.
bool isKokkosFunction(const std::string &Mangled);

/// True for View's own member functions and subview: they compute where
/// an element is, and touch nothing of the program's.
bool isViewAccessor(const std::string &Mangled);

/// True for a random generator's draws (Random_XorShift64::drand,
/// Kokkos::rand<...>::draw): the number they return is data, not a
/// resource of the strand's.
bool isRandomDraw(const std::string &Mangled);

/// True for a team member's team_rank(): the value differs among the
/// threads of a team.
bool isTeamRank(const std::string &Mangled);

/// True for a function of the program's (not Kokkos' or the standard
/// library's) that takes a team member: a TeamPolicy functor, or a helper
/// that the team's code calls.  Every thread of a team runs it.
bool isTeamCode(const std::string &Mangled);

/// The name of a call that every thread of a team must make together
/// ("team_barrier", "team_reduce", "parallel_reduce" over a TeamThreadRange,
/// "single" with a broadcast value), or "".
std::string teamCollective(const std::string &Mangled);

/// What the memory accesses of a function are, to the instrumenter.
enum class AccessScope {
  User,        ///< The program's data (and anything not known): checked.
  Bookkeeping, ///< Kokkos' own state: View handles and their metadata,
               ///< reference counts, policies, team members, Tools glue.
  Library,     ///< The C++ library: what its caller's scope says.
};

/// The scope of the accesses made by the function named Mangled.
AccessScope accessScope(const std::string &Mangled);

/// Whether Mangled is a member function of a dispatch's closure class
/// (Kokkos::Impl::ParallelFor, ParallelReduce, ParallelScan,
/// ParallelScanWithTotal: the object holding a dispatch's copies of the
/// functor and the policy), such as its execute().
bool isClosureMember(const std::string &Mangled);

/// Whether Mangled is the call operator of a lambda that is not mutable
/// ("...::'lambda'(int const&)::operator()(int const&) const"): its
/// captures are constant once the closure is made.
bool isConstLambdaCall(const std::string &Mangled);

/// Whether Mangled is the const call operator of one of Kokkos' own
/// functors ("Kokkos::Impl::fill_random_functor_range<...>::operator()(long)
/// const", a View's fill or copy functor): Kokkos makes them for a dispatch
/// and hands them only to it, which runs them on its copy, so that their
/// fields too are constant while their calls run.
bool isKokkosFunctorCall(const std::string &Mangled);

/// Whether Mangled is a function of Kokkos Tools' glue (Kokkos::Tools,
/// Kokkos::Profiling): what a dispatch tells a loaded tool.
bool isToolsFunction(const std::string &Mangled);

/// Whether the function named Mangled takes or gives back a resource that
/// a strand holds alone (UniqueToken::acquire and release, a random pool's
/// get_state and free_state, AcquireUniqueToken's constructor and
/// destructor): its own accesses, inlined anywhere, are Kokkos' state of
/// the resource (a pool's states and locks), which only those calls touch.
bool isResourceCall(const std::string &Mangled);

/// Whether Mangled gives back a resource a strand held (UniqueToken's
/// release, a random pool's free_state, an AcquireUniqueToken's end).
bool isResourceRelease(const std::string &Mangled);

/// Whether Mangled is a Kokkos functor's operator() that the backend calls
/// as one iteration, a strand (a std algorithm's: transform, copy, ...);
/// the user's lambda it calls runs inside that strand.
bool isKokkosStrandBody(const std::string &Mangled);

/// Whether a field of the class whose type info name is TypeName (as in an
/// access's TBAA tag: "_ZTSN6Kokkos4Impl18HostThreadTeamDataE") is Kokkos'
/// own state (the classes of Bookkeeping functions), wherever the access
/// was inlined.
bool isBookkeepingType(const std::string &TypeName);

} // namespace kkrace

#endif
