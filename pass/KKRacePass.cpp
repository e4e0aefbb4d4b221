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
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Analysis/CaptureTracking.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#include <cstdlib>

#include "kkr_abi.h"

/// Metadata on the allocas of the user's functors (see findStrandBodies).
#define KKR_STRAND_LOCAL_MD "kkrace.strand_local"

using namespace llvm;
using namespace kkrace;

namespace {

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
struct Runtime {
#define KKR_ENTRY(name, ret, n, a, b, c, d, e, f) FunctionCallee name;
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
#define KKR_ENTRY(name, ret, n, a, b, c, d, e, f)                            \
  {                                                                          \
    SmallVector<Type *, 6> Ps;                                               \
    for (Type *T : {a, b, c, d, e, f})                                       \
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
                              op_begin, strand_begin, exec_ref, copy_range})
      if (auto *F = dyn_cast<Function>(FC.getCallee()))
        for (Argument &A : F->args())
          if (A.getType()->isPointerTy())
            F->addParamAttr(A.getArgNo(), Attribute::NoCapture);
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
        auto *CB = dyn_cast<CallBase>(&I);
        if (!CB || isa<IntrinsicInst>(CB))
          continue;
        Function *Callee = CB->getCalledFunction();
        if (Callee && Callee->hasName() && !Callee->isDeclaration() &&
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

  Constant *spaceString(StringRef S) {
    if (S.empty())
      return ConstantPointerNull::get(PointerType::getUnqual(C));
    Constant *&G = Strings[S];
    if (!G) {
      IRBuilder<> B(C);
      Constant *Init = ConstantDataArray::getString(C, S);
      auto *GV = new GlobalVariable(M, Init->getType(), true,
                                    GlobalValue::PrivateLinkage, Init,
                                    "kkrace.space");
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
      auto *CB = dyn_cast<CallBase>(&I);
      if (!CB || isa<IntrinsicInst>(CB))
        continue;
      Function *Callee = CB->getCalledFunction();
      if (!Callee || !Callee->hasName())
        continue;
      if (auto *CI = dyn_cast<CallInst>(CB); CI && CI->isMustTailCall())
        continue;
      const CallInfo &Info = classify(Callee->getName(), CallerIsKokkos);
      if (Info.Kind != CallKind::None)
        Work.push_back({CB, Info});
    }
    if (!CallerIsKokkos && !StrandBodies.count(&F) && callsIntoKokkos(Work))
      escapeCapturedLocals(F);
    for (auto &[CB, Info] : Work) {
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
      case CallKind::None: break;
      }
    }
    return !Work.empty();
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

  /// Whether the address of AI is stored somewhere, returned, turned into
  /// an integer or passed to a function that is not Kokkos'.
  bool addressShared(AllocaInst *AI) {
    SmallVector<const Value *, 16> Work{AI};
    SmallPtrSet<const Value *, 16> Seen{AI};
    while (!Work.empty()) {
      const Value *V = Work.pop_back_val();
      for (const Use &U : V->uses()) {
        const auto *User = cast<Instruction>(U.getUser());
        if (isa<GetElementPtrInst>(User) || isa<BitCastInst>(User) ||
            isa<AddrSpaceCastInst>(User) || isa<PHINode>(User) ||
            isa<SelectInst>(User)) {
          if (Seen.insert(User).second)
            Work.push_back(User);
        } else if (const auto *SI = dyn_cast<StoreInst>(User)) {
          if (SI->getValueOperand() == V)
            return true;
        } else if (const auto *CB = dyn_cast<CallBase>(User)) {
          if (isa<IntrinsicInst>(CB) && !isa<MemIntrinsic>(CB))
            continue;
          if (CB->isCallee(&U))
            return true;
          const Function *Callee = CB->getCalledFunction();
          if (!Callee || !Callee->hasName() ||
              (!isKokkosFunction(Callee->getName().str()) &&
               !Callee->getName().starts_with("__kkrace")))
            if (!isa<MemIntrinsic>(CB))
              return true;
        } else if (isa<LoadInst>(User)) {
          continue;
        } else {
          return true; // ptrtoint, return, atomics storing it, ...
        }
      }
    }
    return false;
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
    case CallKind::None: return "none";
    }
    return "?";
  }

