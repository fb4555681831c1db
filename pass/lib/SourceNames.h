//===- SourceNames.h - Values named as the CUDA source names them ---------===//
//
// Findings, remarks and the JSON report quote values. They quote them as the
// source does: the variable a value is bound to in the debug info
// (#dbg_value records, a parameter's DILocalVariable), an expression of such
// names, or where none is known the source line or the parameter's position.
// Never an IR name: clang's value names (`add`, `sub3`, `idxprom`, `cmp`,
// `.`) are its own, and release builds of clang drop them anyway.
//
//===----------------------------------------------------------------------===//

#ifndef COALDA_SOURCENAMES_H
#define COALDA_SOURCENAMES_H

#include "llvm/IR/Instruction.h"
#include "llvm/IR/Value.h"

#include <optional>
#include <string>

namespace coalda {

/// The source variable that holds V: at At where given (the variable whose
/// nearest earlier binding is V, looking back through unique predecessors),
/// else the first variable bound to it. For a parameter, its own name (the
/// DILocalVariable with arg: N, else the name clang gave the Argument); for
/// a loop's phi, the variable its step is bound to; for a phi whose clang
/// name less `.0`/`.epil` is a variable of the debug info, that variable.
/// nullopt where none is known.
std::optional<std::string> variableName(const llvm::Value *V,
                                        const llvm::Instruction *At = nullptr);

/// V written in source terms only: a variable name, a constant, a special
/// register (`tid.x`), a global's name, or a short expression of those
/// (`(n / 2)`, `load(flag)`, `i < last`, `a or b` for a ?: or a phi);
/// nullopt where a leaf has no source name.
std::optional<std::string>
sourceSpelling(const llvm::Value *V, const llvm::Instruction *At = nullptr);

/// Where nothing spells V: "the kernel's 2nd parameter", "the value at line
/// 12", "the counter of the loop at line 6", "the counter of a loop in sinf
/// at line 37", "a value".
std::string positionOf(const llvm::Value *V);

/// The C operator of a binary opcode (`+`, `&`, `>>`), or nullptr.
const char *operatorSymbol(unsigned Opcode);

/// What an operation is, for a reason: `&`, `>>`, a conversion, a call, a
/// value read from memory, else the operation's name in backquotes.
std::string operationWords(const llvm::Value *V);

/// An instruction's value for a sentence, with its place: "`last` at line
/// 7:3", "at line 7:3" (no source name), or "" (neither), with a leading
/// space where non-empty: "the guard's value" + valueAt(I) + " is ...".
std::string valueAt(const llvm::Instruction *I);

/// " at line 7:3" in the kernel's file (code inlined from a header is at the
/// line that calls it), or "" without a debug location.
std::string lineSuffix(const llvm::Instruction *I);

/// A label for IR values COALDA creates for V (`coalda.tile.<label>`):
/// the source name where known, else V's IR name without clang's suffixes,
/// else "". Never for messages.
std::string irLabel(const llvm::Value *V);

} // namespace coalda

#endif // COALDA_SOURCENAMES_H
