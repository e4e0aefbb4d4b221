//===- KokkosNames.cpp - Recognize Kokkos operations by their names -------===//
//
// The table of what kkrace recognizes, checked on Kokkos 3.4.01 (Debian) and
// 4.x:
//   Kokkos::parallel_for/reduce/scan             dispatch (API level)
//   Kokkos::Impl::ParallelFor/Reduce/Scan[WithTotal]<..., Space>::execute
//                                                 work item on Space
//   Kokkos::fence                                 global fence
//   Kokkos::<Space>::fence                        instance fence (this)
//   Kokkos::<Space>::impl_static_fence            fence of every instance
//   Kokkos::finalize                              global fence
//   Kokkos::deep_copy                             by its parameters: with or
//                                                 without an instance, of a
//                                                 View or of a value
//   Kokkos::Impl::ViewValueFunctor<...>::construct_shared_allocation
//                                                 View initialization
//   ...::destroy_shared_allocation, ViewValueFunctorSequentialHostInit
//                                                 done by the calling thread
//   <Policy>::space(), <Space>::impl_internal_space_instance()
//                                                 which instance
//   Kokkos::Impl::hostspace_parallel_deepcopy*    raw copy in the library
//   Kokkos::atomic_*, desul::atomic_*, AtomicDataElement
//                                                 atomics
//   a user operator() called from Kokkos code     one strand
//
//===----------------------------------------------------------------------===//
#include "KokkosNames.h"

#include "llvm/Demangle/Demangle.h"

#include <cstdlib>
#include <cstring>

#include "kkr_abi.h"

