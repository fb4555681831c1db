//===- CoalescingTransform.cpp - The transformation's driver --------------===//
//
// For each kernel of an NVPTX module:
//
//   collect   (CopyGroups.cpp)         the stores of strided copies, grouped
//   legality  (Legality.cpp)           a RewritePlan or a MissedReason each
//   emit      (RegionCopyEmitter.cpp,  the widened region copy, and the flat
//              FlatCopyEmitter.cpp)     copy of a grid-stride copy loop
//   erase                              the members and their dead addresses
//   verify                             an invalid kernel gets its original
//                                      body back; its groups are "missed"
//   report    (Report.cpp)             remarks, statistics, JSON
//
// A new rewrite kind plugs in as a sibling: its own collect/legality/emit
// files producing GroupOutcome-like decisions, called from transformKernel.
//
//===----------------------------------------------------------------------===//

#include "coalda/CoalescingTransform.h"
#include "CopyGroup.h"
#include "GridVariant.h"
#include "Options.h"
#include "RegisterBudget.h"
#include "Report.h"
#include "RewriteChoice.h"
#include "RewriteKind.h"
#include "Staging.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/CycleAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#define DEBUG_TYPE "coalda-driver"

using namespace llvm;

STATISTIC(NumGroupsRewritten, "Copy groups rewritten coalesced");
STATISTIC(NumStagingsRewritten, "Blocks whose elements were staged in shared memory");
STATISTIC(NumRolledBack,
          "Kernels whose rewrite failed the IR verifier and was undone");
STATISTIC(NumOverBudget, "Kernels skipped: over the analysis budget "
                         "(-coalda-max-function-size)");
STATISTIC(NumRecursiveCalls,
          "Calls of a helper inside its own inlined body, not inlined");

namespace coalda {

namespace {

/// A copy of F's body to go back to if the rewrite turns out invalid.
Function *cloneForRollback(Function &F) {
  ValueToValueMapTy VMap;
  return CloneFunction(&F, VMap);
}

/// Gives F the body of From (a clone of F's) and deletes From.
void replaceBody(Function &F, Function *From) {
  for (BasicBlock &BB : F)
    BB.dropAllReferences();
  while (!F.empty())
    F.begin()->eraseFromParent();
  F.splice(F.end(), From);
  for (auto [Mine, Theirs] : zip(F.args(), From->args()))
    Theirs.replaceAllUsesWith(&Mine);
  // The clone has a subprogram of its own, which its debug locations name.
  if (DISubprogram *SP = From->getSubprogram()) {
    From->setSubprogram(nullptr);
    F.setSubprogram(SP);
  }
  From->eraseFromParent();
}

/// A call the transformation may inline into a copy of Kernel: to a device
/// function with a body.
bool isHelperCall(const Instruction &I, const Function &Kernel) {
  const auto *Call = dyn_cast<CallBase>(&I);
  const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
  return Callee && !Callee->isDeclaration() && !Callee->isIntrinsic() &&
         Callee != &Kernel;
}

/// Limit 0 is no budget.
bool overBudget(unsigned Size, unsigned Limit) {
  return Limit != 0 && Size > Limit;
}

/// What became of one helper call of a kernel's inlined copy.
enum class InlineOutcome { Inlined, Recursive, Refused };

/// Inlines the helper calls of a kernel's copy one at a time, remembering
/// through which helpers' bodies each new call came, so that a helper is
/// never inlined into its own inlined body.
class HelperInliner {
public:
  /// Calls of Copy to inline now: the helper calls not kept as calls.
  SmallVector<CallBase *, 8> pendingCalls(Function &Copy,
                                          const Function &Kernel) const {
    SmallVector<CallBase *, 8> Calls;
    for (Instruction &I : instructions(Copy))
      if (isHelperCall(I, Kernel) && !Kept.contains(&I))
        Calls.push_back(cast<CallBase>(&I));
    return Calls;
  }

