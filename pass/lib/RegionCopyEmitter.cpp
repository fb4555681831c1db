//===- RegionCopyEmitter.cpp - The widened copy of a block row's region ---===//
//
// Phase 3 of the transformation, for one legal group with lane stride S
// (bytes) and member width w, at the position of the group's last store.
// The threads of a block row that run the copy are a prefix of `active`
// threads: all ntid.x of them, or, under a bounds guard / in a grid-stride
// loop `i < n`, left = n - (i - tid.x).
//
//   dstStart = &dst[member 0] - S*tid.x      (the same value in every thread
//   srcStart = &src[member 0] - S*tid.x       of the row: the region's start)
//   fast: (dstStart|srcStart|S*ntid) % 16 == 0, regions disjoint, row full
//     -> copy16 over S*ntid bytes                        (one branch)
//   slow: R = S*clamp(left, 0, ntid)
//     regions overlap                        -> the original per-thread code
//     else if ((dstStart|srcStart|R) % 16 == 0) -> copy16
//     else if ((dstStart|srcStart|R) %  4 == 0) -> copy4    (when w < 4)
//     else                                       -> copyW    (w-byte units)
//
// copyU moves units u = k*active + tid.x, k < ceil(S/U), of U bytes each: all
// loads first, then all stores; a unit past R/U is skipped. Exactly the bytes
// [start, start+R) of each side are read and written, as by the original
// code. U is a power of two. The overlap check is left out when the plan
// says the buffers are disjoint. A run-time stride (and the optional
// -coalda-wide-block rule) is checked first, the original code otherwise.
//
//===----------------------------------------------------------------------===//

#include "CopyGroup.h"
#include "IRUtils.h"
#include "Options.h"
#include "Versioning.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/MathExtras.h"

#define DEBUG_TYPE "coalda-region-emit"

using namespace llvm;

namespace coalda {

namespace {

class RegionCopyEmitter {
public:
  RegionCopyEmitter(const CopyGroup &G, const RewritePlan &P,
                    const std::vector<Atom> &Atoms)
      : G(G), P(P), Atoms(Atoms), Last(lastMember(G)),
        F(Last->getFunction()), Ctx(Last->getContext()),
        Loc(Last->getDebugLoc()), I64(Type::getInt64Ty(Ctx)),
        I8(Type::getInt8Ty(Ctx)) {}

  void emit() {
    BasicBlock *Head = splitAndCheckPreconditions();
    LocatedBuilder B(Head, Loc);
    Tid = B.CreateZExt(
        B.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_tid_x, {}, {}), I64,
        "coalda.tid");
    Ntid = B.CreateZExt(
        B.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_ntid_x, {}, {}), I64,
        "coalda.ntid");
    // A row whose guard index wraps is not a prefix: its threads all see
    // that (NoWrap false) and run the original code. The fast path's test
    // that the row is full implies it (fullRow); the slow path tests it
    // first.
    Value *NoWrap = nullptr;
    Left = activeLeft(B, NoWrap);
    regionStarts(B);
    BasicBlock *Slow = emitFastPath(Head, NoWrap);
    emitSlowPath(Slow, NoWrap);
    // Lay the fallback out last, where a reader looks for it.
    if (Original)
      Original->moveBefore(Join);
    LLVM_DEBUG(dbgs() << "coalda: emitted the region copy of "
                      << *G.first().Inst << " in " << F->getName() << "\n");
  }

private:
  const CopyGroup &G;
  const RewritePlan &P;
  const std::vector<Atom> &Atoms;
  Instruction *Last;
  Function *F;
  LLVMContext &Ctx;
  DebugLoc Loc;
  Type *I64, *I8;
  Value *Tid = nullptr, *Ntid = nullptr, *Left = nullptr;
  Value *DstStart = nullptr, *SrcStart = nullptr;
  Value *DstInt = nullptr, *SrcInt = nullptr, *FullRegion = nullptr;
  BasicBlock *Join = nullptr, *Original = nullptr;
  SmallVector<Instruction *, 16> Order;

