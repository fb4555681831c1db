//===- FlatCopyEmitter.cpp - One flat copy for a grid-stride copy loop ----===//
//
// Phase 3 of the transformation, for a grid-stride loop
// `for (i = gid; i < n; i += ntid.x*nctaid.x)` whose body is only the copy
// (legality's findFlatLoop). The loop covers elements [0, n) over the whole
// grid. In front of it every thread checks that dst and src are aligned to
// the widest unit and disjoint; then the grid runs one flat copy of S*n
// bytes instead (16-byte units at a stride of the grid, four in flight per
// thread, then the last bytes in member-width units) and skips the loop,
// which otherwise runs, each iteration rewritten by the region copy.
//
// The flat copy itself (FlatCopy.h) knows nothing of the loop: its caller
// gives the element count and any further condition. A one-copy kernel's
// grid variant (GridVariantFlat.cpp) is the other caller.
//
//===----------------------------------------------------------------------===//

#include "CopyGroup.h"
#include "FlatCopy.h"
#include "IRUtils.h"
#include "Options.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "coalda-flat-emit"

using namespace llvm;

namespace coalda {

namespace {

/// V at Before: V itself, or the last of Copies (the pure computation
/// legality found, operands first) repeated in front of Before.
Value *copyBefore(ArrayRef<Instruction *> Copies, Value *V,
                  Instruction *Before) {
  DenseMap<Value *, Value *> Clones =
      cloneInOrder(Copies, [&](Instruction *C, Instruction *Of) {
        C->insertBefore(Before);
        C->setName(Of->getName() + ".coalda");
      });
  if (Value *Mapped = Clones.lookup(V))
    return Mapped;
  return V;
}

class FlatCopyEmitter {
public:
  FlatCopyEmitter(const FlatCopyShape &S, BasicBlock *Entry, BasicBlock *Exit)
      : S(S), Entry(Entry), Exit(Exit), F(Entry->getParent()),
        Ctx(F->getContext()), I64(Type::getInt64Ty(Ctx)),
        I8(Type::getInt8Ty(Ctx)), U(S.Unit) {}

  void emit(FlatCopyEnd End) {
    BasicBlock *Head = emitCheck(End);
    // Whole units first, then the few bytes of the last partial unit in
    // member-width units.
    LocatedBuilder HB(Head, S.Loc);
    Value *Whole =
        HB.CreateAnd(Bytes, HB.getInt64(~uint64_t(U - 1)), "flat.whole");
    BasicBlock *Tail = BasicBlock::Create(Ctx, "flat.tail");
    emitLoop(Head, U, 4, HB.getInt64(0), Whole, Tail, "flat.units");
    Tail->insertInto(F);
    emitLoop(Tail, S.MemberWidth, 1, Whole, Bytes, Exit, "flat.bytes");
    LLVM_DEBUG(dbgs() << "coalda: emitted the flat copy after "
                      << Entry->getName() << " in " << F->getName() << "\n");
  }

private:
  const FlatCopyShape &S;
  BasicBlock *Entry, *Exit;
  Function *F;
  LLVMContext &Ctx;
  Type *I64, *I8;
  unsigned U; ///< the widest unit
  Value *Gid = nullptr, *Threads = nullptr, *Bytes = nullptr;
  Value *Dst = nullptr, *Src = nullptr;

