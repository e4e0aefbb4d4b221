//===- KKRacePass.cpp - kkrace instrumentation for Kokkos programs --------===//
//
// Two module passes in one plugin, loaded by -fpass-plugin (kkrace-clang++
// adds it for -fsanitize=kkrace):
//  * kkrace-kokkos runs at the start of the pipeline, before inlining, and
//    wraps calls into Kokkos (dispatches, fences, deep copies, View
//    initialization, atomics) and each call of the user's functor by the
//    backend (a strand) in runtime calls (KokkosNames.cpp says which).
//  * kkrace-instrument runs at the end of the pipeline, as ThreadSanitizer's
//    pass does, and instruments loads, stores, atomics and memory intrinsics
//    that may touch shared memory.
// The runtime entry points come from rt/kkr_entry.inc, which the runtime
// expands too.
//
//===----------------------------------------------------------------------===//

#include "KokkosNames.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/CaptureTracking.h"
#include "llvm/Analysis/Loads.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Dominators.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/GVN.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/LCSSA.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"
#include "llvm/Transforms/Vectorize/LoopVectorize.h"

#include <climits>
#include <functional>
#include <map>
#include <tuple>
#include <cstdlib>
#include <cstring>

#include "kkr_abi.h"

/// Metadata on the allocas of the user's functors (see findStrandBodies)
/// and of Kokkos' dispatch functions (markDispatchLocals).
#define KKR_STRAND_LOCAL_MD "kkrace.strand_local"
/// On a store or memory intrinsic: a write of a team's own code, which
/// every thread of the team makes (KokkosSemantics::markTeamWrites).
#define KKR_TEAM_WRITE_MD "kkrace.team_write"
/// ... and on a dispatch's temporaries (markCallTemporaries,
/// markDispatchLocals), too.
#define KKR_CALL_TEMP_MD "kkrace.call_temp"

using namespace llvm;
using namespace kkrace;

namespace {

/// The named function that I calls directly (not an intrinsic), or null.
static Function *namedCallee(Instruction &I) {
  auto *CB = dyn_cast<CallBase>(&I);
  if (!CB || isa<IntrinsicInst>(CB))
    return nullptr;
  Function *F = CB->getCalledFunction();
  return F && F->hasName() ? F : nullptr;
}

/// Map[K], computed by Compute on the first lookup.
template <typename MapT, typename KeyT, typename Fn>
static auto &memo(MapT &Map, const KeyT &K, Fn Compute) {
  auto It = Map.find(K);
  if (It == Map.end())
    It = Map.insert({K, Compute()}).first;
  return It->second;
}

/// Walks the uses of AI's address, through GEPs and casts (and, with
/// Merges, PHIs and selects): Visit(U, V, Carried) says of each other use U
/// of V whether it leaves the address unshared, and may name a value that
/// carries the address on (a call's result).  False at the first use that
/// does not.
template <typename Fn>
static bool allAddressUses(const AllocaInst *AI, bool Merges, Fn Visit) {
  SmallVector<const Value *, 16> Work{AI};
  SmallPtrSet<const Value *, 16> Seen{AI};
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    for (const Use &U : V->uses()) {
      const auto *User = cast<Instruction>(U.getUser());
      if (isa<GetElementPtrInst>(User) || isa<BitCastInst>(User) ||
          isa<AddrSpaceCastInst>(User) ||
          (Merges && (isa<PHINode>(User) || isa<SelectInst>(User)))) {
        if (Seen.insert(User).second)
          Work.push_back(User);
        continue;
      }
      const Value *Carried = nullptr;
      if (!Visit(U, V, Carried))
        return false;
      if (Carried && Seen.insert(Carried).second)
        Work.push_back(Carried);
    }
  }
  return true;
}

/// KKRACE_PASS_TRACE=1 prints what the pass recognizes (for debugging the
/// name tables on a new Kokkos version).
bool traceEnabled() {
  static const bool On = [] {
    const char *E = std::getenv("KKRACE_PASS_TRACE");
    return E && *E && *E != '0';
  }();
  return On;
}

/// The runtime's entry points, declared from the shared list.
/// The values of F that depend on the thread's team_rank(), and the locals
/// that hold one: followed through values, the locals they are stored in
/// and the results of calls that take them.
static void rankValues(Function &F, SmallPtrSetImpl<const Value *> &Rank) {
  SmallVector<Value *, 8> Work;
  for (Instruction &I : instructions(F))
    if (Function *Callee = namedCallee(I))
      if (isTeamRank(Callee->getName().str()) && Rank.insert(&I).second)
        Work.push_back(&I);
  SmallPtrSet<const Value *, 8> RankMem;
  for (bool More = !Work.empty(); More;) {
    More = false;
    while (!Work.empty()) {
      Value *V = Work.pop_back_val();
      for (User *U : V->users()) {
        auto *I = dyn_cast<Instruction>(U);
        if (!I)
          continue;
        if (auto *SI = dyn_cast<StoreInst>(I)) {
          const Value *Obj = getUnderlyingObject(SI->getPointerOperand());
          if (SI->getValueOperand() == V && isa<AllocaInst>(Obj))
            RankMem.insert(Obj);
          continue;
        }
        // (An invoke is a terminator with a value: a call.)
        if (I->getType()->isVoidTy() || (I->isTerminator() && !isa<CallBase>(I)))
          continue;
        if (Rank.insert(I).second)
          Work.push_back(I);
      }
    }
    for (Instruction &I : instructions(F)) {
      // A load of a local that holds the rank; a call given one by
      // reference (a View's operator() at -O0 takes its indices so).
      const Value *From = nullptr;
      if (auto *LI = dyn_cast<LoadInst>(&I))
        From = LI->getPointerOperand();
      else if (auto *CB = dyn_cast<CallBase>(&I); CB && !CB->getType()->isVoidTy())
        for (const Value *A : CB->args())
          if (A->getType()->isPointerTy() && RankMem.count(getUnderlyingObject(A)))
            From = A;
      if (From && !Rank.count(&I) && RankMem.count(getUnderlyingObject(From))) {
        Rank.insert(&I);
        Work.push_back(&I);
        More = true;
      }
    }
  }
}

/// The condition of BB's branch or switch, or null.
static Value *branchCondition(BasicBlock &BB) {
  Instruction *T = BB.getTerminator();
  if (auto *Br = dyn_cast<BranchInst>(T); Br && Br->isConditional())
    return Br->getCondition();
  if (auto *Sw = dyn_cast<SwitchInst>(T))
    return Sw->getCondition();
  return nullptr;
}

/// The blocks of F that end in a branch on a value of Rank, each with the
/// block where the branch's ways meet again (its immediate post-dominator;
/// null where they never do).
static SmallVector<std::pair<BasicBlock *, BasicBlock *>, 4>
rankBranches(Function &F, const SmallPtrSetImpl<const Value *> &Rank,
             PostDominatorTree &PDT) {
  SmallVector<std::pair<BasicBlock *, BasicBlock *>, 4> Out;
  for (BasicBlock &BB : F) {
    Value *Cond = branchCondition(BB);
    if (!Cond || !Rank.count(Cond))
      continue;
    DomTreeNode *N = PDT.getNode(&BB);
    Out.push_back({&BB, N && N->getIDom() ? N->getIDom()->getBlock() : nullptr});
  }
  return Out;
}

struct Runtime {
#define KKR_ENTRY(name, ret, n, a, b, c, d, e, f, g, h, i, j, k) FunctionCallee name;
#include "kkr_entry.inc"
#undef KKR_ENTRY

  explicit Runtime(Module &M) {
    LLVMContext &C = M.getContext();
    Type *VOID = Type::getVoidTy(C);
    Type *PTR = PointerType::getUnqual(C);
    Type *I32 = Type::getInt32Ty(C);
    Type *I64 = Type::getInt64Ty(C);
    Type *NONE = nullptr;
    (void)NONE;
    AttributeList AL =
        AttributeList().addFnAttribute(C, Attribute::NoUnwind);
#define KKR_ENTRY(name, ret, n, a, b, c, d, e, f, g, h, i, j, k)             \
  {                                                                          \
    SmallVector<Type *, 11> Ps;                                              \
    for (Type *T : {a, b, c, d, e, f, g, h, i, j, k})                        \
      if (T)                                                                 \
        Ps.push_back(T);                                                     \
    name = M.getOrInsertFunction("__kkrace_" #name,                          \
                                 FunctionType::get(ret, Ps, false), AL);     \
  }
#include "kkr_entry.inc"
#undef KKR_ENTRY
    // The runtime keeps no pointer it is given (escape is there to take
    // one): the optimizer and the instrumenter's capture analysis may know.
    for (FunctionCallee FC : {read1, read2, read4, read8, read16, write1,
                              write2, write4, write8, write16, read_range,
                              write_range, stack_scope, atomic, atomic_acquire,
                              op_begin, strand_begin, exec_ref, copy_range,
                              loop, loop_except, loop_wrap, team_branch})
      if (auto *F = dyn_cast<Function>(FC.getCallee()))
        for (Argument &A : F->args())
          if (A.getType()->isPointerTy())
            F->addParamAttr(A.getArgNo(), Attribute::NoCapture);
    // Two identical operation calls on two paths (a fence in each branch)
    // must stay two calls: merged, their source location would be lost.  So
    // must two accesses' checks (a store to one field in each branch, which
    // the optimizer sinks into one).
    for (FunctionCallee FC : {op_begin, op_end, team_branch, read1, read2,
                              read4, read8, read16, write1, write2, write4,
                              write8, write16, read_range, write_range,
                              team_write})
      if (auto *F = dyn_cast<Function>(FC.getCallee()))
        F->addFnAttr(Attribute::NoMerge);
  }
};

/// Calls Emit on every path out of CB: after it, and at its landing pad if
/// it is an invoke (a dedicated one, split off for this invoke).
void afterCall(CallBase *CB, function_ref<void(IRBuilder<> &)> Emit,
               bool OnUnwind = true) {
  if (auto *II = dyn_cast<InvokeInst>(CB)) {
    BasicBlock *From = II->getParent();
    BasicBlock *Normal = II->getNormalDest();
    if (!Normal->getSinglePredecessor())
      Normal = SplitEdge(From, Normal);
    IRBuilder<> NB(&*Normal->getFirstInsertionPt());
    NB.SetCurrentDebugLocation(CB->getDebugLoc());
    Emit(NB);
    if (!OnUnwind)
      return;
    BasicBlock *Unwind = II->getUnwindDest();
    if (!isa<LandingPadInst>(Unwind->getFirstNonPHI()))
      return;
    if (!Unwind->getSinglePredecessor()) {
      SmallVector<BasicBlock *, 2> NewBBs;
      SplitLandingPadPredecessors(Unwind, {From}, ".kkr", ".kkr.split",
                                  NewBBs);
      Unwind = NewBBs[0];
    }
    IRBuilder<> UB(&*Unwind->getFirstInsertionPt());
    UB.SetCurrentDebugLocation(CB->getDebugLoc());
    Emit(UB);
    return;
  }
  IRBuilder<> B(CB->getNextNode());
  B.SetCurrentDebugLocation(CB->getDebugLoc());
  Emit(B);
}

uint64_t paramDerefBytes(CallBase *CB, unsigned Arg) {
  uint64_t N = CB->getParamDereferenceableBytes(Arg);
  if (!N)
    if (Function *F = CB->getCalledFunction())
      if (Arg < F->arg_size())
        N = F->getParamDereferenceableBytes(Arg);
  return N;
}

uint64_t retDerefBytes(CallBase *CB) {
  uint64_t N = CB->getRetDereferenceableBytes();
  if (!N)
    if (Function *F = CB->getCalledFunction())
      N = F->getAttributes().getRetDereferenceableBytes();
  return N;
}

//===----------------------------------------------------------------------===//
// kkrace-kokkos: Kokkos operations and strands
//===----------------------------------------------------------------------===//

class KokkosSemantics {
public:
  explicit KokkosSemantics(Module &M)
      : M(M), RT(M), DL(M.getDataLayout()), C(M.getContext()) {}

  bool run() {
    findStrandBodies();
    bool Changed = false;
    for (Function &F : M) {
      if (F.isDeclaration() || F.getName().starts_with("__kkrace"))
        continue;
      Changed |= runOnFunction(F);
    }
    return Changed;
  }

private:
  Module &M;
  Runtime RT;
  const DataLayout &DL;
  LLVMContext &C;
  StringMap<CallInfo> Cache[2];
  StringMap<Constant *> Strings;
  SmallPtrSet<Function *, 16> StrandBodies;

  /// The user's functors, as the backend calls them: their locals are the
  /// strand's own.  A variable made while a strand runs is private to it
  /// (on a GPU, each thread of a team has its own copy, even of a local that
  /// a nested TeamThreadRange lambda captures by reference), so their
  /// allocas are marked for the instrumenter to skip, even where inlining
  /// puts them in the dispatching function's frame.
  void findStrandBodies() {
    for (Function &F : M) {
      if (F.isDeclaration() || !isKokkosFunction(F.getName().str()))
        continue;
      for (Instruction &I : instructions(F)) {
        Function *Callee = namedCallee(I);
        if (Callee && !Callee->isDeclaration() &&
            classify(Callee->getName(), true).Kind == CallKind::Strand)
          StrandBodies.insert(Callee);
      }
    }
    MDNode *Tag = MDNode::get(C, {});
    for (Function *F : StrandBodies)
      for (Instruction &I : instructions(*F))
        if (auto *AI = dyn_cast<AllocaInst>(&I))
          AI->setMetadata(KKR_STRAND_LOCAL_MD, Tag);
  }

  const CallInfo &classify(StringRef Callee, bool CallerIsKokkos) {
    auto &Map = Cache[CallerIsKokkos];
    auto It = Map.find(Callee);
    if (It != Map.end())
      return It->second;
    CallInfo CI = classifyCall(Callee.str(), CallerIsKokkos);
    return Map.insert({Callee, CI}).first->second;
  }

  Constant *constString(StringRef S) {
    if (S.empty())
      return ConstantPointerNull::get(PointerType::getUnqual(C));
    Constant *&G = Strings[S];
    if (!G) {
      IRBuilder<> B(C);
      Constant *Init = ConstantDataArray::getString(C, S);
      auto *GV = new GlobalVariable(M, Init->getType(), true,
                                    GlobalValue::PrivateLinkage, Init,
                                    "kkrace.str");
      GV->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
      G = GV;
    }
    return G;
  }

  /// sizeof an execution space type, from its IR struct type; 0 if unknown.
  uint64_t spaceSize(StringRef Space) {
    for (const char *Prefix : {"class.", "struct."})
      if (StructType *ST =
              StructType::getTypeByName(C, (Twine(Prefix) + Space).str()))
        if (ST->isSized())
          return DL.getTypeAllocSize(ST);
    return 0;
  }

  bool runOnFunction(Function &F) {
    bool CallerIsKokkos = isKokkosFunction(F.getName().str());
    SmallVector<std::pair<CallBase *, CallInfo>, 16> Work;
    for (Instruction &I : instructions(F)) {
      Function *Callee = namedCallee(I);
      if (!Callee)
        continue;
      auto *CB = cast<CallBase>(&I);
      if (auto *CI = dyn_cast<CallInst>(CB); CI && CI->isMustTailCall())
        continue;
      const CallInfo &Info = classify(Callee->getName(), CallerIsKokkos);
      if (Info.Kind != CallKind::None)
        Work.push_back({CB, Info});
    }
    if (!CallerIsKokkos && !StrandBodies.count(&F) && callsIntoKokkos(Work)) {
      escapeCapturedLocals(F);
      markCallTemporaries(F);
    }
    bool Changed = !CallerIsKokkos && markDivergentBranches(F);
    if (!CallerIsKokkos)
      Changed |= markTeamWrites(F);
    // A Kokkos operation that calls another of its kind (parallel_for(label,
    // n, f) calls parallel_for(label, policy, f); team_reduce(r) calls
    // team_reduce(r, value)): one operation, the outer call.
    CallInfo Self = classify(F.getName(), true);
    bool InOp = CallerIsKokkos && Self.Kind == CallKind::Op;
    if (CallerIsKokkos && dispatchesItself(F, Self, Work))
      markDispatchLocals(F);
    // (A std algorithm's functor is the strand; the user's lambda that it
    // calls is part of it.)
    bool InKokkosStrand = CallerIsKokkos && isKokkosStrandBody(F.getName().str());
    for (auto &[CB, Info] : Work) {
      if (InOp && Info.Kind == CallKind::Op && Info.OpKind == Self.OpKind)
        continue;
      if (InKokkosStrand && Info.Kind == CallKind::Strand)
        continue;
      if (traceEnabled())
        errs() << "kkrace: " << F.getName() << ": "
               << kindName(Info) << " " << CB->getCalledFunction()->getName()
               << "\n";
      switch (Info.Kind) {
      case CallKind::Op: wrapOp(CB, Info); break;
      case CallKind::Strand: wrapStrand(CB); break;
      case CallKind::ExecRef: execRef(CB, false); break;
      case CallKind::ExecIdent: execRef(CB, true); break;
      case CallKind::RawCopy: rawCopy(CB); break;
      case CallKind::Atomic: wrapAtomic(CB); break;
      case CallKind::VectorLoop: vectorLoop(CB); break;
      case CallKind::Token: wrapAtomic(CB); break;
      case CallKind::ScratchMode: scratchMode(CB, Info.ThreadScratch); break;
      case CallKind::ScratchTake: scratchTake(CB); break;
      case CallKind::None: break;
      }
    }
    markTokenAccesses(F, Work);
    return Changed || !Work.empty();
  }

  //===--------------------------------------------------------------------===//
  // Resources a strand holds alone
  //===--------------------------------------------------------------------===//

  /// A resource that a strand takes and then holds alone (CallKind::Token:
  /// a UniqueToken's value, a random pool's generator state): what the
  /// strand reaches through it is its own while it holds it (on Serial,
  /// every strand gets the same one, one after the other).  The accesses
  /// through pointers derived from it (`scratch(id, j)`) and the calls
  /// given it (a generator's draw, which updates the pool's state; a
  /// helper given the token) are atomic: they race with plain accesses
  /// only.  Everything else the strand does while it holds the resource is
  /// checked as always.  The resource is followed through values, the
  /// locals that hold it, copies of those, and the results of calls given
  /// it (not a generator's random numbers); a pointer loaded through it is
  /// derived from it (a generator's pointer into the pool's states), other
  /// data loaded through it is not (the numbers in a token's row).
  void markTokenAccesses(Function &F,
                         ArrayRef<std::pair<CallBase *, CallInfo>> Work) {
    SmallPtrSet<const Value *, 32> Tok;   // values derived from a resource
    SmallPtrSet<const Value *, 8> TokMem; // locals that hold one
    SmallVector<const Value *, 16> Queue;
    SmallSetVector<Instruction *, 16> Wrap;
    bool Grew = false;
    auto addVal = [&](const Value *V) {
      if (Tok.insert(V).second)
        Queue.push_back(V);
    };
    auto addMem = [&](const Value *P) {
      const Value *O = getUnderlyingObject(P);
      if (isa<AllocaInst>(O) && TokMem.insert(O).second)
        Grew = true;
    };
    auto holds = [&](const Value *V) {
      return Tok.count(V) || (V->getType()->isPointerTy() &&
                              TokMem.count(getUnderlyingObject(V)));
    };
    SmallPtrSet<const CallBase *, 8> Marked; // wrapped by the switch above
    // Kokkos operations given the resource (a kernel whose functor captured
    // the generator by reference) are not the strand's own use of it: the
    // kernel's strands share it, and their accesses are checked as always.
    SmallPtrSet<const CallBase *, 8> Ops;
    for (auto &[CB, Info] : Work) {
      if (Info.Kind == CallKind::Op)
        Ops.insert(CB);
      if (Info.Kind == CallKind::Atomic || Info.Kind == CallKind::Token)
        Marked.insert(CB);
      if (Info.Kind != CallKind::Token)
        continue;
      if (!CB->getType()->isVoidTy())
        addVal(CB);
      for (unsigned I = 0; I < CB->arg_size(); ++I)
        if (CB->paramHasAttr(I, Attribute::StructRet) ||
            (I == 0 && Info.TokenInThis))
          addMem(CB->getArgOperand(I));
    }
    if (Tok.empty() && TokMem.empty())
      return;
    for (bool More = true; More;) {
      Grew = false;
      while (!Queue.empty()) {
        const Value *V = Queue.pop_back_val();
        for (const User *U : V->users()) {
          auto *I = const_cast<Instruction *>(dyn_cast<Instruction>(U));
          if (!I || isa<CallBase>(I))
            continue; // calls: below
          if (auto *SI = dyn_cast<StoreInst>(I)) {
            if (SI->getPointerOperand() == V)
              Wrap.insert(I);
            continue; // the value stored: below
          }
          if (auto *LI = dyn_cast<LoadInst>(I)) {
            Wrap.insert(I);
            if (LI->getType()->isPointerTy())
              addVal(LI);
            continue;
          }
          if (!I->getType()->isVoidTy() && !I->isTerminator())
            addVal(I);
        }
      }
      for (Instruction &I : instructions(F)) {
        if (auto *LI = dyn_cast<LoadInst>(&I)) {
          if (!Tok.count(LI) &&
              TokMem.count(getUnderlyingObject(LI->getPointerOperand())))
            addVal(LI);
          continue;
        }
        if (auto *SI = dyn_cast<StoreInst>(&I)) {
          // The resource, or a pointer to a local that holds it (a nested
          // lambda's capture by reference), stored in a local.
          if (holds(SI->getValueOperand()))
            addMem(SI->getPointerOperand());
          continue;
        }
        auto *CB = dyn_cast<CallBase>(&I);
        if (!CB || isa<DbgInfoIntrinsic>(CB) || CB->isLifetimeStartOrEnd())
          continue;
        if (auto *MT = dyn_cast<MemTransferInst>(CB)) {
          if (holds(MT->getSource()))
            addMem(MT->getDest());
          if (Tok.count(MT->getSource()) || Tok.count(MT->getDest()))
            Wrap.insert(CB);
          continue;
        }
        if (auto *MS = dyn_cast<MemSetInst>(CB)) {
          if (Tok.count(MS->getDest()))
            Wrap.insert(CB);
          continue;
        }
        if (isa<IntrinsicInst>(CB) || Ops.count(CB) ||
            !any_of(CB->args(), holds))
          continue;
        Function *Callee = CB->getCalledFunction();
        if (Callee && Callee->getName().starts_with("__kkrace_"))
          continue;
        if (!CB->getType()->isVoidTy() &&
            !(Callee && isRandomDraw(Callee->getName().str())))
          addVal(CB);
        for (unsigned A = 0; A < CB->arg_size(); ++A)
          if (CB->paramHasAttr(A, Attribute::StructRet))
            addMem(CB->getArgOperand(A));
        if (!Marked.count(CB) &&
            !(Callee && isViewAccessor(Callee->getName().str())))
          Wrap.insert(CB);
      }
      More = Grew || !Queue.empty();
    }
    // What the strand does through the resource after it gave one back
    // (release(id), free_state(gen)) is no longer its own: another strand
    // may hold it by then.
    SmallVector<CallBase *, 4> Releases;
    for (auto &[CB, Info] : Work)
      if (Function *Callee = CB->getCalledFunction();
          Callee && isResourceRelease(Callee->getName().str()))
        Releases.push_back(CB);
    std::optional<DominatorTree> DT;
    if (!Releases.empty())
      DT.emplace(F);
    for (Instruction *I : Wrap) {
      if (any_of(Releases, [&](CallBase *R) {
            return R != I && DT->dominates(R, I);
          })) {
        if (traceEnabled())
          errs() << "kkrace: " << F.getName()
                 << ": after the resource is given back " << *I << "\n";
        continue;
      }
      if (traceEnabled())
        errs() << "kkrace: " << F.getName() << ": token access " << *I
               << "\n";
      if (auto *CB = dyn_cast<CallBase>(I)) {
        wrapAtomic(CB);
        continue;
      }
      IRBuilder<> B(I);
      B.CreateCall(RT.atomic_enter, {});
      IRBuilder<> A(I->getNextNode());
      A.CreateCall(RT.atomic_exit, {});
    }
  }

  //===--------------------------------------------------------------------===//
  // Divergent team collectives
  //===--------------------------------------------------------------------===//

  /// What a call means to a team: a collective (its name), the thread's
  /// team_rank(), or nothing.
  struct TeamCall {
    std::string Collective;
    bool Rank = false;
  };
  StringMap<TeamCall> TeamCalls;

  const TeamCall &teamCall(StringRef Callee) {
    auto It = TeamCalls.find(Callee);
    if (It != TeamCalls.end())
      return It->second;
    TeamCall TC;
    TC.Collective = teamCollective(Callee.str());
    TC.Rank = isTeamRank(Callee.str());
    return TeamCalls.insert({Callee, TC}).first->second;
  }

  /// The collectives on the ways from S to Stop (or out of the function):
  /// the fewest and the most, or no way at all (every way ends in
  /// unreachable code or an exception), or Unbounded when one lies on a
  /// cycle (a loop whose trip count the branch decides).
  struct WayCount {
    bool Unbounded = false, NoWay = false;
    int Min = 0, Max = 0;
  };

  static WayCount collectivesOnWays(BasicBlock *S, BasicBlock *Stop,
                                    const DenseMap<BasicBlock *, int> &Count) {
    WayCount R;
    if (S == Stop)
      return R;
    SmallVector<BasicBlock *, 16> Region{S}, Work{S};
    SmallPtrSet<BasicBlock *, 16> In{S};
    while (!Work.empty())
      for (BasicBlock *Y : successors(Work.pop_back_val()))
        if (Y != Stop && In.insert(Y).second) {
          Region.push_back(Y);
          Work.push_back(Y);
        }
    auto count = [&](BasicBlock *X) {
      auto It = Count.find(X);
      return It == Count.end() ? 0 : It->second;
    };
    // A collective on a cycle of the region: a different number of times.
    for (BasicBlock *X : Region) {
      if (!count(X))
        continue;
      SmallVector<BasicBlock *, 16> W(succ_begin(X), succ_end(X));
      SmallPtrSet<BasicBlock *, 16> Seen;
      while (!W.empty()) {
        BasicBlock *Y = W.pop_back_val();
        if (Y == X) {
          R.Unbounded = true;
          return R;
        }
        if (Y != Stop && In.count(Y) && Seen.insert(Y).second)
          W.append(succ_begin(Y), succ_end(Y));
      }
    }
    // Fewest and most along the ways (the cycles left count nothing).
    DenseMap<BasicBlock *, std::pair<int, int>> MM;
    const std::pair<int, int> None{INT_MAX, INT_MIN};
    for (BasicBlock *X : Region)
      MM[X] = None;
    for (size_t Round = 0; Round <= Region.size(); ++Round) {
      bool Changed = false;
      for (BasicBlock *X : Region) {
        const Instruction *T = X->getTerminator();
        std::pair<int, int> V = None;
        if (isa<UnreachableInst>(T) || isa<ResumeInst>(T)) {
          // A way that ends the program or throws: no thread waits there.
        } else if (succ_empty(X)) {
          V = {count(X), count(X)};
        } else {
          int Mn = INT_MAX, Mx = INT_MIN;
          for (BasicBlock *Y : successors(X)) {
            std::pair<int, int> W = Y == Stop ? std::make_pair(0, 0) : MM[Y];
            Mn = std::min(Mn, W.first);
            Mx = std::max(Mx, W.second);
          }
          if (Mx != INT_MIN)
            V = {Mn + count(X), Mx + count(X)};
        }
        if (V != MM[X]) {
          MM[X] = V;
          Changed = true;
        }
      }
      if (!Changed)
        break;
    }
    R.NoWay = MM[S] == None;
    R.Min = MM[S].first;
    R.Max = MM[S].second;
    return R;
  }