  BasicBlock *splitAndCheckPreconditions();
  Value *activeLeft(IRBuilder<> &B, Value *&NoWrap);
  Value *wideLeft(IRBuilder<> &B, const PrefixBound &Bound);
  Value *rowStartInRange(IRBuilder<> &B, const PrefixBound &Bound,
                         Value *First);
  Value *fullRow(IRBuilder<> &B);
  void regionStarts(IRBuilder<> &B);
  BasicBlock *emitFastPath(BasicBlock *Head, Value *NoWrap);
  void emitSlowPath(BasicBlock *Slow, Value *NoWrap);
  Value *disjoint(IRBuilder<> &B, Value *Bytes);
  Value *aligned(IRBuilder<> &B, Value *Bytes, unsigned U);
  Value *materialize(IRBuilder<> &B, const Poly &Poly);
  BasicBlock *emitCopy(unsigned U, BasicBlock *Entry, Value *Count,
                       Value *RegionBytes, const std::string &Name);
  BasicBlock *emitOriginal();
};

/// Splits the block at the last member (the rewrite goes between the
/// halves) and branches to the original code unless the preconditions hold;
/// returns the block where the rewrite starts.
BasicBlock *RegionCopyEmitter::splitAndCheckPreconditions() {
  // Program order of the members, for the fallback, before the split.
  for (const AccessExpr *A : G.members())
    if (!is_contained(Order, A->Inst)) // a transfer is a load and a store
      Order.push_back(A->Inst);
  llvm::sort(Order,
             [](Instruction *L, Instruction *R) { return L->comesBefore(R); });
  BasicBlock *Before = Last->getParent();
  Join = splitKeepingContraction(Before, Last, "coalda.join");
  Before->getTerminator()->eraseFromParent();

  // Optional cost rule (off by default; measured in docs/benchmarks.md):
  // with members narrower than 4 bytes, blocks wider than WideBlock threads
  // keep the original code, decided first from ntid.x alone. At 1024 threads
  // the rewrite gains little there, but the early branch cost the 256/512-
  // thread shapes more than it saved.
  LocatedBuilder PB(Before, Loc);
  SmallVector<Value *, 2> Preconditions;
  if (G.MemberWidth < 4 && opts::WideBlock > 0) {
    Value *Width =
        PB.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_ntid_x, {}, {});
    Preconditions.push_back(PB.CreateICmpULE(
        Width, PB.getInt32(opts::WideBlock), "coalda.pays"));
  }
  // A run-time stride: the rewrite holds when it is the members' bytes,
  // and its narrow atoms are not negative (an unsigned short -1 is 65535).
  if (G.RuntimeStride) {
    if (Value *Ok = narrowAtomsNonNegative(PB, *G.RuntimeStride, Atoms))
      Preconditions.push_back(Ok);
    Preconditions.push_back(
        PB.CreateICmpEQ(materialize(PB, *G.RuntimeStride),
                        PB.getInt64(G.Stride), "coalda.stride.ok"));
  }
  if (Preconditions.empty())
    return Before;
  Value *Go = Preconditions.front();
  for (Value *C : drop_begin(Preconditions))
    Go = PB.CreateAnd(Go, C);
  BasicBlock *Head = BasicBlock::Create(Ctx, "coalda.rewrite", F, Join);
  PB.CreateCondBr(Go, Head, emitOriginal());
  return Head;
}

/// V, one side of Bound, widened to To as the comparison reads it.
static Value *extendSide(IRBuilder<> &B, const PrefixBound &Bound, Value *V,
                         Type *To) {
  return Bound.Signed ? B.CreateSExt(V, To) : B.CreateZExt(V, To);
}

/// Hi - (Lo - tid.x) of a bound whose sides are 64 bits wide, computed
/// exactly in i128 and clamped to [-1, ntid.x] (the caller may add one for
/// `<=`), so that it fits i64: an unsigned Hi of 2^63 or more read as a
/// signed i64 would make the row's active threads none. (Found by
/// tests/test_flat_variant_fuzz.py: `size_t i; if (i < n)` with n = ~0ul
/// copied nothing.)
Value *RegionCopyEmitter::wideLeft(IRBuilder<> &B, const PrefixBound &Bound) {
  Type *I128 = B.getInt128Ty();
  Value *First = B.CreateSub(extendSide(B, Bound, Bound.Lo, I128),
                             B.CreateZExt(Tid, I128));
  Value *Exact = B.CreateSub(extendSide(B, Bound, Bound.Hi, I128), First);
  Value *Clamped = B.CreateBinaryIntrinsic(
      Intrinsic::smax,
      B.CreateBinaryIntrinsic(Intrinsic::smin, Exact, B.CreateZExt(Ntid, I128)),
      ConstantInt::getSigned(I128, -1));
  return B.CreateTrunc(Clamped, I64, "coalda.left");
}

