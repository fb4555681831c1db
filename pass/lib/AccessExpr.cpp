//===- AccessExpr.cpp - Atoms, polynomials and accesses of the analysis ---===//
//
// The vocabulary of CoalescingAnalysis: the atoms and integer polynomials an
// address is written in, an access's canonical form and how it prints, and
// which functions of a module are kernels. The automaton that produces them
// is in CoalescingAnalysis.cpp.
//
//===----------------------------------------------------------------------===//

#include "coalda/CoalescingAnalysis.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DebugProgramInstruction.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace coalda {

//===----------------------------------------------------------------------===//
// Atoms and polynomials
//===----------------------------------------------------------------------===//

namespace {

/// A name as one operand of an expression: a value known by its position
/// (`the kernel's 2nd parameter`) or a choice (`a or b`), words outside
/// parentheses, is parenthesized.
std::string operand(const std::string &Name) {
  int Depth = 0;
  bool Words = any_of(Name, [&](char C) {
    Depth += C == '(' ? 1 : C == ')' ? -1 : 0;
    return C == ' ' && Depth == 0;
  });
  return Words ? "(" + Name + ")" : Name;
}

} // namespace

std::string Atom::name() const {
  static const char *Dims[] = {"x", "y", "z"};
  switch (Kind) {
  case ThreadIdx:
    return std::string("tid.") + Dims[Dim];
  case BlockIdx:
    return std::string("ctaid.") + Dims[Dim];
  case BlockDim:
    return std::string("ntid.") + Dims[Dim];
  case GridDim:
    return std::string("nctaid.") + Dims[Dim];
  case Argument:
    return baseName(V);
  case Iteration:
    return "iter(" + baseName(V) + ")";
  case Opaque:
    return baseName(V);
  case WarpIdx:
    return "warp";
  }
  llvm_unreachable("unknown atom kind");
}

Poly Poly::constant(int64_t C) {
  Poly P;
  if (C)
    P.Terms[{}] = C;
  return P;
}

Poly Poly::atom(unsigned Id) {
  Poly P;
  P.Terms[Monomial{Id}] = 1;
  return P;
}

Poly Poly::operator+(const Poly &O) const {
  Poly R = *this;
  for (const auto &[M, C] : O.Terms) {
    int64_t &Slot = R.Terms[M];
    Slot += C;
    if (Slot == 0)
      R.Terms.erase(M);
  }
  return R;
}

Poly Poly::scaled(int64_t C) const {
  Poly R;
  if (C == 0)
    return R;
  for (const auto &[M, K] : Terms)
    R.Terms[M] = K * C;
  return R;
}

Poly Poly::operator*(const Poly &O) const {
  Poly R;
  for (const auto &[MA, CA] : Terms)
    for (const auto &[MB, CB] : O.Terms) {
      Monomial M = MA;
      M.append(MB.begin(), MB.end());
      llvm::sort(M);
      int64_t &Slot = R.Terms[M];
      Slot += CA * CB;
      if (Slot == 0)
        R.Terms.erase(M);
    }
  return R;
}

bool Poly::isConstant() const {
  return Terms.empty() || (Terms.size() == 1 && Terms.begin()->first.empty());
}

int64_t Poly::constantTerm() const {
  auto It = Terms.find(Monomial{});
  return It == Terms.end() ? 0 : It->second;
}

bool Poly::mentions(unsigned AtomId) const {
  for (const auto &[M, C] : Terms)
    if (is_contained(M, AtomId))
      return true;
  return false;
}