  void wrapOp(CallBase *CB, const CallInfo &Info) {
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
                              {B.getInt32(Info.OpKind), spaceString(Info.Space),
                               Obj, B.getInt64(Size)});
    afterCall(CB, [&](IRBuilder<> &A) { A.CreateCall(RT.op_end, {Tok}); });
  }

  void wrapStrand(CallBase *CB) {
    IRBuilder<> B(CB);
    unsigned First = CB->hasStructRetAttr() ? 2 : 1; // skip 'this'
    SmallVector<Value *, 3> Idx;
    Value *Upd = ConstantPointerNull::get(PointerType::getUnqual(C));
    uint64_t UpdSize = 0;
    for (unsigned A = First; A < CB->arg_size(); ++A) {
      Value *V = CB->getArgOperand(A);
      Type *T = V->getType();
      if (T->isIntegerTy() && T->getIntegerBitWidth() > 1) {
        if (Idx.size() < 3)
          Idx.push_back(CB->paramHasAttr(A, Attribute::ZExt)
                            ? B.CreateZExtOrTrunc(V, B.getInt64Ty())
                            : B.CreateSExtOrTrunc(V, B.getInt64Ty()));
      } else if (T->isPointerTy()) {
        Upd = V;
        UpdSize = paramDerefBytes(CB, A);
      }
    }
    unsigned N = Idx.size();
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

  void wrapAtomic(CallBase *CB) {
    IRBuilder<> B(CB);
    B.CreateCall(RT.atomic_enter, {});
    afterCall(CB, [&](IRBuilder<> &A) { A.CreateCall(RT.atomic_exit, {}); });
  }
};

//===----------------------------------------------------------------------===//
// kkrace-instrument: memory accesses
//===----------------------------------------------------------------------===//

class Instrumenter {
public:
  explicit Instrumenter(Module &M) : M(M), RT(M), DL(M.getDataLayout()) {}

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

  bool run() {
    bool Changed = false;
    for (Function &F : M) {
      if (F.isDeclaration() || F.getName().starts_with("__kkrace") ||
          F.hasFnAttribute(Attribute::Naked) ||
          F.hasFnAttribute(Attribute::DisableSanitizerInstrumentation))
        continue;
      Changed |= runOnFunction(F);
    }
    return Changed;
  }

private:
  Module &M;
  Runtime RT;
  const DataLayout &DL;
  DenseMap<const Value *, bool> LocalObject;
  DenseMap<const DISubprogram *, AccessScope> Scopes;

