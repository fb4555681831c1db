//===- Report.h - Remarks and the JSON report of the transformation -------===//
//
// Private to the transformation; see Report.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef COALDA_LIB_REPORT_H
#define COALDA_LIB_REPORT_H

#include "CopyGroup.h"
#include "LoopPromotion.h"
#include "Staging.h"

#include "llvm/Support/JSON.h"

#include <vector>

namespace llvm {
class Function;
class OptimizationRemarkEmitter;
} // namespace llvm

namespace coalda {

/// Why a rolled-back group was left alone.
inline constexpr const char *RolledBackDetail =
    "COALDA's rewrite did not pass the IR verifier (a COALDA bug, please "
    "report it): the original code is kept";

/// The stable remark name of a reason ("PartialCopy").
const char *missedName(MissedReason R);

/// Analysis remarks for every uncoalesced or unreadable access (of Kernel,
/// or of its copy with the device functions inlined).
void remarkAccesses(const CoalescingInfo &Info, const llvm::Function &Kernel,
                    llvm::OptimizationRemarkEmitter &ORE);

/// The Passed or Missed remark of one group (from its saved locations: the
/// members may be gone).
void remarkGroup(const GroupOutcome &O, const llvm::Function &F,
                 llvm::OptimizationRemarkEmitter &ORE);

/// One kernel of the -coalda-report JSON: every access, every group. Reads
/// the members: call it before they are erased.
llvm::json::Value
kernelReport(const llvm::Function &F, const CoalescingInfo &Info,
             const std::vector<GroupOutcome> &Groups,
             const std::vector<StagingOutcome> &Stagings,
             const std::vector<PromotionOutcome> &Promotions = {});

llvm::json::Value promotionJSON(const PromotionOutcome &O);

void remarkPromotion(const PromotionOutcome &O, const llvm::Function &Kernel,
                     llvm::OptimizationRemarkEmitter &ORE);

/// The promotions' outcomes, once applied, into Kernel's JSON.
void markPromotions(llvm::json::Value &Kernel,
                    const std::vector<PromotionOutcome> &Promotions);

/// Records in a kernel's report that its staging Index was emitted.
void markStaged(llvm::json::Value &Kernel, size_t Index,
                const StagingOutcome &O);

/// The Passed or Missed remark of one staging candidate.
void remarkStaging(const StagingOutcome &O, const llvm::Function &F,
                   llvm::OptimizationRemarkEmitter &ORE);

/// Marks the rewritten groups of a kernel's report as rolled back.
void markRolledBack(llvm::json::Value &Kernel);

/// One kernel of the -coalda-report JSON that was not analysed: no accesses,
/// no groups, and Why under "skipped".
llvm::json::Value skippedKernelReport(const llvm::Function &Kernel,
                                      llvm::StringRef Why);

/// The Missed remark of a kernel that was not analysed (AnalysisBudget).
void remarkSkippedKernel(const llvm::Function &Kernel, llvm::StringRef Why,
                         llvm::OptimizationRemarkEmitter &ORE);

} // namespace coalda

#endif // COALDA_LIB_REPORT_H
