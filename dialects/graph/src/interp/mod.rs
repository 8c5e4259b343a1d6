//! The reference interpreter: evaluates graph-dialect functions on concrete tensors.
//!
//! It is the correctness oracle for every pass and every compiled kernel, so it is
//! written to be obviously right rather than fast: each op's kernel (in the submodules,
//! reached through the op's [`crate::GraphSemantics`]) loops over output indices in
//! row-major order; float ops compute in f64 and round once to the result type;
//! integer ops wrap. Inputs are validated against the function signature first, and
//! every failure is a located diagnostic, never a panic.

pub mod elementwise;
pub mod kernel;
pub mod nn;
pub mod shape;
pub mod tensor;

use std::borrow::Cow;
use std::collections::HashMap;

use tcc_ir::builtin::{func_entry, func_name, func_type};
use tcc_ir::{Diagnostic, Module, Op, ScalarType, Signature, TensorType, Traits, Type, Value};

use crate::semantics;
use tensor::Tensor;

pub type EvalFn = fn(&EvalArgs) -> Result<Vec<Tensor>, String>;

/// Largest tensor (in elements) the interpreter materializes; beyond it evaluation is
/// an error rather than an allocation failure.
pub const MAX_ELEMENTS: usize = 1 << 28;

/// What an op's kernel sees: its input tensors, attributes (with defaults) and the
/// declared result types.
pub struct EvalArgs<'a> {
    pub inputs: &'a [Tensor],
    pub sig: Signature<'a>,
    pub result_types: &'a [Type],
}

impl EvalArgs<'_> {
    pub fn input(&self, i: usize) -> &Tensor {
        &self.inputs[i]
    }

    pub fn result_type(&self, i: usize) -> &TensorType {
        self.result_types[i].as_tensor().expect("graph ops produce tensors (checked by the verifier)")
    }

    pub fn result_dims(&self, i: usize) -> Vec<usize> {
        self.result_type(i).dims()
    }

    pub fn result_elem(&self, i: usize) -> ScalarType {
        self.result_type(i).elem()
    }
}