/// With a guard, the row's first `Left` threads are active (all of them when
/// Left >= ntid.x, the fast path's case): the least Left over the bounds;
/// null without a guard. NoWrap: that no bound's lane side wraps in the row.
Value *RegionCopyEmitter::activeLeft(IRBuilder<> &B, Value *&NoWrap) {
  Value *Left = nullptr;
  SmallVector<Value *, 2> Firsts;
  for (const PrefixBound &Bound : P.Bounds) {
    auto Ext = [&](Value *V) { return extendSide(B, Bound, V, I64); };
    Value *First = B.CreateSub(Ext(Bound.Lo), Tid, "coalda.first");
    Value *This = Bound.Hi->getType()->getIntegerBitWidth() < 64
                      ? B.CreateSub(Ext(Bound.Hi), First, "coalda.left")
                      : wideLeft(B, Bound);
    if (Bound.Inclusive)
      This = B.CreateAdd(This, B.getInt64(1), "coalda.left");
    Left = Left ? B.CreateBinaryIntrinsic(Intrinsic::smin, Left, This) : This;
    Firsts.push_back(First);
  }
  for (auto [Bound, First] : zip(P.Bounds, Firsts)) {
    Value *InRange = rowStartInRange(B, Bound, First);
    NoWrap = NoWrap ? B.CreateAnd(NoWrap, InRange) : InRange;
  }
  // A loop: the threads still in it are those below the bound only if the
  // index started without a wrap in the row and does not wrap later.
  if (P.LoopStep) {
    PrefixBound Entry = P.Bounds.front();
    Entry.Lo = P.LoopStart;
    Value *First = B.CreateSub(extendSide(B, Entry, Entry.Lo, I64), Tid);
    NoWrap = B.CreateAnd(NoWrap, rowStartInRange(B, Entry, First));
    NoWrap = B.CreateAnd(NoWrap,
                         loopIndexCannotWrap(B, P.Bounds.front(),
                                             materialize(B, *P.LoopStep)));
  }
  return Left;
}

/// The lane side X = start +- tid.x of a bound does not wrap inside the row:
/// start = X -+ tid.x, computed exactly, lies within X's range with room for
/// the row's ntid.x values. In a row where X wraps, every thread computes a
/// start out of range (before the wrap too large, after it too small), so
/// the row decides alike. First is Lo - tid.x in i64, reused when it is the
/// start.
Value *RegionCopyEmitter::rowStartInRange(IRBuilder<> &B,
                                          const PrefixBound &Bound,
                                          Value *First) {
  Value *X = Bound.LaneOnHi ? Bound.Hi : Bound.Lo;
  unsigned Bits = X->getType()->getIntegerBitWidth();
  // Exact in twice the width (i64 for the usual 32-bit index).
  Type *Wide = B.getIntNTy(std::max(64u, 2 * Bits));
  Value *Start = First;
  if (Bound.LaneOnHi || Wide != I64) {
    Value *Ext = extendSide(B, Bound, X, Wide);
    Value *T = B.CreateZExt(Tid, Wide);
    Start = Bound.LaneOnHi ? B.CreateAdd(Ext, T) : B.CreateSub(Ext, T);
  }
  Value *Span =
      B.CreateSub(B.CreateZExt(Ntid, Wide), ConstantInt::get(Wide, 1));
  // +tid.x: start + (ntid.x - 1) <= Max; -tid.x: start - (ntid.x - 1) >= Min.
  Value *Low = Bound.LaneOnHi ? B.CreateSub(Start, Span) : Start;
  Value *High = Bound.LaneOnHi ? Start : B.CreateAdd(Start, Span);
  Value *LowOk =
      B.CreateICmpSGE(Low, integerLimit(Wide, Bits, Bound.Signed, false));
  Value *HighOk =
      B.CreateICmpSLE(High, integerLimit(Wide, Bits, Bound.Signed, true));
  return B.CreateAnd(LowOk, HighOk, "coalda.nowrap");
}