  /// "file.cpp:31" for an instruction's debug location.
  static std::string where(const Instruction *I) {
    const DebugLoc &DLoc = I->getDebugLoc();
    if (!DLoc)
      return "an unknown line";
    StringRef File = DLoc->getFilename();
    size_t Slash = File.rfind('/');
    if (Slash != StringRef::npos)
      File = File.substr(Slash + 1);
    return (File + ":" + Twine(DLoc.getLine())).str();
  }

  /// A branch on the thread's team_rank() after which the threads of a team
  /// reach the team's collectives (team_barrier, team_reduce, a nested
  /// reduction over a TeamThreadRange, ...) a different number of times, or
  /// not at all: on a backend with several threads per team, those that
  /// wait there wait forever.  Serial runs only the way of thread 0, so the
  /// branch is instrumented (__kkrace_team_branch before it): the runtime
  /// reports it when it runs in a team.  Ranks are followed through values,
  /// the locals they are stored in and calls that take them; the ways
  /// through the function's own collectives (not those of its callees).
  bool markDivergentBranches(Function &F) {
    DenseMap<BasicBlock *, int> Count;
    SmallVector<CallBase *, 8> Collectives;
    for (Instruction &I : instructions(F)) {
      Function *Callee = namedCallee(I);
      if (!Callee)
        continue;
      auto *CB = cast<CallBase>(&I);
      const TeamCall &TC = teamCall(Callee->getName());
      if (!TC.Collective.empty()) {
        Count[CB->getParent()]++;
        Collectives.push_back(CB);
      }
    }
    if (Collectives.empty())
      return false;
    SmallPtrSet<const Value *, 32> Rank;
    rankValues(F, Rank);
    if (Rank.empty())
      return false;
    PostDominatorTree PDT(F);
    SmallVector<std::pair<Instruction *, CallBase *>, 4> Found;
    for (auto [BBp, Stop] : rankBranches(F, Rank, PDT)) {
      BasicBlock &BB = *BBp;
      Instruction *T = BB.getTerminator();
      bool Diverge = false, Have = false;
      WayCount Ref;
      for (BasicBlock *S : successors(&BB)) {
        WayCount W = collectivesOnWays(S, Stop, Count);
        if (W.Unbounded) {
          Diverge = true;
          break;
        }
        if (W.NoWay)
          continue;
        if (Have && (W.Min != Ref.Min || W.Max != Ref.Max))
          Diverge = true;
        Ref = W;
        Have = true;
      }
      if (!Diverge)
        continue;
      // Name the first collective the branch leads to.
      CallBase *Which = nullptr;
      SmallVector<BasicBlock *, 16> W(succ_begin(&BB), succ_end(&BB));
      SmallPtrSet<BasicBlock *, 16> Seen;
      while (!W.empty() && !Which) {
        BasicBlock *X = W.pop_back_val();
        if (X == Stop || !Seen.insert(X).second)
          continue;
        for (CallBase *CB : Collectives)
          if (CB->getParent() == X) {
            Which = CB;
            break;
          }
        W.append(succ_begin(X), succ_end(X));
      }
      if (Which)
        Found.push_back({T, Which});
    }
    for (auto &[T, CB] : Found) {
      IRBuilder<> B(T);
      const TeamCall &TC = teamCall(CB->getCalledFunction()->getName());
      auto *Call = B.CreateCall(RT.team_branch,
                                {constString(TC.Collective),
                                 constString(where(CB))});
      Call->setDebugLoc(T->getDebugLoc());
      if (traceEnabled())
        errs() << "kkrace: " << F.getName() << ": divergent "
               << TC.Collective << " at " << where(CB) << "\n";
    }
    return !Found.empty();
  }

  /// The writes of a team's own code (a function of the program's that
  /// takes a team member: every thread of the team runs it, where Serial
  /// runs one) are made by every thread: marked here, before inlining, so
  /// that the instrumenter follows each with __kkrace_team_write, which
  /// reports it unless the runtime finds that what runs is not the team's
  /// own code (a nested loop's iteration, a single) or that the memory is
  /// each thread's own.  The ways of a branch on team_rank() (`if
  /// (team.team_rank() == 0)`), up to where they meet again, are taken by
  /// some threads only, and a write whose address depends on the rank is
  /// each thread's own: those are left alone.
  bool markTeamWrites(Function &F) {
    if (!isTeamCode(F.getName().str()))
      return false;
    SmallPtrSet<const Value *, 32> Rank;
    rankValues(F, Rank);
    SmallPtrSet<const BasicBlock *, 16> SomeThreads;
    if (!Rank.empty()) {
      PostDominatorTree PDT(F);
      for (auto [BB, Stop] : rankBranches(F, Rank, PDT)) {
        SmallVector<BasicBlock *, 16> W(succ_begin(BB), succ_end(BB));
        while (!W.empty()) {
          BasicBlock *X = W.pop_back_val();
          if (X == Stop || !SomeThreads.insert(X).second)
            continue;
          W.append(succ_begin(X), succ_end(X));
        }
      }
    }
    MDNode *Tag = MDNode::get(C, {});
    bool Marked = false;
    for (Instruction &I : instructions(F)) {
      if (SomeThreads.count(I.getParent()))
        continue;
      // (A write whose address depends on the rank, `s(team.team_rank())
      // = v`, is each thread's own element.)
      if (auto *SI = dyn_cast<StoreInst>(&I)) {
        if (Rank.count(SI->getPointerOperand()))
          continue;
      } else if (auto *MI = dyn_cast<MemIntrinsic>(&I)) {
        if (Rank.count(MI->getDest()))
          continue;
      } else {
        continue;
      }
      I.setMetadata(KKR_TEAM_WRITE_MD, Tag);
      Marked = true;
    }
    return Marked;
  }

  static bool callsIntoKokkos(ArrayRef<std::pair<CallBase *, CallInfo>> W) {
    for (auto &P : W)
      if (P.second.Kind == CallKind::Op)
        return true;
    return false;
  }

  /// A local whose address the function shares with the code of a kernel
  /// (a lambda captures it by reference: its address is stored in the
  /// closure; or a user's functor is constructed with it) must stay in
  /// memory: once everything is inlined, the optimizer could otherwise keep
  /// it in a register across the strands of a kernel, and its races would
  /// vanish.  Locals only handed to Kokkos (the closure itself, a policy, a
  /// reduction's result) need not: the optimizer may keep them in registers.
  void escapeCapturedLocals(Function &F) {
    SmallVector<AllocaInst *, 8> Captured;
    for (Instruction &I : F.getEntryBlock())
      if (auto *AI = dyn_cast<AllocaInst>(&I))
        if (AI->isStaticAlloca() && addressShared(AI))
          Captured.push_back(AI);
    if (Captured.empty())
      return;
    IRBuilder<> B(&*F.getEntryBlock().getFirstNonPHIOrDbgOrAlloca());
    for (AllocaInst *AI : Captured)
      B.CreateCall(RT.escape, {AI});
  }

  /// The program's locals that only its own thread's code and Kokkos'
  /// calls read: a dispatch's label string, its policy, its lambda (Kokkos
  /// copies the functor and the policy, and reads the label, while the call
  /// runs), a string's allocator, built and destroyed by their own
  /// constructors and destructors.  No other node can reach their bytes:
  /// they are not instrumented, as a strand's own locals are not.
  void markCallTemporaries(Function &F) {
    MDNode *Tag = MDNode::get(C, {});
    for (Instruction &I : F.getEntryBlock())
      if (auto *AI = dyn_cast<AllocaInst>(&I))
        if (AI->isStaticAlloca() && !AI->hasMetadata(KKR_STRAND_LOCAL_MD) &&
            onlyReadByOps(AI)) {
          AI->setMetadata(KKR_STRAND_LOCAL_MD, Tag);
          AI->setMetadata(KKR_CALL_TEMP_MD, Tag);
          if (traceEnabled())
            errs() << "kkrace: " << F.getName() << ": call temporary " << *AI
                   << "\n";
        }
  }

  /// AI's address goes only to Kokkos operations, loads, stores into it,
  /// and functions that keep nothing of it: the members of Kokkos' classes
  /// called on it, the string's and allocator's, a lambda's constructor and
  /// destructor.  (A call that returns a pointer may return AI's: its uses
  /// are followed too.)
  bool onlyReadByOps(AllocaInst *AI) {
    return allAddressUses(AI, false, [&](const Use &U, const Value *V,
                                         const Value *&Carried) {
      const auto *User = cast<Instruction>(U.getUser());
      if (isa<LoadInst>(User))
        return true;
      if (const auto *SI = dyn_cast<StoreInst>(User))
        return SI->getValueOperand() != V && SI->isSimple();
      const auto *CB = dyn_cast<CallBase>(User);
      if (!CB || CB->isCallee(&U))
        return false;
      if (isa<IntrinsicInst>(CB))
        return isa<LifetimeIntrinsic>(CB) || isa<DbgInfoIntrinsic>(CB) ||
               isa<MemIntrinsic>(CB);
      const Function *Callee = CB->getCalledFunction();
      if (!Callee || !Callee->hasName())
        return false;
      if (Callee == RT.escape.getCallee())
        return true; // (keeps it in memory, nothing more)
      const CallInfo &Info = classify(Callee->getName(), false);
      if (Info.Kind == CallKind::Op && readsNow(Info.OpKind))
        return true;
      if (!keepsNothing(CB, U.getOperandNo()))
        return false;
      if (CB->getType()->isPointerTy())
        Carried = CB;
      return true;
    });
  }

  /// Whether a call of W runs a closure (Impl::ParallelFor<...>::execute
  /// and its kin): W's function is a dispatch's implementation.
  static bool executesClosure(ArrayRef<std::pair<CallBase *, CallInfo>> W) {
    for (auto &P : W)
      if (P.second.Kind == CallKind::Op &&
          (P.second.OpKind == KKR_OP_EXEC_FOR ||
           P.second.OpKind == KKR_OP_EXEC_REDUCE ||
           P.second.OpKind == KKR_OP_EXEC_SCAN))
        return true;
    return false;
  }

  /// Whether Kokkos' function F (classified as Self, making the calls W)
  /// is part of a dispatch: Kokkos::parallel_for, parallel_reduce or
  /// parallel_scan, a function that runs a closure, or the Tools glue.
  static bool dispatchesItself(Function &F, const CallInfo &Self,
                               ArrayRef<std::pair<CallBase *, CallInfo>> W) {
    if (Self.Kind == CallKind::Op && (Self.OpKind == KKR_OP_PARALLEL_FOR ||
                                      Self.OpKind == KKR_OP_PARALLEL_REDUCE ||
                                      Self.OpKind == KKR_OP_PARALLEL_SCAN))
      return true;
    return executesClosure(W) || isToolsFunction(F.getName().str());
  }

  /// The locals of Kokkos' own dispatch function (Kokkos::parallel_for,
  /// parallel_reduce, parallel_scan, and the Kokkos function that runs
  /// the closure: ParallelReduceAdaptor::execute, a View's initialization)
  /// and of the Tools glue it calls: its
  /// copy of the policy, the kernel id and name it hands to Kokkos Tools,
  /// its closure.  When the function is not inlined, its frame is private
  /// to the dispatch in the runtime (below the caller's stack pointer at
  /// the operation's start); inlined, its locals are the dispatch's
  /// temporaries in the caller's frame, and are not checked either.
  void markDispatchLocals(Function &F) {
    MDNode *Tag = MDNode::get(C, {});
    for (Instruction &I : F.getEntryBlock())
      if (auto *AI = dyn_cast<AllocaInst>(&I))
        if (AI->isStaticAlloca() && !AI->hasMetadata(KKR_STRAND_LOCAL_MD)) {
          AI->setMetadata(KKR_STRAND_LOCAL_MD, Tag);
          AI->setMetadata(KKR_CALL_TEMP_MD, Tag);
          if (traceEnabled())
            errs() << "kkrace: " << F.getName() << ": dispatch local " << *AI
                   << "\n";
        }
  }

  /// Kokkos operations that read their arguments while the call runs and
  /// keep copies (not asynchronous copies, MPI requests, tokens).
  static bool readsNow(unsigned Kind) {
    switch (Kind) {
    case KKR_OP_PARALLEL_FOR: case KKR_OP_PARALLEL_REDUCE:
    case KKR_OP_PARALLEL_SCAN: case KKR_OP_DEEP_COPY: case KKR_OP_FILL:
    case KKR_OP_FENCE_GLOBAL: case KKR_OP_FENCE_INSTANCE:
    case KKR_OP_FENCE_SPACE: case KKR_OP_FINALIZE:
      return true;
    default:
      return false;
    }
  }

  /// Argument Arg of CB keeps nothing of its address: an argument of the
  /// string's or allocator's members, or 'this' of a member function of a
  /// Kokkos class, or of a lambda's constructor or destructor.
  bool keepsNothing(const CallBase *CB, unsigned Arg) {
    NameParts P = demangleParts(CB->getCalledFunction()->getName().str());
    if (!P.Valid)
      return false;
    std::string Ctx = stripTemplateArgs(P.Context);
    if (Ctx == "std::__cxx11::basic_string" || Ctx == "std::basic_string" ||
        Ctx == "std::allocator" || Ctx == "std::__new_allocator")
      return true;
    unsigned This = CB->hasStructRetAttr() ? 1 : 0;
    bool Member = splitParams(P.Params).size() + This + 1 == CB->arg_size();
    if (!Member || Arg != This)
      return false;
    if (isKokkosContext(P.Context))
      return true;
    size_t Last = P.Context.rfind("::");
    StringRef Type = StringRef(P.Context).substr(Last == std::string::npos ? 0 : Last + 2);
    return P.CtorOrDtor && (Type.starts_with("$_") || Type.starts_with("{lambda") ||
                            Type.starts_with("'lambda"));
  }

  /// Whether the address of AI is stored somewhere, returned, turned into
  /// an integer or passed to a function that is not Kokkos'.
  bool addressShared(AllocaInst *AI) {
    return !allAddressUses(AI, true, [&](const Use &U, const Value *V,
                                         const Value *&) {
      const auto *User = cast<Instruction>(U.getUser());
      if (const auto *SI = dyn_cast<StoreInst>(User))
        return SI->getValueOperand() != V;
      if (const auto *CB = dyn_cast<CallBase>(User)) {
        if (isa<IntrinsicInst>(CB))
          return true;
        if (CB->isCallee(&U))
          return false;
        const Function *Callee = CB->getCalledFunction();
        return Callee && Callee->hasName() &&
               (isKokkosFunction(Callee->getName().str()) ||
                Callee->getName().starts_with("__kkrace"));
      }
      return isa<LoadInst>(User); // not ptrtoint, return, atomics storing it
    });
  }

  static const char *kindName(const CallInfo &I) {
    switch (I.Kind) {
    case CallKind::Op: {
      static const char *const Names[] = {
#define KKR_OP(e, s) "op " #e,
#include "kkr_ops.inc"
#undef KKR_OP
      };
      return I.OpKind < KKR_OP_COUNT ? Names[I.OpKind] : "op ?";
    }
    case CallKind::Strand: return "strand";
    case CallKind::ExecRef: return "exec-ref";
    case CallKind::ExecIdent: return "exec-ident";
    case CallKind::RawCopy: return "raw-copy";
    case CallKind::Atomic: return "atomic";
    case CallKind::VectorLoop: return "vector-loop";
    case CallKind::Token: return "token";
    case CallKind::ScratchMode: return "scratch-mode";
    case CallKind::ScratchTake: return "scratch-take";
    case CallKind::None: return "none";
    }
    return "?";
  }

  /// The size of the C++ type named T (as demangled), or 0 if unknown: a
  /// fundamental type, a pointer, a complex or Kokkos::Array of a known
  /// type, or a class of the module whose name no other one shares.
  uint64_t typeSize(std::string T) {
    auto Trim = [](std::string &X) {
      while (!X.empty() && X.back() == ' ')
        X.pop_back();
      while (!X.empty() && X.front() == ' ')
        X.erase(0, 1);
    };
    Trim(T);
    for (const char *Q : {"const ", "volatile "})
      if (T.rfind(Q, 0) == 0)
        T.erase(0, strlen(Q));
    for (const char *Q : {" const", " volatile"})
      if (T.size() > strlen(Q) && T.compare(T.size() - strlen(Q), strlen(Q), Q) == 0)
        T.erase(T.size() - strlen(Q));
    Trim(T);
    static const std::pair<const char *, uint64_t> Fundamental[] = {
        {"bool", 1}, {"char", 1}, {"signed char", 1}, {"unsigned char", 1},
        {"char8_t", 1}, {"short", 2}, {"unsigned short", 2}, {"char16_t", 2},
        {"int", 4}, {"unsigned int", 4}, {"float", 4}, {"char32_t", 4},
        {"wchar_t", 4}, {"long", 8}, {"unsigned long", 8}, {"long long", 8},
        {"unsigned long long", 8}, {"double", 8}, {"long double", 16},
        {"__int128", 16}, {"unsigned __int128", 16}};
    for (auto &[Name, Size] : Fundamental)
      if (T == Name)
        return Size;
    if (!T.empty() && (T.back() == '*' || T.back() == '&'))
      return DL.getPointerSize();
    std::vector<std::string> Args = templateArgs(T);
    std::string Base = T.substr(0, T.find('<'));
    if ((Base == "Kokkos::complex" || Base == "std::complex") && Args.size() == 1)
      return 2 * typeSize(Args[0]);
    if (Base == "Kokkos::Array" && Args.size() >= 2) {
      uint64_t N = strtoull(Args[1].c_str(), nullptr, 10);
      return N * typeSize(Args[0]);
    }
    if (T.find('<') != std::string::npos)
      return 0; // (a template's classes share one name in the module)
    for (const char *Kind : {"struct.", "class.", "union."}) {
      std::string Name = Kind + T;
      auto *ST = StructType::getTypeByName(C, Name);
      if (!ST || ST->isOpaque() || StructType::getTypeByName(C, Name + ".0"))
        continue;
      return DL.getTypeAllocSize(ST).getFixedValue();
    }
    return 0;
  }

  /// Before a View's initialization (ViewValueFunctor's
  /// construct_shared_allocation, whose template arguments name the
  /// View's value type): the size of one element, for the allocation the
  /// thread just made, so that reports count elements of the View's own
  /// type (a View of structs).
  void viewElements(CallBase *CB) {
    Function *Callee = CB->getCalledFunction();
    if (!Callee)
      return;
    NameParts P = demangleParts(Callee->getName().str());
    std::vector<std::string> Args = templateArgs(P.Context);
    if (!P.Valid || Args.size() < 2)
      return;
    uint64_t Size = typeSize(Args[1]);
    if (!Size)
      return;
    IRBuilder<> B(CB);
    B.CreateCall(RT.view_elements, {B.getInt64(Size)});
  }

  void wrapOp(CallBase *CB, const CallInfo &Info) {
    if ((Info.OpKind == KKR_OP_VIEW_INIT || Info.OpKind == KKR_OP_VIEW_HOST) &&
        CB->getCalledFunction() &&
        demangleParts(CB->getCalledFunction()->getName().str()).Base ==
            "construct_shared_allocation")
      viewElements(CB);
    IRBuilder<> B(CB);
    Type *PtrTy = PointerType::getUnqual(C);
    Value *Obj = ConstantPointerNull::get(cast<PointerType>(PtrTy));
    uint64_t Size = 0;
    if (Info.Obj != ObjArg::None && CB->arg_size() > 0 &&
        CB->getArgOperand(0)->getType()->isPointerTy()) {
      Obj = CB->getArgOperand(0);
      Size = Info.ObjIsSpaceMember ? spaceSize(Info.Space)
                                   : paramDerefBytes(CB, 0);
      if (Size == 0) // unknown: the space's default instance
        Obj = ConstantPointerNull::get(cast<PointerType>(PtrTy));
    }
    Value *Tok = B.CreateCall(RT.op_begin,
                              {B.getInt32(Info.OpKind), constString(Info.Space),
                               Obj, B.getInt64(Size)});
    afterCall(CB, [&](IRBuilder<> &A) { A.CreateCall(RT.op_end, {Tok}); });
  }

  /// The width of an integral type taken by const reference ("int const&"),
  /// or 0.
  static unsigned integralRefBits(const std::string &T) {
    static const std::pair<const char *, unsigned> Types[] = {
        {"int const&", 32},           {"unsigned int const&", 32},
        {"long const&", 64},          {"unsigned long const&", 64},
        {"long long const&", 64},     {"unsigned long long const&", 64},
        {"short const&", 16},         {"unsigned short const&", 16}};
    for (auto &[Name, Bits] : Types)
      if (T == Name)
        return Bits;
    return 0;
  }

  void wrapStrand(CallBase *CB) {
    IRBuilder<> B(CB);
    unsigned First = CB->hasStructRetAttr() ? 2 : 1; // skip 'this'
    SmallVector<Value *, 3> Idx;
    Value *Upd = ConstantPointerNull::get(PointerType::getUnqual(C));
    uint64_t UpdSize = 0;
    // The functor's parameter types: an index taken by reference
    // ("const int& i") is an index too.
    std::vector<std::string> Ps;
    if (Function *F = CB->getCalledFunction())
      Ps = splitParams(demangleParts(F->getName().str()).Params);
    bool Typed = Ps.size() == CB->arg_size() - First;
    unsigned NValues = 0;
    for (unsigned A = First; A < CB->arg_size(); ++A) {
      Value *V = CB->getArgOperand(A);
      Type *T = V->getType();
      unsigned RefBits = Typed ? integralRefBits(Ps[A - First]) : 0;
      if (T->isPointerTy() && RefBits && Idx.size() < 8) {
        Value *L = B.CreateLoad(B.getIntNTy(RefBits), V);
        Idx.push_back(Ps[A - First].rfind("unsigned", 0) == 0
                          ? B.CreateZExtOrTrunc(L, B.getInt64Ty())
                          : B.CreateSExtOrTrunc(L, B.getInt64Ty()));
        continue;
      }
      if (T->isIntegerTy() && T->getIntegerBitWidth() > 1) {
        if (Idx.size() < 8)
          Idx.push_back(CB->paramHasAttr(A, Attribute::ZExt)
                            ? B.CreateZExtOrTrunc(V, B.getInt64Ty())
                            : B.CreateSExtOrTrunc(V, B.getInt64Ty()));
      } else if (T->isPointerTy()) {
        // Several reduction values (several reducers, Kokkos 4): Kokkos
        // keeps them side by side from the first one on.
        bool Value = !Typed || (!Ps[A - First].empty() &&
                                Ps[A - First].back() == '&' &&
                                Ps[A - First].find(" const&") ==
                                    std::string::npos);
        if (Value && ++NValues > 1) {
          UpdSize = 0; // from the first value on, unknown size
          continue;
        }
        Upd = V;
        UpdSize = paramDerefBytes(CB, A);
      }
    }
    unsigned N = Idx.size();
    // An MDRange of more than 3 indices: the middle ones folded into one,
    // each in its share of 64 bits (32 for rank 4, 21 for 5, 16 for 6:
    // exact below those extents), the rank said to the runtime for
    // reports (KKR_ABI_STRAND_RANK_SHIFT).
    if (N > 3) {
      unsigned Bits = 64 / (N - 2);
      Value *Mask = B.getInt64(Bits == 64 ? ~0ull : (1ull << Bits) - 1);
      Value *Mid = B.getInt64(0);
      for (unsigned K = 1; K + 1 < N; ++K)
        Mid = B.CreateOr(Mid, B.CreateShl(B.CreateAnd(Idx[K], Mask),
                                          B.getInt64(Bits * (K - 1))));
      Value *Last = Idx[N - 1];
      Idx.resize(1);
      Idx.push_back(Mid);
      Idx.push_back(Last);
      N = 3 | N << KKR_ABI_STRAND_RANK_SHIFT;
    }
    // A ThreadVectorRange's lanes (KKR_ABI_STRAND_VECTOR) are forked by the
    // thread that calls the loop (vectorLoop) and joined when it returns; a
    // single(PerThread) (VectorSingleStruct) is its thread's code.
    StringRef LoopName = CB->getFunction()->getName();
    if (LoopName.contains("ThreadVectorRangeBoundariesStruct") ||
        LoopName.contains("ThreadVectorMDRange") ||
        LoopName.contains("VectorSingleStruct"))
      N |= KKR_ABI_STRAND_VECTOR;
    while (Idx.size() < 3)
      Idx.push_back(B.getInt64(0));
    B.CreateCall(RT.strand_begin, {Idx[0], Idx[1], Idx[2], B.getInt32(N), Upd,
                                   B.getInt64(UpdSize)});
    afterCall(CB, [&](IRBuilder<> &A) { A.CreateCall(RT.strand_end, {}); });
  }

  void execRef(CallBase *CB, bool Ident) {
    if (!CB->getType()->isPointerTy())
      return;
    uint64_t Size = Ident ? 0 : retDerefBytes(CB);
    if (!Ident && Size == 0)
      Size = 1; // a reference of unknown size: the default instance
    afterCall(
        CB,
        [&](IRBuilder<> &A) {
          A.CreateCall(RT.exec_ref, {CB, A.getInt64(Size)});
        },
        /*OnUnwind=*/false);
  }