  BasicBlock *emitCheck(FlatCopyEnd End);
  void emitLoop(BasicBlock *From, unsigned Width, unsigned Unroll,
                Value *First, Value *Limit, BasicBlock *Next,
                const std::string &Name);
  void move(IRBuilder<> &B, Type *Ty, Align A, ArrayRef<Value *> At);
};

/// In front of Entry's terminator: `br flat.ok, flat.copy, <the terminator,
/// moved to flat.orig>`; returns flat.copy.
BasicBlock *FlatCopyEmitter::emitCheck(FlatCopyEnd End) {
  Instruction *Term = Entry->getTerminator();
  IRBuilder<> B(Term);
  B.SetCurrentDebugLocation(S.Loc);
  auto Reg = [&](Intrinsic::ID ID, const char *Name) {
    return B.CreateZExt(B.CreateIntrinsic(ID, {}, {}), I64, Name);
  };
  Value *Tid = Reg(Intrinsic::nvvm_read_ptx_sreg_tid_x, "flat.tid");
  Value *Ntid = Reg(Intrinsic::nvvm_read_ptx_sreg_ntid_x, "flat.ntid");
  Value *Ctaid = Reg(Intrinsic::nvvm_read_ptx_sreg_ctaid_x, "flat.ctaid");
  Value *Nctaid = Reg(Intrinsic::nvvm_read_ptx_sreg_nctaid_x, "flat.nctaid");
  Gid = B.CreateAdd(B.CreateMul(Ctaid, Ntid), Tid, "flat.gid");
  Threads = B.CreateMul(Ntid, Nctaid, "flat.threads");
  auto [Elements, Fits] = End(B, Threads);
  Bytes = B.CreateMul(
      B.CreateBinaryIntrinsic(Intrinsic::smax, Elements, B.getInt64(0)),
      B.getInt64(S.Stride), "flat.bytes");
  // Element 0's member 0, on both sides.
  auto Start = [&](Value *Base, int64_t Offset, const char *Name) {
    return B.CreateGEP(I8, Base, B.getInt64(Offset), Name);
  };
  Dst = Start(S.DstBase, S.DstOffset, "flat.dst");
  Src = Start(S.SrcBase, S.SrcOffset, "flat.src");
  Value *DstInt = B.CreatePtrToInt(Dst, I64);
  Value *SrcInt = B.CreatePtrToInt(Src, I64);
  Value *Ok = B.CreateICmpEQ(
      B.CreateAnd(B.CreateOr(DstInt, SrcInt), B.getInt64(U - 1)),
      B.getInt64(0));
  if (S.NeedsOverlapCheck)
    Ok = B.CreateAnd(Ok, emitApart(B, DstInt, Bytes, SrcInt, Bytes));
  if (Fits)
    Ok = B.CreateAnd(Ok, Fits);
  Ok->setName("flat.ok");

  BasicBlock *Orig = BasicBlock::Create(Ctx, "flat.orig", F);
  Term->removeFromParent();
  Term->insertInto(Orig, Orig->end());
  for (BasicBlock *Succ : successors(Orig))
    Succ->replacePhiUsesWith(Entry, Orig);
  BasicBlock *Head = BasicBlock::Create(Ctx, "flat.copy", F);
  B.SetInsertPoint(Entry);
  B.CreateCondBr(Ok, Head, Orig, MDBuilder(Ctx).createLikelyBranchWeights());
  return Head;
}

/// Loads of the units at offsets At from Src, then their stores to Dst.
void FlatCopyEmitter::move(IRBuilder<> &B, Type *Ty, Align A,
                           ArrayRef<Value *> At) {
  SmallVector<Value *, 4> Vs;
  for (Value *Offset : At) {
    LoadInst *V = B.CreateAlignedLoad(Ty, B.CreateGEP(I8, Src, Offset), A);
    if (opts::InvariantLoads)
      V->setMetadata(LLVMContext::MD_invariant_load, MDNode::get(Ctx, {}));
    Vs.push_back(V);
  }
  for (auto [Offset, V] : zip(At, Vs))
    B.CreateAlignedStore(V, B.CreateGEP(I8, Dst, Offset), A);
}

/// A grid-stride loop over `Width`-byte units: thread gid moves the units at
/// First + (gid + k*threads)*Width below Limit, Unroll of them per iteration
/// (all loads, then all stores), then the rest one by one.
void FlatCopyEmitter::emitLoop(BasicBlock *From, unsigned Width,
                               unsigned Unroll, Value *First, Value *Limit,
                               BasicBlock *Next, const std::string &Name) {
  LocatedBuilder FB(From, S.Loc);
  Type *Ty = copyUnitType(FB.getContext(), Width);
  // Whole units are aligned by the run-time check; member-width units as
  // the original members were.
  Align A = Width == S.MemberWidth && Width < U ? S.MemberAlign : Align(Width);
  Value *Step = FB.CreateMul(Threads, FB.getInt64(Width), Name + ".step");
  Value *Begin = FB.CreateAdd(First, FB.CreateMul(Gid, FB.getInt64(Width)));
  BasicBlock *Many = BasicBlock::Create(Ctx, Name + ".many", F);
  BasicBlock *SingleTest = BasicBlock::Create(Ctx, Name + ".rest", F);
  BasicBlock *Single = BasicBlock::Create(Ctx, Name + ".one", F);
  Value *Reach = FB.CreateMul(Step, FB.getInt64(Unroll - 1));
  // Unroll units in flight per thread while the last of them is in range.
  FB.CreateCondBr(FB.CreateICmpULT(FB.CreateAdd(Begin, Reach), Limit), Many,
                  SingleTest);
  LocatedBuilder MB(Many, S.Loc);
  PHINode *At = MB.CreatePHI(I64, 2, Name + ".at");
  At->addIncoming(Begin, From);
  SmallVector<Value *, 4> Ats{At};
  for (unsigned K = 1; K < Unroll; ++K)
    Ats.push_back(MB.CreateAdd(At, MB.CreateMul(Step, MB.getInt64(K))));
  move(MB, Ty, A, Ats);
  Value *After = MB.CreateAdd(At, MB.CreateMul(Step, MB.getInt64(Unroll)));
  At->addIncoming(After, Many);
  MB.CreateCondBr(MB.CreateICmpULT(MB.CreateAdd(After, Reach), Limit), Many,
                  SingleTest);
  // The remaining units, one per iteration.
  LocatedBuilder TB(SingleTest, S.Loc);
  PHINode *From1 = TB.CreatePHI(I64, 2, Name + ".from");
  From1->addIncoming(Begin, From);
  From1->addIncoming(After, Many);
  TB.CreateCondBr(TB.CreateICmpULT(From1, Limit), Single, Next);
  LocatedBuilder OB(Single, S.Loc);
  PHINode *One = OB.CreatePHI(I64, 2, Name + ".at1");
  One->addIncoming(From1, SingleTest);
  move(OB, Ty, A, {One});
  Value *Again = OB.CreateAdd(One, Step);
  One->addIncoming(Again, Single);
  OB.CreateCondBr(OB.CreateICmpULT(Again, Limit), Single, Next);
}

} // namespace

std::string describeFlatOnly(const CopyGroup &G, const RewritePlan &P) {
  return "rewritten: the whole grid-stride loop runs as one flat copy of " +
         std::to_string(G.Stride) +
         "*n bytes by all threads when aligned and disjoint (the buffers may "
         "overlap, so each iteration keeps its original code)";
}

void emitFlatCopyAt(const FlatCopyShape &Shape, BasicBlock *Entry,
                    BasicBlock *Exit, FlatCopyEnd End) {
  FlatCopyEmitter(Shape, Entry, Exit).emit(End);
}

void emitFlatCopy(const CopyGroup &G, const RewritePlan &P) {
  FlatCopyShape Shape;
  Shape.DstBase = const_cast<Value *>(G.first().Base);
  Shape.SrcBase = const_cast<Value *>(G.source().Base);
  Shape.DstOffset = G.first().Offset;
  Shape.SrcOffset = G.source().Offset;
  Shape.Stride = G.Stride;
  Shape.MemberWidth = G.MemberWidth;
  Shape.MemberAlign = commonAlignment(memberAlignment(G), G.MemberWidth);
  Shape.Unit = P.Units.front();
  Shape.NeedsOverlapCheck = P.NeedsOverlapCheck;
  Shape.Loc = G.Stores.back()->Inst->getDebugLoc();
  const PrefixBound &Loop = P.Bounds.front();
  Instruction *Term = P.FlatEntry->getTerminator();
  emitFlatCopyAt(
      Shape, P.FlatEntry, P.FlatExit, [&](IRBuilder<> &B, Value *Threads) {
        Value *Bound = copyBefore(P.FlatEndCopies, Loop.Hi, Term);
        Value *End = Loop.Signed ? B.CreateSExt(Bound, B.getInt64Ty())
                                 : B.CreateZExt(Bound, B.getInt64Ty());
        if (Loop.Inclusive) // i <= n covers elements [0, n]
          End = B.CreateAdd(End, B.getInt64(1));
        // The loop covers [0, n) only if its index cannot wrap on its way
        // past n: n + ntid.x*nctaid.x fits the index's type. (A 64-bit n
        // counts elements of an allocation, far below 2^63.)
        Value *Fits = nullptr;
        if (unsigned Bits = Loop.Hi->getType()->getIntegerBitWidth();
            Bits < 64)
          Fits = B.CreateICmpSLE(
              B.CreateAdd(End, Threads),
              integerLimit(B.getInt64Ty(), Bits, Loop.Signed, true));
        return std::make_pair(End, Fits);
      });
}

} // namespace coalda