  InlineOutcome inlineCall(CallBase &Call) {
    Function *Callee = Call.getCalledFunction();
    auto It = CameFrom.find(&Call);
    int From = It == CameFrom.end() ? -1 : It->second;
    if (inlinedThrough(From, Callee)) {
      LLVM_DEBUG(dbgs() << "coalda: not inlining recursive " << Call << "\n");
      ++NumRecursiveCalls;
      Kept.insert(&Call);
      return InlineOutcome::Recursive;
    }
    InlineFunctionInfo IFI;
    InlineResult R = InlineFunction(Call, IFI);
    if (!R.isSuccess()) {
      LLVM_DEBUG(dbgs() << "coalda: cannot inline a call of "
                        << Callee->getName() << ": " << R.getFailureReason()
                        << "\n");
      Kept.insert(&Call);
      return InlineOutcome::Refused;
    }
    CameFrom.erase(&Call); // erased: its address may come back
    History.push_back({Callee, From});
    for (CallBase *New : IFI.InlinedCallSites)
      CameFrom[New] = History.size() - 1;
    return InlineOutcome::Inlined;
  }

private:
  /// Entry I: the body of Callee, inlined at a call that came from entry
  /// Parent (-1: the kernel's own code).
  struct InlinedFrom {
    const Function *Callee;
    int Parent;
  };

  /// F was inlined on the way to a call that came from entry At.
  bool inlinedThrough(int At, const Function *F) const {
    for (; At >= 0; At = History[At].Parent)
      if (History[At].Callee == F)
        return true;
    return false;
  }