  void rawCopy(CallBase *CB) {
    unsigned N = CB->arg_size();
    if (N < 3)
      return;
    Value *Dst = CB->getArgOperand(N - 3), *Src = CB->getArgOperand(N - 2),
          *Len = CB->getArgOperand(N - 1);
    if (!Dst->getType()->isPointerTy() || !Src->getType()->isPointerTy() ||
        !Len->getType()->isIntegerTy())
      return;
    IRBuilder<> B(CB);
    B.CreateCall(RT.copy_range,
                 {Dst, Src, B.CreateZExtOrTrunc(Len, B.getInt64Ty())});
  }

  /// A thread's vector loop begins: the lanes begun from now on are its.
  void vectorLoop(CallBase *CB) {
    IRBuilder<> B(CB);
    B.CreateCall(RT.vector_loop, {});
  }

  void scratchMode(CallBase *CB, bool Thread) {
    IRBuilder<> B(CB);
    B.CreateCall(RT.scratch_mode, {B.getInt32(Thread)});
  }

  /// get_shmem_common(this, const IntType &size, alignment, level): the
  /// memory it returns, of that size.
  void scratchTake(CallBase *CB) {
    NameParts P = demangleParts(CB->getCalledFunction()->getName().str());
    std::vector<std::string> Ps = splitParams(P.Params);
    unsigned Bits = Ps.empty() ? 0 : integralRefBits(Ps[0]);
    if (!Bits || CB->arg_size() < 2 || !CB->getType()->isPointerTy() ||
        !CB->getArgOperand(1)->getType()->isPointerTy())
      return;
    afterCall(
        CB,
        [&](IRBuilder<> &A) {
          Value *Size = A.CreateLoad(A.getIntNTy(Bits), CB->getArgOperand(1));
          cast<Instruction>(Size)->setMetadata(LLVMContext::MD_nosanitize,
                                               MDNode::get(C, {}));
          A.CreateCall(RT.scratch_take,
                       {CB, A.CreateZExtOrTrunc(Size, A.getInt64Ty())});
        },
        false);
  }

  void wrapAtomic(CallBase *CB) {
    IRBuilder<> B(CB);
    B.CreateCall(RT.atomic_enter, {});
    afterCall(CB, [&](IRBuilder<> &A) { A.CreateCall(RT.atomic_exit, {}); });
  }
};

//===----------------------------------------------------------------------===//
// kkrace-instrument: memory accesses
//===----------------------------------------------------------------------===//

//===----------------------------------------------------------------------===//
// Inline strands: the begin and end of a RangePolicy or MDRange iteration
// without a call
//===----------------------------------------------------------------------===//

class StrandInliner {
public:
  StrandInliner(Module &M, Runtime &RT)
      : M(M), RT(RT), C(M.getContext()) {}

  /// Replaces a __kkrace_strand_begin call of Nidx indices (1 to 3) by its
  /// inline form.
  void begin(CallInst *CI, unsigned Nidx) {
    Value *Upd = CI->getArgOperand(4);
    uint64_t UpdSize = cast<ConstantInt>(CI->getArgOperand(5))->getZExtValue();
    SmallVector<Value *, 6> Args(CI->args());
    if (isa<ConstantPointerNull>(Upd))
      Upd = nullptr;
    if (Nidx == 0)
      inlineSingleBegin(CI, Upd, UpdSize, Args);
    else if (Nidx == 1)
      inlineStrandBegin(CI, CI->getArgOperand(0), Upd, UpdSize, Args);
    else
      inlineMDBegin(CI, Nidx, Upd, UpdSize, Args);
    CI->eraseFromParent();
  }

  /// Replaces a __kkrace_strand_end call by its inline form.
  void end(CallInst *CI) {
    IRBuilder<> B(CI);
    inlineStrandEnd(B);
    CI->eraseFromParent();
  }

private:
  Module &M;
  Runtime &RT;
  LLVMContext &C;
  GlobalVariable *TLS = nullptr;

  GlobalVariable *tlsVar() {
    if (!TLS) {
      TLS = M.getGlobalVariable("__kkrace_tls");
      if (!TLS) {
        TLS = new GlobalVariable(M, PointerType::getUnqual(C), false,
                                 GlobalValue::ExternalLinkage, nullptr,
                                 "__kkrace_tls", nullptr,
                                 GlobalValue::InitialExecTLSModel);
      }
    }
    return TLS;
  }

  /// The runtime's own state: never instrumented.
  /// (The instrumenter leaves accesses to the runtime's state alone:
  /// isRuntimeState.)
  static IRBuilder<> &noSan(IRBuilder<> &B) { return B; }

  Value *abiField(IRBuilder<> &B, Value *T, unsigned Offset) {
    return B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), T, Offset);
  }

  /// At At: if (strand_depth == Level && team_mode == Level) the returned
  /// point, else *Else (a team's own code: Level 1; inside one of its
  /// nested iterations begun inline: Level 2).
  Instruction *teamLevel(Instruction *At, Value *T, Value *Depth,
                         unsigned Level, Instruction **Else) {
    IRBuilder<> B(At);
    Value *TeamMode = noSan(B).CreateLoad(B.getInt32Ty(),
                                          abiField(B, T, KKR_ABI_TEAM_MODE));
    Value *Ok = B.CreateAnd(B.CreateICmpEQ(Depth, B.getInt32(Level)),
                            B.CreateICmpEQ(TeamMode, B.getInt32(Level)));
    Instruction *Then;
    SplitBlockAndInsertIfThenElse(Ok, At, &Then, Else);
    return Then;
  }

  /// A team's nested iteration begins (To 2: strand_depth and team_mode
  /// 2, the team strand's cur_rec and upd saved) or ends (To 1: both 1,
  /// cur_rec and upd restored).
  void teamNesting(IRBuilder<> &B, Value *T, unsigned To) {
    noSan(B).CreateStore(B.getInt32(To), abiField(B, T, KKR_ABI_STRAND_DEPTH));
    noSan(B).CreateStore(B.getInt32(To), abiField(B, T, KKR_ABI_TEAM_MODE));
    static const std::pair<unsigned, unsigned> Saved[] = {
        {KKR_ABI_CUR_REC, KKR_ABI_SAVED_REC},
        {KKR_ABI_UPD_LO, KKR_ABI_SAVED_UPD_LO},
        {KKR_ABI_UPD_LEN, KKR_ABI_SAVED_UPD_LEN}};
    for (auto [Live, Save] : Saved) {
      unsigned From = To == 2 ? Live : Save, Dst = To == 2 ? Save : Live;
      noSan(B).CreateStore(
          noSan(B).CreateLoad(B.getInt64Ty(), abiField(B, T, From)),
          abiField(B, T, Dst));
    }
  }

  /// if (t && t->strand_mode && !t->strand_depth && i < MAX) {
  ///   t->strand_depth = 1; t->cur_rec = t->item_rec | (i + 2) << SHIFT;
  ///   t->strand_idx0 = i; [if (t->strand_mode == 2) t->upd = value;]
  /// } else if (t && t->strand_depth == 1 && t->team_mode == 1) {
  ///   (a team's nested TeamThreadRange iteration: thread i % 126 + 1)
  ///   t->strand_depth = 2; t->team_mode = 2;
  ///   t->saved_rec = t->cur_rec; t->saved_upd = t->upd;
  ///   t->cur_rec = t->team_rec + (i % 126 + 1) << SHIFT; t->team_idx = i;
  ///   [t->upd = value;]
  /// } else __kkrace_strand_begin(...);
  void inlineStrandBegin(CallBase *CB, Value *I, Value *Upd, uint64_t UpdSize,
                         ArrayRef<Value *> Args) {
    Value *T;
    Instruction *Then = threadKnown(CB, Args, T);
    IRBuilder<> TB(Then);
    Value *Mode = noSan(TB).CreateLoad(TB.getInt32Ty(),
                                abiField(TB, T, KKR_ABI_STRAND_MODE));
    Value *Depth = noSan(TB).CreateLoad(TB.getInt32Ty(),
                                 abiField(TB, T, KKR_ABI_STRAND_DEPTH));
    // (An index beyond the packed ids: inline once the runtime has marked
    // the item's ids lossy, modulo as it computes them.)
    Value *Small = TB.CreateICmpULT(I, TB.getInt64(KKR_ABI_STRAND_INLINE_MAX));
    Value *Lossy = noSan(TB).CreateLoad(TB.getInt32Ty(),
                                        abiField(TB, T, KKR_ABI_ITEM_LOSSY));
    // (strand_mode 1 or 2: a RangePolicy kernel's.)
    Value *Ok = TB.CreateAnd(
        TB.CreateAnd(TB.CreateICmpULT(TB.CreateSub(Mode, TB.getInt32(1)),
                                      TB.getInt32(2)),
                     TB.CreateIsNull(Depth)),
        TB.CreateOr(Small, TB.CreateIsNotNull(Lossy)));
    Instruction *Fast, *Slow;
    SplitBlockAndInsertIfThenElse(Ok, Then, &Fast, &Slow);
    Instruction *Call;
    Instruction *Nested = teamLevel(Slow, T, Depth, 1, &Call);
    IRBuilder<> S(Call);
    S.CreateCall(RT.strand_begin, Args);
    IRBuilder<> NB(Nested);
    Value *Sub = NB.CreateAdd(
        NB.CreateURem(I, NB.getInt64(KKR_ABI_TEAM_THREADS)), NB.getInt64(1));
    teamThreadBegin(NB, T, Sub, I, Upd, UpdSize);
    IRBuilder<> F(Fast);
    noSan(F).CreateStore(F.getInt32(1), abiField(F, T, KKR_ABI_STRAND_DEPTH));
    Value *Item = noSan(F).CreateLoad(F.getInt64Ty(), abiField(F, T, KKR_ABI_ITEM_REC));
    Value *Id = F.CreateSelect(
        Small, I, F.CreateURem(I, F.getInt64(KKR_ABI_STRAND_INLINE_MAX)));
    Value *Rec = F.CreateOr(
        Item, F.CreateShl(F.CreateAdd(Id, F.getInt64(2)), KKR_ABI_STRAND_SHIFT));
    noSan(F).CreateStore(Rec, abiField(F, T, KKR_ABI_CUR_REC));
    noSan(F).CreateStore(I, abiField(F, T, KKR_ABI_STRAND_IDX0));
    if (Upd)
      reductionValue(F, Fast, T, Mode, 2, Upd, UpdSize);
  }

  /// At Fast, where the strand begins: if (t->strand_mode == ReduceMode)
  /// the strand's private reduction value is Upd, UpdSize bytes.
  void reductionValue(IRBuilder<> &F, Instruction *Fast, Value *T,
                      Value *Mode, unsigned ReduceMode, Value *Upd,
                      uint64_t UpdSize) {
    Value *IsReduce = F.CreateICmpEQ(Mode, F.getInt32(ReduceMode));
    Instruction *R = SplitBlockAndInsertIfThen(IsReduce, Fast, false);
    IRBuilder<> RB(R);
    noSan(RB).CreateStore(RB.CreatePtrToInt(Upd, RB.getInt64Ty()),
                          abiField(RB, T, KKR_ABI_UPD_LO));
    noSan(RB).CreateStore(RB.getInt64(UpdSize),
                          abiField(RB, T, KKR_ABI_UPD_LEN));
  }

  /// Before CB: the thread's state T, and the point where it is known to
  /// be there (for a thread the runtime does not know yet: the call).
  Instruction *threadKnown(CallBase *CB, ArrayRef<Value *> Args, Value *&T) {
    IRBuilder<> B(CB);
    Value *TP = B.CreateThreadLocalAddress(tlsVar());
    T = noSan(B).CreateLoad(B.getPtrTy(), TP, "kkr.t");
    Instruction *Then, *Else;
    SplitBlockAndInsertIfThenElse(B.CreateIsNotNull(T), CB, &Then, &Else);
    IRBuilder<> E(Else);
    E.CreateCall(RT.strand_begin, Args);
    return Then;
  }

  /// if (t && t->strand_depth == 1 && t->team_mode == 1) {
  ///   [a team's nested call of no index, its single: thread 127]
  ///   t->strand_depth = t->team_mode = 2; save cur_rec and upd;
  ///   t->cur_rec = t->team_rec + 127 << SHIFT; t->team_idx = -1;
  ///   [t->upd = value;]
  /// } else __kkrace_strand_begin(...);
  void inlineSingleBegin(CallBase *CB, Value *Upd, uint64_t UpdSize,
                         ArrayRef<Value *> Args) {
    Value *T;
    Instruction *Then = threadKnown(CB, Args, T);
    IRBuilder<> TB(Then);
    Value *Depth = noSan(TB).CreateLoad(TB.getInt32Ty(),
                                        abiField(TB, T, KKR_ABI_STRAND_DEPTH));
    Instruction *Call;
    Instruction *Nested = teamLevel(Then, T, Depth, 1, &Call);
    IRBuilder<> S(Call);
    S.CreateCall(RT.strand_begin, Args);
    IRBuilder<> NB(Nested);
    teamThreadBegin(NB, T, NB.getInt64(KKR_ABI_TEAM_SINGLE), NB.getInt64(~0ull),
                    Upd, UpdSize);
  }

  /// A nested strand of a team's own code begins as the team's thread Sub,
  /// of nested index Idx (-1: none), with the reduction value Upd.
  void teamThreadBegin(IRBuilder<> &NB, Value *T, Value *Sub, Value *Idx,
                       Value *Upd, uint64_t UpdSize) {
    teamNesting(NB, T, 2);
    Value *TeamRec =
        noSan(NB).CreateLoad(NB.getInt64Ty(), abiField(NB, T, KKR_ABI_TEAM_REC));
    noSan(NB).CreateStore(
        NB.CreateAdd(TeamRec, NB.CreateShl(Sub, KKR_ABI_STRAND_SHIFT)),
        abiField(NB, T, KKR_ABI_CUR_REC));
    noSan(NB).CreateStore(Idx, abiField(NB, T, KKR_ABI_TEAM_IDX));
    if (Upd && UpdSize) {
      noSan(NB).CreateStore(NB.CreatePtrToInt(Upd, NB.getInt64Ty()),
                            abiField(NB, T, KKR_ABI_UPD_LO));
      noSan(NB).CreateStore(NB.getInt64(UpdSize),
                            abiField(NB, T, KKR_ABI_UPD_LEN));
    }
  }

  /// if (t && t->strand_mode == MD(N) && !t->strand_depth &&
  ///     (the indices pack || they are in the row of row_i0, row_i1)) {
  ///   t->strand_depth = 1; t->cur_rec = t->item_rec | (id + 2) << SHIFT;
  ///   t->strand_idx0..2 = i0..i2; [if (reduce) t->upd = value;]
  /// } else __kkrace_strand_begin(...);
  /// (An MDRange iteration of 2 or 3 indices; the ids as kkr_abi.h says.)
  void inlineMDBegin(CallBase *CB, unsigned N, Value *Upd, uint64_t UpdSize,
                     ArrayRef<Value *> Args) {
    Value *I0 = CB->getArgOperand(0), *I1 = CB->getArgOperand(1),
          *I2 = CB->getArgOperand(2);
    Value *T;
    Instruction *Then = threadKnown(CB, Args, T);
    IRBuilder<> TB(Then);
    auto Field = [&](unsigned Off, Type *Ty) -> Value * {
      return noSan(TB).CreateLoad(Ty, abiField(TB, T, Off));
    };
    Type *I32 = TB.getInt32Ty(), *I64 = TB.getInt64Ty();
    Value *Mode = Field(KKR_ABI_STRAND_MODE, I32);
    Value *Depth = Field(KKR_ABI_STRAND_DEPTH, I32);
    Value *ModeOk = TB.CreateICmpULT(
        TB.CreateSub(Mode, TB.getInt32(KKR_ABI_MODE_MD(N, 0))),
        TB.getInt32(2));
    Value *Last = N == 2 ? I1 : I2;
    // The item's layout: (i0 * m1 + i1) * m2 + i2 (2 indices: i2 is 0 and
    // m2 1), where i0 < lim0, i1 < m1 and i2 < m2.
    Value *M1 = Field(KKR_ABI_MD_M1, I64), *M2 = Field(KKR_ABI_MD_M2, I64);
    Value *Packed = TB.CreateAnd(
        TB.CreateICmpULT(I0, Field(KKR_ABI_MD_LIM0, I64)),
        TB.CreateAnd(TB.CreateICmpULT(I1, M1), TB.CreateICmpULT(I2, M2)));
    Value *Id = TB.CreateAdd(
        TB.CreateMul(TB.CreateAdd(TB.CreateMul(I0, M1), I1), M2), I2);
    Value *InRow = TB.CreateAnd(
        TB.CreateAnd(TB.CreateICmpEQ(Field(KKR_ABI_ROW_I0, I64), I0),
                     TB.CreateICmpEQ(Field(KKR_ABI_ROW_I1, I64),
                                     N == 2 ? TB.getInt64(~0ull) : I1)),
        TB.CreateAnd(TB.CreateIsNotNull(Field(KKR_ABI_ITEM_LOSSY, I32)),
                     TB.CreateICmpULT(
                         Last, TB.getInt64(KKR_ABI_STRAND_INLINE_MAX))));
    Value *RowBase = Field(KKR_ABI_ROW_BASE, I64);
    Value *Ok = TB.CreateAnd(TB.CreateAnd(ModeOk, TB.CreateIsNull(Depth)),
                             TB.CreateOr(Packed, InRow));
    Instruction *Fast, *Slow;
    SplitBlockAndInsertIfThenElse(Ok, Then, &Fast, &Slow);
    IRBuilder<> S(Slow);
    S.CreateCall(RT.strand_begin, Args);
    IRBuilder<> F(Fast);
    Value *Raw = F.CreateSelect(
        Packed, Id, F.CreateAdd(RowBase, Last));
    Value *Max = F.getInt64(KKR_ABI_STRAND_INLINE_MAX);
    Value *Wrapped = F.CreateSelect(F.CreateICmpUGE(Raw, Max),
                                    F.CreateSub(Raw, Max), Raw);
    noSan(F).CreateStore(F.getInt32(1), abiField(F, T, KKR_ABI_STRAND_DEPTH));
    Value *Item = noSan(F).CreateLoad(I64, abiField(F, T, KKR_ABI_ITEM_REC));
    noSan(F).CreateStore(
        F.CreateOr(Item, F.CreateShl(F.CreateAdd(Wrapped, F.getInt64(2)),
                                     KKR_ABI_STRAND_SHIFT)),
        abiField(F, T, KKR_ABI_CUR_REC));
    noSan(F).CreateStore(I0, abiField(F, T, KKR_ABI_STRAND_IDX0));
    noSan(F).CreateStore(I1, abiField(F, T, KKR_ABI_STRAND_IDX1));
    noSan(F).CreateStore(I2, abiField(F, T, KKR_ABI_STRAND_IDX2));
    if (Upd)
      reductionValue(F, Fast, T, Mode, KKR_ABI_MODE_MD(N, 1), Upd, UpdSize);
  }

  /// if (t && t->strand_mode && t->strand_depth == 1) {
  ///   t->strand_depth = 0; t->cur_rec = t->item_rec | BACKEND << SHIFT;
  ///   t->upd_len = 0;
  /// } else if (t && t->strand_depth == 2 && t->team_mode == 2) {
  ///   t->strand_depth = 1; t->team_mode = 1;
  ///   t->cur_rec = t->saved_rec; t->upd = t->saved_upd;
  /// } else __kkrace_strand_end();
  void inlineStrandEnd(IRBuilder<> &B) {
    Instruction *At = &*B.GetInsertPoint();
    Value *TP = B.CreateThreadLocalAddress(tlsVar());
    Value *T = noSan(B).CreateLoad(B.getPtrTy(), TP, "kkr.t");
    Instruction *Then, *Else;
    SplitBlockAndInsertIfThenElse(B.CreateIsNotNull(T), At, &Then, &Else);
    IRBuilder<> E(Else);
    E.SetCurrentDebugLocation(B.getCurrentDebugLocation());
    E.CreateCall(RT.strand_end, {});
    IRBuilder<> TB(Then);
    Value *Mode = noSan(TB).CreateLoad(TB.getInt32Ty(),
                                abiField(TB, T, KKR_ABI_STRAND_MODE));
    Value *Depth = noSan(TB).CreateLoad(TB.getInt32Ty(),
                                 abiField(TB, T, KKR_ABI_STRAND_DEPTH));
    Value *Ok = TB.CreateAnd(TB.CreateIsNotNull(Mode),
                             TB.CreateICmpEQ(Depth, TB.getInt32(1)));
    Instruction *Fast, *Slow;
    SplitBlockAndInsertIfThenElse(Ok, Then, &Fast, &Slow);
    Instruction *Call;
    Instruction *Nested = teamLevel(Slow, T, Depth, 2, &Call);
    IRBuilder<> S(Call);
    S.SetCurrentDebugLocation(B.getCurrentDebugLocation());
    S.CreateCall(RT.strand_end, {});
    IRBuilder<> NB(Nested);
    teamNesting(NB, T, 1);
    IRBuilder<> F(Fast);
    noSan(F).CreateStore(F.getInt32(0), abiField(F, T, KKR_ABI_STRAND_DEPTH));
    Value *Item = noSan(F).CreateLoad(F.getInt64Ty(), abiField(F, T, KKR_ABI_ITEM_REC));
    noSan(F).CreateStore(F.CreateOr(Item, F.getInt64(KKR_ABI_STRAND_BACKEND
                                              << KKR_ABI_STRAND_SHIFT)),
                  abiField(F, T, KKR_ABI_CUR_REC));
    noSan(F).CreateStore(F.getInt64(0), abiField(F, T, KKR_ABI_UPD_LEN));
  }

};

class Instrumenter {
public:
  Instrumenter(Module &M, FunctionAnalysisManager &FAM)
      : M(M), RT(M), DL(M.getDataLayout()), FAM(FAM) {}

  /// The site slot of an access at source location At: accesses at one
  /// location (the copies of an unrolled loop's access, a load and a store
  /// of `x += y`, the checks of a vectorized loop and of its remainder
  /// loop) share one, so that a kernel's table of sites, 63 long, holds
  /// what its source says rather than what the optimizer made of it, and a
  /// strand's row that a vector loop and its remainder cover is one site's
  /// (runs keep it as one row).  Reports name a site by its location only.
  Constant *siteSlot(const DebugLoc &At) {
    DILocation *L = At.get();
    if (!L)
      return newSlot();
    std::tuple<DISubprogram *, unsigned, unsigned, DILocation *> Key{
        L->getScope()->getSubprogram(), L->getLine(), L->getColumn(),
        L->getInlinedAt()};
    Constant *&Slot = SlotsAt[Key];
    if (!Slot)
      Slot = newSlot();
    return Slot;
  }

  /// A site slot: a zeroed 16-byte variable the runtime caches the access's
  /// site index in (struct kkr_site_slot), one per instrumented call.
  Constant *newSlot() {
    LLVMContext &C = M.getContext();
    auto *Ty = ArrayType::get(Type::getInt64Ty(C), 2);
    auto *GV = new GlobalVariable(M, Ty, false, GlobalValue::PrivateLinkage,
                                  ConstantAggregateZero::get(Ty), "kkrace.site");
    GV->setAlignment(Align(16));
    return GV;
  }

  /// The functions whose strand loops the instrumentation left with
  /// nothing to do per iteration (removeIdleStrands).
  ArrayRef<Function *> idleStrandFunctions() const {
    return Idle.getArrayRef();
  }

  bool run() {
    bool Changed = false;
    for (Function &F : M) {
      if (F.isDeclaration() || F.getName().starts_with("__kkrace") ||
          isDeviceStub(F) || F.hasFnAttribute(Attribute::Naked) ||
          F.hasFnAttribute(Attribute::DisableSanitizerInstrumentation))
        continue;
      Changed |= runOnFunction(F);
    }
    return Changed;
  }

private:
  /// nvcc's host stub of a __global__ function (__device_stub__...): it
  /// copies the kernel's arguments into its own frame and hands their
  /// addresses to the CUDA runtime's launch, which the CUDA module sees
  /// (with the arguments' values).  Nothing in it is the program's shared
  /// data, and checking it cost every launch about ten calls.
  static bool isDeviceStub(const Function &F) {
    return F.getName().contains("__device_stub__");
  }

  Module &M;
  Runtime RT;
  const DataLayout &DL;
  FunctionAnalysisManager &FAM;
  std::map<std::tuple<DISubprogram *, unsigned, unsigned, DILocation *>,
           Constant *>
      SlotsAt;
  DenseMap<const Value *, bool> LocalObject;
  /// Accesses checked by a __kkrace_loop call before their loop.
  SmallPtrSet<Instruction *, 32> Hoisted;
  /// Gathered writes checked before their loop by __kkrace_gather_apart,
  /// whose result says whether it did: their checks in the loop are made
  /// only where it did not (guardApart).
  DenseMap<Instruction *, Value *> ApartOk;
  SmallVector<std::pair<CallInst *, Value *>, 4> ApartChecks;
  /// Loops whose iterations are strands and whose accesses were hoisted.
  SmallVector<Loop *, 4> StrandLoops;
  /// Functions in which removeIdleStrands left strand loops without calls.
  SetVector<Function *> Idle;
  /// strandLocalSeen's answers.
  DenseMap<AllocaInst *, bool> StrandLocalSeen;
  /// What the names tables say of a frame's function.
  struct FrameInfo {
    AccessScope Scope;
    bool Resource; // isResourceCall
  };

  /// frameOf's answers.
  DenseMap<const DISubprogram *, FrameInfo> Frames;
  /// isClosureThis's answers.
  DenseMap<const Function *, bool> ClosureMembers;
  /// isConstClosureRead's answers.
  DenseMap<const Function *, bool> ConstClosures;
  /// constDispatchArg's answers, per function and argument.
  DenseMap<std::pair<const Function *, unsigned>, bool> DispatchArgs;
  /// reachesCall's answers about callees.
  DenseMap<const Function *, bool> BookkeepingCallees;
  /// isBookkeepingField's answers, per TBAA base type.
  DenseMap<const MDNode *, bool> BookkeepingTypes;

  /// True if Ptr provably points to memory no other node can access: a
  /// local whose address does not escape, a constant, thread-local storage.
  bool isPrivate(Value *Ptr) {
    if (Ptr->getType()->getPointerAddressSpace() != 0)
      return true;
    const Value *Obj = getUnderlyingObject(Ptr);
    if (isRuntimeState(Obj))
      return true;
    if (const auto *A = dyn_cast<Argument>(Obj))
      return isClosureThis(A);
    if (auto *AI = dyn_cast<AllocaInst>(Obj)) {
      if (AI->hasMetadata(KKR_STRAND_LOCAL_MD))
        return true; // a strand's own variable (KokkosSemantics)
      auto It = LocalObject.find(AI);
      if (It != LocalObject.end())
        return It->second;
      LocalTracker T;
      PointerMayBeCaptured(AI, &T);
      bool Local = !T.Captured;
      LocalObject[AI] = Local;
      return Local;
    }
    if (auto *GV = dyn_cast<GlobalVariable>(Obj)) {
      if (GV->isConstant() || GV->isThreadLocal())
        return true;
      StringRef N = GV->getName();
      if (N.starts_with("__llvm") || N.starts_with("llvm.") ||
          GV->getSection() == "llvm.metadata")
        return true;
    }
    return false;
  }

