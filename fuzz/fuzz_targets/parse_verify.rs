//! Fuzzes the parser, verifier, printer, the generic passes and the interpreter.
//!
//! For any input: parsing and verification return errors, never panic, hang or
//! overflow the stack. For input that verifies: the printed text re-parses, verifies
//! and prints identically (the printer is a fixed point; generic and pretty forms
//! agree), canonicalize + cse leave a module that still verifies, and the reference
//! interpreter runs each function on zero inputs returning results or an error.

#![no_main]

use libfuzzer_sys::fuzz_target;
use tcc::graph::{Tensor, run_function};
use tcc::ir::builtin::{func_entry, func_type};
use tcc::ir::{Module, PrintOptions, canonicalize::canonicalize, cse::cse, parse_bytes, print_module, verify};

/// Skip passes and interpretation on modules with big tensors: slow, not wrong.
const MAX_ELEMENTS: usize = 1 << 12;

fn has_big_tensor(m: &Module) -> bool {
    m.walk(m.top()).into_iter().any(|op| {
        let mut values = m.results(op).to_vec();
        values.extend_from_slice(m.operands(op));
        for &r in m.regions(op) {
            for &b in m.region_blocks(r) {
                values.extend_from_slice(m.block_args(b));
            }
        }
        values.iter().any(|&v| m.value_type(v).as_tensor().is_some_and(|t| t.numel() > MAX_ELEMENTS))
    })
}

fn interpret_all(m: &Module) {
    for f in m.funcs() {
        let (Some(ty), Some(_)) = (func_type(m, f), func_entry(m, f)) else { continue };
        let inputs: Option<Vec<Tensor>> =
            ty.inputs.iter().map(|t| t.as_tensor().and_then(|t| Tensor::zeros(t.elem(), &t.dims()).ok())).collect();
        if let Some(inputs) = inputs {
            let _ = run_function(m, f, &inputs);
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let registry = tcc::registry();
    let Ok(mut module) = parse_bytes("fuzz.mlir", data, &registry) else { return };
    if verify(&module).is_err() {
        return;
    }
    let text = print_module(&module, PrintOptions::default());
    let again = parse_bytes("printed.mlir", text.as_bytes(), &registry)
        .unwrap_or_else(|e| panic!("printed IR does not re-parse:\n{e}\n{text}"));
    verify(&again).unwrap_or_else(|e| panic!("printed IR does not verify:\n{e}\n{text}"));
    assert_eq!(print_module(&again, PrintOptions::default()), text, "printing is not a fixed point");
    let generic = print_module(&module, PrintOptions { generic: true });
    let from_generic = parse_bytes("generic.mlir", generic.as_bytes(), &registry)
        .unwrap_or_else(|e| panic!("generic IR does not re-parse:\n{e}\n{generic}"));
    assert_eq!(print_module(&from_generic, PrintOptions::default()), text, "generic and pretty forms disagree");

    if !has_big_tensor(&module) {
        interpret_all(&module);
        canonicalize(&mut module);
        cse(&mut module);
        verify(&module).unwrap_or_else(|e| panic!("passes broke the module:\n{e}\n{text}"));
        interpret_all(&module);
    }
});