void Poly::print(raw_ostream &OS, const std::vector<Atom> &Atoms) const {
  if (Terms.empty()) {
    OS << "0";
    return;
  }
  bool First = true;
  // Print non-constant terms first, the constant last, as people write it.
  auto PrintTerm = [&](const Monomial &M, int64_t C) {
    if (!First)
      OS << (C < 0 ? " - " : " + ");
    else if (C < 0)
      OS << "-";
    First = false;
    uint64_t Abs = C < 0 ? -(uint64_t)C : (uint64_t)C;
    if (M.empty()) {
      OS << Abs;
      return;
    }
    if (Abs != 1)
      OS << Abs << "*";
    ListSeparator Sep("*");
    for (unsigned Id : M)
      OS << Sep << operand(Atoms[Id].name());
  };
  for (const auto &[M, C] : Terms)
    if (!M.empty())
      PrintTerm(M, C);
  if (int64_t C = constantTerm())
    PrintTerm({}, C);
}

//===----------------------------------------------------------------------===//
// AccessExpr and CoalescingInfo
//===----------------------------------------------------------------------===//

uint64_t AccessExpr::pieceWidth() const {
  if (!isTransfer())
    return Width;
  return std::min<uint64_t>({alignment().value(), llvm::bit_floor(Width), 16});
}

bool AccessExpr::isCoalesced() const {
  std::optional<int64_t> S = constantStride();
  if (!S)
    return false;
  return (uint64_t)std::abs(*S) <= pieceWidth();
}

std::string AccessExpr::laneName() const {
  switch (Lane) {
  case LaneKind::None:
    return "none";
  case LaneKind::ThreadIdx:
    return "tid.x";
  case LaneKind::GlobalIdx:
    return "gid";
  }
  llvm_unreachable("unknown lane kind");
}

bool AccessExpr::isTransfer() const { return isa<MemTransferInst>(Inst); }

Value *AccessExpr::pointer() const {
  if (const auto *MT = dyn_cast<MemTransferInst>(Inst))
    return IsStore ? MT->getRawDest() : MT->getRawSource();
  return getLoadStorePointerOperand(Inst);
}

Align AccessExpr::alignment() const {
  if (const auto *MT = dyn_cast<MemTransferInst>(Inst))
    return (IsStore ? MT->getDestAlign() : MT->getSourceAlign())
        .valueOrOne();
  return getLoadStoreAlignment(Inst);
}

bool AccessExpr::isSimple() const {
  if (const auto *MT = dyn_cast<MemTransferInst>(Inst))
    return !MT->isVolatile();
  if (const auto *L = dyn_cast<LoadInst>(Inst))
    return L->isSimple();
  return cast<StoreInst>(Inst)->isSimple();
}

const AccessExpr *CoalescingInfo::transferSource(const Instruction *I) const {
  auto It = SourceIndex.find(I);
  return It == SourceIndex.end() ? nullptr : &Accesses[It->second];
}

const AccessExpr *CoalescingInfo::lookup(const Instruction *I) const {
  auto It = Index.find(I);
  return It == Index.end() ? nullptr : &Accesses[It->second];
}

void CoalescingInfo::printExpr(raw_ostream &OS, const AccessExpr &A) const {
  if (A.Warp) {
    // `in + 4*lane + 8` or `in + lanes{0, 8, 16, ...}` (lane = tid.x % 32):
    // the warp-uniform part is left out.
    const auto &O = A.Warp->Offsets;
    int64_t Step = O[1] - O[0];
    bool Affine = all_of(seq(0u, WarpLanes),
                         [&](unsigned L) { return O[L] == O[0] + Step * L; });
    OS << operand(baseName(A.Warp->Base));
    if (!Affine) {
      OS << " + lanes{";
      for (unsigned L = 0; L < WarpLanes; ++L)
        OS << (L ? ", " : "") << O[L];
      OS << "}";
      return;
    }
    if (Step)
      OS << (Step > 0 ? " + " : " - ") << std::abs(Step) << "*lane";
    if (O[0])
      OS << (O[0] > 0 ? " + " : " - ") << std::abs(O[0]);
    return;
  }
  if (!A.isKnown()) {
    OS << "<unknown: " << A.Unknown << ">";
    return;
  }
  OS << operand(baseName(A.Base));
  if (A.Lane != LaneKind::None) {
    OS << " + ";
    if (A.Stride.isConstant()) {
      OS << A.Stride.constantTerm() << "*";
    } else {
      OS << "(";
      A.Stride.print(OS, atoms());
      OS << ")*";
    }
    OS << A.laneName();
  }
  if (!A.Uniform.Terms.empty()) {
    OS << " + ";
    A.Uniform.print(OS, atoms());
  }
  if (A.Offset > 0)
    OS << " + " << A.Offset;
  else if (A.Offset < 0)
    OS << " - " << -A.Offset;
}

