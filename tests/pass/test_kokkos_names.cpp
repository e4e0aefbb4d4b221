// Tests of the name tables of kkrace's pass (pass/KokkosNames.cpp), on
// names taken from real Kokkos 3.4.01 and 4.6 builds.  Prints
// "N passed, M failed" and exits non-zero on a failure.
#include "KokkosNames.h"

#include <cstdio>
#include <string>
#include <vector>

#include "kkr_abi.h"

using namespace kkrace;

static int passed, failed;

#define CHECK(cond)                                                        \
  do {                                                                     \
    if (cond) {                                                            \
      passed++;                                                            \
    } else {                                                               \
      failed++;                                                            \
      std::printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);          \
    }                                                                      \
  } while (0)

struct Case {
  const char *Mangled;
  bool CallerIsKokkos;
  CallKind Kind;
  unsigned Op;
};

static const Case Cases[] = {
    {"_ZZ4mainENK3$_0clEi", true, CallKind::Strand, 0},
    {"_ZZ4mainENK3$_0clEii", true, CallKind::Strand, 0},
    {"_ZZ4mainENK3$_0clERKN6Kokkos4Impl20HostThreadTeamMemberINS0_6SerialEEE", true, CallKind::Strand, 0},
    // A lambda inside a Kokkos function (Kokkos 4's fill_random) is Kokkos'
    // code, not the user's functor, although its name starts with "auto".
    {"_ZZN6Kokkos11fill_randomINS_6SerialENS_4ViewIPPPiJNS_11LayoutRightEEEENS_22Random_XorShift64_PoolIS1_EElEEvRKT_T0_T1_NSD_16const_value_typeESF_ENKUlSA_E_clIS7_EEDaSA_", true, CallKind::None, 0},
    {"_ZN6Kokkos12parallel_forIiZ4mainE3$_0EEvRKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEERKT_RKT0_", true, CallKind::Op, KKR_OP_PARALLEL_FOR},
    {"_ZN6Kokkos15parallel_reduceIZ4mainE3$_1NS_4ViewIdJNS_9HostSpaceEEEEEEvRKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEERKmRKT_RT0_", true, CallKind::Op, KKR_OP_PARALLEL_REDUCE},
    {"_ZN6Kokkos13parallel_scanIZ4mainE3$_1iEEvmRKT_RT0_RKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE", true, CallKind::Op, KKR_OP_PARALLEL_SCAN},
    {"_ZNK6Kokkos4Impl11ParallelForIZ4mainE3$_0NS_11RangePolicyIJNS_6SerialEEEES4_E7executeEv", true, CallKind::Op, KKR_OP_EXEC_FOR},
    {"_ZNK6Kokkos4Impl11ParallelForIZ4mainE3$_0NS_10TeamPolicyIJEEENS_6SerialEE7executeEv", true, CallKind::Op, KKR_OP_EXEC_FOR},
    {"_ZNK6Kokkos4Impl14ParallelReduceIZ4mainE3$_1NS_11RangePolicyIJNS_6SerialEEEENS_11InvalidTypeES4_E7executeEv", true, CallKind::Op, KKR_OP_EXEC_REDUCE},
    {"_ZN6Kokkos4Impl21ParallelScanWithTotalIZ4mainE3$_1NS_11RangePolicyIJNS_6SerialEEEEiS4_E7executeEv", true, CallKind::Op, KKR_OP_EXEC_SCAN},
    {"_ZN6Kokkos5fenceEv", true, CallKind::Op, KKR_OP_FENCE_GLOBAL},
    {"_ZNK6Kokkos6Serial5fenceEv", true, CallKind::Op, KKR_OP_FENCE_INSTANCE},
    {"_ZN6Kokkos8finalizeEv", true, CallKind::Op, KKR_OP_FINALIZE},
    {"_ZN6Kokkos9deep_copyIPdJEEEvRKNS_4ViewIT_JDpT0_EEERNS_10ViewTraitsIS3_JS5_EE16const_value_typeEPNSt9enable_ifIXsr3std7is_sameINSA_10specializeEvEE5valueEvE4typeE", true, CallKind::Op, KKR_OP_FILL},
    {"_ZN6Kokkos4Impl16ViewValueFunctorINS_6SerialEdLb1EE27construct_shared_allocationEv", true, CallKind::Op, KKR_OP_VIEW_INIT},
    {"_ZN6Kokkos4Impl16ViewValueFunctorINS_6SerialEdLb1EE25destroy_shared_allocationEv", true, CallKind::Op, KKR_OP_VIEW_HOST},
    {"_ZN6Kokkos4Impl27hostspace_parallel_deepcopyEPvPKvl", true, CallKind::RawCopy, 0},
    {"_ZNK6Kokkos11RangePolicyIJNS_6SerialEEE5spaceEv", true, CallKind::ExecRef, 0},
    {"_ZNK6Kokkos4Impl18TeamPolicyInternalINS_6SerialEJEE5spaceEv", true, CallKind::ExecRef, 0},
    {"_ZN6Kokkos10atomic_addIiEEvPVT_S1_", true, CallKind::Atomic, 0},
    {"_ZN6Kokkos16atomic_fetch_addIiEET_PVS1_NSt9add_constIS1_E4typeE", true, CallKind::Atomic, 0},
    {"_ZN6Kokkos9deep_copyIPdJES1_JNS_11LayoutRightENS_6DeviceINS_6SerialENS_9HostSpaceEEEEEEvRKNS_4ViewIT_JDpT0_EEERKNS7_IT1_JDpT2_EEEPNSt9enable_ifIXaaaasr3std7is_sameINS_10ViewTraitsIS8_JSA_EE10specializeEvEE5valuesr3std7is_sameINSL_ISE_JSG_EE10specializeEvEE5valueoonecvjsr10ViewTraitsIS8_SA_EE4rankLi0Enecvjsr10ViewTraitsISE_SG_EE4rankLi0EEvE4typeE", true, CallKind::Op, KKR_OP_DEEP_COPY},
    {"_ZN6Kokkos9deep_copyIPdJES1_JNS_11LayoutRightENS_6DeviceINS_6SerialENS_9HostSpaceEEENS_12Experimental14EmptyViewHooksEEEEvRKNS_4ViewIT_JDpT0_EEERKNS9_IT1_JDpT2_EEEPNSt9enable_ifIXaaaasr3stdE9is_void_vINS_10ViewTraitsISA_JSC_EE10specializeEEsr3stdE9is_void_vINSN_ISG_JSI_EE10specializeEEoonecvjsr10ViewTraitsISA_SC_EE4rankLi0Enecvjsr10ViewTraitsISG_SI_EE4rankLi0EEvE4typeE", true, CallKind::Op, KKR_OP_DEEP_COPY},
    {"_ZN5desul10atomic_addIiNS_18MemoryOrderRelaxedENS_17MemoryScopeDeviceEEEvPT_S3_T0_T1_", true, CallKind::Atomic, 0},
    {"_ZNK6Kokkos6Serial28impl_internal_space_instanceEv", true, CallKind::ExecIdent, 0},
    {"_ZNK6Kokkos4Impl14ParallelReduceINS0_22CombinedFunctorReducerIZ4mainE3$_1NS0_15FunctorAnalysisINS0_23FunctorPatternInterface6REDUCEENS_11RangePolicyIJNS_6SerialEEEES3_dE7ReducerEvEES9_S8_E7executeEv", true, CallKind::Op, KKR_OP_EXEC_REDUCE},
    {"_ZN6Kokkos5fenceERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE", true, CallKind::Op, KKR_OP_FENCE_GLOBAL},
    {"_ZNK6Kokkos6Serial5fenceERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE", true, CallKind::Op, KKR_OP_FENCE_INSTANCE},
    {"_ZN6Kokkos4Impl16ViewValueFunctorINS_6DeviceINS_6SerialENS_9HostSpaceEEEdE27construct_shared_allocationEv", true, CallKind::Op, KKR_OP_VIEW_INIT}
};

