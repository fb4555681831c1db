//===- CopyGroup.h - The types the transformation's phases exchange -------===//
//
// Private to the transformation. The phases and what they hand on:
//
//   collect   (CopyGroups.cpp)        AccessExprs  -> CopyGroup
//   legality  (Legality.cpp)          CopyGroup    -> RewritePlan or Missed
//   emit      (RegionCopyEmitter.cpp, CopyGroup + RewritePlan -> new IR
//              FlatCopyEmitter.cpp)
//   report    (Report.cpp)            everything   -> remarks, JSON
//
// Decisions are typed: a group left alone carries a MissedReason (one remark
// name and one statistic per reason) and a detail for people.
//
//===----------------------------------------------------------------------===//

#ifndef COALDA_LIB_COPYGROUP_H
#define COALDA_LIB_COPYGROUP_H

#include "coalda/CoalescingAnalysis.h"
#include "RewriteKind.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/DebugLoc.h"
#include "llvm/IR/CycleInfo.h"
#include "llvm/IR/IRBuilder.h"

#include <optional>
#include <string>
#include <vector>

namespace llvm {
class BasicBlock;
class DominatorTree;
class Instruction;
class LoopInfo;
class PostDominatorTree;
class Value;
} // namespace llvm

namespace coalda {

/// Why a group is left alone: each reason, its remark name and its
/// statistic are listed once, in MissedReason.def.
enum class MissedReason {
#define COALDA_MISSED(Name, Text) Name,
#include "MissedReason.def"
};

/// A group left alone: why (typed) and the detail a person needs.
struct Missed {
  MissedReason Reason;
  std::string Detail;
};

/// The verdict of a legality check: nothing, or why not.
using Verdict = std::optional<Missed>;

/// The stores (and their loads) of one strided copy, as collect found them:
/// members sharing base, lane, stride and uniform part in one block.
struct CopyGroup {
  std::vector<const AccessExpr *> Stores; ///< sorted by offset
  std::vector<const AccessExpr *> Loads;  ///< Loads[k] feeds Stores[k]
  /// The lane stride in bytes; with a RuntimeStride, the bytes the members
  /// cover, which the rewrite checks the run-time stride against.
  int64_t Stride = 0;
  /// A lane stride known only at run time (e.g. 4*n), as a polynomial.
  std::optional<Poly> RuntimeStride;
  /// The unit of the narrowest version: the largest power of two dividing
  /// every member's width.
  uint64_t MemberWidth = 0;
  /// One memory transfer copies the whole element (struct assignment).
  bool Assignment = false;

  const AccessExpr &first() const { return *Stores.front(); }
  const AccessExpr &source() const { return *Loads.front(); }
  /// Every load and store of the copy.
  auto members() const {
    return llvm::concat<const AccessExpr *const>(Loads, Stores);
  }
};

/// Which threads of a block row run the copy.
enum class Guard {
  None,   ///< all of them
  Bounds, ///< a prefix: the threads that pass `Index < End`
  Loop,   ///< a prefix: those that run this iteration of a grid-stride loop
};

/// One comparison `Lo < Hi` (or `Lo <= Hi`) that holds for a prefix of the
/// row's threads: Lo - Hi is tid.x plus a row-uniform value, so it holds for
/// tid.x < Hi - Lo + tid.x (+1 when inclusive).
struct PrefixBound {
  llvm::Value *Lo = nullptr;
  llvm::Value *Hi = nullptr;
  bool Signed = true;
  bool Inclusive = false;
  /// tid.x is in Hi (with coefficient -1, `n - i > 0`), not in Lo (+1).
  bool LaneOnHi = false;
};

/// How a legal group is rewritten: what both emitters read.
struct RewritePlan {
  Guard Kind = Guard::None;
  /// With a guard, the active threads are those below every bound:
  /// tid.x < clamp(min_k Left_k, 0, ntid.x). A loop has one bound, whose Lo
  /// is the induction and Hi the loop's bound.
  llvm::SmallVector<PrefixBound, 2> Bounds;
  bool RotatedLoop = false; ///< the loop tests `i + step < n` at its latch
  /// A loop's step (special registers only), for the run-time check that
  /// bound + step fits the index's type (no wrap between iterations).
  std::optional<Poly> LoopStep;
  /// The loop index's value on entry, checked like the index: a row whose
  /// start wraps has threads that never entered among those below the bound.
  llvm::Value *LoopStart = nullptr;
  bool NeedsOverlapCheck = true;
  /// Unit widths of the region copy's versions, widest first; the last is
  /// the member width.
  llvm::SmallVector<unsigned, 3> Units;