/// The fast path's test that the row is full: all ntid.x threads pass every
/// bound and no lane side wraps. For a bound whose lane side X is row-
/// uniform +- tid.x computed in one width, S = X -+ tid.x in that width is
/// the row's start, the same value in every thread whether or not X wraps.
/// With the lane on Lo, thread t's X is S + t; the row is full iff its last
/// thread's S + ntid.x - 1 is below Hi, computed exactly in i64, which also
/// proves that no thread's S + t left X's range (S + t < Hi <= X's maximum).
/// With the lane on Hi, X = S - t, and the row is full iff S - (ntid.x - 1)
/// is above Lo (>= Min). One comparison per bound instead of Left >= ntid.x
/// and both halves of the no-wrap check; the slow path keeps those. Null
/// in a loop (its index is a phi) or with a bound wider than 32 bits.
Value *RegionCopyEmitter::fullRow(IRBuilder<> &B) {
  if (P.LoopStep)
    return nullptr;
  Value *Full = nullptr;
  for (const PrefixBound &Bound : P.Bounds) {
    Value *X = Bound.LaneOnHi ? Bound.Hi : Bound.Lo;
    Type *Ty = X->getType();
    if (Ty->getIntegerBitWidth() > 32)
      return nullptr;
    auto Ext = [&](Value *V) { return extendSide(B, Bound, V, I64); };
    Value *T = B.CreateTrunc(Tid, Ty);
    Value *Start = Bound.LaneOnHi ? B.CreateAdd(X, T) : B.CreateSub(X, T);
    Start->setName("coalda.rowstart");
    // The subtrahend first, in its own statement: every compiler then emits
    // the two extensions in this order.
    Value *Less = Ext(Bound.LaneOnHi ? Bound.Lo : Start);
    Value *Room = B.CreateSub(Ext(Bound.LaneOnHi ? Start : Bound.Hi), Less);
    if (Bound.Inclusive)
      Room = B.CreateAdd(Room, B.getInt64(1));
    Value *This = B.CreateICmpSGE(Room, Ntid, "coalda.full");
    Full = Full ? B.CreateAnd(Full, This) : This;
  }
  return Full;
}

/// The region's start on both sides: member 0's address stepped back by
/// stride*tid.x, a widening 32-bit multiply (a 64-bit multiply is several
/// instructions on the GPU); and the bytes of a full row.
void RegionCopyEmitter::regionStarts(IRBuilder<> &B) {
  Value *Back = B.CreateNeg(B.CreateMul(Tid, B.getInt64(G.Stride), "",
                                        /*HasNUW=*/true, /*HasNSW=*/true),
                            "coalda.back");
  DstStart = B.CreateGEP(I8, G.first().pointer(), Back, "coalda.dst");
  SrcStart = B.CreateGEP(I8, G.source().pointer(), Back, "coalda.src");
  FullRegion = B.CreateMul(Ntid, B.getInt64(G.Stride), "coalda.rowbytes");
  DstInt = B.CreatePtrToInt(DstStart, I64);
  SrcInt = B.CreatePtrToInt(SrcStart, I64);
}

Value *RegionCopyEmitter::disjoint(IRBuilder<> &B, Value *Bytes) {
  return emitApart(B, DstInt, Bytes, SrcInt, Bytes, "coalda.nooverlap");
}

Value *RegionCopyEmitter::aligned(IRBuilder<> &B, Value *Bytes, unsigned U) {
  Value *Bits = B.CreateOr(B.CreateOr(DstInt, SrcInt), Bytes);
  return B.CreateICmpEQ(B.CreateAnd(Bits, U - 1), B.getInt64(0),
                        "coalda.aligned" + std::to_string(U));
}

/// The fast path: a full row whose regions are disjoint and aligned to the
/// widest unit, decided by one branch. The number of blocks a GPU retires
/// per second bounds these short kernels, so the few cycles between the
/// thread's start and its first load are what a rewrite costs. Returns the
/// block of the slow path.
BasicBlock *RegionCopyEmitter::emitFastPath(BasicBlock *Head, Value *NoWrap) {
  if (P.Units.size() < 2) // only member-width units: no fast path
    return Head;
  unsigned Widest = P.Units.front();
  LocatedBuilder HB(Head, Loc);
  Value *Fast = aligned(HB, FullRegion, Widest);
  if (P.NeedsOverlapCheck)
    Fast = HB.CreateAnd(Fast, disjoint(HB, FullRegion));
  if (Value *Full = Left && opts::FastFullRow ? fullRow(HB) : nullptr) {
    Fast = HB.CreateAnd(Fast, Full);
  } else {
    if (Left)
      Fast = HB.CreateAnd(Fast, HB.CreateICmpSGE(Left, Ntid, "coalda.full"));
    if (NoWrap)
      Fast = HB.CreateAnd(Fast, NoWrap);
  }
  Fast->setName("coalda.fast");
  BasicBlock *FastCopy = emitCopy(Widest, nullptr, Ntid, FullRegion,
                                  "coalda.fast" + std::to_string(Widest));
  BasicBlock *Slow = BasicBlock::Create(Ctx, "coalda.slow", F, Join);
  // Likely: block placement makes the fast path fall through.
  HB.CreateCondBr(Fast, FastCopy, Slow,
                  MDBuilder(Ctx).createLikelyBranchWeights());
  return Slow;
}