  SmallVector<InlinedFrom, 16> History;
  DenseMap<const CallBase *, int> CameFrom;
  DenseSet<const Instruction *> Kept;
};

/// A copy of the kernel with its device functions inlined (four levels
/// deep), so that a copy written in a helper is seen in the context of its
/// call; null when the kernel calls none. At -O3 clang has inlined them
/// already; at -O0 this makes the same decision possible. A helper is not
/// inlined into its own inlined body: a recursive one (which clang leaves
/// as a call) would be copied once per call at every level, exponentially
/// (logic-rewrite's refactor_core.cu: 4.6 GB, minutes). Inlining stops once
/// the copy is over the analysis budget, which then skips the kernel.
Function *withHelpersInlined(Function &Kernel) {
  if (none_of(instructions(Kernel),
              [&](Instruction &I) { return isHelperCall(I, Kernel); }))
    return nullptr;
  ValueToValueMapTy VMap;
  Function *Copy = CloneFunction(&Kernel, VMap);
  Copy->addFnAttr(InlinedKernelAttr);
  HelperInliner Inliner;
  unsigned Size = Copy->getInstructionCount();
  for (unsigned Depth = 0; Depth < 4; ++Depth) {
    SmallVector<CallBase *, 8> Calls = Inliner.pendingCalls(*Copy, Kernel);
    if (Calls.empty())
      break;
    for (CallBase *Call : Calls) {
      if (overBudget(Size, opts::MaxFunctionSize)) {
        LLVM_DEBUG(dbgs() << "coalda: stop inlining into " << Kernel.getName()
                          << ": over the analysis budget\n");
        return Copy;
      }
      if (Inliner.inlineCall(*Call) == InlineOutcome::Inlined)
        Size = Copy->getInstructionCount();
    }
  }
  return Copy;
}

/// For testing the rollback: makes F invalid (a use before its definition).
void breakForTesting(Function &F) {
  for (BasicBlock &BB : drop_begin(F))
    for (Instruction &I : BB)
      if (I.getType()->isIntegerTy()) {
        auto *Bad = BinaryOperator::CreateAdd(&I, &I, "coalda.broken");
        Bad->insertBefore(F.getEntryBlock().getFirstNonPHI());
        return;
      }
}

/// Emits a legal group's rewrite; returns what it did, for people.
std::string emitRewrite(const GroupOutcome &O, const CoalescingInfo &Info) {
  std::string Action;
  switch (O.kind()) {
  case RewriteKind::RegionCopy:
    Action = emitRegionCopy(O.Group, O.Plan, Info.atoms());
    break;
  case RewriteKind::FlatCopy:
    Action = describeFlatOnly(O.Group, O.Plan);
    break;
  case RewriteKind::BlockTile:
  case RewriteKind::WarpTile:
  case RewriteKind::TransposedTile:
  case RewriteKind::ChunkWindow:
  case RewriteKind::LoopPromotion:
    llvm_unreachable("a copy group is a region or a flat copy");
  }
  // The grid-stride loop's flat copy, beside the region copy or alone.
  if (O.Plan.flat())
    emitFlatCopy(O.Group, O.Plan);
  return Action;
}

/// Emits a legal staging candidate's rewrite; returns what it did.
std::string emitRewrite(const StagingOutcome &O) {
  switch (O.kind()) {
  case RewriteKind::BlockTile:
  case RewriteKind::WarpTile:
  case RewriteKind::TransposedTile:
    return emitStaging(O.Candidate, O.Plan);
  case RewriteKind::ChunkWindow:
    return emitWindows(O.Candidate, O.Plan);
  case RewriteKind::RegionCopy:
  case RewriteKind::FlatCopy:
  case RewriteKind::LoopPromotion:
    break;
  }
  llvm_unreachable("a staging candidate is staged or windowed");
}

/// Moves every field F reads of a struct taken by value, and every pointer
/// it loads from a constant (a base like a parameter, hoistableBase), to
/// the top of F before the rewrites' code is emitted. The code may use a
/// base before the original read it (a staging's check point, an overlap
/// check against another array's address, which legality took as
/// computable there), and a field read inside the staged region would be
/// cloned early through a copy of its address: the parameter's address in
/// a register, an indirect parameter load (0.80x against 1.01x for the same
/// kernel with scalar parameters at 1024 threads). Each reads memory no
/// store writes, always valid to read: moving it changes nothing else, and
/// a field read at the top is what a scalar parameter is.
void hoistLoadedBases(Function &F) {
  SmallVector<LoadInst *, 8> Hoisted;
  for (Instruction &I : instructions(F))
    if (auto *Load = dyn_cast<LoadInst>(&I);
        Load && (hoistableBase(*Load) || readsParameter(*Load)))
      Hoisted.push_back(Load);
  for (LoadInst *Load : Hoisted)
    hoistConstantLoad(*Load);
}

/// Emits every legal group of F (Kernel, or its copy with the helpers
/// inlined), erases the members, verifies F; an invalid result is replaced
/// by the original body and its groups are reported as missed. Appends
/// Kernel's JSON to Report when given. Returns whether F changed.
bool transformKernel(Function &F, const Function &Kernel,
                     std::vector<GroupOutcome> &Groups,
                     std::vector<StagingOutcome> &Stagings,
                     const std::vector<PromotionOutcome> &Promotions,
                     const CoalescingInfo &Info, json::Array *Report) {
  bool Any = any_of(Groups, [](const GroupOutcome &O) { return O.legal(); }) ||
             any_of(Stagings, [](const StagingOutcome &O) { return O.legal(); });
  Function *Backup = Any ? cloneForRollback(F) : nullptr;
  if (Any)
    hoistLoadedBases(F);
  for (GroupOutcome &O : Groups) {
    if (!O.legal())
      continue;
    O.Action = emitRewrite(O, Info);
    O.Transformed = true;
    ++NumGroupsRewritten;
  }
  // The report reads the members, so it comes before they are erased; a
  // staging keeps its accesses (they now address the tile).
  std::optional<json::Value> Json;
  if (Report)
    Json = kernelReport(Kernel, Info, Groups, Stagings, Promotions);
  for (auto [Idx, O] : enumerate(Stagings)) {
    if (!O.legal())
      continue;
    O.Action = emitRewrite(O);
    O.Transformed = true;
    ++NumStagingsRewritten;
    if (Json)
      markStaged(*Json, Idx, O);
  }
  // A flat copy alone keeps the loop's copy: its members stay.
  for (GroupOutcome &O : Groups)
    if (O.Transformed && O.kind() == RewriteKind::RegionCopy)
      eraseMembers(O.Group);
  if (Any && opts::BreakForTesting)
    breakForTesting(F);
  std::string Problems;
  raw_string_ostream OS(Problems);
  if (Backup && verifyFunction(F, &OS)) {
    LLVM_DEBUG(dbgs() << "coalda: invalid IR after rewriting " << F.getName()
                      << ", rolled back:\n"
                      << Problems);
    replaceBody(F, Backup);
    ++NumRolledBack;
    for (GroupOutcome &O : Groups)
      if (O.Transformed) {
        O.Transformed = false;
        O.Skip = Missed{MissedReason::RolledBack, RolledBackDetail};
        --NumGroupsRewritten;
      }
    for (StagingOutcome &O : Stagings)
      if (O.Transformed) {
        O.Transformed = false;
        O.Skip = Missed{MissedReason::RolledBack, RolledBackDetail};
        --NumStagingsRewritten;
      }
    if (Json)
      markRolledBack(*Json);
  } else if (Backup) {
    Backup->eraseFromParent();
  }
  if (Json)
    Report->push_back(std::move(*Json));
  return Backup != nullptr;
}

/// Keeps the legal loop accumulators of F (Kernel, or its copy) in
/// registers (LoopPromotion.h). A kernel so changed gets no other rewrite
/// in this run: the copies and stagings were decided on the loops as they
/// were. Returns whether a loop was promoted, and then appends Kernel's
/// JSON to Report (when given) and emits the remarks. Otherwise (LICM left
/// every element in its loop, or the IR was invalid) F's body is restored
/// and the outcomes say why, for the caller to report. Info and F's
/// analyses are stale afterwards either way.
bool promoteKernel(Function &F, Function &Kernel,
                   std::vector<PromotionOutcome> &Promotions,
                   const CoalescingInfo &Info, FunctionAnalysisManager &FAM,
                   json::Array *Report) {
  std::optional<json::Value> Json;
  if (Report)
    Json = kernelReport(Kernel, Info, {}, {}, Promotions);
  auto &Before = FAM.getResult<OptimizationRemarkEmitterAnalysis>(Kernel);
  remarkAccesses(Info, Kernel, Before);
  Function *Backup = cloneForRollback(F);
  bool Any = applyPromotions(F, Promotions, FAM);
  if (Any && opts::BreakForTesting)
    breakForTesting(F);
  std::string Problems;
  raw_string_ostream OS(Problems);
  bool Invalid = Any && verifyFunction(F, &OS);
  if (!Any || Invalid) {
    LLVM_DEBUG(if (Invalid) dbgs()
               << "coalda: invalid IR after promoting " << F.getName()
               << ", rolled back:\n"
               << Problems);
    replaceBody(F, Backup);
    FAM.invalidate(F, PreservedAnalyses::none());
    for (PromotionOutcome &O : Promotions)
      if (O.Transformed) {
        O.Transformed = false;
        O.Skip = Missed{MissedReason::RolledBack, RolledBackDetail};
        ++NumRolledBack;
      }
    return false;
  }
  Backup->eraseFromParent();
  if (Json) {
    markPromotions(*Json, Promotions);
    Report->push_back(std::move(*Json));
  }
  // The promotion invalidated F's analyses, the remark emitter among them
  // when F is the kernel itself.
  auto &After = FAM.getResult<OptimizationRemarkEmitterAnalysis>(Kernel);
  for (const PromotionOutcome &O : Promotions)
    remarkPromotion(O, Kernel, After);
  return true;
}

/// F's promotion candidates again, after a promotion attempt that changed
/// nothing in the end (F's body restored: the same loops, found in the same
/// order), with the outcomes Tried gave them; none is legal.
std::vector<PromotionOutcome>
triedAgain(Function &F, const std::vector<PromotionOutcome> &Tried,
           FunctionAnalysisManager &FAM) {
  std::vector<PromotionOutcome> Fresh =
      collectPromotions(F, FAM.getResult<CoalescingAnalysis>(F), FAM);
  for (auto [New, Old] : zip(Fresh, Tried)) {
    New.Skip = Old.Skip;
    New.Checks = Old.Checks;
  }
  for (PromotionOutcome &New : Fresh)
    if (New.legal())
      New.Skip = Missed{MissedReason::PromotionNotHoisted,
                        "LICM left part of the element in the loop"};
  return Fresh;
}

/// The staging candidates of F, decided. A kernel with a copy the copy
/// rewrite takes is not also staged: the two rewrites split blocks
/// independently, and the copy rewrite is the measured better one for copies.
std::vector<StagingOutcome>
decideStagingsOf(Function &F, const std::vector<GroupOutcome> &Groups,
                 const CoalescingInfo &Info, FunctionAnalysisManager &FAM) {
  if (!opts::Staging)
    return {};
  DenseSet<const Instruction *> Claimed, InCopies;
  bool AnyCopy = false;
  for (const GroupOutcome &O : Groups) {
    bool Taken =
        O.legal() || (O.Skip && O.Skip->Reason == MissedReason::AnalysisOnly);
    AnyCopy |= Taken;
    bool Computed = O.Skip && O.Skip->Reason == MissedReason::ComputedValue;
    for (const AccessExpr *A : O.Group.members())
      if (Taken)
        Claimed.insert(A->Inst);
      else if (!Computed) // a copy, left alone for a reason of its own
        InCopies.insert(A->Inst);
  }
  // Chunk loads in loops are the windows' (the element staging refuses
  // loops); a kernel gets one kind of staging.
  std::vector<StagingOutcome> Windows = collectWindows(
      Info, Claimed, FAM.getResult<DominatorTreeAnalysis>(F),
      FAM.getResult<PostDominatorTreeAnalysis>(F),
      FAM.getResult<LoopAnalysis>(F), FAM.getResult<ScalarEvolutionAnalysis>(F));
  DenseSet<const Instruction *> ClaimedOrWindowed = Claimed;
  for (const StagingOutcome &O : Windows) {
    for (const StagedArray &A : O.Candidate.Arrays)
      for (const AccessExpr *M : A.Accesses)
        ClaimedOrWindowed.insert(M->Inst);
    for (const auto &[A, Why] : O.Candidate.LeftOut)
      for (const AccessExpr *M : A.Accesses)
        ClaimedOrWindowed.insert(M->Inst);
  }
  std::vector<StagingOutcome> Stagings = collectStagings(
      Info, ClaimedOrWindowed, FAM.getResult<DominatorTreeAnalysis>(F),
      FAM.getResult<PostDominatorTreeAnalysis>(F),
      FAM.getResult<CycleAnalysis>(F));
  decideStagings(Stagings, Info, FAM.getResult<PostDominatorTreeAnalysis>(F),
                 FAM.getResult<DominatorTreeAnalysis>(F),
                 FAM.getResult<LoopAnalysis>(F),
                 FAM.getResult<ScalarEvolutionAnalysis>(F),
                 FAM.getResult<CycleAnalysis>(F));
  bool ElementStaged = any_of(Stagings, [](const StagingOutcome &O) {
    return O.legal();
  });
  for (StagingOutcome &O : Windows) {
    if (O.legal() && ElementStaged)
      O.Skip = Missed{MissedReason::StagingOnePerKernel,
                      "another block of this kernel is staged already (one "
                      "staging per kernel)"};
    Stagings.push_back(std::move(O));
  }
  // A copy left alone says why itself; that it is not staged either (its
  // bytes, a cost rule) would only repeat it.
  llvm::erase_if(Stagings, [&](const StagingOutcome &O) {
    return !O.legal() &&
           all_of(O.Candidate.Arrays, [&](const StagedArray &A) {
             return all_of(A.Accesses, [&](const AccessExpr *M) {
               return InCopies.contains(M->Inst);
             });
           });
  });
  for (StagingOutcome &O : Stagings) {
    if (O.legal() && AnyCopy)
      O.Skip = Missed{MissedReason::StagingOnePerKernel,
                      "a copy in this kernel is rewritten by the copy "
                      "rewrite; the two are not combined in one kernel"};
    if (O.legal() && opts::AnalyzeOnly)
      O.Skip = Missed{MissedReason::AnalysisOnly,
                      "analysis only (-coalda-analyze-only)"};
  }
  return Stagings;
}

/// Leaves Kernel alone: its code (Inlined: with its helpers inlined) has Size
/// instructions, over the analysis budget. Says so in a remark and the report.
void skipOverBudget(const Function &Kernel, unsigned Size, bool Inlined,
                    OptimizationRemarkEmitter &ORE, json::Array *Report) {
  LLVM_DEBUG(dbgs() << "coalda: skipping " << Kernel.getName() << ": " << Size
                    << " instructions, over the analysis budget of "
                    << opts::MaxFunctionSize << "\n");
  ++NumOverBudget;
  std::string Why = formatv("COALDA skipped kernel `{0}`: its code{1} has {2} "
                            "instructions, over the analysis budget of {3} "
                            "(-coalda-max-function-size)",
                            sourceName(Kernel),
                            Inlined ? " after inlining" : "", Size,
                            unsigned(opts::MaxFunctionSize));
  remarkSkippedKernel(Kernel, Why, ORE);
  if (Report)
    Report->push_back(skippedKernelReport(Kernel, Why));
}

/// Kernel's body becomes Copy's (the kernel with its helpers inlined) when
/// Changed; Copy goes either way. Returns Changed.
bool adoptCopy(Function &Kernel, Function *Copy, bool Changed,
               FunctionAnalysisManager &FAM) {
  if (Copy) {
    FAM.clear(*Copy, Copy->getName());
    if (Changed)
      replaceBody(Kernel, Copy);
    else
      Copy->eraseFromParent();
  }
  if (Changed)
    FAM.invalidate(Kernel, PreservedAnalyses::none());
  return Changed;
}

/// The whole transformation of one kernel: on a copy with its device
/// functions inlined when it calls any (adopted only when something was
/// rewritten in it), else on the kernel itself. Returns whether it changed.
bool transformKernelOf(Function &Kernel, FunctionAnalysisManager &FAM,
                       json::Array *Report,
                       VariantShapes *Shapes = nullptr) {
  Function *Copy = withHelpersInlined(Kernel);
  Function &F = Copy ? *Copy : Kernel;
  if (unsigned Size = F.getInstructionCount();
      overBudget(Size, opts::MaxFunctionSize)) {
    skipOverBudget(Kernel, Size, Copy != nullptr,
                   FAM.getResult<OptimizationRemarkEmitterAnalysis>(Kernel),
                   Report);
    if (Copy)
      Copy->eraseFromParent();
    return false;
  }
  std::vector<PromotionOutcome> Promotions =
      collectPromotions(F, FAM.getResult<CoalescingAnalysis>(F), FAM);
  for (PromotionOutcome &O : Promotions)
    if (O.legal() && opts::AnalyzeOnly)
      O.Skip = Missed{MissedReason::AnalysisOnly,
                      "analysis only (-coalda-analyze-only)"};
  bool Tried =
      any_of(Promotions, [](const PromotionOutcome &O) { return O.legal(); });
  if (Tried) {
    if (promoteKernel(F, Kernel, Promotions,
                      FAM.getResult<CoalescingAnalysis>(F), FAM, Report))
      return adoptCopy(Kernel, Copy, true, FAM);
    // Nothing promoted in the end: the other rewrites decide on the body,
    // restored as it was (whose accesses promoteKernel has remarked on).
    Promotions = triedAgain(F, Promotions, FAM);
  }
  // Fetched again: a promotion attempt invalidated F's analyses (and the
  // kernel's remark emitter, when F is the kernel).
  auto &Remarks = FAM.getResult<OptimizationRemarkEmitterAnalysis>(Kernel);
  const CoalescingInfo &Info = FAM.getResult<CoalescingAnalysis>(F);
  std::vector<GroupOutcome> Groups = collectCopyGroups(Info);
  decideLegality(Groups, Info, FAM.getResult<PostDominatorTreeAnalysis>(F),
                 FAM.getResult<DominatorTreeAnalysis>(F),
                 FAM.getResult<LoopAnalysis>(F), FAM.getResult<CycleAnalysis>(F));
  if (!Tried)
    remarkAccesses(Info, Kernel, Remarks);
  for (GroupOutcome &O : Groups) {
    O.FirstLoc = O.Group.first().Inst->getDebugLoc();
    O.LastLoc = O.Group.Stores.back()->Inst->getDebugLoc();
  }
  std::vector<StagingOutcome> Stagings =
      decideStagingsOf(F, Groups, Info, FAM);
  // Read before the rewrite erases the copy, kept if it was rewritten.
  if (Shapes && !Copy) {
    Shapes->Flat = findKernelFlatCopy(F, Groups, Stagings, Info);
    Shapes->Tile = findKernelTileTranspose(F, Groups, Stagings);
  }
  bool Changed =
      transformKernel(F, Kernel, Groups, Stagings, Promotions, Info, Report);
  if (Shapes && none_of(Groups, [](const GroupOutcome &O) {
        return O.Transformed;
      }))
    Shapes->Flat.reset();
  if (Shapes && none_of(Stagings, [](const StagingOutcome &O) {
        return O.Transformed;
      }))
    Shapes->dropTile();
  // Before the copy goes: the remarks name its arguments.
  for (const GroupOutcome &O : Groups)
    remarkGroup(O, Kernel, Remarks);
  for (const StagingOutcome &O : Stagings)
    remarkStaging(O, Kernel, Remarks);
  for (const PromotionOutcome &O : Promotions)
    remarkPromotion(O, Kernel, Remarks);
  if (Copy)
    Changed = any_of(Groups, [](const GroupOutcome &O) { return O.Transformed; }) ||
              any_of(Stagings, [](const StagingOutcome &O) { return O.Transformed; });
  return adoptCopy(Kernel, Copy, Changed, FAM);
}

/// What launches until the run-time measurement is in, Kernel naming the
/// kernel itself (the report says "original", the remark "kernel").
StringRef untilMeasured(const GridVariantResult &Result, StringRef Kernel) {
  if (Result.Form == GridVariantForm::Rewrite)
    return "rewrite";
  return Result.Preferred ? "variant" : Kernel;
}

/// The remark on Kernel's launch: reshaped, chosen at run time against its
/// original (Kept: why there is no grid variant), or kept.
void remarkLaunch(Function &Kernel, const GridVariantResult &Result,
                  GridVariantRefusal Kept, OptimizationRemarkEmitter &ORE) {
  if (!Result.Variant) {
    ORE.emit([&] {
      return OptimizationRemarkMissed(DEBUG_TYPE, "LaunchKept", &Kernel)
             << "kernel `" << sourceName(Kernel)
             << "`: " << describe(Result.Why);
    });
    return;
  }
  bool Rewrite = Result.Form == GridVariantForm::Rewrite;
  ORE.emit([&] {
    OptimizationRemark R(DEBUG_TYPE,
                         Rewrite ? "RewriteChosenAtRunTime" : "LaunchReshaped",
                         &Kernel);
    R << "kernel `" << sourceName(Kernel) << "`: ";
    if (Rewrite)
      R << describe(Kept) << "; ";
    return R << describeReshaped(Result.Form) << " (" << describe(Result.Form)
             << "); until measured, the " << untilMeasured(Result, "kernel");
  });
}

/// The report's `launch` of a kernel (Kept: why there is no grid variant).
json::Object launchJSON(const GridVariantResult &Result,
                        GridVariantRefusal Kept) {
  bool Rewrite = Result.Form == GridVariantForm::Rewrite;
  json::Object Launch{{"reshaped", Result.Variant && !Rewrite},
                      {"reason", Result.Variant
                                     ? describeReshaped(Result.Form)
                                     : describe(Result.Why)}};
  if (Rewrite)
    Launch["kept"] = describe(Kept);
  if (Result.Variant) {
    Launch["variant"] = Result.Variant->getName().str();
    Launch["form"] = formName(Result.Form);
    Launch["does"] = describe(Result.Form);
    Launch["until_measured"] = untilMeasured(Result, "original");
  }
  return Launch;
}

/// Gives the rewritten Kernel its grid-stride variant where it may have
/// one (GridVariant.h), else, given Original (its copy from before the
/// rewrite), keeps the original as its variant (RewriteChoice.h); says what
/// was decided in a remark and in Kernel's report entry (the last one,
/// transformKernelOf's).
void reshapeLaunch(Function &Kernel, GridVariantRefusal BeforeRewrite,
                   VariantShapes &Shapes, Function *Original,
                   FunctionAnalysisManager &FAM, json::Array *Report) {
  GridVariantResult Result =
      makeGridVariant(Kernel, BeforeRewrite, Shapes, FAM);
  GridVariantRefusal Kept = Result.Why;
  if (Result.Variant) {
    boundRegisters(*Result.Variant);
    dropOriginal(Original);
  } else if (Original) {
    Result = keepOriginal(Kernel, *Original);
  }
  remarkLaunch(Kernel, Result, Kept,
               FAM.getResult<OptimizationRemarkEmitterAnalysis>(Kernel));
  if (Report && !Report->empty())
    if (json::Object *Entry = Report->back().getAsObject())
      (*Entry)["launch"] = launchJSON(Result, Kept);
}

void writeReport(Module &M, json::Array Kernels) {
  std::error_code EC;
  raw_fd_ostream OS(opts::ReportFile, EC, sys::fs::OF_Text);
  if (EC) {
    M.getContext().emitError("coalda: cannot write report '" +
                             opts::ReportFile + "': " + EC.message());
    return;
  }
  OS << formatv("{0:2}",
                json::Value(json::Object{{"kernels", std::move(Kernels)}}))
     << "\n";
}

} // namespace

PreservedAnalyses CoalescingTransformPass::run(Module &M,
                                               ModuleAnalysisManager &MAM) {
  if (!Triple(M.getTargetTriple()).isNVPTX())
    return PreservedAnalyses::all();
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  DenseSet<const Function *> KernelSet = kernelsOf(M);
  // Rollback clones are added to M while it is walked: collect first.
  SmallVector<Function *, 8> Kernels;
  for (Function &F : M)
    if (!F.isDeclaration() && KernelSet.contains(&F))
      Kernels.push_back(&F);

  json::Array Report;
  bool Changed = false;
  for (Function *F : Kernels) {
    GridVariantRefusal Shape = opts::ReshapeLaunches
                                   ? shapeBeforeRewrite(*F)
                                   : GridVariantRefusal::KernelLoops;
    VariantShapes Shapes;
    Function *Original = opts::ReshapeLaunches && opts::ChooseRewrites
                             ? copyBeforeRewrite(*F)
                             : nullptr;
    if (!transformKernelOf(*F, FAM,
                           opts::ReportFile.empty() ? nullptr : &Report,
                           opts::ReshapeLaunches ? &Shapes : nullptr)) {
      Shapes.dropTile();
      dropOriginal(Original);
      continue;
    }
    Changed = true;
    // After the reshaping: a kept original takes the kernel's annotations
    // as written, without the rewrite's register bound.
    if (opts::ReshapeLaunches)
      reshapeLaunch(*F, Shape, Shapes, Original, FAM,
                    opts::ReportFile.empty() ? nullptr : &Report);
    boundRegisters(*F);
  }
  if (!opts::ReportFile.empty())
    writeReport(M, std::move(Report));
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace coalda