  /// A grid-stride loop whose body is only the copy is also replaced, when
  /// aligned and disjoint, by one flat copy of S*n bytes by all threads:
  /// FlatEntry is the block every thread runs just before the loop, FlatExit
  /// where the loop leaves to.
  llvm::BasicBlock *FlatEntry = nullptr;
  llvm::BasicBlock *FlatExit = nullptr;
  /// The pure computation of the loop's bound to repeat in front of the loop, when
  /// it is computed inside (operands first; empty when it is available).
  llvm::SmallVector<llvm::Instruction *, 4> FlatEndCopies;

  /// Only the flat copy is emitted; the loop keeps the original copy (its
  /// buffers may overlap, and only the flat copy checks all of them).
  bool FlatOnly = false;

  bool flat() const { return FlatEntry != nullptr; }
};

/// A group, the decision about it, and where its remarks point.
struct GroupOutcome {
  CopyGroup Group;
  std::optional<Missed> Skip; ///< set when the group is left alone
  RewritePlan Plan;           ///< valid when Skip is empty
  bool Transformed = false;
  std::string Action; ///< what the rewrite did, for people
  /// The first and last stores, saved before the rewrite erases them.
  llvm::DebugLoc FirstLoc, LastLoc;

  bool legal() const { return !Skip; }
  /// Which rewrite the plan makes (of a legal group).
  RewriteKind kind() const { return rewriteKind(Plan); }
};

//===----------------------------------------------------------------------===//
// The phases (one file each)
//===----------------------------------------------------------------------===//

/// collect: the stores of one block with the same canonical form, with the
/// loads that feed them; groups that are not whole pure copies carry Skip.
std::vector<GroupOutcome> collectCopyGroups(const CoalescingInfo &Info);

/// legality: decides each candidate, filling its Plan or its Skip.
void decideLegality(std::vector<GroupOutcome> &Groups,
                    const CoalescingInfo &Info, llvm::PostDominatorTree &PDT,
                    llvm::DominatorTree &DT, llvm::LoopInfo &LI,
                    const llvm::CycleInfo &Cycles);

/// The thread's index in the grid, tid.x + ctaid.x * ntid.x, as a
/// polynomial of Info's atoms (a grid-stride loop's start, a one-copy
/// kernel's element).
Poly gridIndex(const CoalescingInfo &Info);

/// emit: the region copy of one legal group, at its last member, with the
/// original members as the fallback; returns what it did, for people.
std::string emitRegionCopy(const CopyGroup &G, const RewritePlan &P,
                           const std::vector<Atom> &Atoms);

/// What a flat copy alone (P.FlatOnly) does, for people.
std::string describeFlatOnly(const CopyGroup &G, const RewritePlan &P);

/// emit: the flat copy in front of a grid-stride loop (P.flat()).
void emitFlatCopy(const CopyGroup &G, const RewritePlan &P);

/// emit: deletes the group's loads and stores and their dead addresses.
void eraseMembers(const CopyGroup &G);

/// "partial copy: ..." and friends need the instruction printed briefly.
std::string describe(const llvm::Instruction *I);

/// The instruction of the group that comes last in its block.
llvm::Instruction *lastMember(const CopyGroup &G);

/// The least alignment the original members declare.
llvm::Align memberAlignment(const CopyGroup &G);

/// The first block of BB's control class: the highest dominator of BB that
/// BB post-dominates, reached without entering a cycle (stepping over the
/// loops on the way; BB itself when it is in one). A thread that runs the
/// head runs BB once, and one that runs BB ran the head: the blocks of one
/// head are run by the same threads. (StagingCollect.cpp)
llvm::BasicBlock *controlClassHead(llvm::BasicBlock *BB,
                                   const llvm::DominatorTree &DT,
                                   const llvm::PostDominatorTree &PDT,
                                   const llvm::CycleInfo &Cycles);

/// The least (or greatest) value of a Bits-bit integer, signed or not, as a
/// constant of the wider type Wide: the run-time wrap checks compare sums
/// computed exactly in Wide against it.
llvm::ConstantInt *integerLimit(llvm::Type *Wide, unsigned Bits, bool Signed,
                                bool Greatest);

/// A grid-stride loop's index, below Bound's Hi in the threads still in the
/// loop, does not wrap on the way to the next iteration: Hi (+1 when
/// inclusive) + Step (i64, not negative) fits the index's type, computed
/// exactly. Then a thread that left the loop cannot pass its test again.
llvm::Value *loopIndexCannotWrap(llvm::IRBuilder<> &B, const PrefixBound &Bound,
                                 llvm::Value *Step);

/// An IRBuilder at the end of BB that gives what it creates the copy's
/// debug location.
struct LocatedBuilder : llvm::IRBuilder<> {
  LocatedBuilder(llvm::BasicBlock *BB, const llvm::DebugLoc &Loc)
      : llvm::IRBuilder<>(BB) {
    SetCurrentDebugLocation(Loc);
  }
};

} // namespace coalda

#endif // COALDA_LIB_COPYGROUP_H