std::string CoalescingInfo::exprString(const AccessExpr &A) const {
  std::string S;
  raw_string_ostream OS(S);
  printExpr(OS, A);
  return S;
}

void CoalescingInfo::printAccess(raw_ostream &OS, const AccessExpr &A) const {
  OS << (A.IsStore ? "store " : "load ") << *A.AccessTy << " @ ";
  printExpr(OS, A);
  OS << " (width " << A.Width << "): ";
  if (A.Warp)
    OS << (A.Warp->sameAddress()                ? "uniform"
           : A.Warp->isCoalesced(A.pieceWidth()) ? "coalesced"
                                                 : "uncoalesced")
       << " (" << A.Warp->sectors(A.pieceWidth()) << " sectors, ideal "
       << A.Warp->idealSectors(A.pieceWidth()) << ")"
       << (A.Space == MemorySpace::Shared ? " (shared)" : "");
  else if (!A.isKnown())
    OS << "unknown";
  else if (A.Space == MemorySpace::Shared)
    OS << (A.isCoalesced() ? "coalesced" : "uncoalesced") << " (shared)";
  else if (A.Lane == LaneKind::None)
    OS << "uniform";
  else if (!A.Stride.isConstant())
    OS << "uncoalesced (run-time stride)";
  else if (A.VectorWidth)
    OS << "coalesced (one " << A.VectorWidth
       << "-byte vector per thread in the backend)";
  else
    OS << (A.isCoalesced() ? "coalesced" : "uncoalesced");
}

DenseSet<const Function *> kernelsOf(const Module &M) {
  DenseSet<const Function *> Kernels;
  for (const Function &F : M)
    if (F.getCallingConv() == CallingConv::PTX_Kernel)
      Kernels.insert(&F);
  if (const NamedMDNode *Annotations = M.getNamedMetadata("nvvm.annotations"))
    for (const MDNode *Node : Annotations->operands()) {
      if (Node->getNumOperands() < 3)
        continue;
      auto *Fn = mdconst::dyn_extract_or_null<Function>(Node->getOperand(0));
      auto *Tag = dyn_cast<MDString>(Node->getOperand(1));
      if (Fn && Tag && Tag->getString() == "kernel")
        Kernels.insert(Fn);
    }
  return Kernels;
}

bool isKernel(const Function &F) {
  if (F.getCallingConv() == CallingConv::PTX_Kernel ||
      F.hasFnAttribute(InlinedKernelAttr))
    return true;
  const NamedMDNode *Annotations =
      F.getParent()->getNamedMetadata("nvvm.annotations");
  if (!Annotations)
    return false;
  for (const MDNode *Node : Annotations->operands()) {
    if (Node->getNumOperands() < 3)
      continue;
    auto *Fn = mdconst::dyn_extract_or_null<Function>(Node->getOperand(0));
    auto *Tag = dyn_cast<MDString>(Node->getOperand(1));
    if (Fn == &F && Tag && Tag->getString() == "kernel")
      return true;
  }
  return false;
}

std::string sourceName(const Function &F) {
  StringRef Symbol = F.getName();
  ItaniumPartialDemangler D;
  if (!D.partialDemangle(Symbol.data()) && D.isFunction()) {
    size_t Size = 0;
    if (char *Name = D.getFunctionName(nullptr, &Size)) {
      std::string Result(Name);
      std::free(Name);
      return Result;
    }
  }
  return Symbol.str();
}

} // namespace coalda