/// The slow path: partial rows, other alignments, possible overlap. The
/// active threads are tid.x < clamp(End - (Index - tid.x), 0, ntid.x).
void RegionCopyEmitter::emitSlowPath(BasicBlock *Slow, Value *NoWrap) {
  if (NoWrap) {
    BasicBlock *Rows = BasicBlock::Create(Ctx, "coalda.rows", F, Join);
    LocatedBuilder(Slow, Loc).CreateCondBr(NoWrap, Rows, emitOriginal());
    Slow = Rows;
  }
  LocatedBuilder SB(Slow, Loc);
  Value *Active = Ntid;
  if (Left) {
    Active = SB.CreateBinaryIntrinsic(
        Intrinsic::smax, SB.CreateBinaryIntrinsic(Intrinsic::smin, Left, Ntid),
        SB.getInt64(0));
    Active->setName("coalda.active");
  }
  Value *Region = SB.CreateMul(Active, SB.getInt64(G.Stride), "coalda.bytes");
  BasicBlock *Chain = Slow;
  if (P.NeedsOverlapCheck)
    Chain = BasicBlock::Create(Ctx, "coalda.disjoint", F, Join);
  // Each wider unit is tried in turn; the last, member-width copy always
  // applies.
  BasicBlock *Cur = Chain;
  ArrayRef<unsigned> Wide = ArrayRef(P.Units).drop_back();
  for (auto [I, U] : enumerate(Wide)) {
    LocatedBuilder CB(Cur, Loc);
    Value *Ok = aligned(CB, Region, U);
    BasicBlock *Copy = emitCopy(U, nullptr, Active, Region,
                                "coalda.copy" + std::to_string(U));
    unsigned NextUnit = P.Units[I + 1];
    BasicBlock *Next = BasicBlock::Create(
        Ctx,
        NextUnit != G.MemberWidth ? "coalda.try" + std::to_string(NextUnit)
                                  : "coalda.copy" + std::to_string(NextUnit),
        F, Join);
    CB.CreateCondBr(Ok, Copy, Next);
    Cur = Next;
  }
  emitCopy(G.MemberWidth, Cur, Active, Region,
           "coalda.copy" + std::to_string(G.MemberWidth));
  if (P.NeedsOverlapCheck)
    SB.CreateCondBr(disjoint(SB, Region), Chain, emitOriginal());
}

/// IR computing a polynomial (in i64) at B. Its atoms are special
/// registers, kernel arguments or values the members' addresses use, so
/// they are available where the group's last member is.
Value *RegionCopyEmitter::materialize(IRBuilder<> &B, const Poly &Poly) {
  return materializePoly(B, Poly, Atoms);
}