  /// True if Ptr provably points to memory no other node can access: a
  /// local whose address does not escape, a constant, thread-local storage.
  bool isPrivate(Value *Ptr) {
    if (Ptr->getType()->getPointerAddressSpace() != 0)
      return true;
    const Value *Obj = getUnderlyingObject(Ptr);
    if (auto *AI = dyn_cast<AllocaInst>(Obj)) {
      if (AI->hasMetadata(KKR_STRAND_LOCAL_MD))
        return true; // a strand's own variable (KokkosSemantics)
      auto It = LocalObject.find(AI);
      if (It != LocalObject.end())
        return It->second;
      bool Local = !PointerMayBeCaptured(AI, /*ReturnCaptures=*/true,
                                         /*StoreCaptures=*/true);
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

  /// Whether I is Kokkos' bookkeeping (accessScope): its innermost frame,
  /// looking through the C++ library's, as the debug location says.
  bool isBookkeeping(const Instruction *I) {
    for (const DILocation *L = I->getDebugLoc().get(); L;
         L = L->getInlinedAt()) {
      const DISubprogram *SP = L->getScope()->getSubprogram();
      if (!SP)
        return false;
      StringRef N = SP->getLinkageName();
      if (N.empty())
        return false;
      auto It = Scopes.find(SP);
      if (It == Scopes.end())
        It = Scopes.insert({SP, accessScope(N.str())}).first;
      if (It->second != AccessScope::Library)
        return It->second == AccessScope::Bookkeeping;
    }
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

  void plain(Instruction *I, Value *Ptr, Type *Ty, bool Write) {
    TypeSize TS = DL.getTypeStoreSize(Ty);
    if (TS.isScalable() || TS.getFixedValue() == 0)
      return;
    uint64_t Size = TS.getFixedValue();
    IRBuilder<> B(I);
    if (FunctionCallee Fn = sized(Write, Size))
      B.CreateCall(Fn, {Ptr, newSlot()});
    else
      B.CreateCall(Write ? RT.write_range : RT.read_range,
                   {Ptr, B.getInt64(Size), newSlot()});
  }

  void atomic(Instruction *I, Value *Ptr, Type *Ty, unsigned Flags) {
    uint64_t Size = DL.getTypeStoreSize(Ty).getKnownMinValue();
    IRBuilder<> B(I);
    B.CreateCall(RT.atomic,
                 {Ptr, B.getInt64(Size), B.getInt32(Flags), newSlot()});
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

  bool runOnFunction(Function &F) {
    LocalObject.clear();
    SmallVector<Instruction *, 64> Todo;
    for (Instruction &I : instructions(F)) {
      if (I.hasMetadata(LLVMContext::MD_nosanitize))
        continue;
      if (isa<LoadInst>(I) || isa<StoreInst>(I) || isa<AtomicRMWInst>(I) ||
          isa<AtomicCmpXchgInst>(I) || isa<MemIntrinsic>(I))
        Todo.push_back(&I);
      else if (auto *II = dyn_cast<IntrinsicInst>(&I);
               II && II->getIntrinsicID() == Intrinsic::lifetime_start)
        Todo.push_back(&I);
    }
    bool Changed = false;
    for (Instruction *I : Todo) {
      if (auto *LI = dyn_cast<LoadInst>(I)) {
        if (isPrivate(LI->getPointerOperand()) || isVtableAccess(LI) ||
            (!LI->isAtomic() && isBookkeeping(LI)))
          continue;
        if (LI->isAtomic())
          atomic(LI, LI->getPointerOperand(), LI->getType(),
                 KKR_AF_READ | orderingFlags(LI->getOrdering()));
        else
          plain(LI, LI->getPointerOperand(), LI->getType(), false);
      } else if (auto *SI = dyn_cast<StoreInst>(I)) {
        if (isPrivate(SI->getPointerOperand()) || isVtableAccess(SI) ||
            (!SI->isAtomic() && isBookkeeping(SI)))
          continue;
        Type *Ty = SI->getValueOperand()->getType();
        if (SI->isAtomic())
          atomic(SI, SI->getPointerOperand(), Ty,
                 KKR_AF_WRITE | orderingFlags(SI->getOrdering()));
        else
          plain(SI, SI->getPointerOperand(), Ty, true);
      } else if (auto *RMW = dyn_cast<AtomicRMWInst>(I)) {
        if (isPrivate(RMW->getPointerOperand()))
          continue;
        atomic(RMW, RMW->getPointerOperand(), RMW->getValOperand()->getType(),
               KKR_AF_READ | KKR_AF_WRITE | orderingFlags(RMW->getOrdering()));
      } else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(I)) {
        if (isPrivate(CX->getPointerOperand()))
          continue;
        atomic(CX, CX->getPointerOperand(), CX->getNewValOperand()->getType(),
               KKR_AF_READ | KKR_AF_WRITE |
                   orderingFlags(CX->getSuccessOrdering()));
      } else if (auto *LS = dyn_cast<LifetimeIntrinsic>(I)) {
        // A new lifetime of a local that instrumented code can see.
        Value *Ptr = LS->getArgOperand(1);
        auto *AI = dyn_cast<AllocaInst>(getUnderlyingObject(Ptr));
        if (!AI || isPrivate(Ptr))
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
        if (!isPrivate(MI->getDest()))
          B.CreateCall(RT.write_range, {MI->getDest(), Len, newSlot()});
      }
      Changed = true;
    }
    return Changed;
  }
};

struct KokkosSemanticsPass : PassInfoMixin<KokkosSemanticsPass> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    return KokkosSemantics(M).run() ? PreservedAnalyses::none()
                                    : PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};

struct InstrumentPass : PassInfoMixin<InstrumentPass> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    return Instrumenter(M).run() ? PreservedAnalyses::none()
                                 : PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "kkrace", "0.1.0", [](PassBuilder &PB) {
            PB.registerPipelineStartEPCallback(
                [](ModulePassManager &MPM, OptimizationLevel) {
                  MPM.addPass(KokkosSemanticsPass());
                });
            PB.registerOptimizerLastEPCallback(
                [](ModulePassManager &MPM, OptimizationLevel) {
                  MPM.addPass(InstrumentPass());
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