  /// A is 'this' of a member function of a dispatch's closure (its
  /// execute(), and what that calls): the dispatch's copy of the functor
  /// and the policy, a dispatch temporary as markDispatchLocals says,
  /// which execute() reaches through 'this' when it is not inlined into
  /// the dispatch.
  bool isClosureThis(const Argument *A) {
    const Function *F = A->getParent();
    if (A->getArgNo() != (F->hasStructRetAttr() ? 1u : 0u) || !F->hasName())
      return false;
    return memo(ClosureMembers, F,
                [&] { return isClosureMember(F->getName().str()); });
  }

  /// Whether Ptr reads a capture of the closure whose const call operator
  /// is running (through its 'this'): a dispatch's copy of its functor
  /// (or a lambda's own closure, or one it was copied into, or one of
  /// Kokkos' own functors, a random fill's bounds and View, or a named
  /// functor that only dispatches call), which nothing
  /// writes once it is made -- unless the operator itself writes through
  /// 'this' (a captured object's mutable member), when its reads are
  /// checked as any.  (What it hands 'this' on to sees a const object.)
  /// Only loads: a read of such a capture races with nothing.
  bool isConstClosureRead(Value *Ptr) {
    const auto *A = dyn_cast<Argument>(getUnderlyingObject(Ptr));
    if (!A)
      return false;
    return A->getArgNo() == 0 ? constClosureThis(A->getParent())
                              : constDispatchArg(A);
  }

  /// Whether A, a pointer argument of its function other than the first,
  /// points into a dispatch's own memory that nothing else writes while
  /// the function runs, and the function only loads through it: Kokkos
  /// 4's tile loop (`Tile_Loop_Type::apply`), which reads a tile's offset,
  /// extent and sizes from the dispatch's frame and policy at every
  /// iteration.  Every call of the function passes for A a pointer into
  /// the frame of a dispatch closure's member function (its `exec`), into
  /// the closure itself or a const closure, or into another such
  /// argument, and none for another of its pointer arguments.  (As
  /// closureCallee: a copy in another module decides for its calls.)
  bool constDispatchArg(const Argument *A) {
    const Function *F = A->getParent();
    if (!A->getType()->isPointerTy() || !F->hasName())
      return false;
    auto Key = std::make_pair(F, A->getArgNo());
    auto It = DispatchArgs.find(Key);
    if (It != DispatchArgs.end())
      return It->second;
    DispatchArgs[Key] = false; // (while it is decided: a cycle of calls)
    const unsigned N = A->getArgNo();
    bool R = everyCallOn(
                 F,
                 [&](const CallBase *CB, const Value *Obj) {
                   return dispatchOwn(Obj) && apartFromOthers(CB, N, Obj);
                 },
                 N) &&
             onlyReadThrough(A, /*Loads=*/true);
    DispatchArgs[Key] = R;
    return R;
  }

  /// Whether call CB's argument N, into Obj, reaches no bytes that
  /// another of its pointer arguments may: each into another object, or
  /// into Obj at constant offsets with sizes (dereferenceable) that do not
  /// meet -- the policy's bounds and the functor, two members of one
  /// dispatch closure.
  bool apartFromOthers(const CallBase *CB, unsigned N, const Value *Obj) {
    int64_t OffN = 0;
    uint64_t SizeN = CB->getParamDereferenceableBytes(N);
    const Value *BaseN =
        GetPointerBaseWithConstantOffset(CB->getArgOperand(N), OffN, DL);
    for (unsigned J = 0; J < CB->arg_size(); ++J) {
      const Value *P = CB->getArgOperand(J);
      if (J == N || !P->getType()->isPointerTy() ||
          getUnderlyingObject(P) != Obj)
        continue;
      int64_t OffJ = 0;
      uint64_t SizeJ = CB->getParamDereferenceableBytes(J);
      const Value *BaseJ = GetPointerBaseWithConstantOffset(P, OffJ, DL);
      if (BaseJ != BaseN || !SizeN || !SizeJ ||
          !(OffJ + (int64_t)SizeJ <= OffN || OffN + (int64_t)SizeN <= OffJ))
        return false;
    }
    return true;
  }

  /// Whether Obj is memory of a dispatch of its own that nothing writes
  /// while its closure's code runs: a local of a closure member function's
  /// frame, the closure itself, a const closure, or what such an argument
  /// points to.
  bool dispatchOwn(const Value *Obj) {
    if (const auto *AI = dyn_cast<AllocaInst>(Obj)) {
      const Function *G = AI->getFunction();
      return strandOwn(Obj) ||
             (G->hasName() &&
              memo(ClosureMembers, G,
                   [&] { return isClosureMember(G->getName().str()); }));
    }
    const auto *B = dyn_cast<Argument>(Obj);
    if (!B)
      return false;
    if (isClosureThis(B))
      return true;
    return B->getArgNo() == 0 ? constClosureThis(B->getParent())
                              : constDispatchArg(B);
  }

  /// Whether F's first argument is a const closure's 'this', or a pointer
  /// into one, that F only reads through (isConstClosureRead).
  bool constClosureThis(const Function *F) {
    if (!F->hasName() || F->arg_empty())
      return false;
    auto It = ConstClosures.find(F);
    if (It != ConstClosures.end())
      return It->second;
    ConstClosures[F] = false; // (while it is decided: a cycle of calls)
    const std::string N = F->getName().str();
    bool R = (isConstLambdaCall(N) || isKokkosFunctorCall(N) ||
              onlyDispatched(F) || closureCallee(F)) &&
             onlyReadThrough(F->getArg(0));
    ConstClosures[F] = R;
    return R;
  }

  /// Whether every call of F is on an object inside a const closure: a
  /// member function of a captured object (`map.insert(k, v)` on a
  /// captured `UnorderedMap`, a captured struct's method) that the
  /// optimizer left out of line, called by the closure's const call
  /// operator (or by another such function) with a pointer into its
  /// 'this', or by a dispatch on its closure.  Its reads through 'this'
  /// then read the closure's copy of the object -- View handles, sizes --
  /// which nothing writes while the kernel runs.  (As onlyDispatched: a
  /// copy of F in another module decides for that module's calls, unless
  /// the linker keeps this one.)
  bool closureCallee(const Function *F) {
    return !F->hasStructRetAttr() &&
           everyCallOn(F, [&](const CallBase *, const Value *Obj) {
      const auto *This = dyn_cast<Argument>(Obj);
      return (This && This->getArgNo() == 0 &&
              (isClosureThis(This) || constClosureThis(This->getParent()))) ||
             strandOwn(Obj);
    });
  }

  /// Whether every use of F, which no other module sees but through a
  /// copy of its own, is a direct call CB whose argument N (the first by
  /// default) points into an object Obj (its underlying object) that
  /// Ok(CB, Obj) accepts.
  template <typename Fn>
  static bool everyCallOn(const Function *F, Fn Ok, unsigned N = 0) {
    if (F->use_empty() ||
        !(F->hasLocalLinkage() || F->hasLinkOnceODRLinkage() ||
          F->hasWeakODRLinkage()))
      return false;
    for (const Use &U : F->uses()) {
      const auto *CB = dyn_cast<CallBase>(U.getUser());
      if (!CB || !CB->isCallee(&U) || CB->arg_size() <= N ||
          !Ok(CB, getUnderlyingObject(CB->getArgOperand(N))))
        return false;
    }
    return true;
  }

  /// Whether Obj is a strand's own object (KokkosSemantics).
  static bool strandOwn(const Value *Obj) {
    const auto *AI = dyn_cast<AllocaInst>(Obj);
    return AI && AI->hasMetadata(KKR_STRAND_LOCAL_MD);
  }

  /// Whether F is a call operator that only the dispatches of this module
  /// call, each on its own copy of the functor (a member of its closure,
  /// or a strand's own object): a named functor's operator() that the
  /// optimizer did not inline into its dispatch.  Its object is then the
  /// closure's copy, which nothing writes while the kernel runs, as a
  /// lambda's captures.  (Where another module calls it on an object of
  /// its own, that module's copy of F decides for its calls, unless the
  /// linker keeps this one.)
  bool onlyDispatched(const Function *F) {
    NameParts P = demangleParts(F->getName().str());
    if (!P.Valid || !P.Qualified || P.Base != "operator()")
      return false;
    // (The closure through its member's 'this', or the dispatch's own
    // frame where its members are inlined: a dispatch local; or a
    // strand's own object.)
    return everyCallOn(F, [&](const CallBase *, const Value *Obj) {
      const auto *This = dyn_cast<Argument>(Obj);
      return (This && isClosureThis(This)) || strandOwn(Obj);
    });
  }

  /// Whether nothing writes through A (or a pointer derived from it) in
  /// its function; with Loads, whether it is only loaded through, stored
  /// nowhere and handed to no call (constDispatchArg).
  static bool onlyReadThrough(const Argument *A, bool Loads = false) {
    SmallVector<const Value *, 16> Work{A};
    SmallPtrSet<const Value *, 16> Seen{A};
    while (!Work.empty()) {
      const Value *V = Work.pop_back_val();
      for (const User *U : V->users()) {
        if (const auto *LI = dyn_cast<LoadInst>(U)) {
          if (LI->isAtomic() || LI->isVolatile())
            return false;
          continue;
        }
        if (isa<GetElementPtrInst>(U) || isa<BitCastInst>(U) ||
            isa<PHINode>(U) || isa<SelectInst>(U)) {
          if (Seen.insert(U).second)
            Work.push_back(U);
          continue;
        }
        if (Loads && !isa<ICmpInst>(U))
          return false; // a store, a call, anything else
        if (const auto *SI = dyn_cast<StoreInst>(U)) {
          if (SI->getPointerOperand() == V)
            return false;
          continue; // (the pointer itself stored: a nested closure's capture)
        }
        if (const auto *MI = dyn_cast<MemIntrinsic>(U)) {
          if (MI->getDest() == V)
            return false;
          continue;
        }
        if (isa<CallBase>(U) || isa<ICmpInst>(U) || isa<PtrToIntInst>(U))
          continue;
        return false; // an atomic update, anything else
      }
    }
    return true;
  }

  /// Capture tracking that knows the inline strand code: a reduction
  /// value's address written into the runtime's state (as an integer) does
  /// not make it shared.
  struct LocalTracker : CaptureTracker {
    bool Captured = false;
    void tooManyUses() override { Captured = true; }
    bool captured(const Use *U) override {
      if (const auto *PI = dyn_cast<PtrToIntInst>(U->getUser())) {
        bool OnlyRuntime = !PI->use_empty();
        for (const User *PU : PI->users()) {
          const auto *SI = dyn_cast<StoreInst>(PU);
          OnlyRuntime &= SI && SI->getValueOperand() == PI &&
                         isRuntimeState(getUnderlyingObject(SI->getPointerOperand()));
        }
        if (OnlyRuntime)
          return false;
      }
      Captured = true;
      return true;
    }
  };

  /// Obj is the runtime's per-thread state, which inline strand code reads
  /// through __kkrace_tls.
  static bool isRuntimeState(const Value *Obj) {
    const auto *LI = dyn_cast<LoadInst>(Obj);
    return LI && isRuntimeTLS(LI->getPointerOperand());
  }

  /// P is __kkrace_tls itself (through llvm.threadlocal.address or not).
  static bool isRuntimeTLS(const Value *P) {
    if (const auto *II = dyn_cast<IntrinsicInst>(P))
      if (II->getIntrinsicID() == Intrinsic::threadlocal_address)
        P = II->getArgOperand(0);
    const auto *GV = dyn_cast<GlobalVariable>(P);
    return GV && GV->getName() == "__kkrace_tls";
  }

  /// An access through Ptr reads or writes the runtime's state: the
  /// thread's state pointer in __kkrace_tls, or the state it points to.
  static bool isRuntimeStateAccess(const Value *Ptr) {
    const Value *Obj = getUnderlyingObject(Ptr);
    return isRuntimeState(Obj) || isRuntimeTLS(Obj);
  }

  /// Whether I reads or writes a field of one of Kokkos' own classes, by its
  /// TBAA tag (isBookkeepingType): the team's m_team_size that team_reduce
  /// reads, whose own accesses are checked for the value it writes.
  bool isBookkeepingField(const Instruction *I) {
    const MDNode *Tag = I->getMetadata(LLVMContext::MD_tbaa);
    const auto *Base = Tag && Tag->getNumOperands() >= 3
                           ? dyn_cast<MDNode>(Tag->getOperand(0))
                           : nullptr;
    const auto *Name = Base && Base->getNumOperands()
                           ? dyn_cast<MDString>(Base->getOperand(0))
                           : nullptr;
    if (!Name)
      return false;
    return memo(BookkeepingTypes, Base, [&] {
      return isBookkeepingType(Name->getString().str());
    });
  }

  /// The function of the frame L, null when it has no subprogram or no
  /// linkage name (a C function).
  const FrameInfo *frameOf(const DILocation *L) {
    const DISubprogram *SP = L->getScope()->getSubprogram();
    StringRef N = SP ? SP->getLinkageName() : StringRef();
    if (N.empty())
      return nullptr;
    return &memo(Frames, SP, [&] {
      return FrameInfo{accessScope(N.str()), isResourceCall(N.str())};
    });
  }

  /// Whether some frame of I, as its debug location says, is a call that
  /// takes or gives back a resource a strand holds alone (isResourceCall):
  /// a random pool's states and locks, a UniqueToken's bitset.  What the
  /// strand then does with the resource is checked (KokkosSemantics
  /// follows it); Kokkos' own handling of it is not.
  bool insideResourceCall(const Instruction *I) {
    for (const DILocation *L = I->getDebugLoc().get(); L;
         L = L->getInlinedAt())
      if (const FrameInfo *F = frameOf(L); F && F->Resource)
        return true;
    return false;
  }

  /// Whether I is Kokkos' bookkeeping (accessScope): its innermost frame,
  /// looking through the C++ library's, as the debug location says, or the
  /// field it accesses.
  bool isBookkeeping(const Instruction *I) {
    if (isBookkeepingField(I) || insideResourceCall(I))
      return true;
    for (const DILocation *L = I->getDebugLoc().get(); L;
         L = L->getInlinedAt()) {
      const FrameInfo *F = frameOf(L);
      if (!F)
        return false;
      if (F->Scope != AccessScope::Library)
        return F->Scope == AccessScope::Bookkeeping;
    }
    return false;
  }

  /// A call that was not inlined takes AI's address (a dispatch
  /// temporary's constructor): its instrumented code accesses AI, whose
  /// stack slot may have held a variable that a kernel read.
  /// (Kokkos' bookkeeping functions among its callees do not count: a View
  /// handle's destructor, the Tools calls that a dispatch makes with its
  /// kernel id check none of their accesses.)
  bool passedToCall(AllocaInst *AI) {
    return AI->hasMetadata(KKR_CALL_TEMP_MD) && reachesCall(AI, true);
  }

  /// A strand's own local (not checked in the strand's code) whose address
  /// reaches code that is checked: a function that was not inlined (a
  /// helper filling a local array, Kokkos 3's team_reduce writing through
  /// a reducer's reference).  Each strand's lifetime of it must begin anew,
  /// or the writes of two strands to its stack slot would look like a race.
  bool strandLocalSeen(AllocaInst *AI) {
    if (!AI->hasMetadata(KKR_STRAND_LOCAL_MD) ||
        AI->hasMetadata(KKR_CALL_TEMP_MD))
      return false;
    auto It = StrandLocalSeen.find(AI);
    if (It != StrandLocalSeen.end())
      return It->second;
    LocalTracker T;
    PointerMayBeCaptured(AI, &T);
    bool Seen = T.Captured || reachesCall(AI);
    StrandLocalSeen[AI] = Seen;
    return Seen;
  }

  /// Whether AI's address is an argument of a call (other than an
  /// intrinsic's or the runtime's, and with SkipBookkeeping, other than a
  /// function of Kokkos' bookkeeping, whose accesses are not checked).
  bool reachesCall(AllocaInst *AI, bool SkipBookkeeping = false) {
    return !allAddressUses(AI, false, [&](const Use &U, const Value *,
                                          const Value *&) {
      const auto *CB = dyn_cast<CallBase>(U.getUser());
      if (!CB || isa<IntrinsicInst>(CB))
        return true;
      const Function *F = CB->getCalledFunction();
      if (!F)
        return false;
      if (F->getName().starts_with("__kkrace"))
        return true;
      return SkipBookkeeping && !CB->isCallee(&U) &&
             memo(BookkeepingCallees, F, [&] {
               return accessScope(F->getName().str()) ==
                      AccessScope::Bookkeeping;
             });
    });
  }

  /// Whether two instructions report as one code location: the same line
  /// of the same scope, inlined at the same place.
  static bool sameLine(const Instruction *A, const Instruction *B) {
    const DILocation *X = A->getDebugLoc().get(), *Y = B->getDebugLoc().get();
    if (!X || !Y)
      return X == Y;
    return X->getLine() == Y->getLine() && X->getScope() == Y->getScope() &&
           X->getInlinedAt() == Y->getInlinedAt();
  }

  /// Whether A and B are at the same file and line in the frames of their
  /// inlined stacks that both have, from the outermost in (`x(col(k))`:
  /// two Views' operator() inlined at one line of the program, the load of
  /// one of them left with the program's line only), so that a report
  /// names the program's same lines for both.
  static bool sameLines(const Instruction *A, const Instruction *B) {
    SmallVector<const DILocation *, 16> X, Y;
    for (const DILocation *L = A->getDebugLoc().get(); L; L = L->getInlinedAt())
      X.push_back(L);
    for (const DILocation *L = B->getDebugLoc().get(); L; L = L->getInlinedAt())
      Y.push_back(L);
    if (X.empty() || Y.empty())
      return false;
    for (size_t K = 1; K <= X.size() && K <= Y.size(); ++K) {
      const DILocation *P = X[X.size() - K], *Q = Y[Y.size() - K];
      if (P->getLine() != Q->getLine() || P->getFilename() != Q->getFilename() ||
          P->getDirectory() != Q->getDirectory())
        return false;
    }
    return true;
  }

  static bool isVolatileAccess(const Instruction *I) {
    if (auto *LI = dyn_cast<LoadInst>(I))
      return LI->isVolatile();
    if (auto *SI = dyn_cast<StoreInst>(I))
      return SI->isVolatile();
    return false;
  }

  static bool isVtableAccess(Instruction *I) {
    if (MDNode *Tag = I->getMetadata(LLVMContext::MD_tbaa))
      return Tag->isTBAAVtableAccess();
    return false;
  }

  FunctionCallee sized(bool Write, uint64_t Size) {
    switch (Size) {
    case 1: return Write ? RT.write1 : RT.read1;
    case 2: return Write ? RT.write2 : RT.read2;
    case 4: return Write ? RT.write4 : RT.read4;
    case 8: return Write ? RT.write8 : RT.read8;
    case 16: return Write ? RT.write16 : RT.read16;
    default: return FunctionCallee();
    }
  }

  /// Where a report puts access I.  An access that the optimizer made of
  /// two (a store sunk out of both ways of an `if`, with a select of its
  /// address) carries line 0; the nearest instruction of its block with a
  /// line in the same function and inlined call (the branch's condition,
  /// the select) stands for it: the statement the access comes from.
  static DebugLoc accessLoc(const Instruction *I) {
    DILocation *L = I->getDebugLoc().get();
    if (!L || L->getLine() != 0)
      return I->getDebugLoc();
    auto Near = [&](const Instruction *J) -> DILocation * {
      DILocation *JL = J->getDebugLoc().get();
      if (!JL || JL->getLine() == 0 || JL->getInlinedAt() != L->getInlinedAt() ||
          JL->getScope()->getSubprogram() != L->getScope()->getSubprogram())
        return nullptr;
      return JL;
    };
    for (const Instruction *J = I->getPrevNode(); J; J = J->getPrevNode())
      if (DILocation *JL = Near(J))
        return JL;
    for (const Instruction *J = I->getNextNode(); J; J = J->getNextNode())
      if (DILocation *JL = Near(J))
        return JL;
    // (A block of its own, made for the merged access: where its address,
    // else its value, was computed.)
    for (const Value *Op : I->operands())
      if (const auto *J = dyn_cast<Instruction>(Op))
        if (DILocation *JL = Near(J))
          return JL;
    return I->getDebugLoc();
  }

  void plain(Instruction *I, Value *Ptr, Type *Ty, bool Write) {
    TypeSize TS = DL.getTypeStoreSize(Ty);
    if (TS.isScalable() || TS.getFixedValue() == 0)
      return;
    uint64_t Size = TS.getFixedValue();
    IRBuilder<> B(I);
    DebugLoc At = accessLoc(I);
    B.SetCurrentDebugLocation(At);
    Constant *Slot = siteSlot(At);
    CallInst *CI = nullptr;
    if (FunctionCallee Fn = sized(Write, Size))
      CI = B.CreateCall(Fn, {Ptr, Slot});
    else
      CI = B.CreateCall(Write ? RT.write_range : RT.read_range,
                        {Ptr, B.getInt64(Size), Slot});
    if (auto It = ApartOk.find(I); It != ApartOk.end())
      ApartChecks.push_back({CI, It->second});
    if (Write)
      teamWrite(B, I, Ptr, B.getInt64(Size), Slot);
  }

  /// A write of a team's own code (KKR_TEAM_WRITE_MD): every thread of the
  /// team makes it, which __kkrace_team_write checks after the write.
  void teamWrite(IRBuilder<> &B, Instruction *I, Value *Ptr, Value *Size,
                 Value *Slot) {
    if (I->hasMetadata(KKR_TEAM_WRITE_MD))
      B.CreateCall(RT.team_write, {Ptr, Size, Slot});
  }

  /// A Kokkos atomic inlined into another (atomic_add calling
  /// atomic_fetch_add) leaves an atomic_enter/atomic_exit pair inside the
  /// outer one's, in one basic block: the inner pair changes nothing.
  bool dropNestedAtomicMarks(Function &F) {
    SmallVector<Instruction *, 8> Dead;
    for (BasicBlock &BB : F) {
      SmallVector<Instruction *, 4> Open; // enters in this block, unmatched
      for (Instruction &I : BB) {
        if (isCallTo(I, RT.atomic_enter)) {
          Open.push_back(&I);
        } else if (isCallTo(I, RT.atomic_exit) && !Open.empty()) {
          Instruction *E = Open.pop_back_val();
          if (!Open.empty()) { // nested in an enter of this block
            Dead.push_back(E);
            Dead.push_back(&I);
          }
        }
      }
    }
    for (Instruction *I : Dead)
      I->eraseFromParent();
    return !Dead.empty();
  }

  /// The loads of a Kokkos atomic (between atomic_enter and atomic_exit,
  /// inlined: plain loads and stores on a Serial-only Kokkos) that a store
  /// of the same bytes follows with nothing between them that touches
  /// memory: the read-modify-write of atomic_add and its kin.  The store's
  /// check covers the load's (an atomic write conflicts with whatever an
  /// atomic read of the same bytes conflicts with, and replaces the same
  /// strand's read), so the load is not instrumented.
  SmallPtrSet<Instruction *, 8> atomicReadsBeforeWrites(Function &F) {
    SmallPtrSet<Instruction *, 8> Out;
    for (BasicBlock &BB : F) {
      bool In = false;
      for (Instruction &I : BB) {
        if (isCallTo(I, RT.atomic_enter)) {
          In = true;
          continue;
        }
        if (isa<CallBase>(I)) { // atomic_exit, or any call
          In = false;
          continue;
        }
        // (Plain or volatile: Kokkos' atomics on a host backend.)
        auto *LI = dyn_cast<LoadInst>(&I);
        if (!In || !LI || LI->isAtomic())
          continue;
        for (Instruction *J = LI->getNextNode(); J; J = J->getNextNode()) {
          if (!J->mayReadOrWriteMemory())
            continue;
          auto *SI = dyn_cast<StoreInst>(J);
          if (SI && !SI->isAtomic() &&
              SI->getPointerOperand() == LI->getPointerOperand() &&
              DL.getTypeStoreSize(SI->getValueOperand()->getType()) ==
                  DL.getTypeStoreSize(LI->getType()))
            Out.insert(LI);
          break;
        }
      }
    }
    return Out;
  }

  /// A Kokkos atomic's marks (or a resource call's) around a body that
  /// spans several blocks but calls nothing and touches no memory that
  /// takes a check: a random generator's draw with its rejection loop,
  /// whose state the optimizer keeps in registers (and its bounds, read
  /// from the fill's functor).  Every path from the atomic_enter reaches
  /// the one atomic_exit, and nothing enters the blocks between but
  /// through the enter: both marks go into Out.  (straightLineAtomics
  /// takes those of one block.)
  void emptyAtomicRegions(Function &F, SmallVectorImpl<Instruction *> &Out) {
    for (Instruction &I : instructions(F)) {
      if (!isCallTo(I, RT.atomic_enter))
        continue;
      BasicBlock *EnterBB = I.getParent();
      SmallPtrSet<BasicBlock *, 16> Seen{EnterBB};
      SmallVector<BasicBlock::iterator, 16> Work{std::next(I.getIterator())};
      Instruction *Exit = nullptr;
      bool Bad = false;
      while (!Work.empty() && !Bad) {
        BasicBlock::iterator It = Work.pop_back_val();
        BasicBlock *BB = It->getParent();
        bool Reached = false;
        for (; It != BB->end(); ++It) {
          if (isCallTo(*It, RT.atomic_exit)) {
            Bad |= Exit && Exit != &*It;
            Exit = &*It;
            Reached = true;
            break;
          }
          if (isa<DbgInfoIntrinsic>(*It))
            continue;
          // (Loads that take no check: the functor's bounds, a local.)
          if (auto *LI = dyn_cast<LoadInst>(&*It);
              LI && LI->isSimple() &&
              (isPrivate(LI->getPointerOperand()) ||
               isConstClosureRead(LI->getPointerOperand())))
            continue;
          if (isa<CallBase>(*It) || It->mayReadOrWriteMemory()) {
            Bad = true; // (another enter too)
            break;
          }
        }
        if (Bad || Reached)
          continue;
        const Instruction *Term = BB->getTerminator();
        if (!Term || Term->getNumSuccessors() == 0) {
          Bad = true; // (a return before the exit)
          break;
        }
        for (BasicBlock *Succ : successors(BB)) {
          if (Seen.size() > 32) {
            Bad = true;
            break;
          }
          if (Seen.insert(Succ).second)
            Work.push_back(Succ->begin());
          else if (Succ == EnterBB)
            Bad = true; // (back to the enter's block: it would meet it)
        }
      }
      if (Bad || !Exit)
        continue;
      for (BasicBlock *BB : Seen)
        if (BB != EnterBB)
          for (BasicBlock *Pred : predecessors(BB))
            if (!Seen.count(Pred))
              Bad = true; // (entered from outside)
      if (Bad)
        continue;
      Out.push_back(&I);
      Out.push_back(Exit);
    }
  }

