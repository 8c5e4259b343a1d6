// The tcc-opt command line: input from a file or standard input, output to stdout or
// a file, diagnostics on stderr with a non-zero exit, and bad arguments.
//
// Standard input: `-`, or no input argument at all.
// RUN: %tcc-opt - < %s | FileCheck %s
// RUN: %tcc-opt < %s | FileCheck %s
// RUN: %tcc-opt -o - %s | FileCheck %s
//
// -o writes the output file and nothing to stdout; --output is the long form.
// RUN: %tcc-opt %s -o %t.out.mlir > %t.stdout
// RUN: FileCheck %s --input-file %t.out.mlir
// RUN: FileCheck %s --check-prefix=EMPTY --allow-empty --input-file %t.stdout
// RUN: %tcc-opt %s --output=%t.long.mlir
// RUN: FileCheck %s --input-file %t.long.mlir
// RUN: not %tcc-opt %s -o %t.missing-dir/out.mlir 2>&1 | FileCheck %s --check-prefix=NOWRITE
//
// Missing or unreadable input.
// RUN: not %tcc-opt %t.does-not-exist.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not %tcc-opt %S 2>&1 | FileCheck %s --check-prefix=DIRECTORY
//
// Diagnostics name `<stdin>` for standard input and locate the error; invalid UTF-8
// is an error, not a crash.
// RUN: printf 'module {\n  \xff\n}\n' | not %tcc-opt - 2>&1 | FileCheck %s --check-prefix=UTF8
// RUN: printf 'func.func private @f(tensor<?xf32>)\n' | not %tcc-opt - 2>&1 | FileCheck %s --check-prefix=STDIN-ERROR
// RUN: printf 'module {\n' | not %tcc-opt 2>&1 | FileCheck %s --check-prefix=TRUNCATED
//
// Inputs without a final newline, or with CRLF line ends (also around `// -----`).
// RUN: printf 'func.func private @f()' | %tcc-opt - | FileCheck %s --check-prefix=NO-NEWLINE
// RUN: printf 'func.func private @f()\r\n// -----\r\nfunc.func private @g(tensor<4xf32>)\r\n' | %tcc-opt - --split-input-file | FileCheck %s --check-prefix=CRLF
//
// Exit codes: a verifier error fails; --verify-diagnostics fails when an expectation
// is not met and succeeds when all are. `not not` checks a zero exit explicitly.
// RUN: not not %tcc-opt %s -o %t.ignored.mlir
// RUN: printf 'func.func private @f() attributes {bad, worse}\n' | not %tcc-opt - 2>&1 | FileCheck %s --check-prefix=VERIFY
// RUN: printf 'func.func private @f() attributes {bad} // expected-error {{has unknown attribute}}\n' | %tcc-opt - --verify-diagnostics
// RUN: printf 'func.func private @f() attributes {bad} // expected-error {{some other message}}\n' | not %tcc-opt - --verify-diagnostics 2>&1 | FileCheck %s --check-prefix=MISMATCH
// RUN: printf 'func.func private @f() // expected-error {{never produced}}\n' | not %tcc-opt - --verify-diagnostics 2>&1 | FileCheck %s --check-prefix=NOT-PRODUCED
//
// Bad command lines.
// RUN: not %tcc-opt --no-such-flag 2>&1 | FileCheck %s --check-prefix=BADFLAG
// RUN: %tcc-opt --help | FileCheck %s --check-prefix=HELP
// RUN: %tcc-opt --version | FileCheck %s --check-prefix=VERSION
// RUN: %tcc-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = graph.sigmoid %x : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// CHECK: module {
// CHECK-NEXT: func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {
// CHECK-NEXT: %0 = graph.sigmoid %arg0 : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT: return %0 : tensor<2xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }

// EMPTY-NOT: {{.}}

// NOWRITE: tcc-opt: error: cannot write '{{.*}}missing-dir{{[/\\]}}out.mlir': {{.+}}
// MISSING: tcc-opt: error: cannot read '{{.*}}does-not-exist.mlir': {{.+}}
// DIRECTORY: tcc-opt: error: cannot read '{{.*}}tools': {{.+}}

// UTF8: <stdin>:2:3: error: input is not valid UTF-8
// UTF8-NOT: panicked
// STDIN-ERROR: <stdin>:1:29: error: dynamic dimensions are not supported (tcc needs static shapes)
// STDIN-ERROR-NEXT: {{^}}func.func private @f(tensor<?xf32>)
// STDIN-ERROR-NEXT: {{^}}                            ^
// TRUNCATED: <stdin>:2:1: error: unexpected end of file: expected '}' to end the region

// NO-NEWLINE: module {
// NO-NEWLINE-NEXT: func.func private @f()
// NO-NEWLINE-NEXT: }

// CRLF: module {
// CRLF-NEXT: func.func private @f()
// CRLF-NEXT: }
// CRLF-NEXT: // -----
// CRLF-NEXT: module {
// CRLF-NEXT: func.func private @g(tensor<4xf32>)
// CRLF-NEXT: }

// Every verifier error is reported, not just the first.
// VERIFY: <stdin>:1:1: error: 'func.func' op has unknown attribute 'bad'
// VERIFY: <stdin>:1:1: error: 'func.func' op has unknown attribute 'worse'

// MISMATCH: unexpected error: <stdin>:1:1: error: 'func.func' op has unknown attribute 'bad'
// MISMATCH: <stdin>:1: error: expected error "some other message" on line 1 was not produced
// NOT-PRODUCED: <stdin>:1: error: expected error "never produced" on line 1 was not produced

// BADFLAG: error: unexpected argument '--no-such-flag'
// HELP: Usage: tcc-opt [OPTIONS] [INPUT]
// HELP: --pass-pipeline
// HELP: --split-input-file
// HELP: --verify-diagnostics
// VERSION: tcc-opt {{[0-9]+\.[0-9]+\.[0-9]+}}
// GENERIC: %0 = "graph.sigmoid"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
// GENERIC: "func.return"(%0) : (tensor<2xf32>) -> ()
