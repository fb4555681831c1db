//===- RewriteKind.cpp - Which rewrite the pass makes ---------------------===//
//
// The one place that reads a plan's flags to say which rewrite it is
// (RewriteKind.h), and the report's words for each kind.
//
//===----------------------------------------------------------------------===//

#include "RewriteKind.h"
#include "CopyGroup.h"
#include "Staging.h"

#include "llvm/Support/ErrorHandling.h"

using namespace llvm;

namespace coalda {

RewriteKind rewriteKind(const RewritePlan &P) {
  return P.FlatOnly ? RewriteKind::FlatCopy : RewriteKind::RegionCopy;
}

RewriteKind rewriteKind(const StagingCandidate &C, const StagingPlan &P) {
  // Legality marks warp tiles only for element stagings: a transposed store
  // permutes across the block's rows, and windows are decided apart.
  assert(!P.WarpTile || (!C.windowed() && !C.transposed()));
  if (C.windowed())
    return RewriteKind::ChunkWindow;
  if (C.transposed())
    return RewriteKind::TransposedTile;
  return P.WarpTile ? RewriteKind::WarpTile : RewriteKind::BlockTile;
}

const char *kindName(RewriteKind K) {
  switch (K) {
  case RewriteKind::RegionCopy:
    return "region";
  case RewriteKind::FlatCopy:
    return "flat";
  case RewriteKind::BlockTile:
  case RewriteKind::WarpTile:
    return "element";
  case RewriteKind::TransposedTile:
    return "transposed";
  case RewriteKind::ChunkWindow:
    return "window";
  case RewriteKind::LoopPromotion:
    return "promotion";
  }
  llvm_unreachable("every rewrite kind has a name");
}

const char *tileName(RewriteKind K) {
  return K == RewriteKind::WarpTile ? "warp" : "block";
}

} // namespace coalda
