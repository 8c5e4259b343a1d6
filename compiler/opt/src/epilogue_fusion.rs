//! `fuse-epilogues`: elementwise ops applied to a kernel op's result join the kernel's
//! epilogue region, so they run on the result while it is in registers.
//!
//! A kernel op (`conv2d_nchwc`, `matmul_packed`) whose result has exactly one use, by an
//! elementwise op of the same result type whose other operands broadcast into it (a
//! bias, a per-channel scale, a residual, a constant), is replaced by a copy whose
//! epilogue ends with that op and whose extra operands include the op's other operands.
//! The new kernel op takes the elementwise op's place, where all those operands are
//! defined. A reshape between the kernel and the consumer that keeps the innermost
//! dimension (a matmul's `[1, M, N] -> [M, N]`) moves after the consumer first.
//! Repeated to a fixed point: `conv + bias + residual + relu` becomes one op. A result
//! used twice by a pair like SiLU's `x * sigmoid(x)` (one op on the result alone, used
//! only by the other, which combines both) takes the pair.

use std::collections::HashMap;

use tcc_dialect_graph::{ops as g, semantics};
use tcc_ir::builtin::func_entry;
use tcc_ir::{
    AttrDict, Block, Diagnostics, Location, Module, Op, OperationState, Pass, PassInfo, Region, Traits, Type, Value,
};

use crate::Inserter;

pub static FUSE_EPILOGUES: PassInfo = PassInfo {
    name: "fuse-epilogues",
    summary: "Fuse elementwise consumers of kernel ops (conv2d_nchwc, matmul_packed, batch_matmul) into their epilogues",
    options: &[],
    create: |_| Ok(Box::new(FuseEpilogues)),
};

pub struct FuseEpilogues;

impl Pass for FuseEpilogues {
    fn name(&self) -> &'static str {
        "fuse-epilogues"
    }
    fn run(&self, m: &mut Module) -> Result<(), Diagnostics> {
        for func in m.funcs() {
            let Some(entry) = func_entry(m, func) else { continue };
            while fuse_one(m, entry) {}
        }
        Ok(())
    }
}

/// Whether `op` can carry an epilogue.
pub fn is_kernel(m: &Module, op: Op) -> bool {
    semantics(m.def(op)).is_some_and(|s| s.epilogue_from.is_some())
}

/// Finds one fusable (kernel, consumer) pair in `block` and fuses it, or moves a
/// reshape from between them.
fn fuse_one(m: &mut Module, block: Block) -> bool {
    let ops: Vec<Op> = m.block_ops(block).collect();
    for op in ops {
        if !is_kernel(m, op) {
            continue;
        }
        let r = m.result(op, 0);
        if let Some(users) = swish_like(m, r) {
            fuse(m, op, &users);
            return true;
        }
        let [u] = m.uses(r) else { continue };
        let user = u.op;
        if fusable(m, user, &[r]) {
            fuse(m, op, &[user]);
            return true;
        }
        if sink_reshape(m, user) {
            return true;
        }
    }
    false
}

/// `f(reshape(k), c)` -> `reshape(f(k, reshape(c)))` when the reshape keeps the
/// innermost dimension and `c` is either shaped like the reshape's result or constant
/// along all but the innermost dimension (a bias), so `f` can join `k`'s epilogue.
fn sink_reshape(m: &mut Module, reshape: Op) -> bool {
    if !m.is(reshape, &g::RESHAPE) {
        return false;
    }
    let (x, y) = (m.operand(reshape, 0), m.result(reshape, 0));
    let [u] = m.uses(y) else { return false };
    let f = u.op;
    let (xs, ys) = (crate::shape(m, x), crate::shape(m, y));
    if xs.last() != ys.last() || !fusable(m, f, &[y]) {
        return false;
    }
    let mut new_operands = Vec::new();
    for o in m.operands(f).to_vec() {
        if o == y {
            new_operands.push(x);
            continue;
        }
        let s = crate::shape(m, o);
        let target = if s == ys {
            xs.clone()
        } else if s.iter().rev().skip(1).all(|&d| d == 1) {
            let mut t = vec![1; xs.len()];
            *t.last_mut().expect("rank >= 1") = *s.last().unwrap_or(&1);
            t
        } else {
            return false;
        };
        let mut ins = Inserter::before(m, f);
        new_operands.push(ins.reshape(o, target));
    }
    let (def, attrs) = (m.def(f), m.attrs(f).clone());
    let ty = m.value_type(x).clone();
    let mut ins = Inserter::before(m, f);
    let new = ins.op(def, &new_operands, attrs, vec![ty]);
    let nv = ins.m.result(new, 0);
    let back = ins.reshape(nv, ys);
    m.replace_op(f, &[back]);
    m.erase_op(reshape);
    true
}

/// A kernel result `r` used by two elementwise ops, `inner` on `r` alone (with
/// broadcast operands) used only by `outer`, which combines `r` and `inner`'s result:
/// SiLU's `x * sigmoid(x)`, GELU's. Both join the epilogue, in that order.
fn swish_like(m: &Module, r: Value) -> Option<[Op; 2]> {
    let [a, b] = m.uses(r) else { return None };
    let (a, b) = (a.op, b.op);
    [(a, b), (b, a)].into_iter().find_map(|(inner, outer)| {
        let ir = m.results(inner).first().copied()?;
        let only_outer = matches!(m.uses(ir), [u] if u.op == outer);
        (inner != outer && only_outer && fusable(m, inner, &[r]) && fusable(m, outer, &[r, ir]))
            .then_some([inner, outer])
    })
}