/// Copy the Bytes-long region in U-byte units by the row's first Count
/// threads, starting in Entry (a new block if null); returns the entry
/// block. The copy ends with a branch to Join. Units past the region's end
/// are skipped: when U does not divide the stride, or when a guard may have
/// shortened the row.
BasicBlock *RegionCopyEmitter::emitCopy(unsigned U, BasicBlock *Entry,
                                        Value *Count, Value *RegionBytes,
                                        const std::string &Name) {
  assert(isPowerOf2_32(U) && "units are indexed by shifts");
  if (!Entry)
    Entry = BasicBlock::Create(Ctx, Name, F, Join);
  LocatedBuilder B(Entry, Loc);
  Type *Ty = copyUnitType(Ctx, U);
  Align A =
      U > G.MemberWidth ? Align(U) : commonAlignment(memberAlignment(G), U);
  unsigned PerThread = (G.Stride + U - 1) / U;
  bool Guarded = G.Stride % U != 0 || Count != Ntid;
  // A unit's byte offset is below ntid.x * (stride + U) <= 1024 * 2^21
  // (ntid.x <= 1024): in 32 bits the index math costs a thread one
  // instruction per step, not two.
  bool Narrow = opts::CopyIndex32 && G.Stride <= (1u << 20);
  Type *IdxTy = Narrow ? B.getInt32Ty() : I64;
  auto Idx = [&](Value *V) { return Narrow ? B.CreateTrunc(V, IdxTy) : V; };
  Value *UnitTid = Idx(Tid);
  Value *UnitCount = PerThread > 1 ? Idx(Count) : nullptr;
  Value *Units = Guarded ? B.CreateLShr(Idx(RegionBytes), Log2_32(U),
                                        Name + ".units")
                         : nullptr;
  auto Address = [&](IRBuilder<> &IB, Value *Start, Value *Unit) {
    Value *Offset =
        U == 1 ? Unit
               : IB.CreateShl(Unit, Log2_32(U), "", /*HasNUW=*/Narrow);
    return IB.CreateGEP(I8, Start, IB.CreateZExt(Offset, I64));
  };
  SmallVector<Value *, 16> Index, Loaded, InRange;
  for (unsigned K = 0; K < PerThread; ++K)
    Index.push_back(
        K == 0 ? UnitTid
               : B.CreateAdd(B.CreateMul(UnitCount,
                                         ConstantInt::get(IdxTy, K), "",
                                         /*HasNUW=*/Narrow),
                             UnitTid, Name + ".u", /*HasNUW=*/Narrow));
  // Runs Body(builder) under `Index[K] < Units` when Guarded.
  auto InRangeOnly = [&](unsigned K, const char *Suffix, auto Body) {
    if (!Guarded)
      return Body(B);
    if (InRange.size() <= K)
      InRange.push_back(B.CreateICmpULT(Index[K], Units, Name + ".in"));
    return emitUnder(B, InRange[K], Name + Suffix, Name + ".v", Join, Body);
  };
  // All loads, then all stores: the regions do not overlap.
  for (unsigned K = 0; K < PerThread; ++K)
    Loaded.push_back(InRangeOnly(K, ".ld", [&](IRBuilder<> &LB) -> Value * {
      LoadInst *V =
          LB.CreateAlignedLoad(Ty, Address(LB, SrcStart, Index[K]), A,
                               Name + ".v");
      if (opts::InvariantLoads)
        V->setMetadata(LLVMContext::MD_invariant_load, MDNode::get(Ctx, {}));
      return V;
    }));
  for (unsigned K = 0; K < PerThread; ++K)
    InRangeOnly(K, ".st", [&](IRBuilder<> &SB) -> Value * {
      SB.CreateAlignedStore(Loaded[K], Address(SB, DstStart, Index[K]), A);
      return nullptr;
    });
  B.CreateBr(Join);
  LLVM_DEBUG(dbgs() << "coalda:   version " << Name << ": " << PerThread
                    << " units of " << U << " bytes per thread"
                    << (Guarded ? ", each checked against the region" : "")
                    << "\n");
  return Entry;
}

/// The original per-thread copy, in program order, for overlapping regions
/// and failed preconditions (one block, shared by both).
BasicBlock *RegionCopyEmitter::emitOriginal() {
  if (Original)
    return Original;
  Original = BasicBlock::Create(Ctx, "coalda.original", F, Join);
  IRBuilder<> B(Original);
  cloneInOrder(Order, [&](Instruction *C, Instruction *Of) {
    B.Insert(C, Of->getName());
  });
  B.CreateBr(Join);
  return Original;
}

/// What the rewrite did, for the remark and the report.
std::string describeAction(const CopyGroup &G, const RewritePlan &P) {
  static const char *const GuardNames[] = {"none", "bounds", "loop"};
  std::string Widths;
  for (unsigned U : ArrayRef(P.Units).drop_back())
    Widths += std::to_string(U) + "/";
  bool Guarded = P.Kind != Guard::None;
  return "rewritten: the row's " + std::to_string(G.Stride) +
         (Guarded ? "*active" : "*ntid.x") + "-byte region moved in " +
         Widths + std::to_string(G.MemberWidth) + "-byte units" +
         (P.NeedsOverlapCheck ? ", behind a run-time overlap check" : "") +
         (G.RuntimeStride ? ", when the run-time stride is " +
                                std::to_string(G.Stride) + " bytes"
                          : "") +
         (Guarded ? std::string(", by the threads that pass the ") +
                        GuardNames[(int)P.Kind] + " guard"
                  : "") +
         (P.flat() ? "; the whole grid-stride loop runs as one flat copy by "
                     "all threads when aligned and disjoint"
                   : "");
}

} // namespace

std::string emitRegionCopy(const CopyGroup &G, const RewritePlan &P,
                           const std::vector<Atom> &Atoms) {
  RegionCopyEmitter(G, P, Atoms).emit();
  return describeAction(G, P);
}

} // namespace coalda

