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
#include "Options.h"
#include "Report.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/CycleAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#define DEBUG_TYPE "coalda"

using namespace llvm;

STATISTIC(NumGroupsRewritten, "Copy groups rewritten coalesced");
STATISTIC(NumRolledBack,
          "Kernels whose rewrite failed the IR verifier and was undone");

namespace coalda {

namespace {

/// A copy of F's body to go back to if the rewrite turns out invalid.
Function *cloneForRollback(Function &F) {
  ValueToValueMapTy VMap;
  return CloneFunction(&F, VMap);
}

/// Puts Backup's body back into F and deletes Backup.
void rollback(Function &F, Function *Backup) {
  for (BasicBlock &BB : F)
    BB.dropAllReferences();
  while (!F.empty())
    F.begin()->eraseFromParent();
  F.splice(F.end(), Backup);
  for (auto [Mine, Theirs] : zip(F.args(), Backup->args()))
    Theirs.replaceAllUsesWith(&Mine);
  Backup->eraseFromParent();
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

/// Emits every legal group of F, erases the members, verifies F; an invalid
/// result is replaced by the original body and its groups are reported as
/// missed. Appends F's JSON to Report when given. Returns whether F changed.
bool transformKernel(Function &F, std::vector<GroupOutcome> &Groups,
                     const CoalescingInfo &Info, json::Array *Report) {
  bool Any = any_of(Groups, [](const GroupOutcome &O) { return O.legal(); });
  Function *Backup = Any ? cloneForRollback(F) : nullptr;
  for (GroupOutcome &O : Groups) {
    if (!O.legal())
      continue;
    if (O.Plan.FlatOnly)
      O.Action = describeFlatOnly(O.Group, O.Plan);
    else
      O.Action = emitRegionCopy(O.Group, O.Plan, Info.atoms());
    if (O.Plan.flat())
      emitFlatCopy(O.Group, O.Plan);
    O.Transformed = true;
    ++NumGroupsRewritten;
  }
  // The report reads the members, so it comes before they are erased.
  std::optional<json::Value> Kernel;
  if (Report)
    Kernel = kernelReport(F, Info, Groups);
  for (GroupOutcome &O : Groups)
    if (O.Transformed && !O.Plan.FlatOnly)
      eraseMembers(O.Group);
  if (Any && opts::BreakForTesting)
    breakForTesting(F);
  std::string Problems;
  raw_string_ostream OS(Problems);
  if (Backup && verifyFunction(F, &OS)) {
    LLVM_DEBUG(dbgs() << "coalda: invalid IR after rewriting " << F.getName()
                      << ", rolled back:\n"
                      << Problems);
    rollback(F, Backup);
    ++NumRolledBack;
    for (GroupOutcome &O : Groups)
      if (O.Transformed) {
        O.Transformed = false;
        O.Skip = Missed{MissedReason::RolledBack, RolledBackDetail};
        --NumGroupsRewritten;
      }
    if (Kernel)
      markRolledBack(*Kernel);
  } else if (Backup) {
    Backup->eraseFromParent();
  }
  if (Kernel)
    Report->push_back(std::move(*Kernel));
  return Backup != nullptr;
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
    const CoalescingInfo &Info = FAM.getResult<CoalescingAnalysis>(*F);
    auto &ORE = FAM.getResult<OptimizationRemarkEmitterAnalysis>(*F);
    std::vector<GroupOutcome> Groups = collectCopyGroups(Info);
    decideLegality(Groups, Info, FAM.getResult<PostDominatorTreeAnalysis>(*F),
                   FAM.getResult<DominatorTreeAnalysis>(*F),
                   FAM.getResult<LoopAnalysis>(*F),
                   FAM.getResult<CycleAnalysis>(*F));
    remarkAccesses(Info, ORE);
    for (GroupOutcome &O : Groups) {
      O.FirstLoc = O.Group.first().Inst->getDebugLoc();
      O.LastLoc = O.Group.Stores.back()->Inst->getDebugLoc();
    }
    if (transformKernel(*F, Groups, Info,
                        opts::ReportFile.empty() ? nullptr : &Report)) {
      Changed = true;
      FAM.invalidate(*F, PreservedAnalyses::none());
    }
    for (const GroupOutcome &O : Groups)
      remarkGroup(O, *F, ORE);
  }
  if (!opts::ReportFile.empty())
    writeReport(M, std::move(Report));
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace coalda
