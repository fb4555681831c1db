//===- GridVariantFlat.cpp - A one-copy kernel's variant as a flat copy ---===//
//
// Issue 40's "one-element-per-thread copies become grid-stride kernels".
// The variant GridVariant.cpp makes loops over the original blocks and runs
// each one's rewritten body: for a copy, the block's region copy, one
// 16-byte unit in flight per thread and virtual block. On the H200 that
// lost to the rewrite alone at 256 and 512 threads (docs/runs/launches/),
// while the pass's rewrite of a hand-written grid-stride copy loop, one
// flat copy of the whole range with four units in flight, moves 3.5 TB/s.
// So a kernel whose whole effect is one copy of element
//
//   gid = blockIdx.x * blockDim.x + threadIdx.x,  when gid < End_k for all k
//
// (End_k a parameter or a constant; no bound: the whole grid) gets, in
// front of its variant's block loop, the flat copy of elements
// [0, min(G * blockDim.x, End_k...)) by every thread of the reshaped grid:
// G * blockDim.x is the original grid's thread count, G the variant's last
// parameter. It runs when the bases are aligned to the widest unit,
// disjoint (unless __restrict__ says so), and the original grid's thread
// count fits 2^31 (so the original's 32-bit index never wrapped); otherwise
// the block loop runs, as before.
//
// Why it computes the same bytes: the original's threads each copy their
// element gid when gid is below every bound, and nothing else has an
// effect; gid runs over [0, G * blockDim.x) (each blockIdx.y/z and
// threadIdx.y/z repeats the same copy, as the flat copy then does too).
// What findKernelFlatCopy proves, on the kernel before its rewrite:
//   - one copy group is rewritten, as a region copy, and nothing else;
//   - both addresses are base + Stride * gid + offset, the bases parameters
//     or globals;
//   - every bound the copy's guard has reads `gid < End` (or `<=`), End a
//     parameter or a constant, in a type of at least 32 bits;
//   - the way from the entry to the copy's block has no branch but those
//     bounds' (no other condition, data or uniform, can skip the copy);
//   - no other instruction reads or writes memory but constant memory.
//
//===----------------------------------------------------------------------===//

#include "FlatCopy.h"
#include "GridVariant.h"
#include "MemoryFacts.h"
#include "Staging.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/Support/Debug.h"

#include <limits>

#define DEBUG_TYPE "coalda-grid-variant"

using namespace llvm;

STATISTIC(NumFlatVariants, "Grid variants that are one flat copy");