struct ScopeCase {
  const char *Mangled;
  AccessScope Scope;
};

// What the instrumenter may skip: never an element access.
static const ScopeCase Scopes[] = {
    // Team member state: skipped; its reductions write the program's data.
    {"_ZNK6Kokkos4Impl20HostThreadTeamMemberINS_6SerialEE11league_rankEv", AccessScope::Bookkeeping},
    {"_ZNK6Kokkos4Impl20HostThreadTeamMemberINS_6SerialEE9team_rankEv", AccessScope::Bookkeeping},
    {"_ZNK6Kokkos4Impl20HostThreadTeamMemberINS_6SerialEE11team_reduceINS_3SumIdNS_9HostSpaceEEEEENSt9enable_ifIXsr10is_reducerIT_EE5valueEvE4typeERKS9_", AccessScope::User},
    {"_ZNK6Kokkos4Impl18HostThreadTeamData15team_rendezvousEv", AccessScope::Bookkeeping},
    // Reference counts and View handles copied or destroyed: skipped.
    {"_ZN6Kokkos4Impl23SharedAllocationTrackerC2ERKS1_b", AccessScope::Bookkeeping},
    {"_ZN6Kokkos4ViewIPdJEEC2ERKS2_", AccessScope::Bookkeeping},
    {"_ZN6Kokkos4ViewIPdJEED2Ev", AccessScope::Bookkeeping},
    // View::operator(): its debug location may be the element load's.
    {"_ZNK6Kokkos4ViewIPiJEEclIiEENSt9enable_ifIXaaaaaasr6Kokkos4Impl12are_integralIT_EE5valueeqLi1ELNS2_Ut_E1EL_ZNS2_14is_default_mapEEntL_ZNS2_16is_layout_strideEEERiE4typeERKS5_", AccessScope::User},
    // The C++ library: its caller decides.
    {"_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE7_M_dataEv", AccessScope::Library},
    // The program's own code.
    {"_ZZ4mainENK3$_0clEi", AccessScope::User},
};

