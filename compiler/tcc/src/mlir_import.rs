//! Upstream MLIR as a second parser (cargo feature `mlir`, MLIR 22 through melior).
//!
//! tcc's own parser reads the graph dialect and TOSA as torch-mlir prints it. A file it
//! cannot read — another dialect's pretty syntax, several functions calling each other
//! — is handed to MLIR itself: MLIR parses it with every upstream dialect registered,
//! inlines calls and drops dead private functions (`inline`, `symbol-dce`), and prints
//! it in generic form with debug locations. tcc parses that text (every op's generic form
//! is readable) and maps each op's location back to the original file, so the TOSA,
//! func and arith ops are imported exactly as from a native parse and errors still point
//! into the user's file. Ops of other dialects remain unknown to tcc and are reported by
//! name.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

use melior::dialect::DialectRegistry;
use melior::ir::operation::{OperationLike, OperationPrintingFlags};
use melior::pass::{PassManager, transform};
use melior::utility::register_all_dialects;
use tcc_ir::{Diagnostics, Location, Module, Registry, SourceFile};

/// Parses `text` (the contents of the file `name`) with MLIR and imports the result.
pub fn parse(name: &str, text: &str, registry: &Registry) -> Result<Module, Diagnostics> {
    let source = SourceFile::new(name, text);
    let generic = mlir_to_generic(text).map_err(|(line, col, msg)| {
        let loc = if line > 0 { Location::new(source.clone(), line, col) } else { Location::unknown() };
        Diagnostics::error(loc, msg)
    })?;
    let mut m = tcc_ir::parse_bytes(&format!("{name} (as printed by MLIR)"), generic.as_bytes(), registry)?;
    remap_locations(&mut m, &generic, &source);
    Ok(m)
}

/// A failure inside MLIR: line and column in the input (0 if unknown) and the message.
type MlirError = (u32, u32, String);

fn mlir_to_generic(text: &str) -> Result<String, MlirError> {
    let registry = DialectRegistry::new();
    register_all_dialects(&registry);
    let context = melior::Context::new();
    context.append_dialect_registry(&registry);
    context.load_all_available_dialects();
    let errors: RefCell<Vec<MlirError>> = RefCell::new(Vec::new());
    let handler = context.attach_diagnostic_handler(|d| {
        let (line, col) = file_line_col(&d.location().to_string()).unwrap_or((0, 0));
        errors.borrow_mut().push((line, col, d.to_string()));
        true
    });
    let first_error = |fallback: &str| errors.borrow().first().cloned().unwrap_or_else(|| (0, 0, fallback.to_string()));
    let result = (|| {
        let mut module =
            melior::ir::Module::parse(&context, text).ok_or_else(|| first_error("cannot parse the file"))?;
        let pm = PassManager::new(&context);
        pm.add_pass(transform::create_inliner());
        pm.add_pass(transform::create_symbol_dce());
        pm.run(&mut module).map_err(|_| first_error("inlining failed"))?;
        let flags = OperationPrintingFlags::new().print_generic_operation_form().enable_debug_info(true, false);
        module.as_operation().to_string_with_flags(flags).map_err(|e| (0, 0, e.to_string()))
    })();
    context.detach_diagnostic_handler(handler);
    result
}

/// `L:C` of a location printed as `loc("file":L:C)` or `"file":L:C` (the last such pair).
fn file_line_col(s: &str) -> Option<(u32, u32)> {
    let s = s.trim_end_matches(')');
    let (rest, col) = s.rsplit_once(':')?;
    let (_, line) = rest.rsplit_once(':')?;
    let digits = |t: &str| t.trim().trim_end_matches(|c: char| !c.is_ascii_digit()).parse::<u32>().ok();
    Some((digits(line)?, digits(col)?))
}

/// Gives each op of `m` (parsed from `generic`) the original-file position MLIR printed
/// after it: `loc("-":L:C)`, or `loc(#locN)` with `#locN = loc(..)` defined at the end
/// of the text; an inlined op's `callsite(callee at caller)` gives the callee's position
/// (the op's own line in the file). Ops without one keep their position in the generic
/// text.
fn remap_locations(m: &mut Module, generic: &str, source: &Arc<SourceFile>) {
    let aliases: HashMap<&str, &str> = generic
        .lines()
        .filter_map(|line| line.split_once(" = loc("))
        .filter(|(name, _)| name.starts_with("#loc"))
        .map(|(name, value)| (name.trim(), value.strip_suffix(')').unwrap_or(value)))
        .collect();
    // Generic-text line -> original position, from each line's trailing `loc(..)`.
    let mut by_line: HashMap<u32, (u32, u32)> = HashMap::new();
    for (i, line) in generic.lines().enumerate() {
        let Some(at) = line.rfind(" loc(") else { continue };
        let inner = line[at + 5..].trim_end();
        let inner = inner.strip_suffix(')').unwrap_or(inner);
        if let Some(pos) = resolve(inner, &aliases, 8) {
            by_line.insert(i as u32 + 1, pos);
        }
    }
    for op in m.walk(m.top()) {
        let line = m.loc(op).line();
        if let Some(&(l, c)) = by_line.get(&line) {
            m.set_loc(op, Location::new(source.clone(), l, c));
        }
    }
}

/// The line and column a location body (`"-":L:C`, `#locN`, `callsite(A at B)`)
/// stands for.
fn resolve(body: &str, aliases: &HashMap<&str, &str>, depth: u32) -> Option<(u32, u32)> {
    let body = body.trim();
    if depth == 0 {
        return None;
    }
    if let Some(alias) = aliases.get(body) {
        return resolve(alias, aliases, depth - 1);
    }
    if let Some(call) = body.strip_prefix("callsite(") {
        let callee = call.split(" at ").next()?;
        return resolve(callee, aliases, depth - 1);
    }
    file_line_col(body)
}

#[cfg(test)]
mod tests {
    use super::file_line_col;

    #[test]
    fn reads_file_line_col() {
        assert_eq!(file_line_col("loc(\"-\":12:7)"), Some((12, 7)));
        assert_eq!(file_line_col("\"a:b.mlir\":3:14"), Some((3, 14)));
        assert_eq!(file_line_col("loc(unknown)"), None);
    }
}
