//===- RewriteKind.h - Which rewrite the pass makes -------------*- C++ -*-===//
//
// Every rewrite the pass makes, as one type. A copy group becomes a region
// copy or only a flat copy; a staging candidate becomes block tiles, warp
// tiles, a transposed tile or chunk windows; a loop, a loop promotion. Which one is decided by the
// phases' plans (legality sets them); what kind a plan amounts to is
// computed here, in one place (rewriteKind), and the report's words for it
// come from kindName and tileName. The driver, the report and the emitters
// switch over the kind instead of testing combinations of the plans' flags
// (docs/architecture.md, "Rewrite kinds").
//
//===----------------------------------------------------------------------===//

#ifndef COALDA_LIB_REWRITEKIND_H
#define COALDA_LIB_REWRITEKIND_H

namespace coalda {

struct RewritePlan;
struct StagingCandidate;
struct StagingPlan;

enum class RewriteKind {
  /// A copy group's loads and stores as one widened copy of the region, the
  /// original kept for what the run-time checks refuse
  /// (RegionCopyEmitter.cpp); where RewritePlan::flat(), its grid-stride
  /// loop is also replaced by a flat copy (FlatCopyEmitter.cpp).
  RegionCopy,
  /// Only the flat copy in front of a grid-stride copy loop, the loop kept
  /// as it is (RewritePlan::FlatOnly; FlatCopyEmitter.cpp).
  FlatCopy,
  /// Element staging through __shared__ tiles of the whole block, between
  /// block barriers (StagingEmitter.cpp).
  BlockTile,
  /// Element staging through each warp's slice of the tiles, between
  /// __syncwarps (StagingPlan::WarpTile; StagingEmitter.cpp).
  WarpTile,
  /// Transposed stores permuted through a padded block tile
  /// (StagedArray::Transposed; StagingTranspose.cpp).
  TransposedTile,
  /// The loads of per-thread chunks in loops read through shared-memory
  /// windows (StagedArray::Windowed; ChunkWindowEmitter.cpp).
  ChunkWindow,
  /// A loop's uncoalesced global element kept in registers for the loop,
  /// behind run-time overlap checks (PromotionOutcome; LoopPromotion.cpp:
  /// loop versioning, then LLVM's LICM). Applied before the others, and
  /// alone in its kernel.
  LoopPromotion,
};

/// The kind of a legal copy group's plan.
/// Who refills a chunk window (StagingPlan::Scope): the block between
/// block barriers, or each warp its own 32 rows between __syncwarps.
enum class WindowScope { Block, Warp };

RewriteKind rewriteKind(const RewritePlan &P);

/// The kind of a staging candidate with its plan. For a candidate legality
/// refused, BlockTile and WarpTile are not told apart (both are "element").
RewriteKind rewriteKind(const StagingCandidate &C, const StagingPlan &P);

/// The report's word for K: a staging's JSON "kind" ("element" for block
/// and warp tiles, "transposed", "window"); for the copy kinds, which the
/// JSON reports as a group's "transformed" and "flat", "region" and "flat";
/// "promotion" for a loop promotion (its JSON's own list).
const char *kindName(RewriteKind K);

/// A legal staging's JSON "tile": "warp" for warp tiles, else "block".
const char *tileName(RewriteKind K);

} // namespace coalda

#endif // COALDA_LIB_REWRITEKIND_H