  /// A Kokkos atomic (or a call given a resource that one strand holds)
  /// whose inlined body is straight-line plain accesses to check
  /// (atomic_add's store, its load left to it; an atomic load or store; a
  /// random generator's state and lock given back): the accesses, and the
  /// atomic_enter and atomic_exit around them in their block, with nothing
  /// else between them that calls or touches memory but the loads that
  /// stores cover.  Each such access is checked by one __kkrace_atomic
  /// call at the program's call of the atomic, and the marks go.  A body
  /// left with no access at all (a generator's draw, whose state the
  /// optimizer keeps in registers) loses its marks.
  struct MarkedAtomic {
    CallInst *Enter, *Exit;
  };
  DenseMap<Instruction *, MarkedAtomic>
  straightLineAtomics(Function &F,
                      const SmallPtrSetImpl<Instruction *> &Covered,
                      SmallVectorImpl<Instruction *> &Empty) {
    DenseMap<Instruction *, MarkedAtomic> Out;
    for (BasicBlock &BB : F) {
      CallInst *Enter = nullptr;
      SmallVector<Instruction *, 4> Accesses;
      bool Bad = false;
      for (Instruction &I : BB) {
        if (isCallTo(I, RT.atomic_enter)) {
          Enter = cast<CallInst>(&I);
          Accesses.clear();
          Bad = false;
          continue;
        }
        if (!Enter)
          continue;
        if (isCallTo(I, RT.atomic_exit)) {
          if (!Bad && Accesses.empty()) {
            Empty.push_back(Enter);
            Empty.push_back(&I);
          }
          if (!Bad)
            for (Instruction *A : Accesses)
              Out[A] = {Enter, cast<CallInst>(&I)};
          Enter = nullptr;
          continue;
        }
        if (isa<DbgInfoIntrinsic>(I))
          continue;
        if (isa<CallBase>(I)) {
          Bad = true;
          continue;
        }
        if (!I.mayReadOrWriteMemory() || Covered.count(&I) ||
            Hoisted.count(&I) || insideResourceCall(&I))
          continue;
        auto *LI = dyn_cast<LoadInst>(&I);
        auto *SI = dyn_cast<StoreInst>(&I);
        // (Volatile too: Kokkos' atomics on a host backend read and write
        // through volatile pointers.)
        if (Accesses.size() == 4 ||
            !(LI || SI || isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I)))
          Bad = true;
        else
          Accesses.push_back(&I);
      }
    }
    return Out;
  }

  /// Whether plain load LI takes a check of its own (runOnFunction).
  bool checkedLoad(LoadInst *LI,
                   const SmallPtrSetImpl<Instruction *> &AtomicReads) {
    return !(isPrivate(LI->getPointerOperand()) || isVtableAccess(LI) ||
             (!LI->isAtomic() && isBookkeeping(LI)) || AtomicReads.count(LI) ||
             insideResourceCall(LI) ||
             (!LI->isAtomic() &&
              isConstClosureRead(LI->getPointerOperand())));
  }

  /// A load of the element right after LI's (of the same type, at the
  /// same source line: `rowptr(i)` and `rowptr(i + 1)`), later in LI's
  /// block with nothing between them that writes memory or calls: both
  /// are checked by one check of the two elements, by the same strand.
  /// (One call instead of two; a report of the second's read names the
  /// first's place on that line.)  Plain loads of 4 or 8 bytes only.
  LoadInst *adjacentRead(LoadInst *LI,
                         const SmallPtrSetImpl<Instruction *> &AtomicReads,
                         const DenseMap<Instruction *, MarkedAtomic> &Marked) {
    if (!LI->isSimple() || Marked.count(LI))
      return nullptr;
    uint64_t Size = DL.getTypeStoreSize(LI->getType()).getFixedValue();
    if (Size != 4 && Size != 8)
      return nullptr;
    auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(*LI->getFunction());
    for (Instruction *J = LI->getNextNode(); J; J = J->getNextNode()) {
      if (isa<DbgInfoIntrinsic>(J))
        continue;
      if (isa<CallBase>(J) || J->mayWriteToMemory())
        return nullptr;
      auto *L2 = dyn_cast<LoadInst>(J);
      if (!L2)
        continue;
      if (!L2->isSimple() || L2->getType() != LI->getType() ||
          Marked.count(L2) || Hoisted.count(L2) ||
          L2->hasMetadata(LLVMContext::MD_nosanitize) ||
          !checkedLoad(L2, AtomicReads) || !sameLines(LI, L2))
        continue;
      auto *D = dyn_cast<SCEVConstant>(
          SE.getMinusSCEV(SE.getSCEV(L2->getPointerOperand()),
                          SE.getSCEV(LI->getPointerOperand())));
      if (D && D->getAPInt().getSExtValue() == (int64_t)Size)
        return L2;
    }
    return nullptr;
  }
  SmallPtrSet<Instruction *, 8> PairDone; // (loads checked with the one before)

  void atomic(Instruction *I, Value *Ptr, Type *Ty, unsigned Flags,
              DebugLoc At = DebugLoc()) {
    uint64_t Size = DL.getTypeStoreSize(Ty).getKnownMinValue();
    IRBuilder<> B(I);
    B.SetCurrentDebugLocation(At ? At : accessLoc(I));
    CallInst *CI =
        B.CreateCall(RT.atomic, {Ptr, B.getInt64(Size), B.getInt32(Flags),
                                 siteSlot(B.getCurrentDebugLocation())});
    if (auto It = ApartOk.find(I);
        It != ApartOk.end() && !(Flags & KKR_AF_ACQUIRE))
      ApartChecks.push_back({CI, It->second});
    if (Flags & KKR_AF_ACQUIRE) {
      IRBuilder<> A(I->getNextNode());
      A.CreateCall(RT.atomic_acquire, {Ptr});
    }
  }

  static unsigned orderingFlags(AtomicOrdering O) {
    unsigned F = 0;
    if (isAcquireOrStronger(O))
      F |= KKR_AF_ACQUIRE;
    if (isReleaseOrStronger(O))
      F |= KKR_AF_RELEASE;
    return F;
  }

  /// CUDA host functions (cudaLaunchHostFunc, cuLaunchHostFunc,
  /// cudaStreamAddCallback, and their per-thread-stream forms) go through
  /// the runtime, which runs the function as a work item of its stream: the
  /// call gets the real function and whether it is a _ptsz form as extra
  /// arguments.
  bool redirectHostFunctions(Function &F) {
    SmallVector<CallInst *, 4> Calls;
    for (Instruction &I : instructions(F))
      if (auto *CI = dyn_cast<CallInst>(&I))
        if (const Function *Callee = CI->getCalledFunction()) {
          StringRef N = Callee->getName();
          N.consume_back("_ptsz");
          if (N == "cudaLaunchHostFunc" || N == "cuLaunchHostFunc" ||
              N == "cudaStreamAddCallback")
            Calls.push_back(CI);
        }
    for (CallInst *CI : Calls) {
      Function *Callee = CI->getCalledFunction();
      bool Callback = Callee->getName().starts_with("cudaStreamAddCallback");
      unsigned N = Callback ? 4 : 3;
      if (CI->arg_size() != N || !CI->getType()->isIntegerTy(32))
        continue;
      IRBuilder<> B(CI);
      SmallVector<Value *, 6> Args(CI->args());
      Args.push_back(Callee);
      Args.push_back(B.getInt32(Callee->getName().ends_with("_ptsz")));
      CallInst *New = B.CreateCall(
          Callback ? RT.cuda_stream_callback : RT.cuda_host_func, Args);
      New->setDebugLoc(CI->getDebugLoc());
      CI->replaceAllUsesWith(New);
      CI->eraseFromParent();
    }
    return !Calls.empty();
  }

  bool runOnFunction(Function &F) {
    LocalObject.clear();
    StrandLocalSeen.clear();
    Hoisted.clear();
    ApartOk.clear();
    ApartChecks.clear();
    StrandLoops.clear();
    bool Changed = redirectHostFunctions(F);
    // (Empty atomic marks first: a loop with a draw in it is checked before
    // it as any.)
    SmallVector<Instruction *, 4> EmptyRegions;
    emptyAtomicRegions(F, EmptyRegions);
    for (Instruction *I : SmallSetVector<Instruction *, 4>(
             EmptyRegions.begin(), EmptyRegions.end()))
      I->eraseFromParent();
    Changed |= !EmptyRegions.empty();
    Changed |= hoistLoops(F);
    SmallVector<Instruction *, 64> Todo;
    for (Instruction &I : instructions(F)) {
      if (I.hasMetadata(LLVMContext::MD_nosanitize) || Hoisted.count(&I))
        continue;
      if (isa<LoadInst>(I) || isa<StoreInst>(I) || isa<AtomicRMWInst>(I) ||
          isa<AtomicCmpXchgInst>(I) || isa<MemIntrinsic>(I))
        Todo.push_back(&I);
      else if (auto *II = dyn_cast<IntrinsicInst>(&I);
               II && II->getIntrinsicID() == Intrinsic::lifetime_start)
        Todo.push_back(&I);
    }
    Changed |= dropNestedAtomicMarks(F);
    SmallPtrSet<Instruction *, 8> AtomicReads = atomicReadsBeforeWrites(F);
    SmallSetVector<Instruction *, 8> MarksDone;
    SmallVector<Instruction *, 4> EmptyMarks;
    DenseMap<Instruction *, MarkedAtomic> Marked =
        straightLineAtomics(F, AtomicReads, EmptyMarks);
    PairDone.clear();
    MarksDone.insert(EmptyMarks.begin(), EmptyMarks.end());
    for (Instruction *I : Todo) {
      if (auto It = Marked.find(I); It != Marked.end()) {
        // (A private location still takes the call: the Kokkos atomic's
        // marks go, so its check must say it is atomic.)
        // (A volatile access, as Kokkos' host atomics make them, at its
        // own place, as it was checked between the marks: two atomics
        // inlined at one expression keep two sites.)
        DebugLoc At = isVolatileAccess(I) ? accessLoc(I)
                                          : It->second.Enter->getDebugLoc();
        if (auto *LI = dyn_cast<LoadInst>(I))
          atomic(I, LI->getPointerOperand(), LI->getType(),
                 KKR_AF_READ | orderingFlags(LI->getOrdering()), At);
        else if (auto *SI = dyn_cast<StoreInst>(I))
          atomic(I, SI->getPointerOperand(), SI->getValueOperand()->getType(),
                 (SI->isAtomic() ? 0 : KKR_AF_READ) | KKR_AF_WRITE |
                     orderingFlags(SI->getOrdering()),
                 At);
        else if (auto *RMW = dyn_cast<AtomicRMWInst>(I))
          atomic(I, RMW->getPointerOperand(), RMW->getValOperand()->getType(),
                 KKR_AF_READ | KKR_AF_WRITE |
                     orderingFlags(RMW->getOrdering()),
                 At);
        else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(I))
          atomic(I, CX->getPointerOperand(),
                 CX->getNewValOperand()->getType(),
                 KKR_AF_READ | KKR_AF_WRITE |
                     orderingFlags(CX->getSuccessOrdering()),
                 At);
        MarksDone.insert(It->second.Enter);
        MarksDone.insert(It->second.Exit);
        Changed = true;
        continue;
      }
      if (auto *LI = dyn_cast<LoadInst>(I)) {
        if (!checkedLoad(LI, AtomicReads) || PairDone.count(LI))
          continue;
        if (LoadInst *Next = adjacentRead(LI, AtomicReads, Marked)) {
          // (Both elements in one check: rowptr(i), rowptr(i + 1).)
          IRBuilder<> B(LI);
          DebugLoc At = accessLoc(LI);
          B.SetCurrentDebugLocation(At);
          uint64_t Size = DL.getTypeStoreSize(LI->getType()).getFixedValue();
          B.CreateCall(RT.read_range, {LI->getPointerOperand(),
                                       B.getInt64(2 * Size), siteSlot(At)});
          PairDone.insert(Next);
          Changed = true;
          continue;
        }
        if (LI->isAtomic())
          atomic(LI, LI->getPointerOperand(), LI->getType(),
                 KKR_AF_READ | orderingFlags(LI->getOrdering()));
        else
          plain(LI, LI->getPointerOperand(), LI->getType(), false);
      } else if (auto *SI = dyn_cast<StoreInst>(I)) {
        if (isPrivate(SI->getPointerOperand()) || isVtableAccess(SI) ||
            (!SI->isAtomic() && isBookkeeping(SI)) || insideResourceCall(SI))
          continue;
        Type *Ty = SI->getValueOperand()->getType();
        if (SI->isAtomic())
          atomic(SI, SI->getPointerOperand(), Ty,
                 KKR_AF_WRITE | orderingFlags(SI->getOrdering()));
        else
          plain(SI, SI->getPointerOperand(), Ty, true);
      } else if (auto *RMW = dyn_cast<AtomicRMWInst>(I)) {
        if (isPrivate(RMW->getPointerOperand()) || insideResourceCall(RMW))
          continue;
        atomic(RMW, RMW->getPointerOperand(), RMW->getValOperand()->getType(),
               KKR_AF_READ | KKR_AF_WRITE | orderingFlags(RMW->getOrdering()));
      } else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(I)) {
        if (isPrivate(CX->getPointerOperand()) || insideResourceCall(CX))
          continue;
        atomic(CX, CX->getPointerOperand(), CX->getNewValOperand()->getType(),
               KKR_AF_READ | KKR_AF_WRITE |
                   orderingFlags(CX->getSuccessOrdering()));
      } else if (auto *LS = dyn_cast<LifetimeIntrinsic>(I)) {
        // A new lifetime of a local that instrumented code can see.
        Value *Ptr = LS->getArgOperand(1);
        auto *AI = dyn_cast<AllocaInst>(getUnderlyingObject(Ptr));
        if (!AI || (isPrivate(Ptr) && !passedToCall(AI) &&
                    !strandLocalSeen(AI)))
          continue;
        int64_t Size = cast<ConstantInt>(LS->getArgOperand(0))->getSExtValue();
        if (Size < 0) {
          std::optional<TypeSize> AS = AI->getAllocationSize(DL);
          if (!AS || AS->isScalable())
            continue;
          Size = (int64_t)AS->getFixedValue();
        }
        IRBuilder<> B(LS->getNextNode());
        B.CreateCall(RT.stack_scope, {Ptr, B.getInt64((uint64_t)Size)});
      } else if (auto *MI = dyn_cast<MemIntrinsic>(I)) {
        if (isBookkeeping(MI))
          continue;
        IRBuilder<> B(MI);
        Value *Len = B.CreateZExtOrTrunc(MI->getLength(), B.getInt64Ty());
        if (auto *MT = dyn_cast<MemTransferInst>(MI)) {
          if (!isPrivate(MT->getSource()))
            B.CreateCall(RT.read_range, {MT->getSource(), Len, newSlot()});
        }
        if (!isPrivate(MI->getDest())) {
          Value *Slot = newSlot();
          B.CreateCall(RT.write_range, {MI->getDest(), Len, Slot});
          teamWrite(B, MI, MI->getDest(), Len, Slot);
        }
      }
      Changed = true;
    }
    for (Instruction *I : MarksDone)
      I->eraseFromParent();
    guardApart();
    SmallPtrSet<AllocaInst *, 4> Freed;
    bool Sunk = false;
    if (removeIdleStrands(F, Freed, Sunk)) {
      Changed = true;
      promoteFreedLocals(F, Freed);
      if (!F.hasOptNone())
        Idle.insert(&F);
    }
    Changed |= Sunk;
    Changed |= inlineStrands(F);
    if (Changed)
      Changed |= guardRepeats(F);
    return Changed;
  }

  /// The checks in their loop of the gathered writes that
  /// __kkrace_gather_apart checked before it (ApartOk) are made only where
  /// it returned 0: an element of the gather lay in its index's span.
  void guardApart() {
    for (auto &[CI, Ok] : ApartChecks) {
      IRBuilder<> B(CI);
      Value *Missed = B.CreateICmpEQ(Ok, B.getInt32(0), "kkrace.apart");
      Instruction *Then = SplitBlockAndInsertIfThen(Missed, CI, false);
      CI->moveBefore(Then);
    }
    ApartChecks.clear();
  }

  //===--------------------------------------------------------------------===//
  // Loops that repeat their checks
  //===--------------------------------------------------------------------===//

  /// A loop whose every iteration makes the same checks, of the same
  /// addresses, in the same strand (or by the lanes of a vector loop that
  /// each iteration begins anew), with nothing between them that can order
  /// anything (`for (r = 0; r < repeat; ++r)` around a vector loop, a
  /// strand sweeping one row several times): from its second iteration
  /// on, those checks find the cells as the first left them -- records of
  /// the strand itself, or of lanes ordered before the new ones -- and can
  /// neither report a new race nor leave anything that a later check would
  /// tell apart.  They are made on the
  /// first iteration only, and on every one once a second thread runs
  /// instrumented code (__kkrace_mt: another thread's access between two
  /// iterations may replace the strand's records).  The optimizer folds
  /// such repeats of the uninstrumented program the same way.
  bool guardRepeats(Function &F) {
    if (F.hasOptNone())
      return false;
    bool Any = false;
    for (Instruction &I : instructions(F))
      if (isRepeatableCheck(I)) {
        Any = true;
        break;
      }
    if (!Any)
      return false;
    FAM.invalidate(F, PreservedAnalyses::none());
    auto &LI = FAM.getResult<LoopAnalysis>(F);
    if (LI.empty())
      return false;
    AAResults *AA = nullptr;
    SmallVector<std::pair<Loop *, SmallVector<CallInst *, 8>>, 4> Work;
    for (Loop *L : LI.getLoopsInPreorder()) {
      SmallVector<CallInst *, 8> Calls;
      if (repeatedChecks(L, LI, [&]() -> AAResults & {
            if (!AA)
              AA = &FAM.getResult<AAManager>(F);
            return *AA;
          }, Calls))
        Work.push_back({L, std::move(Calls)});
    }
    if (Work.empty())
      return false;
    // The condition of each loop first (its header and latch are still
    // those that LoopInfo knows), then the guards, which split blocks.
    SmallVector<Value *, 4> Conds;
    for (auto &[L, Calls] : Work) {
      BasicBlock *H = L->getHeader(), *Latch = L->getLoopLatch();
      IRBuilder<> B(&H->front());
      PHINode *First = B.CreatePHI(B.getInt1Ty(), 2, "kkrace.first");
      for (BasicBlock *P : predecessors(H))
        First->addIncoming(P == Latch ? B.getFalse() : B.getTrue(), P);
      B.SetInsertPoint(&*H->getFirstInsertionPt());
      LoadInst *MT = B.CreateLoad(B.getInt32Ty(), mtVar(), "kkrace.mt");
      MT->setMetadata(LLVMContext::MD_nosanitize,
                      MDNode::get(M.getContext(), {}));
      Conds.push_back(B.CreateOr(First, B.CreateICmpNE(MT, B.getInt32(0))));
    }
    for (size_t K = 0; K < Work.size(); ++K)
      for (CallInst *CI : Work[K].second) {
        Instruction *Then =
            SplitBlockAndInsertIfThen(Conds[K], CI, /*Unreachable=*/false);
        CI->moveBefore(Then);
      }
    if (traceEnabled())
      for (auto &[L, Calls] : Work)
        errs() << "kkrace: loop " << L->getHeader()->getName() << " in "
               << F.getName() << ": " << Calls.size()
               << " checks on its first iteration only\n";
    FAM.invalidate(F, PreservedAnalyses::none());
    return true;
  }

  GlobalVariable *MTVar = nullptr;
  GlobalVariable *mtVar() {
    if (!MTVar) {
      MTVar = M.getGlobalVariable("__kkrace_mt");
      if (!MTVar)
        MTVar = new GlobalVariable(M, Type::getInt32Ty(M.getContext()), false,
                                   GlobalValue::ExternalLinkage, nullptr,
                                   "__kkrace_mt");
    }
    return MTVar;
  }

  /// A check whose repeat by the same strand changes nothing (its effect
  /// depends on its arguments and the cells only), or the beginning of a
  /// vector loop, or a call that does nothing.
  bool isRepeatableCheck(const Instruction &I) const {
    for (FunctionCallee FC :
         {RT.read1, RT.read2, RT.read4, RT.read8, RT.read16, RT.write1,
          RT.write2, RT.write4, RT.write8, RT.write16, RT.read_range,
          RT.write_range, RT.loop, RT.loop_except, RT.loop_wrap,
          RT.vector_loop, RT.escape})
      if (isCallTo(I, FC))
        return true;
    return false;
  }

  /// Whether L repeats checks (guardRepeats), and which: Calls.
  bool repeatedChecks(Loop *L, LoopInfo &LI,
                      function_ref<AAResults &()> GetAA,
                      SmallVectorImpl<CallInst *> &Calls) {
    BasicBlock *Latch = L->getLoopLatch();
    if (!Latch || L->getExitingBlock() != Latch ||
        !isa<BranchInst>(Latch->getTerminator()))
      return false;
    for (Loop *Sub : L->getSubLoops())
      if (!Sub->getUniqueExitBlock())
        return false;
    SmallVector<Instruction *, 8> Writers;
    SmallVector<CallInst *, 8> Checks;
    bool Vector = false;
    for (BasicBlock *BB : L->blocks()) {
      bool Own = LI.getLoopFor(BB) == L;
      for (Instruction &I : *BB) {
        if (auto *CB = dyn_cast<CallBase>(&I)) {
          if (isRepeatableCheck(I)) {
            // (A check in an inner loop: the inner loop repeats it.)
            if (!Own || !isa<CallInst>(CB))
              return false;
            if (isCallTo(I, RT.vector_loop))
              Vector = true;
            if (!isCallTo(I, RT.escape))
              Checks.push_back(cast<CallInst>(CB));
            continue;
          }
          if (isInertLibCall(I))
            continue;
          auto *II = dyn_cast<IntrinsicInst>(CB);
          if (!II)
            return false;
          if (isa<DbgInfoIntrinsic>(II) || isa<LifetimeIntrinsic>(II) ||
              II->getIntrinsicID() == Intrinsic::assume ||
              II->getIntrinsicID() ==
                  Intrinsic::experimental_noalias_scope_decl ||
              II->getIntrinsicID() == Intrinsic::threadlocal_address)
            continue;
          if (auto *MI = dyn_cast<MemIntrinsic>(II)) {
            if (MI->isVolatile())
              return false;
            Writers.push_back(MI);
            continue;
          }
          if (II->mayWriteToMemory() || II->mayHaveSideEffects())
            return false;
          continue;
        }
        if (auto *Ld = dyn_cast<LoadInst>(&I)) {
          if (!Ld->isSimple())
            return false;
        } else if (auto *St = dyn_cast<StoreInst>(&I)) {
          // (The inline strand code writes the runtime's state.)
          if (!St->isSimple() || isRuntimeStateAccess(St->getPointerOperand()))
            return false;
          Writers.push_back(St);
        } else if (I.mayWriteToMemory() || isa<FenceInst>(I) ||
                   I.isAtomic()) {
          return false;
        } else if (I.isTerminator() && !isa<BranchInst>(I) &&
                   !isa<SwitchInst>(I)) {
          return false;
        }
      }
    }
    if (Checks.empty())
      return false;
    // Checks of one strand only, or of the lanes of a vector loop that each
    // iteration begins anew (ordered after the lanes of the one before).
    // The strands of a loop check (a team's nested iterations) would stay
    // the same from one iteration to the next: a later iteration's access
    // can then meet another strand's from the one before, which the first
    // iteration did not meet (three strands writing one element).
    for (CallInst *CI : Checks) {
      if (!isCallTo(*CI, RT.loop) && !isCallTo(*CI, RT.loop_except) &&
          !isCallTo(*CI, RT.loop_wrap))
        continue;
      auto *Packed = dyn_cast<ConstantInt>(CI->getArgOperand(3));
      if (!Packed)
        return false;
      uint64_t P = Packed->getZExtValue();
      if ((P >> KKR_LOOP_NIDX_SHIFT) & 3 &&
          !(Vector && (P & KKR_LOOP_VECTOR)))
        return false;
    }
    DenseMap<const Value *, bool> Memo;
    std::function<bool(const Value *, unsigned)> Same =
        [&](const Value *V, unsigned Depth) -> bool {
      const auto *I = dyn_cast<Instruction>(V);
      if (!I || !L->contains(I))
        return true;
      if (Depth > 16 || isa<PHINode>(I))
        return false;
      // (Of calls, only intrinsics that compute: llvm.smin of a bound.)
      if (const auto *CB = dyn_cast<CallBase>(I);
          CB && (!isa<IntrinsicInst>(CB) || CB->mayReadOrWriteMemory() ||
                 CB->mayHaveSideEffects()))
        return false;
      if (auto It = Memo.find(I); It != Memo.end())
        return It->second;
      bool R = true;
      if (const auto *Ld = dyn_cast<LoadInst>(I)) {
        // (The runtime's state changes with the checks themselves.)
        R = Same(Ld->getPointerOperand(), Depth + 1) &&
            !isRuntimeStateAccess(Ld->getPointerOperand());
        if (R) {
          MemoryLocation Loc = MemoryLocation::get(Ld);
          AAResults &AA = GetAA();
          for (Instruction *W : Writers)
            if (isModSet(AA.getModRefInfo(W, Loc))) {
              R = false;
              break;
            }
        }
      } else if (I->mayReadOrWriteMemory() || I->mayHaveSideEffects()) {
        R = false;
      } else {
        for (const Value *Op : I->operands())
          if (!Same(Op, Depth + 1)) {
            R = false;
            break;
          }
      }
      Memo[I] = R;
      return R;
    };
    // Every iteration takes the same path through the loop's own blocks.
    for (BasicBlock *BB : L->blocks()) {
      if (BB == Latch || LI.getLoopFor(BB) != L)
        continue;
      Instruction *T = BB->getTerminator();
      if (auto *Br = dyn_cast<BranchInst>(T)) {
        if (Br->isConditional() && !Same(Br->getCondition(), 0))
          return false;
      } else if (auto *Sw = dyn_cast<SwitchInst>(T)) {
        if (!Same(Sw->getCondition(), 0))
          return false;
      }
    }
    for (CallInst *CI : Checks) {
      bool Ok = true;
      for (const Value *A : CI->args())
        Ok &= Same(A, 0);
      if (Ok)
        Calls.push_back(CI);
      else if (Vector)
        // (The lanes of a later iteration's vector loop are new strands:
        // its varying checks need its own beginning.)
        return false;
    }
    return !Calls.empty();
  }

  //===--------------------------------------------------------------------===//
  // Loops checked at once
  //===--------------------------------------------------------------------===//

  static bool isCallTo(const Instruction &I, FunctionCallee FC) {
    const auto *CB = dyn_cast<CallBase>(&I);
    return CB && CB->getCalledOperand() == FC.getCallee();
  }

  /// A call of a C library function that reads and writes none of the
  /// program's memory and orders nothing: the rand family, whose state is
  /// the library's own, and the math functions of floating-point
  /// arguments (`exp`, `sin`, `pow`), which set errno at most (the
  /// thread's own: a load through a call's result, as errno's is, is not
  /// moved across them, mayBeErrno).  kkrace intercepts none of them, so
  /// none makes an edge of the graph: a loop around such calls
  /// (`values_h(i, j) = rand() % n` on the host, `y(i) = exp(x(i))` in a
  /// kernel) is checked before it runs as one without them.
  static bool isInertLibCall(const Instruction &I) {
    const auto *CI = dyn_cast<CallInst>(&I);
    const Function *F = CI ? CI->getCalledFunction() : nullptr;
    if (!F || !F->isDeclaration() || F->isVarArg() || F->isIntrinsic())
      return false;
    StringRef N = F->getName();
    FunctionType *FT = F->getFunctionType();
    static const StringSet<> Rand = {"rand", "random", "drand48", "lrand48",
                                     "mrand48"};
    if (Rand.contains(N))
      return FT->getNumParams() == 0;
    static const StringSet<> Math = {
        "acos",  "asin",      "atan",  "atan2", "acosh",  "asinh", "atanh",
        "cos",   "sin",       "tan",   "cosh",  "sinh",   "tanh",  "exp",
        "exp2",  "exp10",     "expm1", "log",   "log2",   "log10", "log1p",
        "logb",  "pow",       "sqrt",  "cbrt",  "hypot",  "fmod",  "erf",
        "erfc",  "remainder", "fdim",  "fmin",  "fmax",   "ceil",  "floor",
        "round", "trunc",     "rint",  "nearbyint", "fabs", "copysign",
        "tgamma"};
    if (!Math.contains(N) &&
        !((N.ends_with("f") || N.ends_with("l")) &&
          Math.contains(N.drop_back())))
      return false;
    if (!FT->getReturnType()->isFloatingPointTy() || FT->getNumParams() == 0)
      return false;
    for (Type *P : FT->params())
      if (!P->isFloatingPointTy())
        return false;
    return true;
  }

  /// Whether a load from Ptr may read errno, which the math functions of
  /// isInertLibCall write: its object is a call's result
  /// (`__errno_location()`) or a thread-local variable.
  static bool mayBeErrno(const Value *Ptr) {
    const Value *Obj = getUnderlyingObject(Ptr);
    if (const auto *GV = dyn_cast<GlobalVariable>(Obj))
      return GV->isThreadLocal();
    return isa<CallBase>(Obj);
  }

  /// A call that may do anything: not an intrinsic that only computes.
  static bool isOpaqueCall(const Instruction &I) {
    const auto *CB = dyn_cast<CallBase>(&I);
    if (!CB)
      return false;
    return !isa<IntrinsicInst>(CB);
  }

  /// Loads and stores whose addresses advance by a constant step on each
  /// iteration of a loop with a computable trip count, made on every
  /// iteration: checked by one __kkrace_loop call in the loop's preheader
  /// instead of one call per iteration.  In a loop whose iterations are the
  /// strands of a kernel (a RangePolicy's, the inner loop of an
  /// MDRangePolicy's), the k-th access is the k-th strand's; in a loop that
  /// calls nothing, they are all the current strand's.  (The order in which
  /// the accesses of unordered strands are checked does not change what
  /// races; each strand's own accesses keep their order.)
  bool hoistLoops(Function &F) {
    auto &LI = FAM.getResult<LoopAnalysis>(F);
    if (LI.empty())
      return false;
    auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
    auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
    auto &AA = FAM.getResult<AAManager>(F);
    bool Changed = false;
    for (Loop *L : LI.getLoopsInPreorder())
      Changed |= hoistLoop(L, LI, SE, DT, AA);
    return Changed;
  }

  /// A Kokkos atomic whose body is one load and one store of an element
  /// (Kokkos 3 on Serial), one atomic instruction (Kokkos 4: St, no Ld), or
  /// one load (an atomic read: Ld, no St).
  struct AtomicRegion {
    CallInst *Enter, *Exit;
    LoadInst *Ld;
    Instruction *St;
  };

  /// An atomic instruction that orders nothing (Kokkos 4's atomic_add):
  /// checked before its loop.  (Those that acquire or release
  /// synchronize.)
  bool relaxedRMW(AtomicRMWInst *RMW) {
    AtomicOrdering O = RMW->getOrdering();
    return !RMW->isVolatile() && !isAcquireOrStronger(O) &&
           !isReleaseOrStronger(O) && !insideResourceCall(RMW);
  }

  /// The Kokkos atomic that Enter begins, if its body (in Enter's block)
  /// is a load of an element and a later store of it, one load (an atomic
  /// read), or one atomic read-modify-write instruction, and nothing else
  /// that touches memory or calls.
  std::optional<AtomicRegion> loadStoreAtomic(CallInst *Enter) {
    AtomicRegion R = {Enter, nullptr, nullptr, nullptr};
    // (Nested marks, atomic_add calling atomic_fetch_add, are one pair.)
    unsigned Depth = 1;
    for (Instruction *I = Enter->getNextNode(); I; I = I->getNextNode()) {
      if (isCallTo(*I, RT.atomic_enter)) {
        if (R.Ld)
          return std::nullopt;
        ++Depth;
        continue;
      }
      if (isCallTo(*I, RT.atomic_exit)) {
        if (!R.St && !R.Ld)
          return std::nullopt;
        if (--Depth)
          continue;
        R.Exit = cast<CallInst>(I);
        break;
      }
      if (isa<DbgInfoIntrinsic>(I))
        continue;
      if (isa<CallBase>(I))
        return std::nullopt;
      if (!I->mayReadOrWriteMemory())
        continue;
      // (Plain or volatile, as Kokkos' atomics on a host backend make
      // them; not atomic instructions, whose ordering counts.)
      if (auto *Ld = dyn_cast<LoadInst>(I);
          Ld && !Ld->isAtomic() && !R.Ld && !R.St)
        R.Ld = Ld;
      else if (isa<AtomicRMWInst>(I) && !R.Ld && !R.St &&
               relaxedRMW(cast<AtomicRMWInst>(I)))
        R.St = I;
      else if (auto *St = dyn_cast<StoreInst>(I);
               St && !St->isAtomic() && R.Ld && !R.St &&
               St->getPointerOperand() == R.Ld->getPointerOperand() &&
               St->getValueOperand()->getType() == R.Ld->getType())
        R.St = St;
      else
        return std::nullopt;
    }
    // (A read alone, St null: an atomic read, the Atomic trait's.)
    if (!R.Exit || insideResourceCall(R.St ? R.St : R.Ld))
      return std::nullopt;
    return R;
  }

  struct StrandCall {
    CallInst *Begin;
    unsigned NIdx, Vary;
    bool Vector;       // ThreadVectorRange lanes
    const SCEV *Start; // of the varying index
    int64_t Step;
    const Value *Upd;  // underlying object of the reduction value
  };

  /// Whether copies at these offsets (and entries), sorted here, lie one
  /// after the other, Size bytes apart: the copies of an unrolled loop.
  static bool tiles(SmallVectorImpl<std::pair<int64_t, size_t>> &Copies,
                    uint64_t Size) {
    llvm::sort(Copies);
    for (size_t J = 1; J < Copies.size(); ++J)
      if (Copies[J].first - Copies[0].first != (int64_t)(J * Size))
        return false;
    return true;
  }

  /// Unrolled copies of one access of the current strand (one source line,
  /// one kind) whose offsets tile their common stride -- a vectorized
  /// fill's four stores of 8 bytes every 32 bytes -- become one check of
  /// elements of the stride's size, made by the copy at the lowest offset.
  /// The runtime keeps such a loop over an array as a run, where a check
  /// of every fourth word each would give the array a cell per word.
  template <typename HoistT>
  static void mergeUnrolled(SmallVectorImpl<HoistT> &Hs, ScalarEvolution &SE) {
    auto Plain = [](const HoistT &H) {
      return !H.Merged && H.Start && !H.SC && !H.Atomic && !H.Region &&
             H.Gs.empty() && !H.G.Index && !H.W.Rem;
    };
    for (size_t K = 0; K < Hs.size(); ++K) {
      HoistT &A = Hs[K];
      if (!Plain(A))
        continue;
      auto *C = dyn_cast<SCEVConstant>(A.Step);
      int64_t S = C ? C->getAPInt().getSExtValue() : 0;
      if (S <= (int64_t)A.Size || S > 1024 || S % A.Size)
        continue;
      SmallVector<std::pair<int64_t, size_t>, 8> Copies = {{0, K}};
      for (size_t P = 0; P < Hs.size(); ++P) {
        HoistT &B = Hs[P];
        if (P == K || !Plain(B) || B.Step != A.Step || B.Size != A.Size ||
            B.Write != A.Write || !B.Partner != !A.Partner ||
            !sameLine(A.I, B.I))
          continue;
        if (auto *D = dyn_cast<SCEVConstant>(SE.getMinusSCEV(B.Start, A.Start)))
          Copies.push_back({D->getAPInt().getSExtValue(), P});
      }
      if ((int64_t)Copies.size() != S / A.Size || !tiles(Copies, A.Size))
        continue;
      HoistT &M = Hs[Copies[0].second];
      for (size_t J = 1; J < Copies.size(); ++J) {
        HoistT &X = Hs[Copies[J].second];
        X.Merged = true;
        M.Also.push_back(X.I);
        if (X.Partner)
          M.Also.push_back(X.Partner);
      }
      M.Size = (uint32_t)S;
    }
  }

  bool hoistLoop(Loop *L, LoopInfo &LI, ScalarEvolution &SE,
                 DominatorTree &DT, AAResults &AA) {
    BasicBlock *Latch = L->getLoopLatch();
    auto Skip = [&](const char *Why) {
      if (traceEnabled())
        errs() << "kkrace: loop " << L->getHeader()->getName() << " in "
               << L->getHeader()->getParent()->getName() << ": " << Why
               << "\n";
      return false;
    };
    if (!Latch || L->getExitingBlock() != Latch)
      return Skip("not one exit, at its latch");
    BasicBlock *Pre = L->getLoopPreheader();
    if (!Pre && !(Pre = InsertPreheaderForLoop(L, &DT, &LI, nullptr, false)))
      return Skip("no preheader");
    // (Before the trip count: a bound reloaded on every iteration, such as
    // the end of a tile of Kokkos 4's MDRange, may be one of them.)
    Instruction *At = Pre->getTerminator();
    if (forwardInvariantLoads(L, LI, DT, AA, At))
      SE.forgetLoop(L);
    const SCEV *BTC = SE.getBackedgeTakenCount(L);
    if (isa<SCEVCouldNotCompute>(BTC))
      return Skip("no trip count");
    // The strands begun in this loop's own blocks, and its strand ends.
    SmallVector<StrandCall, 4> Strands;
    SmallVector<CallInst *, 4> Ends, AtomicEnters, AtomicExits;
    SmallVector<Instruction *, 8> Writes = loopWrites(L); // (for gathers)
    // Kokkos atomics whose body is a load and a store of one element
    // (Kokkos 3 on Serial) or one atomic instruction (Kokkos 4), by that
    // store or instruction: checked before the loop as one atomic write
    // where its address allows, their marks then gone.
    DenseMap<Instruction *, AtomicRegion> Regions;
    SmallPtrSet<Instruction *, 4> RegionExits;
    bool Calls = false, Bad = false;
    for (BasicBlock *BB : L->blocks()) {
      bool Own = LI.getLoopFor(BB) == L;
      for (Instruction &I : *BB) {
        if (isCallTo(I, RT.strand_begin)) {
          if (!Own) {
            Bad = true;
            continue;
          }
          StrandCall SC;
          if (strandCall(cast<CallInst>(&I), L, SE, SC))
            Strands.push_back(SC);
          else
            Bad = true;
        } else if (isCallTo(I, RT.strand_end)) {
          if (Own)
            Ends.push_back(cast<CallInst>(&I));
        } else if (isCallTo(I, RT.atomic_enter)) {
          AtomicEnters.push_back(cast<CallInst>(&I));
          if (std::optional<AtomicRegion> R =
                  loadStoreAtomic(cast<CallInst>(&I))) {
            // (The outermost marks'; an atomic read by its load.)
            Regions.try_emplace(R->St ? R->St : R->Ld, *R);
            RegionExits.insert(R->Exit);
          } else {
            if (traceEnabled())
              errs() << "kkrace:   atomic not one load and store: " << I
                     << "\n";
            Calls = true;
          }
        } else if (isCallTo(I, RT.atomic_exit)) {
          AtomicExits.push_back(cast<CallInst>(&I));
          if (!RegionExits.count(&I))
            Calls = true;
        } else if (isCallTo(I, RT.op_begin)) {
          // A Kokkos operation inside the loop (a token acquired, a team
          // barrier) changes how the accesses after it are checked.
          Bad = true;
        } else if (isOpaqueCall(I) && !isInertLibCall(I)) {
          if (traceEnabled() && !Calls)
            errs() << "kkrace:   call " << I << "\n";
          Calls = true;
        }
      }
    }
    if (traceEnabled())
      errs() << "kkrace: loop " << L->getHeader()->getName() << " in "
             << L->getHeader()->getParent()->getName() << ": "
             << Strands.size() << " strands, calls " << Calls << ", bad "
             << Bad << "\n";
    if (Bad || (Strands.empty() && (Calls || !Ends.empty())))
      return false;
    // (A loop of strands that ends up with nothing to check per iteration,
    // whether its accesses were checked here or it had none, such as a
    // vector lane's reduction into a register: removeIdleStrands.)
    if (!Strands.empty())
      StrandLoops.push_back(L);
    SCEVExpander Exp(SE, DL, "kkr.loop");
    const SCEV *Count = SE.getAddExpr(
        SE.getTruncateOrZeroExtend(BTC, Type::getInt64Ty(M.getContext())),
        SE.getOne(Type::getInt64Ty(M.getContext())));
    if (!Exp.isSafeToExpandAt(Count, At) &&
        !Exp.isSafeToExpandAt(Count = DivisorsNonZero(SE).visit(Count), At))
      return false;
    // The accesses to check here, in the order the iteration makes them.
    struct Hoist {
      Instruction *I;
      Value *Ptr;
      const SCEV *Start, *Step;
      const StrandCall *SC;
      uint32_t Size;
      bool Write;
      bool Merged;          // a load checked by a later entry
      Instruction *Partner; // the load that this entry checks too (a
                            // store: it reads, then writes)
      Gather G;             // (a gather: Start and Step are null)
      Wrap W;               // (a wrapped index: likewise)
      SmallVector<Guard, 2> Gs; // the iterations that make it: all if none
      bool Atomic = false;  // an atomic read-modify-write, checked as its
                            // write
      const AtomicRegion *Region = nullptr; // its Kokkos atomic's marks
      SmallVector<Instruction *, 4> Also; // the unrolled copies it checks
      Instruction *IndexToo = nullptr; // a gather's index load it checks
      const Hoist *With = nullptr; // a gather's companion that it checks
      uint32_t Copies = 1; // a gather's unrolled copies it checks: its
                           // count is the loop's times this
      bool Apart = false;  // a gather whose writes may be the loop's only
                           // writes of its index (__kkrace_gather_apart)
    };
    SmallVector<Hoist, 16> Hs;
    for (BasicBlock *BB : L->blocks()) {
      SmallVector<Guard, 2> Gs;
      if (LI.getLoopFor(BB) != L ||
          (!DT.dominates(BB, Latch) && !guardsOf(BB, L, LI, DT, SE, At, Gs)))
        continue;
      for (Instruction &I : *BB) {
        Value *Ptr;
        Type *Ty;
        bool Write, Atomic = false;
        const AtomicRegion *Region = nullptr;
        if (auto *Ld = dyn_cast<LoadInst>(&I)) {
          // (A Kokkos atomic read: its load, plain or volatile.)
          auto It = Regions.find(Ld);
          if (It != Regions.end() && !It->second.St) {
            Region = &It->second;
            Atomic = true;
          } else if (!Ld->isSimple()) {
            continue;
          }
          Ptr = Ld->getPointerOperand();
          Ty = Ld->getType();
          Write = false;
        } else if (auto *St = dyn_cast<StoreInst>(&I)) {
          // (A Kokkos atomic's store may be volatile: loadStoreAtomic.)
          auto It = Regions.find(St);
          if (!St->isSimple() && It == Regions.end())
            continue;
          Ptr = St->getPointerOperand();
          Ty = St->getValueOperand()->getType();
          Write = true;
          if (It != Regions.end()) {
            Region = &It->second;
            Atomic = true;
          }
        } else if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
          if (!relaxedRMW(RMW))
            continue;
          Ptr = RMW->getPointerOperand();
          Ty = RMW->getValOperand()->getType();
          Write = Atomic = true;
          if (auto It = Regions.find(RMW); It != Regions.end())
            Region = &It->second; // (Kokkos 4's, between marks)
        } else {
          continue;
        }
        if (I.hasMetadata(LLVMContext::MD_nosanitize) || isPrivate(Ptr) ||
            isVtableAccess(&I) || isBookkeeping(&I) ||
            (!Write && isConstClosureRead(Ptr)))
          continue;
        TypeSize TS = DL.getTypeStoreSize(Ty);
        if (TS.isScalable() || TS.getFixedValue() == 0 ||
            TS.getFixedValue() > KKR_LOOP_SIZE_MASK)
          continue;
        const StrandCall *SC = nullptr;
        if (!Strands.empty() &&
            !(SC = strandOf(&I, Strands, Ends, DT,
                            Gs.empty() ? nullptr : Latch))) {
          if (traceEnabled())
            errs() << "kkrace:   no strand for " << I << "\n";
          continue;
        }
        if (SC && SC->Upd && getUnderlyingObject(Ptr) == SC->Upd)
          continue; // the strand's own reduction value
        if (!Region && insideAtomic(&I, AtomicEnters, AtomicExits, DT))
          continue; // a Kokkos atomic's own loads and stores
        const SCEV *Start, *Step;
        Gather G;
        Wrap Wr;
        bool Apart = false;
        if (!affineIn(SE.getSCEV(Ptr), L, SE, Start, Step) ||
            !Exp.isSafeToExpandAt(Step, At)) {
          Start = Step = nullptr;
          if (Atomic && !Write) {
            if (traceEnabled())
              errs() << "kkrace:   atomic read not affine: " << I << "\n";
            continue; // (atomic reads: loop checks only)
          }
          if (Gs.empty() && wrapIn(Ptr, L, SE, Exp, At, Wr)) {
            if (traceEnabled())
              errs() << "kkrace:   wrapped index: " << I << "\n";
          } else if (Calls || !Gs.empty() || TS.getFixedValue() > 8 ||
                     (SC && SC->NIdx > 2) ||
                     !gatherIn(SE.getSCEV(Ptr), L, SE, Exp, At, G) ||
                     (!indexUnwritten(G.Index, Writes, AA) &&
                      !(Apart = Write && indexUnwrittenBut(G.Index, Writes,
                                                           &I, AA)))) {
            if (traceEnabled()) {
              // (With the instructions that SCEV could not see through.)
              errs() << "kkrace:   not affine: " << I << " at "
                     << *SE.getSCEV(Ptr) << "\n";
              SCEVExprContains(SE.getSCEV(Ptr), [](const SCEV *X) {
                if (auto *U = dyn_cast<SCEVUnknown>(X))
                  if (isa<Instruction>(U->getValue()))
                    errs() << "kkrace:     " << *U->getValue() << "\n";
                return false;
              });
            }
            continue;
          }
        }
        Hs.push_back({&I, Ptr, Start, Step, SC,
                      (uint32_t)TS.getFixedValue(), Write, false, nullptr, G,
                      Wr, Gs, Atomic, Region, {}});
        Hs.back().Apart = Apart;
        if (Apart && traceEnabled())
          errs() << "kkrace:   gather apart from its index: " << I << "\n";
      }
    }
    // A load and a later store of the same element by the same strand at
    // one source line (y(i) += ...) are one check that reads and then
    // writes; a second load of an element at one line is no check at all.
    // (The runtime decides such a pair as the store alone, which leaves the
    // shadow as the two checks would; reports still name both.)
    for (size_t K = 0; K < Hs.size(); ++K) {
      for (size_t P = 0; P < K; ++P) {
        Hoist &A = Hs[P], &B = Hs[K];
        if (A.Merged || A.Write || A.Atomic || B.Atomic ||
            !(A.Start ? A.Start == B.Start && A.Step == B.Step
                      : A.W.Rem && A.Ptr == B.Ptr && B.W.Rem) ||
            A.SC != B.SC || A.Size != B.Size || !sameLine(A.I, B.I) ||
            ((!A.Gs.empty() || !B.Gs.empty()) &&
             A.I->getParent() != B.I->getParent()))
          continue;
        A.Merged = true;
        B.Partner = A.I;
        break;
      }
    }
    mergeUnrolled(Hs, SE);
    // A gather's loads of its index (x(col(k)): col(k), one element after
    // the other) at the same line, by the same strands, are checked by the
    // gather's call, which reads the indices anyway.  (One call instead of
    // two; a report of the index's read names the line of both.)
    for (Hoist &H : Hs) {
      if (H.Merged || !H.G.Index || H.G.Skip || H.G.Bits || H.Write ||
          H.Atomic || !H.Gs.empty())
        continue;
      for (Hoist &X : Hs) {
        auto *C = dyn_cast_or_null<SCEVConstant>(X.Step);
        if (X.I != H.G.Index || X.Merged || X.Write || X.Atomic ||
            X.Partner || !X.Also.empty() || !X.Gs.empty() || X.SC != H.SC ||
            !C || C->getAPInt().getSExtValue() != (int64_t)X.Size ||
            !sameLines(X.I, H.I))
          continue;
        X.Merged = true;
        H.IndexToo = X.I;
        break;
      }
    }
    // The copies of a gather in a loop unrolled S + 1 times (x(col(k)),
    // x(col(k + 1)), ... each reading every (S + 1)-th index), by the
    // current strand, are one gather through all the indices, S + 1 times
    // as many: one call instead of S + 1 (a sparse row of a RangePolicy
    // kernel, whose rows are a few times the unrolled step).  The same
    // accesses by the same strand, in another order; copies at one source
    // line only, as reports name the first's.
    for (size_t K = 0; K < Hs.size(); ++K) {
      Hoist &A = Hs[K];
      auto Copyable = [](const Hoist &H) {
        return !H.Merged && H.G.Index && H.G.Skip && !H.SC && !H.Atomic &&
               !H.Region && H.Gs.empty() && !H.IndexToo && !H.Partner &&
               H.Also.empty() && !H.Apart;
      };
      if (!Copyable(A))
        continue;
      const SCEV *APtr = SE.getSCEV(A.G.Index->getPointerOperand());
      uint64_t ISize = DL.getTypeStoreSize(A.G.Index->getType());
      SmallVector<std::pair<int64_t, size_t>, 8> Copies = {{0, K}};
      for (size_t P = 0; P < Hs.size(); ++P) {
        Hoist &B = Hs[P];
        if (P == K || !Copyable(B) || B.G.Skip != A.G.Skip ||
            B.G.Base != A.G.Base || B.G.Scale != A.G.Scale ||
            B.G.Unsigned != A.G.Unsigned || B.G.Bits != A.G.Bits ||
            B.G.Index->getType() != A.G.Index->getType() ||
            B.Size != A.Size || B.Write != A.Write || !sameLine(A.I, B.I))
          continue;
        if (auto *D = dyn_cast<SCEVConstant>(SE.getMinusSCEV(
                SE.getSCEV(B.G.Index->getPointerOperand()), APtr)))
          Copies.push_back({D->getAPInt().getSExtValue(), P});
      }
      if (Copies.size() != A.G.Skip + 1 || !tiles(Copies, ISize))
        continue;
      Hoist &M = Hs[Copies[0].second];
      for (size_t J = 1; J < Copies.size(); ++J) {
        Hs[Copies[J].second].Merged = true;
        M.Also.push_back(Hs[Copies[J].second].I);
      }
      M.Copies = M.G.Skip + 1;
      M.G.Skip = 0;
    }
    // A load of a contiguous array at the iterations of a gather, by the
    // same strands (val(k) beside x(col(k)) in a sparse row), is checked by
    // the gather's call too: one call per row instead of two.
    for (Hoist &H : Hs) {
      if (H.Merged || !H.G.Index || H.G.Skip || H.Write || H.Atomic ||
          H.Region || !H.Gs.empty() || !H.Also.empty())
        continue;
      for (Hoist &X : Hs) {
        auto *C = dyn_cast_or_null<SCEVConstant>(X.Step);
        if (&X == &H || !isa<LoadInst>(X.I) || X.Merged || X.Write ||
            X.Atomic || X.Region || X.Partner || !X.Also.empty() ||
            !X.Gs.empty() || X.G.Index || X.W.Rem || X.IndexToo ||
            X.SC != H.SC || (X.Size != 4 && X.Size != 8) || !C ||
            C->getAPInt().getSExtValue() != (int64_t)X.Size)
          continue;
        X.Merged = true;
        H.With = &X;
        break;
      }
    }
    Value *CountV = nullptr;
    bool Changed = false;
    for (Hoist &H : Hs) {
      if (H.Merged)
        continue; // (hoisted with its partner, or checked in the loop)
      Instruction &I = *H.I;
      Value *Ptr = H.Ptr;
      const StrandCall *SC = H.SC;
      const SCEV *Step = H.Step;
      // The address and the strand's index on the first iteration: the
      // loop's own computation of them, entered from the preheader.
      DenseMap<Value *, Value *> Memo;
      // (A wrapped index: the address where the remainder is 0.)
      if (H.W.Rem)
        Memo[H.W.Rem] = ConstantInt::get(H.W.Rem->getType(), 0);
      Value *Base = H.G.Index
                        ? valueAtEntry(H.G.Index->getPointerOperand(), L, At, Memo)
                        : valueAtEntry(Ptr, L, At, Memo);
      Value *IdxStart = SC ? valueAtEntry(SC->Begin->getArgOperand(SC->Vary),
                                          L, At, Memo)
                           : nullptr;
      if (!Base || (SC && !IdxStart)) {
        if (traceEnabled())
          errs() << "kkrace:   no entry value: " << I << "\n";
        continue;
      }
      IRBuilder<> B(At);
      // (A Kokkos atomic: where the program called it, as its check in the
      // loop would say.)
      B.SetCurrentDebugLocation(
          H.Region && !isVolatileAccess(&I) ? H.Region->Enter->getDebugLoc()
          : H.Atomic                        ? accessLoc(&I)
                                            : I.getDebugLoc());
      if (!CountV)
        CountV = Exp.expandCodeFor(Count, B.getInt64Ty(), At);
      Value *Stride =
          Step ? Exp.expandCodeFor(Step, B.getInt64Ty(), At) : nullptr;
      Value *N = CountV;
      SmallVector<Value *, 2> Except;
      if (!H.Gs.empty()) {
        // Iterations [Lo, Hi) of the loop make the access: its addresses
        // and strands from the Lo-th on.
        auto R = guardedIterations(B, L, H.Gs, CountV, At, Memo, Except);
        if (!R) {
          if (traceEnabled())
            errs() << "kkrace:   no entry value of a guard: " << I << "\n";
          continue;
        }
        auto [Lo, Hi] = *R;
        for (Value *&X : Except)
          X = B.CreateSub(X, Lo);
        N = B.CreateSub(Hi, Lo);
        // (The address on the Lo-th iteration as the program computes it:
        // the first iteration's may wrap, the guard leaving it out.)
        DenseMap<Value *, Value *> AtLo;
        Base = valueAtIteration(Ptr, L, At, AtLo, Lo, &SE);
        if (!Base) {
          if (traceEnabled())
            errs() << "kkrace:   no guarded address: " << I << "\n";
          continue;
        }
        if (SC)
          IdxStart = B.CreateAdd(
              B.CreateSExtOrTrunc(IdxStart, B.getInt64Ty()),
              B.CreateMul(Lo, B.getInt64(SC->Step)));
      }
      uint32_t Packed = H.Size | (H.Write ? KKR_LOOP_WRITE : 0) |
                        (H.Write && H.Partner ? KKR_LOOP_READ : 0) |
                        (H.Atomic ? KKR_LOOP_ATOMIC : 0);
      Value *Idx[3] = {B.getInt64(0), B.getInt64(0), B.getInt64(0)};
      int64_t IdxStep = 0;
      if (SC) {
        Packed |= SC->NIdx << KKR_LOOP_NIDX_SHIFT |
                  SC->Vary << KKR_LOOP_VARY_SHIFT |
                  (SC->Vector ? KKR_LOOP_VECTOR : 0);
        for (unsigned K = 0; K < SC->NIdx; ++K)
          Idx[K] = K == SC->Vary ? IdxStart : SC->Begin->getArgOperand(K);
        IdxStep = SC->Step;
      }
      Constant *LoopSlot = siteSlot(B.getCurrentDebugLocation());
      if (H.G.Index) {
        Packed |= (H.G.Index->getType()->isIntegerTy(64) ? KKR_GATHER_IDX64 : 0) |
                  (H.G.Unsigned ? KKR_GATHER_UNSIGNED : 0) |
                  H.G.Skip << KKR_GATHER_SKIP_SHIFT |
                  H.G.Bits << KKR_GATHER_BITS_SHIFT |
                  (H.IndexToo ? KKR_GATHER_READS_INDEX : 0);
        Value *WithBase =
            H.With ? valueAtEntry(H.With->Ptr, L, At, Memo) : nullptr;
        Value *GBase = Exp.expandCodeFor(H.G.Base, Ptr->getType(), At);
        Value *GScale = Exp.expandCodeFor(H.G.Scale, B.getInt64Ty(), At);
        if (WithBase) {
          Packed |= H.With->Size == 8 ? KKR_GATHER_WITH8 : 0;
          B.CreateCall(RT.gather_with,
                       {GBase, GScale, Base, CountV, B.getInt32(Packed),
                        Idx[0], Idx[1], B.getInt64(IdxStep), LoopSlot,
                        WithBase, siteSlot(H.With->I->getDebugLoc())});
          Hoisted.insert(H.With->I);
        } else {
          // (A companion whose first address is not known here stays
          // checked in the loop.)
          Value *GCount =
              H.Copies > 1 ? B.CreateMul(CountV, B.getInt64(H.Copies))
                           : CountV;
          if (H.Apart) {
            // (The access keeps its check in the loop, made where this
            // call did not check it.)
            ApartOk[&I] = B.CreateCall(
                RT.gather_apart, {GBase, GScale, Base, GCount,
                                  B.getInt32(Packed), Idx[0], Idx[1],
                                  B.getInt64(IdxStep), LoopSlot});
            Changed = true;
            continue;
          }
          B.CreateCall(RT.gather, {GBase, GScale, Base, GCount,
                                   B.getInt32(Packed), Idx[0], Idx[1],
                                   B.getInt64(IdxStep), LoopSlot});
        }
      } else if (H.W.Rem) {
        // The address where the remainder is 1, for the scale; X and N
        // extended as the remainder is signed or not.
        DenseMap<Value *, Value *> AtOne;
        AtOne[H.W.Rem] = ConstantInt::get(H.W.Rem->getType(), 1);
        Value *One = valueAtEntry(Ptr, L, At, AtOne);
        Value *X0 = valueAtEntry(H.W.X, L, At, Memo);
        if (!One || !X0) {
          if (traceEnabled())
            errs() << "kkrace:   no entry value of a wrapped index: " << I
                   << "\n";
          continue;
        }
        Value *Scale = B.CreateSub(B.CreatePtrToInt(One, B.getInt64Ty()),
                                   B.CreatePtrToInt(Base, B.getInt64Ty()));
        auto Ext = [&](Value *V) {
          return H.W.Unsigned ? B.CreateZExtOrTrunc(V, B.getInt64Ty())
                              : B.CreateSExtOrTrunc(V, B.getInt64Ty());
        };
        Value *NV = H.W.N ? Ext(Exp.expandCodeFor(SE.getSCEV(H.W.N),
                                                  H.W.N->getType(), At))
                          : B.getInt64(H.W.Mask + 1);
        Packed |= (H.W.Unsigned ? KKR_WRAP_UNSIGNED : 0) |
                  (H.W.Rem->getType()->isIntegerTy(32) ? KKR_WRAP_32 : 0);
        B.CreateCall(RT.loop_wrap,
                     {Base, Scale, CountV, B.getInt32(Packed), Idx[0], Idx[1],
                      Idx[2], B.getInt64(IdxStep), LoopSlot, Ext(X0), NV});
      } else if (!Except.empty()) {
        // (x - Lo for each x excluded; all ones for none.)
        Except.resize(2, B.getInt64(~0ull));
        B.CreateCall(RT.loop_except,
                     {Base, Stride, N, B.getInt32(Packed), Idx[0], Idx[1],
                      Idx[2], B.getInt64(IdxStep), LoopSlot, Except[0],
                      Except[1]});
      } else {
        B.CreateCall(RT.loop, {Base, Stride, N, B.getInt32(Packed), Idx[0],
                               Idx[1], Idx[2], B.getInt64(IdxStep), LoopSlot});
      }
      Hoisted.insert(&I);
      if (H.Partner)
        Hoisted.insert(H.Partner);
      for (Instruction *X : H.Also)
        Hoisted.insert(X);
      if (H.IndexToo)
        Hoisted.insert(H.IndexToo);
      if (H.Region && H.Region->Ld) // (its load: the write's check covers it)
        Hoisted.insert(H.Region->Ld);
      Changed = true;
    }
    return Changed;
  }

  /// A signed comparison of an induction variable of a loop, X = X0 + T * k
  /// on iteration k (T is 1 or -1), with a value B that the loop does not
  /// change: Pred(X, B) holds on the iterations that reach a block.  (T is
  /// 0 when the loop changes neither: all iterations or none.)
  struct Guard {
    CmpInst::Predicate Pred;
    Value *X, *B; // (their values on the first iteration: X0 and B)
    int64_t T;
  };

  /// Whether BB, a block of L's own that not every iteration reaches, is
  /// reached exactly on the iterations where some comparisons of an
  /// induction variable hold (if (i > 0) ..., if (i < n - 1) ...): each
  /// block from BB up to one that every iteration reaches has one
  /// predecessor, which branches on such a comparison.  Gs: the guards.
  bool guardsOf(BasicBlock *BB, Loop *L, LoopInfo &LI, DominatorTree &DT,
                ScalarEvolution &SE, Instruction *At,
                SmallVectorImpl<Guard> &Gs) {
    BasicBlock *Latch = L->getLoopLatch();
    SCEVExpander Exp(SE, DL, "kkr.guard");
    while (!DT.dominates(BB, Latch)) {
      BasicBlock *P = BB->getSinglePredecessor();
      auto *Br = P ? dyn_cast<BranchInst>(P->getTerminator()) : nullptr;
      if (!Br || !Br->isConditional() || LI.getLoopFor(P) != L ||
          Br->getSuccessor(0) == Br->getSuccessor(1) ||
          !guardCondition(Br->getCondition(), Br->getSuccessor(0) == BB, L,
                          SE, Exp, At, Gs)) {
        if (traceEnabled())
          errs() << "kkrace:   no guard for " << BB->getName() << " ("
                 << (P && LI.getLoopFor(P) == L) << ") from "
                 << (P ? *P->getTerminator() : *BB->getFirstNonPHI()) << "\n";
        return false;
      }
      BB = P;
    }
    return true;
  }

  /// Adds to Gs the guards that say Cond is Holds: a comparison, or the
  /// comparisons of a && that holds (a || that does not).
  bool guardCondition(Value *Cond, bool Holds, Loop *L, ScalarEvolution &SE,
                      SCEVExpander &Exp, Instruction *At,
                      SmallVectorImpl<Guard> &Gs) {
    using namespace PatternMatch;
    Value *A, *B;
    if ((Holds && match(Cond, m_LogicalAnd(m_Value(A), m_Value(B)))) ||
        (!Holds && match(Cond, m_LogicalOr(m_Value(A), m_Value(B)))))
      return guardCondition(A, Holds, L, SE, Exp, At, Gs) &&
             guardCondition(B, Holds, L, SE, Exp, At, Gs);
    auto *C = dyn_cast<ICmpInst>(Cond);
    if (!C || Gs.size() == 6) {
      if (traceEnabled())
        errs() << "kkrace:   not a guard: " << *Cond << "\n";
      return false;
    }
    CmpInst::Predicate Pred =
        Holds ? C->getPredicate() : C->getInversePredicate();
    Value *XV = C->getOperand(0), *BV = C->getOperand(1);
    const SCEV *X = SE.getSCEV(XV);
    const SCEV *Bnd = SE.getSCEV(BV);
    if (SE.isLoopInvariant(X, L) && SE.isLoopInvariant(Bnd, L)) {
      Gs.push_back({Pred, XV, BV, 0});
      return true;
    }
    if (SE.isLoopInvariant(X, L)) {
      std::swap(X, Bnd);
      std::swap(XV, BV);
      Pred = CmpInst::getSwappedPredicate(Pred);
    }
    NoWrap R(SE, L);
    auto *AR = dyn_cast<SCEVAddRecExpr>(R.visit(X));
    auto *TC = AR ? dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE)) : nullptr;
    if (!(ICmpInst::isSigned(Pred) || ICmpInst::isEquality(Pred)) ||
        !XV->getType()->isIntegerTy() || !BV->getType()->isIntegerTy() ||
        (Pred == CmpInst::ICMP_NE && count_if(Gs, [](const Guard &G) {
           return G.T && G.Pred == CmpInst::ICMP_NE;
         }) == 2) ||
        !SE.isLoopInvariant(Bnd, L) || !TC || AR->getLoop() != L ||
        !AR->isAffine() ||
        !(TC->getAPInt().isOne() || TC->getAPInt().isAllOnes())) {
      if (traceEnabled())
        errs() << "kkrace:   not a guard: " << *C << " X " << *X << " B "
               << *Bnd << "\n";
      return false;
    }
    Gs.push_back({Pred, XV, BV, TC->getAPInt().isOne() ? 1 : -1});
    return true;
  }

  /// The iterations [Lo, Hi) of a loop of Count iterations on which the
  /// guards Gs hold but those in Except (up to two, of `!=` guards),
  /// computed before At (Lo <= Hi).
  /// Null if a guard's values cannot be computed before the loop.
  std::optional<std::pair<Value *, Value *>>
  guardedIterations(IRBuilder<> &B, Loop *L, ArrayRef<Guard> Gs,
                    Value *Count, Instruction *At,
                    DenseMap<Value *, Value *> &Memo,
                    SmallVectorImpl<Value *> &Except) {
    Type *I64 = B.getInt64Ty();
    Value *Lo = B.getInt64(0), *Hi = Count;
    for (const Guard &G : Gs) {
      Value *XE = valueAtEntry(G.X, L, At, Memo);
      Value *BE = valueAtEntry(G.B, L, At, Memo);
      if (!XE || !BE)
        return std::nullopt;
      if (!G.T) {
        Hi = B.CreateSelect(B.CreateICmp(G.Pred, XE, BE), Hi, B.getInt64(0));
        continue;
      }
      Value *X0 = B.CreateSExtOrTrunc(XE, I64);
      Value *Bnd = B.CreateSExtOrTrunc(BE, I64);
      // With X = X0 + k: X < B iff k < B - X0; with X = X0 - k: X < B iff
      // k > X0 - B (and so on for the other predicates).
      Value *D = G.T > 0 ? B.CreateSub(Bnd, X0) : B.CreateSub(X0, Bnd);
      CmpInst::Predicate P = G.T > 0 ? G.Pred : CmpInst::getSwappedPredicate(G.Pred);
      switch (P) {
      case CmpInst::ICMP_EQ: // k == D
        Lo = B.CreateBinaryIntrinsic(Intrinsic::smax, Lo, D);
        Hi = B.CreateBinaryIntrinsic(Intrinsic::smin, Hi, B.CreateAdd(D, B.getInt64(1)));
        break;
      case CmpInst::ICMP_NE: // k != D
        Except.push_back(D);
        break;
      case CmpInst::ICMP_SLT: // k < D
        Hi = B.CreateBinaryIntrinsic(Intrinsic::smin, Hi, D);
        break;
      case CmpInst::ICMP_SLE: // k <= D
        Hi = B.CreateBinaryIntrinsic(Intrinsic::smin, Hi, B.CreateAdd(D, B.getInt64(1)));
        break;
      case CmpInst::ICMP_SGT: // k > D
        Lo = B.CreateBinaryIntrinsic(Intrinsic::smax, Lo, B.CreateAdd(D, B.getInt64(1)));
        break;
      default: // ICMP_SGE: k >= D
        Lo = B.CreateBinaryIntrinsic(Intrinsic::smax, Lo, D);
        break;
      }
    }
    Lo = B.CreateBinaryIntrinsic(Intrinsic::smin, Lo, Count);
    Hi = B.CreateBinaryIntrinsic(Intrinsic::smax, Hi, Lo);
    return std::make_pair(Lo, Hi);
  }

  /// Loads made on every iteration of L from an address that L does not
  /// change and nothing in L may write: typically a View's data pointer,
  /// reloaded from the functor on each iteration because the strand calls
  /// in the loop are opaque to the optimizer.  Their uses take a copy made
  /// at At (the preheader's end, unchecked: the load itself stays in the
  /// loop and is checked as before), so that the addresses computed from
  /// them are affine in L.  The copy reads what the first iteration would:
  /// the loop has no exit before its latch, so that iteration reaches the
  /// load (or the load cannot fault: then the copy reads what any
  /// iteration would), and nothing in the loop writes the address.
  /// Ld carries a type tag that is not char's (which may alias anything).
  static bool typeTagged(LoadInst *Ld) {
    MDNode *Tag = Ld->getMetadata(LLVMContext::MD_tbaa);
    if (!Tag || Tag->getNumOperands() < 3)
      return false;
    auto *Access = dyn_cast<MDNode>(Tag->getOperand(1));
    auto *Name = Access && Access->getNumOperands() > 0
                     ? dyn_cast<MDString>(Access->getOperand(0))
                     : nullptr;
    return Name && Name->getString() != "omnipotent char";
  }

  /// W is an atomic instruction (clang gives atomics no type tags) that
  /// cannot write what Ld loads under the type rules that Ld's own tag
  /// says the code was compiled with (no tags with -fno-strict-aliasing):
  /// an atomic add into a View of long or double does not write a View's
  /// data pointer, nor an element of an index array of int.  (Types of
  /// one kind and width, and char, may be each other's.)
  static bool atomicOfOtherType(Instruction *W, LoadInst *Ld) {
    Type *Ty = nullptr;
    if (auto *RMW = dyn_cast<AtomicRMWInst>(W))
      Ty = RMW->getValOperand()->getType();
    else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(W))
      Ty = CX->getNewValOperand()->getType();
    Type *LT = Ld->getType();
    if (!Ty || !typeTagged(Ld) || Ty->isIntegerTy(8) || LT->isIntegerTy(8))
      return false;
    if (LT->isPointerTy())
      return Ty->isFloatingPointTy() || Ty->isIntegerTy();
    if (LT->isIntegerTy())
      return Ty->isFloatingPointTy() ||
             (Ty->isIntegerTy() &&
              Ty->getIntegerBitWidth() != LT->getIntegerBitWidth());
    if (LT->isFloatingPointTy())
      return Ty->isIntegerTy() || (Ty->isFloatingPointTy() && Ty != LT);
    return false;
  }

  /// The stores and the like of loop L.
  static SmallVector<Instruction *, 8> loopWrites(Loop *L) {
    SmallVector<Instruction *, 8> Writes;
    for (BasicBlock *BB : L->blocks())
      for (Instruction &I : *BB)
        if (isa<StoreInst>(I) || isa<AtomicRMWInst>(I) ||
            isa<AtomicCmpXchgInst>(I) || isa<MemIntrinsic>(I))
          Writes.push_back(&I);
    return Writes;
  }

  bool forwardInvariantLoads(Loop *L, LoopInfo &LI, DominatorTree &DT,
                             AAResults &AA, Instruction *At) {
    SmallVector<Instruction *, 8> Writes = loopWrites(L);
    // (Calls that may write memory, intrinsics included: a masked store.)
    SmallVector<CallBase *, 4> Calls;
    for (BasicBlock *BB : L->blocks())
      for (Instruction &I : *BB)
        if (auto *CB = dyn_cast<CallBase>(&I); CB && CB->mayWriteToMemory()) {
          Function *Callee = CB->getCalledFunction();
          if (!Callee || !Callee->getName().starts_with("__kkrace_"))
            Calls.push_back(CB);
        }
    BasicBlock *Latch = L->getLoopLatch();
    bool Changed = false;
    for (BasicBlock *BB : L->blocks()) {
      if (LI.getLoopFor(BB) != L)
        continue;
      bool Every = DT.dominates(BB, Latch);
      for (Instruction &I : *BB) {
        auto *Ld = dyn_cast<LoadInst>(&I);
        if (!Ld || !Ld->isSimple() || Ld->use_empty() ||
            !L->isLoopInvariant(Ld->getPointerOperand()) ||
            !(Ld->getType()->isPointerTy() || Ld->getType()->isIntegerTy()))
          continue;
        // (A load that not every iteration makes moves before the loop
        // only where it cannot fault: a field of a local, of the functor.)
        if (!Every && !isSafeToLoadUnconditionally(Ld->getPointerOperand(),
                                                   Ld->getType(),
                                                   Ld->getAlign(), DL, At))
          continue;
        MemoryLocation Loc = MemoryLocation::get(Ld);
        // (A capture of the running const closure, or a field of one of
        // Kokkos' functors: nothing writes it while the call runs, however
        // the loop's stores of the same type might alias it.)
        bool Written = false;
        bool Closure = isConstClosureRead(Ld->getPointerOperand());
        for (Instruction *W : Closure ? ArrayRef<Instruction *>() : Writes) {
          if (atomicOfOtherType(W, Ld))
            continue;
          std::optional<MemoryLocation> WL = MemoryLocation::getOrNone(W);
          if (!WL || !AA.isNoAlias(*WL, Loc)) {
            Written = true;
            break;
          }
        }
        for (CallBase *CB : Calls)
          if (!Written && !Closure &&
              !(isInertLibCall(*CB) && !mayBeErrno(Ld->getPointerOperand())) &&
              isModSet(AA.getModRefInfo(CB, Loc)))
            Written = true;
        if (Written)
          continue;
        Instruction *C = Ld->clone();
        C->setMetadata(LLVMContext::MD_nosanitize, MDNode::get(M.getContext(), {}));
        C->insertBefore(At);
        Ld->replaceAllUsesWith(C);
        Changed = true;
      }
    }
    return Changed;
  }

  /// A trip count that divides by a value it does not know to be nonzero
  /// (the chunk of a team's range that Kokkos computes for each thread,
  /// (n + team_size - 1) / team_size): the program divides by it before
  /// the loop, so it is not 0 when the loop runs, and a division by
  /// umax(divisor, 1) is the same count, which the expander may compute
  /// before the loop (a division by 0 would trap there).
  struct DivisorsNonZero : SCEVRewriteVisitor<DivisorsNonZero> {
    DivisorsNonZero(ScalarEvolution &SE)
        : SCEVRewriteVisitor<DivisorsNonZero>(SE) {}
    const SCEV *visitUDivExpr(const SCEVUDivExpr *E) {
      const SCEV *N = visit(E->getLHS()), *D = visit(E->getRHS());
      if (!isa<SCEVConstant>(D) && !SE.isKnownNonZero(D))
        D = SE.getUMaxExpr(D, SE.getOne(D->getType()));
      return SE.getUDivExpr(N, D);
    }
  };

  /// Rewrites the extensions and truncations of an induction variable (an
  /// int index of a functor, widened for the address) as an induction
  /// variable of the wide type.  Exact unless the narrow index wraps, which
  /// the program's own signed arithmetic forbids.  A truncation to fewer
  /// than 32 bits is the program's own wrapping (i & 255, i % 256u): it
  /// stays (such an index is a wrapped one, wrapIn), but for the 31 bits
  /// of an int known not to be negative, widened with zeros: the form the
  /// optimizer gives `u(i - 1)` under `if (i > 0)`.
  struct NoWrap : SCEVRewriteVisitor<NoWrap> {
    const Loop *L;
    NoWrap(ScalarEvolution &SE, const Loop *L)
        : SCEVRewriteVisitor<NoWrap>(SE), L(L) {}
    const SCEVAddRecExpr *rec(const SCEV *S, unsigned MinBits = 32) {
      auto *AR = dyn_cast<SCEVAddRecExpr>(S);
      return AR && AR->getLoop() == L && AR->isAffine() &&
                     !(AR->getType()->isIntegerTy() &&
                       AR->getType()->getIntegerBitWidth() < MinBits)
                 ? AR
                 : nullptr;
    }
    const SCEV *visitTruncateExpr(const SCEVTruncateExpr *E) {
      const SCEV *Op = visit(E->getOperand());
      if (auto *AR = rec(Op); AR && E->getType()->getScalarSizeInBits() >= 32)
        return SE.getAddRecExpr(
            SE.getTruncateExpr(AR->getStart(), E->getType()),
            SE.getTruncateExpr(AR->getStepRecurrence(SE), E->getType()), L,
            SCEV::FlagAnyWrap);
      return SE.getTruncateExpr(Op, E->getType());
    }
    const SCEV *visitSignExtendExpr(const SCEVSignExtendExpr *E) {
      const SCEV *Op = visit(E->getOperand());
      if (auto *AR = rec(Op))
        return SE.getAddRecExpr(
            SE.getSignExtendExpr(AR->getStart(), E->getType()),
            SE.getSignExtendExpr(AR->getStepRecurrence(SE), E->getType()), L,
            SCEV::FlagAnyWrap);
      return SE.getSignExtendExpr(Op, E->getType());
    }
    const SCEV *visitZeroExtendExpr(const SCEVZeroExtendExpr *E) {
      const SCEV *Op = visit(E->getOperand());
      if (auto *AR = rec(Op, 31))
        return SE.getAddRecExpr(
            SE.getZeroExtendExpr(AR->getStart(), E->getType()),
            SE.getSignExtendExpr(AR->getStepRecurrence(SE), E->getType()), L,
            SCEV::FlagAnyWrap);
      return SE.getZeroExtendExpr(Op, E->getType());
    }
    /// `ashr (mul X, C << 32), s` and `ashr (shl X, 32 + c), s` for s up
    /// to 32: an int product `C * i` (`3 * i` of a row of 3-vectors)
    /// widened, as clang widens it (times 2^(32 - s), the element's size,
    /// when it is a byte offset), which SCEV leaves opaque:
    /// sext(trunc(X) * C) * 2^(32 - s).
    const SCEV *visitUnknown(const SCEVUnknown *U) {
      using namespace PatternMatch;
      Value *X;
      const APInt *K, *Sh;
      Type *Ty = U->getType();
      if (!Ty->isIntegerTy(64) ||
          !match(U->getValue(), m_AShr(m_Value(X), m_APInt(Sh))) ||
          Sh->isZero() || Sh->ugt(32))
        return U;
      Value *Y = X;
      APInt C;
      if (match(Y, m_Mul(m_Value(X), m_APInt(K))) && K->countr_zero() >= 32)
        C = K->ashr(32).trunc(32);
      else if (match(Y, m_Shl(m_Value(X), m_APInt(K))) && K->uge(32) &&
               K->ult(63))
        C = APInt::getOneBitSet(32, (unsigned)K->getZExtValue() - 32);
      else
        return U;
      Type *I32 = Type::getInt32Ty(Ty->getContext());
      const SCEV *N = SE.getSignExtendExpr(
          SE.getMulExpr(SE.getTruncateExpr(SE.getSCEV(X), I32),
                        SE.getConstant(C)),
          Ty);
      return visit(SE.getMulExpr(
          N, SE.getConstant(Ty, 1ull << (32 - Sh->getZExtValue()))));
    }
  };

  /// S as Start + k * Step on the k-th iteration of L, with Start and Step
  /// invariant in L (Step 0: S itself is invariant).
  static bool affineIn(const SCEV *S, const Loop *L, ScalarEvolution &SE,
                       const SCEV *&Start, const SCEV *&Step) {
    if (SE.isLoopInvariant(S, L)) {
      Start = S;
      Step = SE.getZero(Type::getInt64Ty(SE.getContext()));
      return true;
    }
    NoWrap R(SE, L);
    auto *AR = dyn_cast<SCEVAddRecExpr>(R.visit(S));
    if (!AR || AR->getLoop() != L || !AR->isAffine())
      return false;
    Start = AR->getStart();
    Step = AR->getStepRecurrence(SE);
    if (!SE.isLoopInvariant(Start, L) || !SE.isLoopInvariant(Step, L))
      return false;
    Step = SE.getTruncateOrSignExtend(Step, Type::getInt64Ty(SE.getContext()));
    return true;
  }

  /// A gather's address, base + index * scale: the index loaded in the
  /// loop, on every iteration, from a contiguous array of 4- or 8-byte
  /// integers (x(col(k))), maybe cut to its low bits (h(key(i) & 255)).
  struct Gather {
    LoadInst *Index = nullptr;
    const SCEV *Base = nullptr, *Scale = nullptr;
    bool Unsigned = false;
    uint32_t Skip = 0; // indices skipped after each (an unrolled loop)
    uint32_t Bits = 0; // the index's low bits that count (0: all)
  };

  /// Whether S, the address of an access in L, is a gather whose base and
  /// scale can be computed before At.
  bool gatherIn(const SCEV *S, const Loop *L, ScalarEvolution &SE,
                SCEVExpander &Exp, Instruction *At, Gather &G) {
    // Operands of a sum or product: those invariant in L, and the one that
    // is not (null if none, or several).
    auto Split = [&](const SCEVNAryExpr *E,
                     SmallVectorImpl<const SCEV *> &Inv) -> const SCEV * {
      const SCEV *Var = nullptr;
      for (const SCEV *Op : E->operands()) {
        if (SE.isLoopInvariant(Op, L))
          Inv.push_back(Op);
        else if (Var)
          return nullptr;
        else
          Var = Op;
      }
      return Var;
    };
    auto *Add = dyn_cast<SCEVAddExpr>(S);
    SmallVector<const SCEV *, 4> Inv, Factors;
    const SCEV *Var = Add ? Split(Add, Inv) : nullptr;
    if (!Var || Inv.empty())
      return false;
    Type *I64 = Type::getInt64Ty(SE.getContext());
    const SCEV *X = Var;
    if (auto *Mul = dyn_cast<SCEVMulExpr>(Var))
      if (!(X = Split(Mul, Factors)))
        return false;
    G.Unsigned = false;
    bool Extended = false;
    if (auto *E = dyn_cast<SCEVSignExtendExpr>(X)) {
      X = E->getOperand();
      Extended = true;
    } else if (auto *E = dyn_cast<SCEVZeroExtendExpr>(X)) {
      X = E->getOperand();
      G.Unsigned = Extended = true;
    }
    // An index cut to its low bits first (bins(key(i) & 255) is the
    // extension of key(i) truncated to 8 bits).
    G.Bits = 0;
    if (auto *Tr = dyn_cast<SCEVTruncateExpr>(X)) {
      if (!Extended)
        return false;
      G.Bits = Tr->getType()->getIntegerBitWidth();
      X = Tr->getOperand();
    }
    auto *U = dyn_cast<SCEVUnknown>(X);
    auto *Ld = U ? dyn_cast<LoadInst>(U->getValue()) : nullptr;
    if (!Ld || !Ld->isSimple() || !L->contains(Ld) ||
        !(G.Bits ? Ld->getType()->isIntegerTy(32) ||
                       Ld->getType()->isIntegerTy(64)
          : Extended ? Ld->getType()->isIntegerTy(32)
                     : Ld->getType()->isIntegerTy(64)) ||
        G.Bits >= Ld->getType()->getIntegerBitWidth())
      return false;
    // The indices: one after the other, forward (or one in every few).
    const SCEV *Start, *Step;
    auto *StepC = affineIn(SE.getSCEV(Ld->getPointerOperand()), L, SE, Start,
                           Step)
                      ? dyn_cast<SCEVConstant>(Step)
                      : nullptr;
    uint64_t Size = DL.getTypeStoreSize(Ld->getType());
    if (!StepC || StepC->getAPInt().isNegative() ||
        StepC->getAPInt().urem(Size) ||
        StepC->getAPInt().getZExtValue() / Size - 1 > KKR_GATHER_SKIP_MAX)
      return false;
    G.Skip = (uint32_t)(StepC->getAPInt().getZExtValue() / Size - 1);
    G.Index = Ld;
    G.Base = SE.getAddExpr(Inv);
    G.Scale = Factors.empty() ? SE.getOne(I64) : SE.getMulExpr(Factors);
    if (G.Scale->getType() != I64)
      G.Scale = SE.getTruncateOrSignExtend(G.Scale, I64);
    return Exp.isSafeToExpandAt(G.Base, At) &&
           Exp.isSafeToExpandAt(G.Scale, At);
  }

  /// A wrapped index: an address that is affine in R, the remainder of X
  /// by N (u((i + 1) % n), h(i & 255): a mask is a remainder by a power of
  /// two), where X advances by one per iteration of the loop and N does not
  /// change in it.  Between two wraps, the addresses are those of a loop.
  struct Wrap {
    Instruction *Rem = nullptr;
    Value *X = nullptr;
    Value *N = nullptr; // (null for a mask: Mask + 1)
    uint64_t Mask = 0;
    bool Unsigned = false;
  };
  enum { LinInvariant, LinAffine, LinBad };

  /// Whether V, computed in L, is invariant in L or affine in W's remainder
  /// (found here) with coefficients invariant in L: LinInvariant, LinAffine,
  /// or LinBad (anything else, or a second remainder).
  int wrapTerm(Value *V, const Loop *L, ScalarEvolution &SE, Wrap &W,
               unsigned Depth) {
    auto *I = dyn_cast<Instruction>(V);
    if (!I || !L->contains(I))
      return LinInvariant;
    if (I == W.Rem)
      return LinAffine;
    if (SE.isSCEVable(I->getType()) && SE.isLoopInvariant(SE.getSCEV(I), L))
      return LinInvariant;
    if (Depth > 16)
      return LinBad;
    auto Sum = [&](bool Product) {
      int A = LinInvariant;
      for (Value *Op : I->operands()) {
        int B = wrapTerm(Op, L, SE, W, Depth + 1);
        if (B == LinBad || (Product && A == LinAffine && B == LinAffine))
          return (int)LinBad;
        A = std::max(A, B);
      }
      return A;
    };
    switch (I->getOpcode()) {
    case Instruction::SRem:
    case Instruction::URem:
    case Instruction::And: {
      if (W.Rem || !I->getType()->isIntegerTy() ||
          !(I->getType()->isIntegerTy(32) || I->getType()->isIntegerTy(64)))
        return LinBad;
      Value *X = I->getOperand(0), *N = I->getOperand(1);
      uint64_t Mask = 0;
      if (I->getOpcode() == Instruction::And) {
        auto *C = dyn_cast<ConstantInt>(N);
        if (!C || !C->getValue().isMask() || C->getValue().getActiveBits() > 62)
          return LinBad;
        Mask = C->getZExtValue();
        N = nullptr;
      } else if (!SE.isLoopInvariant(SE.getSCEV(N), L)) {
        return LinBad;
      }
      const SCEV *Start, *Step;
      auto *C = affineIn(SE.getSCEV(X), L, SE, Start, Step)
                    ? dyn_cast<SCEVConstant>(Step)
                    : nullptr;
      if (!C || !C->getAPInt().isOne())
        return LinBad;
      W = {I, X, N, Mask, I->getOpcode() != Instruction::SRem};
      return LinAffine;
    }
    case Instruction::SExt:
    case Instruction::ZExt: {
      int A = wrapTerm(I->getOperand(0), L, SE, W, Depth + 1);
      // (A signed remainder may be negative: its zero extension is not
      // affine in it.)
      if (A == LinAffine && isa<ZExtInst>(I) && !W.Unsigned)
        return LinBad;
      return A;
    }
    case Instruction::Shl:
      if (!isa<ConstantInt>(I->getOperand(1)))
        return LinBad;
      return wrapTerm(I->getOperand(0), L, SE, W, Depth + 1);
    case Instruction::Add:
    case Instruction::Sub:
    case Instruction::GetElementPtr:
      return Sum(false);
    case Instruction::Mul:
      return Sum(true);
    default:
      return LinBad;
    }
  }

  /// Whether Ptr, the address of an access in L, is affine in a wrapped
  /// index (W) that can be computed before At.
  bool wrapIn(Value *Ptr, const Loop *L, ScalarEvolution &SE,
              SCEVExpander &Exp, Instruction *At, Wrap &W) {
    W = Wrap();
    return wrapTerm(Ptr, L, SE, W, 0) == LinAffine && W.Rem &&
           (!W.N || Exp.isSafeToExpandAt(SE.getSCEV(W.N), At));
  }

  /// Whether nothing in the loop may write the index array of a gather
  /// (Writes: the loop's stores), so that reading its indices before the
  /// loop reads what the loop will.
  static bool indexUnwritten(LoadInst *Index, ArrayRef<Instruction *> Writes,
                             AAResults &AA) {
    MemoryLocation Idx = MemoryLocation::getBeforeOrAfter(
        Index->getPointerOperand(), Index->getAAMetadata());
    for (Instruction *W : Writes) {
      if (atomicOfOtherType(W, Index))
        continue;
      std::optional<MemoryLocation> Loc = MemoryLocation::getOrNone(W);
      if (!Loc || !AA.isNoAlias(MemoryLocation::getBeforeOrAfter(
                                    Loc->Ptr, Loc->AATags),
                                Idx))
        return false;
    }
    return true;
  }

  /// indexUnwritten for the writes other than W (a gather's own store,
  /// which the runtime tells apart from the index: __kkrace_gather_apart).
  static bool indexUnwrittenBut(LoadInst *Index, ArrayRef<Instruction *> Writes,
                                Instruction *W, AAResults &AA) {
    SmallVector<Instruction *, 8> Others;
    for (Instruction *X : Writes)
      if (X != W)
        Others.push_back(X);
    return Others.size() < Writes.size() &&
           indexUnwritten(Index, Others, AA);
  }

  /// The value V has when loop L is entered, computed before At: V itself
  /// when L does not define it; else L's computation of it, with the
  /// header's phis taking their values from the preheader.  Null if that
  /// needs more than arithmetic.
  static Value *valueAtEntry(Value *V, Loop *L, Instruction *At,
                             DenseMap<Value *, Value *> &Memo) {
    return valueAtIteration(V, L, At, Memo, nullptr, nullptr);
  }

  /// The value V has on iteration K of loop L (an i64 computed before At;
  /// null: the first), computed before At: V's computation in L, with the
  /// header's phis taking the values they have then (an induction variable
  /// of constant step: its start plus K steps).  Exact where the program
  /// computes V on iteration K: an address under if (i > 0) may wrap on an
  /// iteration that does not compute it (zext(i - 1) when i is 0).
  static Value *valueAtIteration(Value *V, Loop *L, Instruction *At,
                                 DenseMap<Value *, Value *> &Memo, Value *K,
                                 ScalarEvolution *SE) {
    auto *I = dyn_cast<Instruction>(V);
    if (!I || !L->contains(I))
      return V;
    if (Value *Known = Memo.lookup(V))
      return Known;
    Value *R = nullptr;
    if (auto *Phi = dyn_cast<PHINode>(I)) {
      if (Phi->getParent() != L->getHeader()) {
      } else if (!K) {
        R = Phi->getIncomingValueForBlock(L->getLoopPreheader());
      } else if (auto *AR = dyn_cast<SCEVAddRecExpr>(SE->getSCEV(Phi));
                 AR && AR->getLoop() == L && AR->isAffine() &&
                 Phi->getType()->isIntegerTy() &&
                 isa<SCEVConstant>(AR->getStepRecurrence(*SE))) {
        IRBuilder<> B(At);
        Value *Step = ConstantInt::get(
            Phi->getType(),
            cast<SCEVConstant>(AR->getStepRecurrence(*SE))->getAPInt());
        R = B.CreateAdd(Phi->getIncomingValueForBlock(L->getLoopPreheader()),
                        B.CreateMul(B.CreateZExtOrTrunc(K, Phi->getType()), Step));
      }
    } else if (isa<BinaryOperator>(I) || isa<CastInst>(I) ||
               isa<GetElementPtrInst>(I) || isa<CmpInst>(I) ||
               isa<SelectInst>(I)) {
      Instruction *C = I->clone();
      for (unsigned N = 0; N < C->getNumOperands(); ++N) {
        Value *Op = valueAtIteration(C->getOperand(N), L, At, Memo, K, SE);
        if (!Op) {
          C->deleteValue();
          return nullptr;
        }
        C->setOperand(N, Op);
      }
      C->insertBefore(At);
      R = C;
    }
    if (R)
      Memo[V] = R;
    return R;
  }

  /// What the strand_begin call CI of loop L says: one index advances with
  /// the loop by a constant step, the others do not change.
  bool strandCall(CallInst *CI, Loop *L, ScalarEvolution &SE, StrandCall &SC) {
    auto *N = dyn_cast<ConstantInt>(CI->getArgOperand(3));
    if (!N)
      return false;
    uint64_t NV = N->getZExtValue();
    // (The lanes of a ThreadVectorRange: of one index.)
    SC.Vector = NV & KKR_ABI_STRAND_VECTOR;
    NV &= ~(uint64_t)KKR_ABI_STRAND_VECTOR;
    if (NV < 1 || NV > 3 || (SC.Vector && NV != 1))
      return false;
    SC.Begin = CI;
    SC.NIdx = (unsigned)NV;
    SC.Vary = ~0u;
    for (unsigned K = 0; K < SC.NIdx; ++K) {
      Value *V = CI->getArgOperand(K);
      const SCEV *Start, *Step;
      if (L->isLoopInvariant(V))
        continue;
      if (!affineIn(SE.getSCEV(V), L, SE, Start, Step) || SC.Vary != ~0u)
        return false;
      auto *StepC = dyn_cast<SCEVConstant>(Step);
      if (!StepC || StepC->isZero())
        return false;
      SC.Vary = K;
      SC.Start = Start;
      SC.Step = StepC->getAPInt().getSExtValue();
    }
    Value *Upd = CI->getArgOperand(4);
    SC.Upd = isa<ConstantPointerNull>(Upd) ? nullptr : getUnderlyingObject(Upd);
    return SC.Vary != ~0u;
  }

  /// I runs between the begin and end of a Kokkos atomic operation.
  static bool insideAtomic(Instruction *I, ArrayRef<CallInst *> Enters,
                           ArrayRef<CallInst *> Exits, DominatorTree &DT) {
    for (CallInst *E : Enters)
      if (DT.dominates(E, I))
        for (CallInst *X : Exits)
          if (DT.dominates(E, X) && DT.dominates(I, X))
            return true;
    return false;
  }

  /// The strand that I belongs to: the last strand begun before it, which
  /// it precedes the end of.
  static const StrandCall *strandOf(Instruction *I,
                                    ArrayRef<StrandCall> Strands,
                                    ArrayRef<CallInst *> Ends,
                                    DominatorTree &DT,
                                    BasicBlock *Latch = nullptr) {
    const StrandCall *Best = nullptr;
    for (const StrandCall &SC : Strands)
      if (DT.dominates(SC.Begin, I) &&
          (!Best || DT.dominates(Best->Begin, SC.Begin)))
        Best = &SC;
    if (!Best)
      return nullptr;
    for (CallInst *E : Ends)
      if (DT.dominates(Best->Begin, E) &&
          (DT.dominates(I, E) ||
           // (I in a block that not every iteration reaches: the end comes
           // after it when every iteration reaches the end and the end is
           // not before I.)
           (Latch && DT.dominates(E->getParent(), Latch) &&
            !DT.dominates(E, I))))
        return Best;
    return nullptr;
  }

  /// A strand loop left with nothing to check per iteration: its strands
  /// need not be begun and ended one by one.
  /// (Freed: the locals whose addresses the removed calls took.)
  /// (Sunk: strands begun at their checks instead, sinkStrands.)
  bool removeIdleStrands(Function &F, SmallPtrSetImpl<AllocaInst *> &Freed,
                         bool &Sunk) {
    bool Changed = false;
    for (Loop *L : StrandLoops) {
      SmallVector<Instruction *, 8> Strand;
      bool Busy = false;
      for (BasicBlock *BB : L->blocks())
        for (Instruction &I : *BB) {
          if (isCallTo(I, RT.strand_begin) || isCallTo(I, RT.strand_end))
            Strand.push_back(&I);
          else if (isOpaqueCall(I) && !isInertLibCall(I))
            Busy = true;
        }
      if (Busy) {
        Sunk |= sinkStrands(F, L, Strand);
        continue;
      }
      for (Instruction *I : Strand) {
        for (Value *Arg : cast<CallInst>(I)->args())
          if (auto *AI = dyn_cast<AllocaInst>(getUnderlyingObject(Arg)))
            Freed.insert(AI);
        I->eraseFromParent();
      }
      Changed = true;
    }
    // A strand that checks nothing between its begin and its end, in one
    // block (the lanes of an unrolled vector loop reducing into a
    // register), need not be begun either.
    for (BasicBlock &BB : F)
      for (auto It = BB.begin(); It != BB.end();) {
        Instruction &I = *It++;
        if (!isCallTo(I, RT.strand_begin))
          continue;
        Instruction *End = nullptr;
        for (Instruction *N = I.getNextNode(); N; N = N->getNextNode()) {
          if (isCallTo(*N, RT.strand_end))
            End = N;
          if (isOpaqueCall(*N) && !isInertLibCall(*N))
            break;
        }
        if (!End)
          continue;
        if (&*It == End)
          ++It;
        for (Value *Arg : cast<CallInst>(I).args())
          if (auto *AI = dyn_cast<AllocaInst>(getUnderlyingObject(Arg)))
            Freed.insert(AI);
        End->eraseFromParent();
        I.eraseFromParent();
        Changed = true;
      }
    return Changed;
  }

  /// Whether I is a check of one access or of a range (no other runtime
  /// call, nothing of the program's).
  bool isAccessCheck(const Instruction &I) const {
    for (FunctionCallee FC :
         {RT.read1, RT.read2, RT.read4, RT.read8, RT.read16, RT.write1,
          RT.write2, RT.write4, RT.write8, RT.write16, RT.read_range,
          RT.write_range})
      if (isCallTo(I, FC))
        return isa<CallInst>(I);
    return false;
  }

  /// A strand loop whose only calls left are checks on paths that not
  /// every iteration takes (`if (y < 0) { v(i) = -v(i); y = x(i); }`, the
  /// rest checked before the loop): its strand is begun and ended around
  /// those checks, a block's checks at once, instead of on every
  /// iteration.  The checks see the strand they saw; an iteration that
  /// takes no such path leaves nothing for the runtime to know.  Not for a
  /// strand that carries a reduction's value, nor for checks in a nested
  /// loop (run many times an iteration).  Strand: the loop's strand calls.
  bool sinkStrands(Function &F, Loop *L, ArrayRef<Instruction *> Strand) {
    CallInst *Begin = nullptr, *End = nullptr;
    for (Instruction *I : Strand) {
      CallInst *&Slot = isCallTo(*I, RT.strand_begin) ? Begin : End;
      if (Slot)
        return false;
      Slot = cast<CallInst>(I);
    }
    BasicBlock *Latch = L->getLoopLatch();
    if (!Begin || !End || !Latch || L->getExitingBlock() != Latch ||
        !isa<ConstantPointerNull>(Begin->getArgOperand(4)))
      return false;
    DominatorTree DT(F);
    if (!DT.dominates(Begin->getParent(), Latch) ||
        !DT.dominates(End->getParent(), Latch) || !DT.dominates(Begin, End))
      return false;
    // The checks by block, in the order of the blocks' instructions.
    MapVector<BasicBlock *, SmallVector<CallInst *, 4>> Checks;
    for (BasicBlock *BB : L->blocks())
      for (Instruction &I : *BB) {
        if (&I == Begin || &I == End || !isOpaqueCall(I) ||
            isInertLibCall(I))
          continue;
        if (!isAccessCheck(I) || DT.dominates(BB, Latch) ||
            !DT.dominates(Begin, &I) || DT.dominates(End, &I) ||
            any_of(L->getSubLoops(),
                   [BB](const Loop *S) { return S->contains(BB); }))
          return false;
        Checks[BB].push_back(cast<CallInst>(&I));
      }
    if (Checks.empty())
      return false;
    for (auto &[BB, Calls] : Checks) {
      Begin->clone()->insertBefore(Calls.front());
      End->clone()->insertAfter(Calls.back());
    }
    if (traceEnabled())
      errs() << "kkrace: strand of loop " << L->getHeader()->getName()
             << " begun at its checks in " << Checks.size() << " blocks\n";
    End->eraseFromParent();
    Begin->eraseFromParent();
    return true;
  }

  /// The locals that only the strand calls removeIdleStrands took away kept
  /// in memory (a reduction's value, passed to strand_begin) go to
  /// registers, as the optimizer would have put them without those calls:
  /// no instrumented code reads them, and where the pipeline does not
  /// vectorize (InstrumentPass), no optimization runs after this pass to
  /// do it.  (Not at -O0, where every local stays in memory.)
  static void promoteFreedLocals(Function &F,
                                 const SmallPtrSetImpl<AllocaInst *> &Freed) {
    if (F.hasOptNone())
      return;
    SmallVector<AllocaInst *, 4> Locals;
    for (AllocaInst *AI : Freed)
      if (isAllocaPromotable(AI))
        Locals.push_back(AI);
    if (Locals.empty())
      return;
    DominatorTree DT(F);
    PromoteMemToReg(Locals, DT);
  }

  /// The remaining strands of one to three indices begin and end inline.
  bool inlineStrands(Function &F) {
    SmallVector<CallInst *, 8> Begins, Ends;
    for (Instruction &I : instructions(F)) {
      if (isCallTo(I, RT.strand_begin)) {
        // A reduction value of unknown size (an array reduction) is sized
        // by the runtime, which knows the allocations around it.
        auto &CI = cast<CallInst>(I);
        auto *N = dyn_cast<ConstantInt>(CI.getArgOperand(3));
        bool UnknownValue =
            !isa<ConstantPointerNull>(CI.getArgOperand(4)) &&
            cast<ConstantInt>(CI.getArgOperand(5))->isZero();
        if (N && N->getZExtValue() <= 3 && !UnknownValue)
          Begins.push_back(&CI);
      } else if (isCallTo(I, RT.strand_end)) {
        Ends.push_back(cast<CallInst>(&I));
      }
    }
    StrandInliner SI(M, RT);
    for (CallInst *CI : Begins)
      SI.begin(CI, cast<ConstantInt>(CI->getArgOperand(3))->getZExtValue());
    for (CallInst *CI : Ends)
      SI.end(CI);
    return !Begins.empty() || !Ends.empty();
  }
};