namespace coalda {
namespace {

/// The only legal rewrite of the kernel, a region copy, or null.
const GroupOutcome *onlyRegionCopy(ArrayRef<GroupOutcome> Groups,
                                   ArrayRef<StagingOutcome> Stagings) {
  if (any_of(Stagings, [](const StagingOutcome &O) { return O.legal(); }))
    return nullptr;
  const GroupOutcome *Only = theOnlyLegal(Groups);
  if (!Only || Only->kind() != RewriteKind::RegionCopy ||
      Only->Plan.Kind == Guard::Loop || Only->Group.RuntimeStride)
    return nullptr;
  return Only;
}

std::optional<KernelFlatCopy::Base> baseOf(const AccessExpr &A) {
  if (isSharedBase(A.Base))
    return std::nullopt;
  KernelFlatCopy::Base B;
  B.Offset = A.Offset;
  if (const auto *Arg = dyn_cast<Argument>(A.Base))
    B.ArgNo = Arg->getArgNo();
  else if (const auto *GV = dyn_cast<GlobalValue>(A.Base))
    B.Global = const_cast<GlobalValue *>(GV);
  else
    return std::nullopt;
  return B;
}

/// Each bound as `gid < End`, or nothing when one is not of that form.
std::optional<SmallVector<KernelFlatCopy::Bound, 2>>
boundsOf(const RewritePlan &P, const CoalescingInfo &Info, const Poly &Gid) {
  SmallVector<KernelFlatCopy::Bound, 2> Out;
  for (const PrefixBound &B : P.Bounds) {
    std::optional<Poly> Lo = Info.readInteger(B.Lo);
    unsigned Bits = B.Lo->getType()->getIntegerBitWidth();
    // (`gid <= End` with a 64-bit End: End + 1 could wrap in i64.)
    if (B.LaneOnHi || !Lo || *Lo != Gid || Bits < 32 ||
        (B.Inclusive && Bits >= 64))
      return std::nullopt;
    KernelFlatCopy::Bound K;
    K.Signed = B.Signed;
    K.Inclusive = B.Inclusive;
    if (const auto *Arg = dyn_cast<Argument>(B.Hi))
      K.ArgNo = Arg->getArgNo();
    else if (const auto *C = dyn_cast<ConstantInt>(B.Hi))
      K.Constant = B.Signed ? C->getSExtValue() : C->getZExtValue();
    else
      return std::nullopt;
    Out.push_back(K);
  }
  return Out;
}

/// Whether every branch on the way from F's entry to BB tests one of P's
/// bounds (each block on the way has one predecessor).
bool onlyBoundsLeadTo(const BasicBlock *BB, const RewritePlan &P) {
  const BasicBlock *Entry = &BB->getParent()->getEntryBlock();
  while (BB != Entry) {
    const BasicBlock *Pred = BB->getSinglePredecessor();
    const auto *Br = Pred ? dyn_cast<BranchInst>(Pred->getTerminator())
                          : nullptr;
    if (!Br)
      return false;
    if (Br->isConditional()) {
      const auto *Cmp = dyn_cast<ICmpInst>(Br->getCondition());
      auto Tests = [&](const PrefixBound &B) {
        return Cmp && is_contained(Cmp->operands(), B.Lo) &&
               is_contained(Cmp->operands(), B.Hi);
      };
      if (none_of(P.Bounds, Tests))
        return false;
    }
    BB = Pred;
  }
  return true;
}

/// Whether nothing but G's members (and reads of constant memory) touches
/// memory or has an effect in F.
bool onlyTheCopyHasEffects(const Function &F, const CopyGroup &G) {
  SmallPtrSet<const Instruction *, 16> Members;
  for (const AccessExpr *A : G.members())
    Members.insert(A->Inst);
  for (const Instruction &I : instructions(F)) {
    if (Members.count(&I) || isa<DbgInfoIntrinsic>(&I) || isa<AssumeInst>(&I))
      continue;
    if (const auto *Load = dyn_cast<LoadInst>(&I);
        Load && readsConstantMemory(*Load))
      continue;
    if (I.mayReadOrWriteMemory() || I.mayHaveSideEffects())
      return false;
  }
  return true;
}

} // namespace

std::optional<KernelFlatCopy>
findKernelFlatCopy(const Function &F, ArrayRef<GroupOutcome> Groups,
                   ArrayRef<StagingOutcome> Stagings,
                   const CoalescingInfo &Info) {
  const GroupOutcome *O = onlyRegionCopy(Groups, Stagings);
  if (!O)
    return std::nullopt;
  const CopyGroup &G = O->Group;
  const RewritePlan &P = O->Plan;
  Poly Gid = gridIndex(Info);
  for (const AccessExpr *A : {&G.first(), &G.source()})
    if (Info.addressPoly(*A) + Poly::constant(-A->Offset) !=
        Gid.scaled(G.Stride)) {
      LLVM_DEBUG(dbgs() << "coalda: no flat variant of " << F.getName()
                        << ": an address is not base + S*gid + offset\n");
      return std::nullopt;
    }
  std::optional<KernelFlatCopy::Base> Dst = baseOf(G.first()),
                                      Src = baseOf(G.source());
  auto Bounds = boundsOf(P, Info, Gid);
  if (!Dst || !Src || !Bounds ||
      !onlyBoundsLeadTo(G.first().Inst->getParent(), P) ||
      !onlyTheCopyHasEffects(F, G)) {
    LLVM_DEBUG(dbgs() << "coalda: no flat variant of " << F.getName()
                      << ": a base, a bound, a branch or another effect\n");
    return std::nullopt;
  }
  KernelFlatCopy C;
  C.Dst = *Dst;
  C.Src = *Src;
  C.Stride = G.Stride;
  C.MemberWidth = G.MemberWidth;
  C.MemberAlign = commonAlignment(memberAlignment(G), G.MemberWidth);
  C.Unit = P.Units.front();
  C.NeedsOverlapCheck = P.NeedsOverlapCheck;
  C.Bounds = std::move(*Bounds);
  return C;
}

void emitFlatVariant(Function &V, const KernelFlatCopy &C, BasicBlock *Entry,
                     BasicBlock *Exit) {
  auto BaseIn = [&](const KernelFlatCopy::Base &B) -> Value * {
    return B.Global ? static_cast<Value *>(B.Global) : V.getArg(B.ArgNo);
  };
  FlatCopyShape S;
  S.DstBase = BaseIn(C.Dst);
  S.SrcBase = BaseIn(C.Src);
  S.DstOffset = C.Dst.Offset;
  S.SrcOffset = C.Src.Offset;
  S.Stride = C.Stride;
  S.MemberWidth = C.MemberWidth;
  S.MemberAlign = C.MemberAlign;
  S.Unit = C.Unit;
  S.NeedsOverlapCheck = C.NeedsOverlapCheck;
  // A location of V's own subprogram.
  for (Instruction &I : instructions(V))
    if (I.getDebugLoc()) {
      S.Loc = I.getDebugLoc();
      break;
    }
  Value *Grid = V.getArg(V.arg_size() - 1);
  emitFlatCopyAt(S, Entry, Exit, [&](IRBuilder<> &B, Value *) {
    Type *I64 = B.getInt64Ty();
    Value *Ntid = B.CreateZExt(
        B.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_ntid_x, {}, {}), I64);
    // The original grid's threads in x: its gid runs below this.
    Value *End = B.CreateMul(B.CreateZExt(Grid, I64), Ntid, "flat.gids");
    Value *Fits = B.CreateICmpULE(
        End, B.getInt64(uint64_t(std::numeric_limits<int32_t>::max()) + 1));
    for (const KernelFlatCopy::Bound &Bound : C.Bounds) {
      Value *Hi = Bound.ArgNo ? B.CreateIntCast(V.getArg(*Bound.ArgNo), I64,
                                                Bound.Signed)
                              : B.getInt64(Bound.Constant);
      if (Bound.Inclusive)
        Hi = B.CreateAdd(Hi, B.getInt64(1));
      // End stays in [0, the grid's threads]: a signed bound below 0 admits
      // no element, and umin reads an unsigned one as it is. (smin alone
      // let a negative End pass to the next bound's umin as 2^64 - 1:
      // found by tests/test_flat_variants.py, unsigned_outside_signed.)
      if (Bound.Signed)
        Hi = B.CreateBinaryIntrinsic(Intrinsic::smax, Hi, B.getInt64(0));
      End = B.CreateBinaryIntrinsic(Intrinsic::umin, End, Hi);
    }
    return std::make_pair(End, Fits);
  });
  ++NumFlatVariants;
}

} // namespace coalda