/// Evaluates one op on the given inputs (a kernel op's epilogue region included).
pub fn eval_op(m: &Module, op: Op, inputs: &[Tensor]) -> Result<Vec<Tensor>, String> {
    let def = m.def(op);
    // A fusion group: its region computes it.
    if std::ptr::eq(def, &crate::ops::FUSED) {
        let region = *m.regions(op).first().ok_or("graph.fused without a region")?;
        let block = *m.region_blocks(region).first().ok_or("graph.fused with an empty region")?;
        return run_block(m, block, inputs.to_vec()).map_err(|d| format!("in the fusion group: {}", d.message));
    }
    let sem = semantics(def).ok_or_else(|| format!("'{}' has no reference semantics", def.name))?;
    // A kernel op with an epilogue: the main computation gives the region's first
    // block arguments, the region the results.
    let epilogue = match (sem.epilogue_from, m.regions(op).first()) {
        (Some(from), Some(&region)) => Some((from, *m.region_blocks(region).first().ok_or("empty epilogue")?)),
        _ => None,
    };
    let main_inputs = epilogue.map_or(inputs, |(from, _)| &inputs[..from.min(inputs.len())]);
    let operand_types: Vec<Type> =
        m.operands(op).iter().take(main_inputs.len()).map(|&v| m.value_type(v).clone()).collect();
    let result_types: Vec<Type> = match epilogue {
        Some((_, block)) => {
            m.block_args(block).iter().take(m.results(op).len()).map(|&v| m.value_type(v).clone()).collect()
        }
        None => m.results(op).iter().map(|&v| m.value_type(v).clone()).collect(),
    };
    for (i, ty) in result_types.iter().enumerate() {
        let n = ty.as_tensor().map_or(0, |t| t.numel());
        if n > MAX_ELEMENTS {
            let bytes = ty.as_tensor().map_or(0, |t| (n as u128) * t.elem().byte_size() as u128);
            return Err(format!(
                "result #{i} {ty} ({bytes} bytes) is too large for the reference interpreter (limit {MAX_ELEMENTS} \
                 elements)"
            ));
        }
    }
    // The 16-bit floats are storage types: an op on f16 or bf16 computes in f32 and
    // rounds its 16-bit results (as `widen-half` compiles it); a cast converts itself.
    // Data movement on one 16-bit type moves the bits as they are, then rounds them
    // through f32 in place (what computing in f32 gives: only NaNs change, made quiet),
    // so folding a model's packed bf16 weights copies no f32 tensors.
    let moved = def.has(Traits::DATA_MOVEMENT) && single_half(main_inputs, &result_types);
    let widened =
        !moved && !std::ptr::eq(def, &crate::ops::CAST) && has_half(main_inputs, &operand_types, &result_types);
    let (eval_inputs, eval_operands, eval_results) = if widened {
        let inputs = main_inputs
            .iter()
            .map(|t| if t.elem().is_half() { t.converted(t.elem(), ScalarType::F32) } else { t.clone() })
            .collect();
        (Cow::Owned(inputs), Cow::Owned(single_types(&operand_types)?), Cow::Owned(single_types(&result_types)?))
    } else {
        (Cow::Borrowed(main_inputs), Cow::Borrowed(&operand_types[..]), Cow::Borrowed(&result_types[..]))
    };
    let args = EvalArgs {
        inputs: &eval_inputs,
        sig: Signature { def, operands: &eval_operands, attrs: m.attrs(op) },
        result_types: &eval_results,
    };
    let mut outputs = (sem.eval)(&args)?;
    if moved {
        outputs.iter_mut().for_each(Tensor::round_half_through_f32);
    }
    if widened {
        for (t, ty) in outputs.iter_mut().zip(&result_types) {
            if let Some(half) = ty.as_tensor().map(|ty| ty.elem()).filter(|e| e.is_half()) {
                *t = t.converted(ScalarType::F32, half);
            }
        }
    }
    for (i, (t, ty)) in outputs.iter().zip(&result_types).enumerate() {
        let ty = ty.as_tensor().ok_or("result is not a tensor")?;
        if t.shape() != ty.dims().as_slice() || t.elem() != ty.elem() {
            return Err(format!(
                "internal error: '{}' computed result #{i} of shape {:?} {}, but its type is {ty}",
                def.name,
                t.shape(),
                t.elem()
            ));
        }
    }
    match epilogue {
        None => Ok(outputs),
        Some((from, block)) => {
            let mut block_inputs = outputs;
            block_inputs.extend(inputs[from..].iter().cloned());
            run_block(m, block, block_inputs).map_err(|d| format!("in the epilogue: {}", d.message))
        }
    }
}

/// Whether an op's inputs or types involve a 16-bit float (f16, bf16).
fn has_half(inputs: &[Tensor], operand_types: &[Type], result_types: &[Type]) -> bool {
    let half = |t: &Type| t.as_tensor().is_some_and(|t| t.elem().is_half());
    inputs.iter().any(|t| t.elem().is_half()) || operand_types.iter().chain(result_types).any(half)
}

/// Whether the inputs and results are all of one 16-bit float type (and there is one).
fn single_half(inputs: &[Tensor], result_types: &[Type]) -> bool {
    let elems: Vec<ScalarType> = inputs
        .iter()
        .map(|t| t.elem())
        .chain(result_types.iter().filter_map(|t| t.as_tensor().map(|t| t.elem())))
        .collect();
    elems.first().is_some_and(|e| e.is_half() && elems.iter().all(|x| x == e))
}

/// `types` with 16-bit float tensors made f32 tensors of the same shape.
fn single_types(types: &[Type]) -> Result<Vec<Type>, String> {
    types
        .iter()
        .map(|t| match t.as_tensor() {
            Some(tt) if tt.elem().is_half() => Type::tensor(tt.shape().to_vec(), ScalarType::F32),
            _ => Ok(t.clone()),
        })
        .collect()
}