int main() {
  for (const ScopeCase &S : Scopes) {
    bool ok = accessScope(S.Mangled) == S.Scope;
    if (!ok)
      std::printf("FAIL: scope of %s\n", S.Mangled);
    CHECK(ok);
  }
  for (const Case &C : Cases) {
    CallInfo I = classifyCall(C.Mangled, C.CallerIsKokkos);
    bool ok = I.Kind == C.Kind && (C.Kind != CallKind::Op || I.OpKind == C.Op);
    if (!ok)
      std::printf("FAIL: %s classified as kind %d op %u\n", C.Mangled,
                  (int)I.Kind, I.OpKind);
    CHECK(ok);
  }

  // Fields of Kokkos' own classes, wherever they are read.
  CHECK(isBookkeepingType("_ZTSN6Kokkos4Impl18HostThreadTeamDataE"));
  CHECK(isBookkeepingType("_ZTSN6Kokkos4Impl20HostThreadTeamMemberINS_6SerialEEE"));
  CHECK(isBookkeepingType("_ZTSN6Kokkos11RangePolicyIJNS_6SerialEEEE"));
  CHECK(!isBookkeepingType("_ZTSN6Kokkos4ViewIPdJEEE"));
  CHECK(!isBookkeepingType("_ZTSN6Kokkos3SumIdNS_9HostSpaceEEE"));
  CHECK(!isBookkeepingType("_ZTS8Particle"));
  CHECK(!isBookkeepingType("_ZTSN4user4DataE"));
  CHECK(!isBookkeepingType("double"));

  // A team member's scratch modes, and the memory its space hands out.
  CallInfo TS = classifyCall(
      "_ZNK6Kokkos4Impl20HostThreadTeamMemberINS_6SerialEE14thread_scratchEi", false);
  CHECK(TS.Kind == CallKind::ScratchMode && TS.ThreadScratch);
  CallInfo MS = classifyCall(
      "_ZNK6Kokkos4Impl20HostThreadTeamMemberINS_6SerialEE12team_scratchEi", false);
  CHECK(MS.Kind == CallKind::ScratchMode && !MS.ThreadScratch);
  CHECK(classifyCall("_ZNK6Kokkos18ScratchMemorySpaceINS_6SerialEE16get_shmem_"
                     "commonILb1EmEEPvRKT0_li", true).Kind == CallKind::ScratchTake);
  CHECK(isBookkeepingType("_ZTSN6Kokkos18ScratchMemorySpaceINS_6SerialEEE"));
  // DualView's marks and syncs.
  CHECK(classifyCall("_ZN6Kokkos8DualViewIPdvvvE9sync_hostEv", false).OpKind ==
        KKR_OP_DV_SYNC_HOST);
  CHECK(classifyCall("_ZN6Kokkos8DualViewIPdvvvE13modify_deviceEv", false).OpKind ==
        KKR_OP_DV_MODIFY_DEVICE);
  CHECK(classifyCall("_ZN6Kokkos8DualViewIPdvvvE16clear_sync_stateEv", false).OpKind ==
        KKR_OP_DV_CLEAR);
  CHECK(classifyCall("_ZN6Kokkos8DualViewIPdvvvE14sync_host_implIJEEEvDpRKT_",
                     false).Kind == CallKind::None);
  // Giving a resource back.
  CHECK(isResourceRelease("_ZNK6Kokkos12Experimental11UniqueTokenINS_6SerialEL"
                          "NS0_16UniqueTokenScopeE0EE7releaseEi"));
  CHECK(!isResourceRelease("_ZNK6Kokkos12Experimental11UniqueTokenINS_6SerialEL"
                           "NS0_16UniqueTokenScopeE0EE7acquireEv"));
  // A std algorithm's functor (Kokkos 4) is the kernel's iteration.
  const char *Transform =
      "_ZNK6Kokkos12Experimental4Impl19StdTransformFunctorINS1_20RandomAccess"
      "IteratorINS_4ViewIPKdJNS_11LayoutRightENS_6DeviceINS_6SerialENS_9Host"
      "SpaceEEENS0_14EmptyViewHooksENS_12MemoryTraitsILj0EEEEEEEENS3_INS4_IPd"
      "JEEEEEZ4mainE3$_1EclEl";
  CHECK(classifyCall(Transform, true).Kind == CallKind::Strand);
  CHECK(isKokkosStrandBody(Transform));
  CHECK(!isKokkosStrandBody("_ZZ4mainENK3$_0clEi"));

  // A user's operator() is a strand only when Kokkos calls it.
  CHECK(classifyCall("_ZZ4mainENK3$_0clEi", false).Kind == CallKind::None);
  // Kokkos' own functors are not strands.
  CHECK(classifyCall("_ZNK6Kokkos4Impl16ViewValueFunctorINS_6SerialEdLb1EEclEm",
                     true).Kind == CallKind::None);
  // ParallelReduceFence::fence is Kokkos deciding whether to fence, not a
  // fence; the Serial::fence it calls is.
  CHECK(classifyCall("_ZN6Kokkos4Impl19ParallelReduceFenceINS_6SerialEJdEE5fence"
                     "IJRdEEEvRKS2_DpOT_", false).Kind == CallKind::None);
  // Dispatches know their execution space.
  CHECK(classifyCall("_ZNK6Kokkos4Impl11ParallelForIZ4mainE3$_0NS_11RangePolicy"
                     "IJNS_6SerialEEEES4_E7executeEv", false).Space ==
        "Kokkos::Serial");
  // An instance fence takes its instance from 'this'.
  CHECK(classifyCall("_ZNK6Kokkos6Serial5fenceEv", false).Obj == ObjArg::This);
  // Not Kokkos at all.
  CHECK(classifyCall("_Z3fooi", false).Kind == CallKind::None);
  CHECK(classifyCall("main", false).Kind == CallKind::None);
  CHECK(classifyCall("_ZNSt6vectorIiSaIiEE9push_backERKi", true).Kind ==
        CallKind::None);

  // A nested loop of a team's code: no operation of its own.
  CHECK(classifyCall("_ZN6Kokkos15parallel_reduceIiZZ4mainENK3$_1clERKNS_4Impl2"
                     "0HostThreadTeamMemberINS_6SerialEEEEUliRdE_dS5_EENSt9enab"
                     "le_ifIXaantsr6Kokkos10is_reducerIT1_EE5valuesr4Impl26is_"
                     "host_thread_team_memberIT2_EE5valueEvE4typeERKNS2_31Team"
                     "ThreadRangeBoundariesStructIT_SC_EERKT0_RSB_",
                     false).Kind == CallKind::None);

  // A thread's vector loop, called by the program: its lanes begin there
  // (Kokkos' own nested calls are part of the loop the program called).
  const char *VectorFor =
      "_ZN6Kokkos12parallel_forIiZZZ4mainENK3$_0clERKNS_4Impl20HostThreadTeamMe"
      "mberINS_6SerialEEEENKUliE_clEiEUliE_S5_EEvRKNS2_33ThreadVectorRangeBoun"
      "dariesStructIT_T1_EERKT0_PPKNSt9enable_ifIXsr4Impl26is_host_thread_team"
      "_memberISC_EE5valueEvE4typeE";
  CHECK(classifyCall(VectorFor, false).Kind == CallKind::VectorLoop);
  CHECK(classifyCall(VectorFor, true).Kind == CallKind::None);
  CHECK(classifyCall("_ZN6Kokkos12parallel_forINS_4RankILj2ELNS_7IterateE0ELS2_0"
                     "EEENS_4Impl20HostThreadTeamMemberINS_6SerialEEEZZZ4mainENK"
                     "3$_0clERKS7_ENKUliE_clEiEUliiE_EEvRKNS_19ThreadVectorMDRan"
                     "geIT_T0_EERKT1_",
                     false).Kind == CallKind::VectorLoop);

  // Resources a strand holds alone: taken (Token), given back (Atomic);
  // what follows them, and what does not.
  CHECK(classifyCall("_ZNK6Kokkos22Random_XorShift64_PoolINS_6SerialEE9get_stateEv",
                     false).Kind == CallKind::Token);
  CHECK(classifyCall("_ZNK6Kokkos22Random_XorShift64_PoolINS_6SerialEE10free_stateERKNS_17Random_XorShift64IS1_EE",
                     false).Kind == CallKind::Atomic);
  {
    CallInfo Acq = classifyCall(
        "_ZN6Kokkos12Experimental18AcquireUniqueTokenINS_6SerialELNS0_16UniqueTokenScopeE0EEC2ENS0_11UniqueTokenIS2_LS3_0EEE",
        false);
    CHECK(Acq.Kind == CallKind::Token && Acq.TokenInThis);
    CHECK(classifyCall("_ZN6Kokkos12Experimental18AcquireUniqueTokenINS_6SerialELNS0_16UniqueTokenScopeE0EED2Ev",
                       false).Kind == CallKind::Atomic);
    CHECK(classifyCall("_ZNK6Kokkos12Experimental11UniqueTokenINS_6SerialELNS0_16UniqueTokenScopeE0EE7acquireEv",
                       true).Kind == CallKind::Token);
  }
  // Kokkos' own handling of the resource: its accesses are not checked;
  // a Kokkos atomic's are, and so are a generator's draws.
  CHECK(isResourceCall("_ZNK6Kokkos22Random_XorShift64_PoolINS_6SerialEE9get_stateEv"));
  CHECK(isResourceCall("_ZNK6Kokkos22Random_XorShift64_PoolINS_6SerialEE10free_stateERKNS_17Random_XorShift64IS1_EE"));
  CHECK(isResourceCall("_ZNK6Kokkos12Experimental11UniqueTokenINS_6SerialELNS0_16UniqueTokenScopeE0EE7acquireEv"));
  CHECK(isResourceCall("_ZN6Kokkos12Experimental18AcquireUniqueTokenINS_6SerialELNS0_16UniqueTokenScopeE0EED2Ev"));
  CHECK(classifyCall("_ZN6Kokkos10atomic_addIiEEvPVT_S1_", true).Kind == CallKind::Atomic);
  CHECK(!isResourceCall("_ZN6Kokkos10atomic_addIiEEvPVT_S1_"));
  CHECK(!isResourceCall("_ZN6Kokkos17Random_XorShift64INS_6SerialEE5drandEv"));
  CHECK(isRandomDraw("_ZN6Kokkos17Random_XorShift64INS_6SerialEE5drandEv"));
  CHECK(isRandomDraw("_ZN6Kokkos19Random_XorShift1024INS_6SerialEE5drandEv"));
  CHECK(isRandomDraw("_ZN6Kokkos4randINS_17Random_XorShift64INS_6SerialEEEiE4drawERS3_RKi"));
  CHECK(!isRandomDraw("_ZNK6Kokkos22Random_XorShift64_PoolINS_6SerialEE9get_stateEv"));
  CHECK(isViewAccessor("_ZN6Kokkos7subviewIPPdJEJiNS_4Impl5ALL_tEEEENS3_11ViewMappingIvJNS_10ViewTraitsIT_JDpT0_EEEDpT1_EE4typeERKNS_4ViewIS7_JS9_EEESC_"));
  CHECK(isViewAccessor("_ZNK6Kokkos4ViewIA16_PmJNS_11LayoutRightENS_6DeviceINS_6SerialENS_9HostSpaceEEEEE4dataEv"));
  CHECK(!isViewAccessor("_ZN6Kokkos17Random_XorShift64INS_6SerialEE5drandEv"));

  // Lambdas' const call operators (their captures are constant), of a
  // function that is not inline ("$_0") and of a template's member ('lambda'
  // and the next one, 'lambda0'); not a mutable lambda's, not a functor's,
  // not a closure class's member.
  CHECK(isConstLambdaCall("_ZZ4mainENK3$_0clERKi"));
  CHECK(isConstLambdaCall("_ZZN9RunGatherIdLi1EE3runEiiiiiENKUlRKiE_clES2_"));
  CHECK(isConstLambdaCall("_ZZN9RunGatherIdLi1EE3runEiiiiiENKUlRKiE0_clES2_"));
  CHECK(!isConstLambdaCall("_ZZ4mainEN3$_0clERKi"));
  CHECK(!isConstLambdaCall("_ZZN9RunGatherIdLi1EE3runEiiiiiENUlRKiE_clES2_"));
  CHECK(!isConstLambdaCall("_ZNK3FooclEi"));
  CHECK(!isConstLambdaCall("_ZNK6Kokkos4Impl11ParallelForIiE7executeEv"));

  // Kokkos' own functors, whose fields are constant while they run.
  CHECK(isKokkosFunctorCall(
      "_ZNK6Kokkos4Impl29fill_random_functor_begin_endINS_4ViewIPPPiJNS_11LayoutRightE"
      "EEENS_22Random_XorShift64_PoolINS_6SerialEEELi128ELi3ElEclEl"));
  CHECK(isKokkosFunctorCall("_ZNK6Kokkos4Impl16ViewValueFunctorINS_6SerialEdLb1EEclEm"));
  CHECK(isKokkosFunctorCall(
      "_ZNK6Kokkos4Impl8ViewFillINS_4ViewIPdJNS_10LayoutLeftENS_6DeviceINS_6SerialENS_1"
      "4AnonymousSpaceEEENS_12MemoryTraitsILj0EEEEEENS_11LayoutRightES6_Li1EiEclERKi"));
  CHECK(!isKokkosFunctorCall("_ZNK6Kokkos4Impl10ViewOffsetIiiEclEm")); // a View's part
  CHECK(!isKokkosFunctorCall("_ZNK3FooclEi"));                        // the program's
  CHECK(!isKokkosFunctorCall("_ZN6Kokkos4Impl16ViewValueFunctorINS_6SerialEdLb1EEclEm"));
  CHECK(!isKokkosFunctorCall("_ZNK6Kokkos4Impl11ParallelForIiE7executeEv"));

  // Team collectives and the thread's rank (divergent barriers).
  CHECK(isTeamRank("_ZNK6Kokkos4Impl20HostThreadTeamMemberINS_6SerialEE9team_rankEv"));
  CHECK(!isTeamRank("_ZNK6Kokkos4Impl20HostThreadTeamMemberINS_6SerialEE11league_rankEv"));
  CHECK(teamCollective("_ZNK6Kokkos4Impl20HostThreadTeamMemberINS_6SerialEE12team_barrierEv") ==
        "team_barrier");
  CHECK(teamCollective("_ZNK6Kokkos4Impl20HostThreadTeamMemberINS_6SerialEE11team_reduceINS_3SumIdNS_9HostSpaceEEEEENSt9enable_ifIXsr10is_reducerIT_EE5valueEvE4typeERKS9_") ==
        "team_reduce");
  CHECK(teamCollective("_ZN6Kokkos15parallel_reduceIiZZ4mainENK3$_1clERKNS_4Impl2"
                       "0HostThreadTeamMemberINS_6SerialEEEEUliRdE_dS5_EENSt9enab"
                       "le_ifIXaantsr6Kokkos10is_reducerIT1_EE5valuesr4Impl26is_"
                       "host_thread_team_memberIT2_EE5valueEvE4typeERKNS2_31Team"
                       "ThreadRangeBoundariesStructIT_SC_EERKT0_RSB_") ==
        "parallel_reduce");
  // single(PerTeam) broadcasts a value to the team; without one it is no
  // collective.
  CHECK(teamCollective("_ZN6Kokkos6singleINS_4Impl20HostThreadTeamMemberINS_6Seri"
                       "alEEEZZ4mainENK3$_0clERKS4_EUlRdE_dEENSt9enable_ifIXsr4Im"
                       "pl26is_host_thread_team_memberIT_EE5valueEvE4typeERKNS1_1"
                       "8ThreadSingleStructISB_EERKT0_RT1_") == "single");
  CHECK(teamCollective("_ZN6Kokkos6singleINS_4Impl20HostThreadTeamMemberINS_6Seri"
                       "alEEEZZ4mainENK3$_0clERKS4_EUlvE_EENSt9enable_ifIXsr4Impl"
                       "26is_host_thread_team_memberIT_EE5valueEvE4typeERKNS1_18T"
                       "hreadSingleStructISA_EERKT0_").empty());
  CHECK(teamCollective("_ZN6Kokkos5fenceEv").empty());

  // Helpers.
  CHECK(stripTemplateArgs("Kokkos::Impl::ParallelFor<A, B<C>, Kokkos::Serial>") ==
        "Kokkos::Impl::ParallelFor");
  CHECK(stripTemplateArgs("Foo<int>::operator<") == "Foo::operator<");
  auto Args = templateArgs("Kokkos::Impl::ParallelFor<F, Kokkos::RangePolicy<A, B>, Kokkos::Serial>");
  CHECK(Args.size() == 3 && Args[1] == "Kokkos::RangePolicy<A, B>" &&
        Args[2] == "Kokkos::Serial");
  auto Ps = splitParams("(Kokkos::View<double*> const&, Kokkos::View<double*, Kokkos::HostSpace> const&, void*)");
  CHECK(Ps.size() == 3 && isViewType(Ps[0]) && isViewType(Ps[1]) &&
        !isViewType(Ps[2]));
  CHECK(isExecSpace("Kokkos::Serial const&"));
  CHECK(isExecSpace("Kokkos::OpenMP"));
  CHECK(!isExecSpace("Kokkos::HostSpace"));
  CHECK(isKokkosContext("Kokkos::Impl"));
  CHECK(isKokkosContext("desul"));
  CHECK(!isKokkosContext("KokkosBlas::Impl"));

  std::printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