namespace kkrace {

NameParts demangleParts(const std::string &Mangled) {
  NameParts P;
  if (Mangled.size() < 2 || Mangled[0] != '_' || Mangled[1] != 'Z')
    return P;
  llvm::ItaniumPartialDemangler D;
  if (D.partialDemangle(Mangled.c_str()) || !D.isFunction())
    return P;
  auto Take = [](char *S) {
    std::string R = S ? S : "";
    std::free(S);
    return R;
  };
  size_t N = 0;
  P.Base = Take(D.getFunctionBaseName(nullptr, &N));
  N = 0;
  P.Context = Take(D.getFunctionDeclContextName(nullptr, &N));
  N = 0;
  P.Params = Take(D.getFunctionParameters(nullptr, &N));
  P.CtorOrDtor = D.isCtorOrDtor();
  P.Qualified = D.hasFunctionQualifiers();
  P.Valid = !P.Base.empty();
  return P;
}

std::string stripTemplateArgs(const std::string &Name) {
  std::string R;
  int Depth = 0;
  for (size_t I = 0; I < Name.size(); ++I) {
    char C = Name[I];
    if (C == '<') {
      // "operator<" and friends are names, not template argument lists.
      if (Depth == 0 && I >= 8 && Name.compare(I - 8, 8, "operator") == 0) {
        R += C;
        continue;
      }
      ++Depth;
    } else if (C == '>' && Depth > 0) {
      --Depth;
    } else if (Depth == 0) {
      R += C;
    }
  }
  return R;
}

static std::vector<std::string> splitTopLevel(const std::string &S, char Open,
                                              char Close) {
  std::vector<std::string> Out;
  int Depth = 0;
  std::string Cur;
  for (char C : S) {
    if (C == '<' || C == '(' || C == '[' || C == '{')
      ++Depth;
    else if (C == '>' || C == ')' || C == ']' || C == '}')
      --Depth;
    if (C == ',' && Depth == 0) {
      Out.push_back(Cur);
      Cur.clear();
      continue;
    }
    Cur += C;
  }
  if (!Cur.empty())
    Out.push_back(Cur);
  for (auto &X : Out) {
    size_t B = X.find_first_not_of(' ');
    size_t E = X.find_last_not_of(' ');
    X = B == std::string::npos ? "" : X.substr(B, E - B + 1);
  }
  (void)Open;
  (void)Close;
  return Out;
}

std::vector<std::string> templateArgs(const std::string &Name) {
  // The argument list of the last component: from its '<' to the end.
  int Depth = 0;
  size_t Start = std::string::npos;
  for (size_t I = 0; I < Name.size(); ++I) {
    char C = Name[I];
    if (C == '<') {
      if (Depth == 0)
        Start = I;
      ++Depth;
    } else if (C == '>') {
      --Depth;
    } else if (C == ':' && Depth == 0) {
      Start = std::string::npos;
    }
  }
  if (Start == std::string::npos || Name.back() != '>')
    return {};
  return splitTopLevel(Name.substr(Start + 1, Name.size() - Start - 2), '<',
                       '>');
}

std::vector<std::string> splitParams(const std::string &Params) {
  if (Params.size() < 2 || Params.front() != '(')
    return {};
  std::string Inner = Params.substr(1, Params.rfind(')') - 1);
  return splitTopLevel(Inner, '(', ')');
}

static bool startsWith(const std::string &S, const char *P) {
  return S.compare(0, std::strlen(P), P) == 0;
}

static bool endsWith(const std::string &S, const char *P) {
  size_t N = strlen(P);
  return S.size() >= N && S.compare(S.size() - N, N, P) == 0;
}

static std::string baseType(std::string T) {
  // "Kokkos::Serial const&" -> "Kokkos::Serial"
  for (const char *Suffix : {"&&", "&", "*", " const", " volatile"}) {
    size_t L = std::strlen(Suffix);
    while (T.size() >= L && T.compare(T.size() - L, L, Suffix) == 0)
      T.resize(T.size() - L);
  }
  if (startsWith(T, "const "))
    T = T.substr(6);
  return T;
}

bool isExecSpace(const std::string &Type) {
  static const char *const Spaces[] = {
      "Kokkos::Serial",        "Kokkos::OpenMP",
      "Kokkos::Threads",       "Kokkos::Cuda",
      "Kokkos::HIP",           "Kokkos::SYCL",
      "Kokkos::HPX",           "Kokkos::OpenMPTarget",
      "Kokkos::OpenACC",       "Kokkos::Experimental::HIP",
      "Kokkos::Experimental::SYCL", "Kokkos::Experimental::HPX",
      "Kokkos::Experimental::OpenMPTarget", "Kokkos::Experimental::OpenACC"};
  std::string T = baseType(Type);
  for (const char *S : Spaces)
    if (T == S)
      return true;
  return false;
}

bool isViewType(const std::string &Type) {
  std::string T = baseType(Type);
  return startsWith(T, "Kokkos::View<") ||
         startsWith(T, "Kokkos::DynRankView<") ||
         startsWith(T, "Kokkos::Experimental::DynRankView<") ||
         startsWith(T, "Kokkos::Experimental::OffsetView<") ||
         startsWith(T, "Kokkos::Experimental::DynamicView<");
}

/// The context of a lambda or local class names its enclosing function with
/// the return type first ("auto void Kokkos::fill_random<...>(...)::'lambda'
/// (...)"): skip to the function's qualified name.
static std::string withoutReturnType(const std::string &C) {
  int Depth = 0;
  size_t Start = 0;
  for (size_t I = 0; I < C.size(); ++I) {
    char Ch = C[I];
    if (Ch == '<' || Ch == '(')
      ++Depth;
    else if (Ch == '>' || Ch == ')')
      --Depth;
    else if (Ch == '\'' && Depth == 0)
      break; // 'lambda', 'unnamed': the enclosing function ends before
    else if (Ch == ' ' && Depth == 0)
      Start = I + 1;
  }
  return Start ? C.substr(Start) : C;
}

bool isKokkosContext(const std::string &Context) {
  const std::string C = withoutReturnType(Context);
  return startsWith(C, "Kokkos::") || C == "Kokkos" ||
         startsWith(C, "desul::") || C == "desul";
}

bool isKokkosFunction(const std::string &Mangled) {
  NameParts P = demangleParts(Mangled);
  return P.Valid && isKokkosContext(P.Context);
}

bool isViewAccessor(const std::string &Mangled) {
  NameParts P = demangleParts(Mangled);
  if (!P.Valid)
    return false;
  const std::string Ctx = stripTemplateArgs(withoutReturnType(P.Context));
  return Ctx == "Kokkos::View" || Ctx == "Kokkos::DynRankView" ||
         (Ctx == "Kokkos" && P.Base == "subview");
}

bool isRandomDraw(const std::string &Mangled) {
  NameParts P = demangleParts(Mangled);
  if (!P.Valid || P.CtorOrDtor)
    return false;
  const std::string Ctx = stripTemplateArgs(withoutReturnType(P.Context));
  return (startsWith(Ctx, "Kokkos::Random_XorShift") &&
          !endsWith(Ctx, "_Pool")) ||
         Ctx == "Kokkos::rand";
}

/// Classes whose member functions touch only Kokkos' own state: allocation
/// records and their reference counts, policies, the host backends' team
/// members and team buffers, and the Tools glue.  None of it is the
/// program's data, and none of it races by Kokkos' design.  (Not View and
/// its mapping: the optimizer may give the load of an element the debug
/// location of the View::operator() that computed its address.)
static bool isBookkeepingClass(const std::string &Ctx, const std::string &Base) {
  static const char *const Exact[] = {
      "Kokkos::RangePolicy",
      "Kokkos::TeamPolicy",
      "Kokkos::MDRangePolicy",
      "Kokkos::Impl::SharedAllocationTracker",
      "Kokkos::Impl::SharedAllocationRecord",
      "Kokkos::Impl::SharedAllocationRecordCommon",
      "Kokkos::Impl::HostSharedPtr",
      "Kokkos::Impl::TeamPolicyInternal",
      "Kokkos::Impl::HostThreadTeamData",
      "Kokkos::Impl::PolicyTraits",
      "Kokkos::Impl::ParallelConstructName",
      "Kokkos::ScratchMemorySpace",
  };
  for (const char *E : Exact)
    if (Ctx == E)
      return true;
  if (startsWith(Ctx, "Kokkos::Tools") || startsWith(Ctx, "Kokkos::Profiling"))
    return true;
  // A team member's own state; its reductions, scans and broadcasts write
  // the program's variables.
  if (Ctx == "Kokkos::Impl::HostThreadTeamMember")
    return Base.find("reduce") == std::string::npos &&
           Base.find("scan") == std::string::npos &&
           Base.find("broadcast") == std::string::npos;
  return false;
}

/// Copying, assigning and destroying a View handle touch only the handle
/// (its tracker and mapping), never an element.
static bool isHandleCopy(const std::string &Ctx, const NameParts &P) {
  static const char *const Handles[] = {
      "Kokkos::View", "Kokkos::DynRankView", "Kokkos::Impl::ViewMapping",
      "Kokkos::Impl::ViewOffset", "Kokkos::Impl::ViewTracker"};
  for (const char *H : Handles)
    if (Ctx == H)
      return P.CtorOrDtor || P.Base == "operator=";
  return false;
}

/// A dispatch's closure class (Ctx without its template arguments).
static bool isClosureClass(const std::string &Ctx) {
  return Ctx == "Kokkos::Impl::ParallelFor" ||
         Ctx == "Kokkos::Impl::ParallelReduce" ||
         Ctx == "Kokkos::Impl::ParallelScan" ||
         Ctx == "Kokkos::Impl::ParallelScanWithTotal";
}

bool isToolsFunction(const std::string &Mangled) {
  NameParts P = demangleParts(Mangled);
  return P.Valid && (startsWith(P.Context, "Kokkos::Tools") ||
                     startsWith(P.Context, "Kokkos::Profiling"));
}

bool isClosureMember(const std::string &Mangled) {
  NameParts P = demangleParts(Mangled);
  return P.Valid && isClosureClass(stripTemplateArgs(P.Context));
}

bool isConstLambdaCall(const std::string &Mangled) {
  NameParts P = demangleParts(Mangled);
  // (A lambda's call operator is const, or not: mutable.)
  if (!P.Valid || !P.Qualified || P.Base != "operator()")
    return false;
  // The closure type, the context's last component: "'lambda'(int const&)"
  // ("'lambda0'(...)" for the next one of its scope), or clang's "$_0" for
  // a lambda of a function that is not inline (main's).
  const std::string &C = P.Context;
  size_t Depth = 0, Last = 0;
  for (size_t I = 0; I < C.size(); ++I) {
    if (C[I] == '<' || C[I] == '(')
      ++Depth;
    else if ((C[I] == '>' || C[I] == ')') && Depth)
      --Depth;
    else if (!Depth && C.compare(I, 2, "::") == 0)
      Last = I + 2;
  }
  std::string T = C.substr(Last);
  if (T.compare(0, 7, "'lambda") == 0) {
    size_t Q = T.find('\'', 7);
    return Q != std::string::npos && Q + 1 < T.size() && T[Q + 1] == '(' &&
           T.find_first_not_of("0123456789", 7) == Q;
  }
  return T.size() > 2 && T.compare(0, 2, "$_") == 0 &&
         T.find_first_not_of("0123456789", 2) == std::string::npos;
}

bool isKokkosFunctorCall(const std::string &Mangled) {
  NameParts P = demangleParts(Mangled);
  if (!P.Valid || !P.Qualified || P.Base != "operator()")
    return false;
  const std::string Ctx = stripTemplateArgs(P.Context);
  if (!startsWith(Ctx, "Kokkos::Impl::") || isClosureClass(Ctx) ||
      Ctx.find('(') != std::string::npos) // (a local class, a lambda)
    return false;
  // (Not the View machinery's, ViewOffset's and its kin: parts of a View
  // handle, which may lie anywhere.)
  const std::string Class = Ctx.substr(Ctx.rfind("::") + 2);
  return Class.find("functor") != std::string::npos ||
         Class.find("Functor") != std::string::npos || Class == "ViewFill" ||
         Class == "ViewCopy";
}

AccessScope accessScope(const std::string &Mangled) {
  NameParts P = demangleParts(Mangled);
  if (!P.Valid)
    return AccessScope::User;
  if (startsWith(P.Context, "std::") || startsWith(P.Context, "__gnu_cxx::"))
    return AccessScope::Library;
  const std::string Ctx = stripTemplateArgs(P.Context);
  if (Ctx == "Kokkos::Tools" || Ctx == "Kokkos::Profiling")
    return AccessScope::Bookkeeping;
  // A dispatch's closure object: its constructor copies the functor and the
  // policy into it, and only that dispatch reads them.
  if (P.CtorOrDtor && isClosureClass(Ctx))
    return AccessScope::Bookkeeping;
  return isBookkeepingClass(Ctx, P.Base) || isHandleCopy(Ctx, P)
             ? AccessScope::Bookkeeping
             : AccessScope::User;
}

bool isResourceCall(const std::string &Mangled) {
  CallInfo CI = classifyCall(Mangled, true);
  if (CI.Kind == CallKind::Token)
    return true;
  if (CI.Kind != CallKind::Atomic)
    return false;
  NameParts P = demangleParts(Mangled);
  const std::string Ctx = stripTemplateArgs(P.Context);
  return Ctx == "Kokkos::Experimental::UniqueToken" ||
         Ctx == "Kokkos::Experimental::AcquireUniqueToken" ||
         Ctx == "Kokkos::Experimental::AcquireTeamUniqueToken" ||
         (startsWith(Ctx, "Kokkos::Random_XorShift") && endsWith(Ctx, "_Pool"));
}

bool isBookkeepingType(const std::string &TypeName) {
  // A type info name is "_ZTS" and the type's mangling: "_Z" and that
  // mangling name a function, whose context is the type.
  // (A type outside any namespace, "_ZTS" then its name, is not Kokkos'.)
  if (TypeName.size() < 7 || TypeName.compare(0, 5, "_ZTSN") != 0 ||
      TypeName.back() != 'E')
    return false;
  llvm::ItaniumPartialDemangler D;
  // N...E becomes N...1fE: Type::f(), then v for its parameters.
  std::string Fn = "_ZN" + TypeName.substr(5, TypeName.size() - 6) + "1fEv";
  if (D.partialDemangle(Fn.c_str()) || !D.isFunction())
    return false;
  size_t N = 0;
  char *Ctx = D.getFunctionDeclContextName(nullptr, &N);
  std::string C = Ctx ? Ctx : "";
  std::free(Ctx);
  return isBookkeepingClass(stripTemplateArgs(C), "");
}

static bool isUserContext(const std::string &Context) {
  return !Context.empty() && !isKokkosContext(Context) &&
         !startsWith(Context, "std::") && !startsWith(Context, "__gnu_cxx::") &&
         !startsWith(Context, "__cxxabiv1::");
}

/// The execution space named by a ViewValueFunctor's first template argument:
/// Kokkos 3 passes the space, Kokkos 4 a Kokkos::Device<Space, Memory>.
static std::string spaceOfDevice(const std::string &Arg) {
  if (startsWith(Arg, "Kokkos::Device<")) {
    auto Args = templateArgs(Arg);
    return Args.empty() ? "" : Args[0];
  }
  return isExecSpace(Arg) ? Arg : "";
}

/// A team-level policy (a nested loop of a team's code): TeamThreadRange,
/// ThreadVectorRange, TeamVectorRange and their MD forms (Kokkos 4).
static bool isNestedPolicy(const std::string &Type) {
  for (const char *N :
       {"TeamThreadRangeBoundariesStruct", "ThreadVectorRangeBoundariesStruct",
        "TeamVectorRangeBoundariesStruct", "TeamThreadMDRange",
        "ThreadVectorMDRange", "TeamVectorMDRange"})
    if (Type.find(N) != std::string::npos)
      return true;
  return false;
}

/// The first parameter of a Kokkos::parallel_* call is a nested policy.
static bool nestedDispatch(const NameParts &P) {
  auto Ps = splitParams(P.Params);
  return !Ps.empty() && isNestedPolicy(Ps[0]);
}

/// The first parameter is a thread's vector range (its lanes), not a range
/// over the team's threads (TeamVectorRange spans threads and lanes).
static bool vectorDispatch(const NameParts &P) {
  auto Ps = splitParams(P.Params);
  return !Ps.empty() &&
         (Ps[0].find("ThreadVectorRangeBoundariesStruct") != std::string::npos ||
          Ps[0].find("ThreadVectorMDRange") != std::string::npos);
}

/// A functor of Kokkos' std algorithms (Kokkos::Experimental::transform,
/// copy, ...) whose operator() takes the iteration's index: the backend
/// calls it as it calls the user's functors, once per iteration, and it
/// reads and writes the Views it was given (calling the user's lambda
/// inside).
static bool isStdAlgoIteration(const std::string &Ctx, const NameParts &P) {
  if (!startsWith(Ctx, "Kokkos::Experimental::Impl::Std") ||
      !endsWith(Ctx, "Functor") || P.Base != "operator()")
    return false;
  std::vector<std::string> Ps = splitParams(P.Params);
  static const char *const Index[] = {"int", "long", "long long",
                                      "unsigned int", "unsigned long",
                                      "unsigned long long"};
  if (Ps.empty())
    return false;
  std::string First = Ps[0];
  if (endsWith(First, " const&"))
    First.resize(First.size() - 7);
  for (const char *I : Index)
    if (First == I)
      return true;
  return false;
}

bool isResourceRelease(const std::string &Mangled) {
  NameParts P = demangleParts(Mangled);
  if (!P.Valid)
    return false;
  const std::string Ctx = stripTemplateArgs(P.Context);
  if (Ctx == "Kokkos::Experimental::UniqueToken" ||
      (startsWith(Ctx, "Kokkos::Random_XorShift") && endsWith(Ctx, "_Pool")))
    return P.Base == "release" || P.Base == "free_state";
  return (Ctx == "Kokkos::Experimental::AcquireUniqueToken" ||
          Ctx == "Kokkos::Experimental::AcquireTeamUniqueToken") &&
         P.CtorOrDtor && P.Base.find('~') != std::string::npos;
}

bool isKokkosStrandBody(const std::string &Mangled) {
  NameParts P = demangleParts(Mangled);
  return P.Valid && isStdAlgoIteration(stripTemplateArgs(P.Context), P);
}

CallInfo classifyCall(const std::string &Mangled, bool CallerIsKokkos) {
  CallInfo CI;
  NameParts P = demangleParts(Mangled);
  if (!P.Valid)
    return CI;
  const std::string Ctx = stripTemplateArgs(P.Context);
  const std::string &B = P.Base;

  // The user's functor called by Kokkos' backend.
  if (B == "operator()" && CallerIsKokkos &&
      (isUserContext(P.Context) || isStdAlgoIteration(Ctx, P))) {
    CI.Kind = CallKind::Strand;
    return CI;
  }
  auto op = [&](unsigned K) {
    CI.Kind = CallKind::Op;
    CI.OpKind = K;
    return CI;
  };

  // Kokkos Kernels' sparse matrix-vector product runs a plain host loop on
  // Serial, as if Serial were synchronous: what it reads was written
  // before (on the other backends its kernels follow the earlier work on
  // the same instance anyway).
  if (Ctx == "KokkosSparse" && B == "spmv")
    return op(KKR_OP_FENCE_BEFORE);
  if (!isKokkosContext(Ctx))
    return CI;

  // A resource a strand holds alone (a UniqueToken's value, a random
  // pool's state, an AcquireUniqueToken holding a value): taking it and
  // giving it back are atomic, and so is what the strand does with it
  // (KKRacePass follows the value: Serial hands every strand the same one).
  if (Ctx == "Kokkos::Experimental::UniqueToken" ||
      (startsWith(Ctx, "Kokkos::Random_XorShift") && endsWith(Ctx, "_Pool"))) {
    if (B == "acquire" || B == "get_state") {
      CI.Kind = CallKind::Token;
      return CI;
    }
    if (B == "release" || B == "free_state") {
      CI.Kind = CallKind::Atomic;
      return CI;
    }
  }
  if ((Ctx == "Kokkos::Experimental::AcquireUniqueToken" ||
       Ctx == "Kokkos::Experimental::AcquireTeamUniqueToken") &&
      P.CtorOrDtor) {
    bool Dtor = B.find('~') != std::string::npos;
    CI.Kind = Dtor ? CallKind::Atomic : CallKind::Token;
    CI.TokenInThis = !Dtor;
    return CI;
  }
  // Updates through a ScatterView: Kokkos picks atomic or duplicated or
  // plain updates per backend, all correct; they never race with each
  // other (a plain access to the same element still does).
  if (Ctx == "Kokkos::Impl::Experimental::ScatterValue" && !P.CtorOrDtor) {
    CI.Kind = CallKind::Atomic;
    return CI;
  }
  // UnorderedMap's lock-free insert and lookup, and Kokkos' volatile
  // loads and stores, are synchronization by design.
  if ((Ctx == "Kokkos::UnorderedMap" &&
       (B == "insert" || B == "find" || B == "exists")) ||
      (Ctx == "Kokkos" && (B == "volatile_load" || B == "volatile_store"))) {
    CI.Kind = CallKind::Atomic;
    return CI;
  }
  // A team member's scratch: thread_scratch(level) makes its scratch space
  // hand out each thread's own memory, team_scratch / team_shmem the
  // team's; the space's get_shmem_common hands it out.
  if (endsWith(Ctx, "TeamMember") &&
      (B == "thread_scratch" || B == "team_scratch" || B == "team_shmem")) {
    CI.Kind = CallKind::ScratchMode;
    CI.ThreadScratch = B == "thread_scratch";
    return CI;
  }
  if (Ctx == "Kokkos::ScratchMemorySpace" && B == "get_shmem_common") {
    CI.Kind = CallKind::ScratchTake;
    return CI;
  }
  // A DualView's modify_host / modify_device mark a side modified, and
  // sync_host / sync_device make the other side's changes visible (a
  // fence) only when that side was marked: the runtime keeps the marks,
  // which Kokkos 4 does not where both sides share memory.  modify<D>()
  // marks a side it cannot tell apart on such a DualView: either.
  if (Ctx == "Kokkos::DualView") {
    static const std::pair<const char *, unsigned> DualViewOps[] = {
        {"sync_host", KKR_OP_DV_SYNC_HOST},
        {"sync_device", KKR_OP_DV_SYNC_DEVICE},
        {"modify_host", KKR_OP_DV_MODIFY_HOST},
        {"modify_device", KKR_OP_DV_MODIFY_DEVICE},
        {"modify", KKR_OP_DV_MODIFY},
        {"clear_sync_state", KKR_OP_DV_CLEAR}};
    for (const auto &[Name, Kind] : DualViewOps)
      if (B == Name) {
        CI.Obj = ObjArg::This;
        return op(Kind);
      }
  }
  // Kokkos::sort(view): the data is sorted after what wrote it (Kokkos 3.4
  // sorts on the host without a fence).
  if (Ctx == "Kokkos" && B == "sort")
    return op(KKR_OP_DEEP_COPY);

  // The threads of a team meet: what each did before is ordered before
  // what any does after (a broadcast, a reduction and a scan meet too).
  // A broadcast of what a functor computes (team_broadcast(f, value,
  // root), which single(PerTeam(t), f, value) calls) runs f on the root
  // first: the team meets after it.
  if (Ctx == "Kokkos::Impl::HostThreadTeamMember" &&
      (B == "team_barrier" || B == "team_broadcast" || B == "team_reduce" ||
       B == "team_scan" || B == "impl_team_reduce" || B == "impl_team_scan"))
    return op(B == "team_broadcast" && splitParams(P.Params).size() >= 3
                  ? KKR_OP_TEAM_BROADCAST_FN
                  : KKR_OP_TEAM_BARRIER);

  if (Ctx == "Kokkos") {
    // A nested loop of a team's code runs inside the team's strand, whose
    // calls of the user's code are strands of their own: nothing for the
    // runtime to do at the call itself.
    if ((B == "parallel_for" || B == "parallel_reduce" ||
         B == "parallel_scan") &&
        nestedDispatch(P)) {
      // (Kokkos 4's ThreadVectorMDRange is a vector loop per row: its
      // lanes are all one loop, the one the program called.)
      if (vectorDispatch(P) && !CallerIsKokkos)
        CI.Kind = CallKind::VectorLoop;
      return CI;
    }
    if (B == "parallel_for")
      return op(KKR_OP_PARALLEL_FOR);
    if (B == "parallel_reduce")
      return op(KKR_OP_PARALLEL_REDUCE);
    if (B == "parallel_scan")
      return op(KKR_OP_PARALLEL_SCAN);
    if (B == "fence")
      return op(KKR_OP_FENCE_GLOBAL);
    if (B == "finalize")
      return op(KKR_OP_FINALIZE);
    if (B == "resize" || B == "realloc")
      return op(KKR_OP_RESIZE);
    if (B == "deep_copy") {
      auto Ps = splitParams(P.Params);
      if (Ps.size() >= 2 && isViewType(Ps[0]))
        return op(isViewType(Ps[1]) ? KKR_OP_DEEP_COPY : KKR_OP_FILL);
      if (Ps.size() >= 3 && isExecSpace(Ps[0])) {
        CI.Obj = ObjArg::First;
        CI.Space = baseType(Ps[0]);
        if (isViewType(Ps[1]))
          return op(isViewType(Ps[2]) ? KKR_OP_DEEP_COPY_ASYNC
                                      : KKR_OP_FILL_ASYNC);
        CI.Obj = ObjArg::None;
        return CI;
      }
      if (Ps.size() >= 2 && isViewType(Ps[1]))
        return op(KKR_OP_DEEP_COPY); // deep_copy(value&, view)
      return CI;
    }
    if (startsWith(B, "atomic_")) {
      CI.Kind = CallKind::Atomic;
      return CI;
    }
    return CI;
  }

  if (Ctx == "Kokkos::Impl::ParallelFor" || Ctx == "Kokkos::Impl::ParallelReduce" ||
      Ctx == "Kokkos::Impl::ParallelScan" ||
      Ctx == "Kokkos::Impl::ParallelScanWithTotal") {
    if (B != "execute")
      return CI;
    auto Args = templateArgs(P.Context);
    if (!Args.empty() && isExecSpace(Args.back()))
      CI.Space = Args.back();
    if (Ctx == "Kokkos::Impl::ParallelFor")
      return op(KKR_OP_EXEC_FOR);
    if (Ctx == "Kokkos::Impl::ParallelReduce")
      return op(KKR_OP_EXEC_REDUCE);
    return op(KKR_OP_EXEC_SCAN);
  }

  if (isExecSpace(Ctx)) {
    CI.Space = Ctx;
    if (B == "fence") {
      CI.Obj = ObjArg::This;
      return op(KKR_OP_FENCE_INSTANCE);
    }
    if (B == "impl_static_fence")
      return op(KKR_OP_FENCE_SPACE);
    if (B == "impl_internal_space_instance") {
      CI.Kind = CallKind::ExecIdent;
      return CI;
    }
    return CI;
  }

  if (B == "space" && !P.CtorOrDtor &&
      (Ctx.find("Policy") != std::string::npos)) {
    CI.Kind = CallKind::ExecRef;
    return CI;
  }

  if (Ctx == "Kokkos::Impl::ViewValueFunctor") {
    auto Args = templateArgs(P.Context);
    if (!Args.empty())
      CI.Space = spaceOfDevice(Args[0]);
    if (B == "construct_shared_allocation") {
      CI.Obj = ObjArg::This;
      CI.ObjIsSpaceMember = true;
      return op(KKR_OP_VIEW_INIT);
    }
    if (B == "destroy_shared_allocation")
      return op(KKR_OP_VIEW_HOST);
    return CI;
  }
  if (Ctx == "Kokkos::Impl::ViewValueFunctorSequentialHostInit" &&
      (B == "construct_shared_allocation" || B == "destroy_shared_allocation"))
    return op(KKR_OP_VIEW_HOST);

  if (startsWith(B, "hostspace_parallel_deepcopy") &&
      Ctx == "Kokkos::Impl") {
    CI.Kind = CallKind::RawCopy;
    return CI;
  }

  if ((Ctx == "Kokkos::Impl" || Ctx == "desul" || Ctx == "desul::Impl") &&
      startsWith(B, "atomic_")) {
    CI.Kind = CallKind::Atomic;
    return CI;
  }
  if (Ctx == "Kokkos::Impl::AtomicDataElement" && !P.CtorOrDtor) {
    CI.Kind = CallKind::Atomic;
    return CI;
  }
  return CI;
}

bool isTeamRank(const std::string &Mangled) {
  NameParts P = demangleParts(Mangled);
  if (!P.Valid || P.Base != "team_rank")
    return false;
  const std::string Ctx = stripTemplateArgs(P.Context);
  return isKokkosContext(Ctx) && Ctx.find("TeamMember") != std::string::npos;
}

bool isTeamCode(const std::string &Mangled) {
  NameParts P = demangleParts(Mangled);
  if (!P.Valid || P.CtorOrDtor)
    return false;
  const std::string Ctx = stripTemplateArgs(withoutReturnType(P.Context));
  if (isKokkosContext(Ctx) || startsWith(Ctx, "std::") || Ctx == "std")
    return false;
  for (const std::string &T : splitParams(P.Params))
    if (T.find("TeamMember") != std::string::npos ||
        T.find("member_type") != std::string::npos)
      return true;
  return false;
}

std::string teamCollective(const std::string &Mangled) {
  NameParts P = demangleParts(Mangled);
  if (!P.Valid)
    return "";
  const std::string Ctx = stripTemplateArgs(P.Context);
  if (!isKokkosContext(Ctx))
    return "";
  // The team member's own: every thread of the team must call them.
  if (Ctx.find("TeamMember") != std::string::npos &&
      (P.Base == "team_barrier" || P.Base == "team_broadcast" ||
       P.Base == "team_reduce" || P.Base == "team_scan"))
    return P.Base;
  if (Ctx != "Kokkos")
    return "";
  auto Ps = splitParams(P.Params);
  if (Ps.empty())
    return "";
  // A nested reduction or scan over the team's threads ends in one.
  if ((P.Base == "parallel_reduce" || P.Base == "parallel_scan") &&
      (Ps[0].find("TeamThreadRangeBoundariesStruct") != std::string::npos ||
       Ps[0].find("TeamVectorRangeBoundariesStruct") != std::string::npos ||
       Ps[0].find("TeamThreadMDRange") != std::string::npos ||
       Ps[0].find("TeamVectorMDRange") != std::string::npos))
    return P.Base;
  // single(PerTeam) with a value broadcasts it to the team (PerTeam makes
  // a ThreadSingleStruct, PerThread a VectorSingleStruct).
  if (P.Base == "single" && Ps.size() >= 3 &&
      Ps[0].find("ThreadSingleStruct") != std::string::npos)
    return "single";
  return "";
}

} // namespace kkrace