/// Whether elementwise op `op` maps all-zero operands to zero, by its own reference
/// semantics on one element (`relu`, `add`, `mul`, `clamp(0, 6)` do; `sigmoid`, `exp`
/// and `div` do not). Blocked layouts may carry ops through their zero padding lanes
/// only when this holds.
pub fn maps_zero_to_zero(m: &Module, op: Op) -> bool {
    let def = m.def(op);
    if !def.has(tcc_ir::Traits::ELEMENTWISE) || m.results(op).len() != 1 {
        return false;
    }
    let Some(sem) = semantics(def) else { return false };
    let scalar = |v: Value| m.value_type(v).as_tensor().map(|t| t.elem());
    let Some(inputs) = m
        .operands(op)
        .iter()
        .map(|&v| scalar(v).and_then(|e| Tensor::zeros(e, &[]).ok()))
        .collect::<Option<Vec<Tensor>>>()
    else {
        return false;
    };
    let operand_types: Vec<Type> = inputs.iter().map(|t| Type::from_tensor(t.tensor_type())).collect();
    let Some(result_elem) = scalar(m.result(op, 0)) else { return false };
    let Ok(result_type) = crate::infer::tensor(Vec::new(), result_elem) else { return false };
    let result_types = [result_type];
    let args = EvalArgs {
        inputs: &inputs,
        sig: Signature { def, operands: &operand_types, attrs: m.attrs(op) },
        result_types: &result_types,
    };
    match (sem.eval)(&args) {
        Ok(out) => out.first().is_some_and(|t| t.to_f64s().iter().all(|&x| x == 0.0)),
        Err(_) => false,
    }
}

/// Checks that `t` matches tensor type `ty`.
pub fn check_tensor(t: &Tensor, ty: &Type, what: &str) -> Result<(), String> {
    let ty = ty.as_tensor().ok_or_else(|| format!("{what} has non-tensor type {ty}"))?;
    if t.elem() != ty.elem() {
        return Err(format!("{what} has element type {}, expected {}", t.elem(), ty.elem()));
    }
    if t.shape() != ty.dims().as_slice() {
        return Err(format!("{what} has shape {:?}, expected {:?}", t.shape(), ty.dims()));
    }
    Ok(())
}

/// Runs function `func` (with a body) on `inputs`; returns its results.
pub fn run_function(m: &Module, func: Op, inputs: &[Tensor]) -> Result<Vec<Tensor>, Diagnostic> {
    let loc = m.loc(func).clone();
    let err = |op: Op, msg: String| Diagnostic::error(m.loc(op).clone(), msg);
    let name = func_name(m, func).to_string();
    let ty = func_type(m, func).ok_or_else(|| err(func, "function has no type".into()))?;
    let entry = func_entry(m, func).ok_or_else(|| err(func, format!("function @{name} has no body")))?;
    if inputs.len() != ty.inputs.len() {
        return Err(Diagnostic::error(
            loc,
            format!("@{name} takes {} inputs, {} given", ty.inputs.len(), inputs.len()),
        ));
    }
    for (i, (t, ty)) in inputs.iter().zip(&ty.inputs).enumerate() {
        check_tensor(t, ty, &format!("input #{i}")).map_err(|e| Diagnostic::error(loc.clone(), e))?;
    }
    run_block(m, entry, inputs.to_vec())
}

/// Runs the ops of `block` with its arguments bound to `inputs`; returns the values its
/// terminator (`return` or `graph.yield`) gives.
pub fn run_block(m: &Module, block: tcc_ir::Block, inputs: Vec<Tensor>) -> Result<Vec<Tensor>, Diagnostic> {
    let err = |op: Op, msg: String| Diagnostic::error(m.loc(op).clone(), msg);
    let mut env: HashMap<Value, Tensor> = HashMap::new();
    let mut remaining_uses: HashMap<Value, usize> = HashMap::new();
    for (&arg, t) in m.block_args(block).iter().zip(inputs) {
        remaining_uses.insert(arg, m.uses(arg).len());
        env.insert(arg, t);
    }
    for op in m.block_ops(block) {
        let args: Vec<Tensor> = m
            .operands(op)
            .iter()
            .map(|v| {
                env.get(v).cloned().ok_or_else(|| err(op, "operand has no value (is the module verified?)".into()))
            })
            .collect::<Result<_, _>>()?;
        if m.has_trait(op, tcc_ir::Traits::TERMINATOR) {
            return Ok(args);
        }
        let outputs = eval_op(m, op, &args).map_err(|e| err(op, format!("'{}': {e}", m.name(op))))?;
        for &v in m.operands(op) {
            let left = remaining_uses.get_mut(&v).expect("every operand was defined");
            *left -= 1;
            if *left == 0 {
                env.remove(&v);
            }
        }
        for (&r, t) in m.results(op).iter().zip(outputs) {
            remaining_uses.insert(r, m.uses(r).len());
            env.insert(r, t);
        }
    }
    let loc = m.block_parent_op(block).map_or_else(|| m.loc(m.top()).clone(), |p| m.loc(p).clone());
    Err(Diagnostic::error(loc, "block has no terminator"))
}