/// `user` is an elementwise op on the values `from` (a kernel's result, and values
/// computed from it in the epilogue) that keeps the first one's type, and whose other
/// operands broadcast into it.
fn fusable(m: &Module, user: Op, from: &[Value]) -> bool {
    if !m.has_trait(user, Traits::ELEMENTWISE) || m.results(user).len() != 1 || !m.regions(user).is_empty() {
        return false;
    }
    let r = from[0];
    let ty = m.value_type(r);
    if m.value_type(m.result(user, 0)) != ty || !ty.as_tensor().is_some_and(|t| t.elem().is_float()) {
        return false;
    }
    if from.iter().any(|&v| m.value_type(v) != ty) {
        return false;
    }
    let (shape, elem) = (crate::shape(m, r), ty.as_tensor().map(|t| t.elem()));
    m.operands(user).iter().filter(|v| !from.contains(v)).all(|&v| {
        let s = crate::shape(m, v);
        m.value_type(v).as_tensor().map(|t| t.elem()) == elem
            && s.len() <= shape.len()
            && s.iter().rev().zip(shape.iter().rev()).all(|(&a, &b)| a == 1 || a == b)
    })
}

/// Builds an epilogue region: one block taking `raw` (the kernel's raw result) and the
/// `extra` operand types; `body` appends ops to it and returns the value to yield.
pub fn new_epilogue(
    m: &mut Module,
    loc: &Location,
    raw: &Type,
    extra: &[Type],
    body: impl FnOnce(&mut Module, Block, Value, &[Value]) -> Value,
) -> Region {
    let region = m.new_region();
    let mut types = vec![raw.clone()];
    types.extend_from_slice(extra);
    let block = m.append_block(region, &types);
    let args = m.block_args(block).to_vec();
    let out = body(m, block, args[0], &args[1..]);
    let mut st = OperationState::new(&g::YIELD, loc.clone());
    st.operands = vec![out];
    let y = m.create_op(st);
    m.append_op(block, y);
    region
}

/// Appends a copy of elementwise op `op` to `block` with operands mapped by `map`.
pub fn append_copy(m: &mut Module, block: Block, op: Op, map: &HashMap<Value, Value>) -> Value {
    let mut st = OperationState::new(m.def(op), m.loc(op).clone());
    st.operands = m.operands(op).iter().map(|v| map.get(v).copied().unwrap_or(*v)).collect();
    st.attrs = m.attrs(op).clone();
    st.result_types = vec![m.value_type(m.result(op, 0)).clone()];
    let new = m.create_op(st);
    m.append_op(block, new);
    m.result(new, 0)
}

/// Replaces `kernel` and its consumers `users` (each elementwise on the kernel's result
/// and the results of those before it; the last one's result is what the others feed)
/// by a kernel whose epilogue ends with them.
pub(crate) fn fuse(m: &mut Module, kernel: Op, users: &[Op]) {
    let user = *users.last().expect("a consumer");
    let r = m.result(kernel, 0);
    let chained: Vec<Value> = users.iter().map(|&u| m.result(u, 0)).collect();
    let raw = match m.regions(kernel).first() {
        Some(&reg) => m.value_type(m.block_args(m.region_blocks(reg)[0])[0]).clone(),
        None => m.value_type(r).clone(),
    };
    let from = semantics(m.def(kernel)).and_then(|s| s.epilogue_from).expect("a kernel op");
    let old_extra: Vec<Value> = m.operands(kernel)[from..].to_vec();
    let mut new_extra: Vec<Value> = Vec::new();
    for &u in users {
        for &v in m.operands(u) {
            if v != r && !chained.contains(&v) && !new_extra.contains(&v) {
                new_extra.push(v);
            }
        }
    }
    let extra_types: Vec<Type> = old_extra.iter().chain(&new_extra).map(|&v| m.value_type(v).clone()).collect();
    let old_block = m.regions(kernel).first().map(|&reg| m.region_blocks(reg)[0]);
    let loc = m.loc(user).clone();
    let region = new_epilogue(m, &loc, &raw, &extra_types, |m, block, acc, args| {
        // The old epilogue, then the consumer.
        let mut map: HashMap<Value, Value> = HashMap::new();
        let mut current = acc;
        if let Some(ob) = old_block {
            let old_args = m.block_args(ob).to_vec();
            map.insert(old_args[0], acc);
            for (i, &a) in old_args[1..].iter().enumerate() {
                map.insert(a, args[i]);
            }
            let inner: Vec<Op> = m.block_ops(ob).collect();
            for op in inner {
                if m.is(op, &g::YIELD) {
                    current = map[&m.operand(op, 0)];
                } else {
                    let v = append_copy(m, block, op, &map);
                    map.insert(m.result(op, 0), v);
                }
            }
        }
        let mut umap: HashMap<Value, Value> = HashMap::new();
        umap.insert(r, current);
        for (i, &v) in new_extra.iter().enumerate() {
            umap.entry(v).or_insert(args[old_extra.len() + i]);
        }
        let mut last = current;
        for &u in users {
            last = append_copy(m, block, u, &umap);
            umap.insert(m.result(u, 0), last);
        }
        last
    });
    let mut operands: Vec<Value> = m.operands(kernel)[..from].to_vec();
    operands.extend(old_extra);
    operands.extend(new_extra);
    let attrs: AttrDict = m.attrs(kernel).clone();
    let def = m.def(kernel);
    let result_ty = m.value_type(m.result(user, 0)).clone();
    let new = Inserter::before(m, user).op_with_regions(def, &operands, attrs, vec![result_ty], vec![region]);
    let nv = m.result(new, 0);
    m.set_loc(new, m.loc(kernel).clone());
    m.replace_op(user, &[nv]);
    for &u in users[..users.len() - 1].iter().rev() {
        m.erase_op(u);
    }
    m.erase_op(kernel);
}