struct KokkosSemanticsPass : PassInfoMixin<KokkosSemanticsPass> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    return KokkosSemantics(M).run() ? PreservedAnalyses::none()
                                    : PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};

/// Whether the pipeline of Level vectorizes loops, as clang's does: at -O2,
/// -O3 and -Os, unless the driver says otherwise (KKRACE_PASS_VECTORIZE,
/// which kkrace-clang sets from -fvectorize and -fno-vectorize).
static bool vectorizeAfter(OptimizationLevel Level) {
  if (const char *E = std::getenv("KKRACE_PASS_VECTORIZE"))
    return std::strcmp(E, "0") != 0 && Level != OptimizationLevel::O0;
  return Level.getSpeedupLevel() >= 2 && Level.getSizeLevel() < 2;
}

struct InstrumentPass : PassInfoMixin<InstrumentPass> {
  /// Optimize: vectorize the loops left without strand markers
  /// (vectorizeAfter).
  explicit InstrumentPass(bool Optimize = false) : Optimize(Optimize) {}
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &MAM) {
    auto &FAM = MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
    Instrumenter I(M, FAM);
    if (!I.run())
      return PreservedAnalyses::all();
    // The loops of Kokkos' kernels carry the strand markers through the
    // whole pipeline, which keep the vectorizer away (and a reduction's
    // value in memory: the markers take its address).  Where the
    // instrumentation removed them, every check hoisted before the loop,
    // the loop is vectorized now, as it would have been without them.
    if (!Optimize || I.idleStrandFunctions().empty())
      return PreservedAnalyses::none();
    FunctionPassManager FPM;
    FPM.addPass(SROAPass(SROAOptions::ModifyCFG));
    FPM.addPass(EarlyCSEPass(true));
    FPM.addPass(GVNPass());
    FPM.addPass(LoopSimplifyPass());
    FPM.addPass(LCSSAPass());
    FPM.addPass(LoopVectorizePass());
    FPM.addPass(InstCombinePass());
    FPM.addPass(SimplifyCFGPass());
    for (Function *F : I.idleStrandFunctions()) {
      FAM.invalidate(*F, PreservedAnalyses::none());
      FPM.run(*F, FAM);
    }
    return PreservedAnalyses::none();
  }
  static bool isRequired() { return true; }

private:
  bool Optimize;
};

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "kkrace", "0.1.0", [](PassBuilder &PB) {
            PB.registerPipelineStartEPCallback(
                [](ModulePassManager &MPM, OptimizationLevel) {
                  MPM.addPass(KokkosSemanticsPass());
                });
            PB.registerOptimizerLastEPCallback(
                [](ModulePassManager &MPM, OptimizationLevel Level) {
                  MPM.addPass(InstrumentPass(vectorizeAfter(Level)));
                });
            PB.registerPipelineParsingCallback(
                [](StringRef Name, ModulePassManager &MPM,
                   ArrayRef<PassBuilder::PipelineElement>) {
                  if (Name == "kkrace-kokkos") {
                    MPM.addPass(KokkosSemanticsPass());
                    return true;
                  }
                  if (Name == "kkrace-instrument") {
                    MPM.addPass(InstrumentPass());
                    return true;
                  }
                  return false;
                });
          }};
}
