//! Fuzzes the parser, verifier, printer and the generic passes.
//!
//! For any input: parsing and verification return errors, never panic, hang or
//! overflow the stack. For input that verifies: the printed text re-parses, verifies
//! and prints identically (the printer is a fixed point), and canonicalize + cse leave
//! a module that still verifies.

#![no_main]

use libfuzzer_sys::fuzz_target;
use tcc::ir::{canonicalize::canonicalize, cse::cse, parse_bytes, print_module, verify, PrintOptions};

/// Skip the passes on modules with big tensors: constant folding them is slow, not wrong.
const MAX_ELEMENTS_FOR_PASSES: usize = 1 << 12;

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

    let big = module.walk(module.top()).into_iter().any(|op| {
        module.results(op).iter().chain(module.operands(op)).any(|&v| {
            module.value_type(v).as_tensor().is_some_and(|t| t.numel() > MAX_ELEMENTS_FOR_PASSES)
        })
    });
    if !big {
        canonicalize(&mut module);
        cse(&mut module);
        verify(&module).unwrap_or_else(|e| panic!("passes broke the module:\n{e}\n{text}"));
    }
});
