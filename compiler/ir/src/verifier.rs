//! The verifier: checks that a module is well formed.
//!
//! For every op: operand values are defined and visible (defined earlier in an
//! enclosing block, not across an isolated-from-above op); registered ops have the
//! right number of operands, results and regions, their attributes exist with the right
//! kinds (unknown attribute names are errors unless dialect-prefixed, so a typo such as
//! `stride` for `strides` cannot be silently ignored); blocks end with a terminator where
//! the op needs one; then the op's own verifier runs and its result types are compared
//! with shape inference. All errors are collected, each located at its op.

use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::entity::SecondaryMap;
use crate::module::{Module, Op, Value, ValueDef};
use crate::opdef::{AttrDefault, Signature, Traits};
use crate::types::Type;

/// Verifies the whole module.
pub fn verify(m: &Module) -> Result<(), Diagnostics> {
    let mut positions: SecondaryMap<Op, u32> = SecondaryMap::new();
    let all = m.walk(m.top());
    for &op in &all {
        for &r in m.regions(op) {
            for &b in m.region_blocks(r) {
                for (i, o) in m.block_ops(b).enumerate() {
                    positions.set(o, i as u32);
                }
            }
        }
    }
    let mut diags = Diagnostics::new();
    for &op in &all {
        verify_op(m, op, &positions, &mut diags);
    }
    diags.into_result()
}

/// Whether an inferred type accepts a declared one (a declared layout encoding is
/// allowed where inference has none).
pub fn types_compatible(inferred: &Type, declared: &Type) -> bool {
    match (inferred, declared) {
        (Type::Tensor(a), Type::Tensor(b)) => {
            a.shape() == b.shape() && a.elem() == b.elem() && (a.encoding().is_none() || a.encoding() == b.encoding())
        }
        _ => inferred == declared,
    }
}

fn verify_op(m: &Module, op: Op, positions: &SecondaryMap<Op, u32>, diags: &mut Diagnostics) {
    let def = m.def(op);
    let error = |msg: String| Diagnostic::error(m.loc(op).clone(), format!("'{}' op {msg}", def.name));
    let errors_before = diags.0.len();

    for (i, &v) in m.operands(op).iter().enumerate() {
        if let Err(msg) = check_visible(m, op, v, positions) {
            diags.push(error(format!("operand #{i} {msg}")));
        }
    }
    if !def.registered {
        return;
    }
    let counts = [
        ("operands", def.operands, m.operands(op).len()),
        ("results", def.results, m.results(op).len()),
        ("regions", def.regions, m.regions(op).len()),
    ];
    for (what, arity, n) in counts {
        if !arity.accepts(n) {
            diags.push(error(format!("expects {arity} {what}, but has {n}")));
        }
    }
    for spec in def.attrs {
        match m.attr(op, spec.name) {
            None if spec.default == AttrDefault::Required => {
                diags.push(error(format!("requires attribute '{}'", spec.name)))
            }
            None => {}
            Some(a) => {
                if let Err(msg) = spec.check(a) {
                    diags.push(error(msg));
                }
            }
        }
    }
    for (name, _) in m.attrs(op).iter() {
        if def.attr_spec(name).is_none() && !name.contains('.') {
            diags.push(error(format!("has unknown attribute '{name}'")));
        }
    }
    if !def.has(Traits::NO_TERMINATOR) {
        for &r in m.regions(op) {
            for &b in m.region_blocks(r) {
                match m.last_op(b) {
                    None => diags.push(error("has an empty block: expected at least a terminator".into())),
                    Some(last) if m.def(last).registered && !m.has_trait(last, Traits::TERMINATOR) => {
                        diags.push(error(format!("block must end with a terminator, found '{}'", m.name(last))))
                    }
                    _ => {}
                }
            }
        }
    }
    if def.has(Traits::TERMINATOR) && m.next_op(op).is_some() {
        diags.push(error("must be the last operation in its block".into()));
    }
    if diags.0.len() > errors_before {
        return; // the checks below assume a structurally sound op
    }
    if let Some(verify) = def.verify
        && let Err(msg) = verify(m, op)
    {
        diags.push(error(msg));
        return;
    }
    if let Some(infer) = def.infer {
        let operand_types: Vec<Type> = m.operands(op).iter().map(|&v| m.value_type(v).clone()).collect();
        let sig = Signature { def, operands: &operand_types, attrs: m.attrs(op) };
        match infer(&sig) {
            Err(msg) => diags.push(error(msg)),
            Ok(inferred) => {
                let mut declared: Vec<&Type> = m.results(op).iter().map(|&v| m.value_type(v)).collect();
                // The raw result a region takes (its yield, checked by the op, is the result).
                if def.has(Traits::REGION_RESULT)
                    && let Some(&region) = m.regions(op).first()
                    && let Some(&block) = m.region_blocks(region).first()
                    && let Some(&raw) = m.block_args(block).first()
                {
                    declared = vec![m.value_type(raw)];
                }
                if inferred.len() != declared.len() {
                    diags.push(error(format!("has {} results but {} were inferred", declared.len(), inferred.len())));
                } else {
                    for (i, (inf, dec)) in inferred.iter().zip(declared).enumerate() {
                        if !types_compatible(inf, dec) {
                            diags.push(error(format!(
                                "result #{i} has type {dec}, but the operands and attributes give {inf}"
                            )));
                        }
                    }
                }
            }
        }
    }
}

/// Checks that `v` is visible at `user`: defined earlier in the user's block or an
/// enclosing block, without crossing an isolated-from-above op.
fn check_visible(m: &Module, user: Op, v: Value, positions: &SecondaryMap<Op, u32>) -> Result<(), String> {
    let (def_block, def_op) = match m.value_def(v) {
        ValueDef::Result { op, .. } => {
            if m.is_erased(op) {
                return Err("uses a result of an erased op".into());
            }
            (m.parent_block(op).ok_or("uses a result of an op that is not in a block")?, Some(op))
        }
        ValueDef::BlockArg { block, .. } => (block, None),
    };
    let mut cur = user;
    loop {
        if m.parent_block(cur) == Some(def_block) {
            return match def_op {
                Some(d) if positions.get(d) >= positions.get(cur) => Err("uses a value before it is defined".into()),
                _ => Ok(()),
            };
        }
        let Some(parent) = m.parent_op(cur) else { break };
        if m.has_trait(parent, Traits::ISOLATED_FROM_ABOVE) {
            return Err("uses a value defined outside its isolated region".into());
        }
        cur = parent;
    }
    Err("uses a value that is not visible here".into())
}
