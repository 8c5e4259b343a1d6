//! `convert-tosa-to-graph`: imports TOSA (as torch-mlir exports it) into the graph
//! dialect.
//!
//! Each TOSA op becomes one or a few graph ops built before it with graph shape
//! inference; the last one's type must equal the TOSA result type written in the file,
//! which is how a malformed file is caught. Simple ops map one to one (an arm each of
//! the exhaustive match on [`TosaOp`]);
//! the NHWC ops (conv2d, depthwise_conv2d, pools) become NCHW graph ops between
//! transposes ([`nn`]), which canonicalization cancels against the transposes
//! torch-mlir puts around them. Shape operands (`tosa.const_shape`) are read as
//! attributes and their ops removed once unused. Anything tcc cannot import exactly —
//! quantized zero points, a non-zero `mul` shift, `nan_mode = "IGNORE"` on reductions
//! and pools — is an error at the op's location, never an approximation.

mod nn;

use tcc_dialect_graph::GraphOp;
use tcc_dialect_graph::infer::ANY;
use tcc_dialect_graph::ops as g;
use tcc_dialect_tosa::ops::{self as t, TosaOp};
use tcc_ir::{
    AttrDict, Attribute, DenseElements, Diagnostic, Diagnostics, Location, Module, Op, OpDef, OperationState, Pass,
    PassInfo, Scalar, ScalarType, TensorType, Type, Value,
};

pub static CONVERT_TOSA_TO_GRAPH: PassInfo = PassInfo {
    name: "convert-tosa-to-graph",
    summary: "Import TOSA and arith.constant ops into the graph dialect (NHWC convs and pools become NCHW ops between transposes)",
    options: &[],
    create: |_| Ok(Box::new(ConvertTosaToGraph)),
};

pub struct ConvertTosaToGraph;

impl Pass for ConvertTosaToGraph {
    fn name(&self) -> &'static str {
        "convert-tosa-to-graph"
    }
    fn run(&self, m: &mut Module) -> Result<(), Diagnostics> {
        convert(m)
    }
}

/// Why an op of the TOSA dialect is not imported.
const UNSUPPORTED: &str = "tcc does not support this TOSA op yet (the ones it supports are listed in docs/tosa.md)";

/// Whether the conversion handles ops of this kind.
pub fn is_imported(def: &OpDef) -> bool {
    def.dialect() == "tosa" || t::op_kind(def).is_some()
}

/// Imports every TOSA op of `m`; all failures are reported, each at its op.
pub fn convert(m: &mut Module) -> Result<(), Diagnostics> {
    let mut diags = Diagnostics::new();
    let ops: Vec<Op> = m.walk(m.top()).into_iter().filter(|&op| is_imported(m.def(op))).collect();
    // Imported constants: those only read as other ops' parameters (zero points, shifts)
    // are unused once their users are imported, and go.
    let mut constants = Vec::new();
    for &op in &ops {
        if is_operand_constant(m, op) {
            continue;
        }
        let loc = m.loc(op).clone();
        let name = m.name(op);
        let constant = matches!(t::op_kind(m.def(op)), Some(TosaOp::Const | TosaOp::ArithConstant));
        let mut im = Importer { m, anchor: op, loc: loc.clone() };
        match im.import().and_then(|v| im.check_result(v)) {
            Ok(v) => {
                m.replace_op(op, &[v]);
                if constant {
                    constants.push(v);
                }
            }
            Err(msg) => diags.push(Diagnostic::error(loc, format!("cannot import '{name}': {msg}"))),
        }
    }
    for v in constants {
        if let Some(c) = m.defining_op(v).filter(|&c| !m.is_erased(c) && m.results_unused(c)) {
            m.erase_op(c);
        }
    }
    for op in ops {
        if m.is_erased(op) {
            continue;
        }
        if m.results_unused(op) {
            m.erase_op(op);
        } else if !diags.has_errors() {
            let ty = m.value_type(m.result(op, 0));
            let msg = match ty.as_tensor().map(|t| tcc_dialect_graph::infer::supported_element(t.elem())) {
                Some(Err(unsupported)) => format!("cannot import '{}': {unsupported}", m.name(op)),
                _ => format!("cannot import '{}': {ty} is not a graph dialect type", m.name(op)),
            };
            diags.push(Diagnostic::error(m.loc(op).clone(), msg));
        }
    }
    diags.into_result()
}

/// Constants that only feed other ops' attributes (shapes, `mul` shifts, i8 zero
/// points): read by their users, removed once unused.
fn is_operand_constant(m: &Module, op: Op) -> bool {
    let elem = m.results(op).first().and_then(|&r| m.value_type(r).as_tensor()).map(|t| t.elem());
    match t::op_kind(m.def(op)) {
        Some(TosaOp::ConstShape) => true,
        Some(TosaOp::Const | TosaOp::ArithConstant) => elem.is_some_and(|e| !ANY.contains(&e)),
        _ => false,
    }
}

/// Builds the graph ops for one TOSA op, just before it.
pub(crate) struct Importer<'m> {
    pub m: &'m mut Module,
    pub anchor: Op,
    pub loc: Location,
}

/// An attribute dictionary from pairs.
pub(crate) fn attrs(pairs: &[(&str, Attribute)]) -> AttrDict {
    let mut d = AttrDict::new();
    for (k, v) in pairs {
        d.set(k, v.clone());
    }
    d
}

impl Importer<'_> {
    fn import(&mut self) -> Result<Value, String> {
        let def = self.m.def(self.anchor);
        let Some(kind) = t::op_kind(def) else { return Err(UNSUPPORTED.into()) };
        let integers = |e: ScalarType| e == ScalarType::I32 || e == ScalarType::I64;
        let booleans = |e: ScalarType| e == ScalarType::I1;
        match kind {
            TosaOp::Const => self.constant_attr("values"),
            TosaOp::ArithConstant => self.constant_attr("value"),
            TosaOp::ConstShape => Err("a shape is only imported as another op's operand".into()),
            TosaOp::Add => self.same(&g::ADD),
            TosaOp::Sub => self.same(&g::SUB),
            TosaOp::Pow => self.same(&g::POW),
            TosaOp::Greater => self.same(&g::GREATER),
            TosaOp::Equal => self.same(&g::EQUAL),
            TosaOp::Select => self.same(&g::SELECT),
            TosaOp::Abs => self.same(&g::ABS),
            TosaOp::Ceil => self.same(&g::CEIL),
            TosaOp::Floor => self.same(&g::FLOOR),
            TosaOp::Exp => self.same(&g::EXP),
            TosaOp::Log => self.same(&g::LOG),
            TosaOp::Erf => self.same(&g::ERF),
            TosaOp::Sin => self.same(&g::SIN),
            TosaOp::Cos => self.same(&g::COS),
            TosaOp::Tanh => self.same(&g::TANH),
            TosaOp::Sigmoid => self.same(&g::SIGMOID),
            TosaOp::Rsqrt => self.same(&g::RSQRT),
            TosaOp::Reciprocal => self.same(&g::RECIPROCAL),
            TosaOp::BitwiseAnd => self.same(&g::AND),
            TosaOp::BitwiseOr => self.same(&g::OR),
            TosaOp::BitwiseXor => self.same(&g::XOR),
            TosaOp::BitwiseNot => self.same(&g::NOT),
            TosaOp::LogicalLeftShift => self.same(&g::SHIFT_LEFT),
            TosaOp::LogicalRightShift => self.same(&g::SHIFT_RIGHT_LOGICAL),
            TosaOp::Intdiv => self.on_elements(&g::DIV, integers, "i32 or i64"),
            TosaOp::LogicalAnd => self.on_elements(&g::AND, booleans, "i1"),
            TosaOp::LogicalOr => self.on_elements(&g::OR, booleans, "i1"),
            TosaOp::LogicalXor => self.on_elements(&g::XOR, booleans, "i1"),
            TosaOp::LogicalNot => self.on_elements(&g::NOT, booleans, "i1"),
            TosaOp::ReduceSum => self.reduction(&g::REDUCE_SUM, kind),
            TosaOp::ReduceMax => self.reduction(&g::REDUCE_MAX, kind),
            TosaOp::ReduceMin => self.reduction(&g::REDUCE_MIN, kind),
            TosaOp::ReduceAll => self.reduction(&g::REDUCE_MIN, kind),
            TosaOp::ReduceAny => self.reduction(&g::REDUCE_MAX, kind),
            TosaOp::ReduceProduct => self.reduction(&g::REDUCE_PROD, kind),
            TosaOp::Argmax => self.argmax(),
            TosaOp::Mul => {
                let shift = self.constant_of(self.operand(2)).ok_or("the shift operand must be a constant")?;
                if shift.to_i64s().iter().any(|&s| s != 0) {
                    return Err("a non-zero shift (quantized multiply) is not supported".into());
                }
                self.op(&g::MUL, &[self.operand(0), self.operand(1)], AttrDict::new())
            }
            TosaOp::Negate => {
                self.zero_point(1, "input")?;
                self.zero_point(2, "output")?;
                self.op(&g::NEG, &[self.operand(0)], AttrDict::new())
            }
            TosaOp::Maximum => self.min_max(true),
            TosaOp::Minimum => self.min_max(false),
            TosaOp::GreaterEqual => {
                // a >= b is (a > b) or (a == b): false where either is NaN.
                let (a, b) = (self.operand(0), self.operand(1));
                let gt = self.op(&g::GREATER, &[a, b], AttrDict::new())?;
                let eq = self.op(&g::EQUAL, &[a, b], AttrDict::new())?;
                self.op(&g::SELECT, &[gt, gt, eq], AttrDict::new())
            }
            TosaOp::ArithmeticRightShift => self.arithmetic_right_shift(),
            TosaOp::Clamp => self.clamp(),
            TosaOp::Cast => self.cast(),
            TosaOp::Reshape => self.reshape_op(),
            TosaOp::Transpose => {
                let perm = self.ints("perms")?;
                self.transpose(self.operand(0), &perm)
            }
            TosaOp::Slice => self.slice(),
            TosaOp::Concat => {
                let operands = self.m.operands(self.anchor).to_vec();
                self.op(&g::CONCAT, &operands, attrs(&[("axis", Attribute::i64(self.int("axis")?))]))
            }
            TosaOp::Pad => self.pad(),
            TosaOp::Tile => self.tile(),
            TosaOp::Reverse => self.reverse(),
            TosaOp::Identity => Ok(self.operand(0)),
            TosaOp::Gather => self.gather(),
            TosaOp::Scatter => self.same(&g::SCATTER),
            TosaOp::TransposeConv2d => self.transpose_conv2d(),
            TosaOp::Matmul => self.matmul(),
            TosaOp::Conv2d => self.conv2d(false),
            TosaOp::Conv3d => self.conv3d(),
            TosaOp::DepthwiseConv2d => self.conv2d(true),
            TosaOp::MaxPool2d => self.pool(true),
            TosaOp::AvgPool2d => self.pool(false),
        }
    }

    /// The graph op `def` on the TOSA op's operands, unchanged.
    fn same(&mut self, def: &'static OpDef) -> Result<Value, String> {
        let operands = self.m.operands(self.anchor).to_vec();
        self.op(def, &operands, AttrDict::new())
    }

    /// The imported value must have the type the file gives the TOSA result.
    fn check_result(&self, v: Value) -> Result<Value, String> {
        let results = self.m.results(self.anchor);
        if results.len() != 1 {
            return Err(format!("expected one result, got {}", results.len()));
        }
        let (want, got) = (self.m.value_type(results[0]), self.m.value_type(v));
        if want != got {
            return Err(format!("the result type {want} does not match the operands, which give {got}"));
        }
        Ok(v)
    }

    // -- helpers ---------------------------------------------------------------------------

    pub fn operand(&self, i: usize) -> Value {
        self.m.operand(self.anchor, i)
    }

    pub fn tensor(&self, v: Value) -> Result<TensorType, String> {
        let ty = self.m.value_type(v);
        ty.as_tensor().cloned().ok_or_else(|| format!("expected a tensor, got {ty}"))
    }

    pub fn result_type(&self) -> Result<TensorType, String> {
        self.tensor(self.m.result(self.anchor, 0))
    }

    fn attr(&self, name: &str) -> Result<Attribute, String> {
        self.m.attr_or_default(self.anchor, name).ok_or_else(|| format!("missing attribute '{name}'"))
    }
    pub fn int(&self, name: &str) -> Result<i64, String> {
        self.attr(name)?.as_i64().ok_or_else(|| format!("attribute '{name}' must be an integer"))
    }
    pub fn float(&self, name: &str) -> Result<f64, String> {
        self.attr(name)?.as_f64().ok_or_else(|| format!("attribute '{name}' must be a number"))
    }
    pub fn ints(&self, name: &str) -> Result<Vec<i64>, String> {
        self.attr(name)?.as_i64_list().ok_or_else(|| format!("attribute '{name}' must be a list of integers"))
    }
    /// An integer list attribute with exactly `n` entries.
    pub fn ints_n(&self, name: &str, n: usize) -> Result<Vec<i64>, String> {
        let v = self.ints(name)?;
        if v.len() != n {
            return Err(format!("attribute '{name}' must have {n} entries, got {}", v.len()));
        }
        Ok(v)
    }
    pub fn nan_propagates(&self) -> Result<bool, String> {
        let attr = self.attr("nan_mode")?;
        let mode = t::nan_mode(&attr)
            .ok_or_else(|| format!("attribute 'nan_mode' must be PROPAGATE or IGNORE, got {attr}"))?;
        Ok(mode == "PROPAGATE")
    }

    /// A graph op on `operands`, result type from shape inference, before the anchor.
    pub fn op(&mut self, def: &'static OpDef, operands: &[Value], attrs: AttrDict) -> Result<Value, String> {
        let types: Vec<Type> = operands.iter().map(|&v| self.m.value_type(v).clone()).collect();
        let result = def.infer_types(&types, &attrs).map_err(|e| format!("as '{}': {e}", def.name))?;
        Ok(self.op_typed(def, operands, attrs, result))
    }

    /// A graph op with explicit result types (casts).
    pub fn op_typed(&mut self, def: &'static OpDef, operands: &[Value], attrs: AttrDict, results: Vec<Type>) -> Value {
        let mut state = OperationState::new(def, self.loc.clone());
        state.operands = operands.to_vec();
        state.attrs = attrs;
        state.result_types = results;
        let op = self.m.create_op(state);
        self.m.insert_op_before(self.anchor, op);
        self.m.result(op, 0)
    }

    pub fn constant(&mut self, value: DenseElements) -> Value {
        let ty = Type::from_tensor(value.ty().clone());
        self.op_typed(&g::CONSTANT, &[], attrs(&[("value", Attribute::Dense(value))]), vec![ty])
    }

    /// A constant of `shape` filled with `value`.
    pub fn splat(&mut self, shape: Vec<i64>, elem: ScalarType, value: f64) -> Result<Value, String> {
        let scalar = if elem.is_float() { Scalar::Float(value) } else { Scalar::Int(value as i64) };
        Ok(self.constant(DenseElements::splat(TensorType::new(shape, elem)?, scalar)))
    }

    pub fn transpose(&mut self, x: Value, perm: &[i64]) -> Result<Value, String> {
        self.op(&g::TRANSPOSE, &[x], attrs(&[("perm", Attribute::i64_list(perm))]))
    }

    pub fn reshape(&mut self, x: Value, shape: &[i64]) -> Result<Value, String> {
        self.op(&g::RESHAPE, &[x], attrs(&[("shape", Attribute::i64_list(shape))]))
    }

    /// The elements of a constant operand (`tosa.const`, `arith.constant`, or one already
    /// imported as `graph.constant`).
    pub fn constant_of(&self, v: Value) -> Option<DenseElements> {
        let def = self.m.defining_op(v)?;
        let name = match (t::op_kind(self.m.def(def)), tcc_dialect_graph::kind_of(self.m, def)) {
            (Some(TosaOp::ArithConstant), _) | (_, Some(GraphOp::Constant)) => "value",
            (Some(TosaOp::Const | TosaOp::ConstShape), _) => "values",
            _ => return None,
        };
        self.m.attr(def, name)?.as_dense().cloned()
    }

    /// The extents of a `!tosa.shape` operand, which must come from `tosa.const_shape`.
    pub fn shape_operand(&self, i: usize) -> Result<Vec<i64>, String> {
        let v = self.operand(i);
        let from_const_shape =
            self.m.defining_op(v).is_some_and(|d| t::op_kind(self.m.def(d)) == Some(TosaOp::ConstShape));
        match self.constant_of(v) {
            Some(d) if from_const_shape => Ok(d.to_i64s()),
            _ => Err(format!("operand #{i} must be a constant shape (tosa.const_shape)")),
        }
    }

    /// Operand `i` must be a constant zero point equal to 0 (tcc imports float models).
    pub fn zero_point(&self, i: usize, what: &str) -> Result<(), String> {
        let d = self.constant_of(self.operand(i)).ok_or_else(|| format!("the {what} zero point must be a constant"))?;
        if d.to_f64s().iter().any(|&z| z != 0.0) {
            return Err(format!("a non-zero {what} zero point (quantized tensor) is not supported"));
        }
        Ok(())
    }

    // -- simple ops ----------------------------------------------------------------------------

    fn constant_attr(&mut self, name: &str) -> Result<Value, String> {
        match self.attr(name)? {
            Attribute::Dense(d) => Ok(self.constant(d)),
            other => Err(format!("only tensor constants are imported, got {} {other}", other.kind_name())),
        }
    }

    /// TOSA reduction `kind` as graph reduction `def` (`keepdims = true`).
    fn reduction(&mut self, def: &'static OpDef, kind: TosaOp) -> Result<Value, String> {
        let axis = self.int("axis")?;
        let reduce_attrs = attrs(&[("axes", Attribute::i64_list(&[axis])), ("keepdims", Attribute::Bool(true))]);
        if matches!(kind, TosaOp::ReduceMax | TosaOp::ReduceMin) && !self.nan_propagates()? {
            return Err("nan_mode = \"IGNORE\" is not supported on reductions".into());
        }
        let x = self.operand(0);
        if !matches!(kind, TosaOp::ReduceAll | TosaOp::ReduceAny) {
            return self.op(def, &[x], reduce_attrs);
        }
        // all/any over i1: min/max over 0/1 integers.
        let shape = self.tensor(x)?.shape().to_vec();
        let as_int = self.op_typed(&g::CAST, &[x], AttrDict::new(), vec![Type::tensor(shape, ScalarType::I32)?]);
        let r = self.op(def, &[as_int], reduce_attrs)?;
        let r_shape = self.tensor(r)?.shape().to_vec();
        Ok(self.op_typed(&g::CAST, &[r], AttrDict::new(), vec![Type::tensor(r_shape, ScalarType::I1)?]))
    }

    /// `tosa.argmax`: `graph.argmax` (i64 indices), cast to the declared index type.
    fn argmax(&mut self) -> Result<Value, String> {
        if !self.nan_propagates()? {
            return Err("nan_mode = \"IGNORE\" is not supported on argmax".into());
        }
        let r = self.op(&g::ARGMAX, &[self.operand(0)], attrs(&[("axis", Attribute::i64(self.int("axis")?))]))?;
        let want = self.m.value_type(self.m.result(self.anchor, 0)).clone();
        if self.m.value_type(r) == &want {
            return Ok(r);
        }
        Ok(self.op_typed(&g::CAST, &[r], AttrDict::new(), vec![want]))
    }

    /// `def` on the anchor's operands, whose element type must satisfy `allowed`.
    fn on_elements(
        &mut self,
        def: &'static OpDef,
        allowed: fn(ScalarType) -> bool,
        what: &str,
    ) -> Result<Value, String> {
        let operands = self.m.operands(self.anchor).to_vec();
        for (i, &v) in operands.iter().enumerate() {
            let elem = self.tensor(v)?.elem();
            if !allowed(elem) {
                return Err(format!("operand #{i} must be {what}, got {elem}"));
            }
        }
        self.op(def, &operands, AttrDict::new())
    }

    /// `arithmetic_right_shift`: `a >> b`, plus, with `round`, the last bit shifted out
    /// (`(a >> (b - 1)) & 1` where `b > 0`).
    fn arithmetic_right_shift(&mut self) -> Result<Value, String> {
        let (a, b) = (self.operand(0), self.operand(1));
        let shifted = self.op(&g::SHIFT_RIGHT, &[a, b], AttrDict::new())?;
        if !self.attr("round")?.as_bool().ok_or("attribute 'round' must be a boolean")? {
            return Ok(shifted);
        }
        let elem = self.tensor(a)?.elem();
        let none = AttrDict::new;
        let (zero, one) = (self.splat(vec![], elem, 0.0)?, self.splat(vec![], elem, 1.0)?);
        let positive = self.op(&g::GREATER, &[b, zero], none())?;
        let b_minus_one = self.op(&g::SUB, &[b, one], none())?;
        let last_amount = self.op(&g::SELECT, &[positive, b_minus_one, zero], none())?;
        let last_shift = self.op(&g::SHIFT_RIGHT, &[a, last_amount], none())?;
        let last_bit = self.op(&g::AND, &[last_shift, one], none())?;
        let carry = self.op(&g::SELECT, &[positive, last_bit, zero], none())?;
        self.op(&g::ADD, &[shifted, carry], none())
    }

    /// `maximum`/`minimum`; with `nan_mode = "IGNORE"` a NaN operand yields the other.
    fn min_max(&mut self, is_max: bool) -> Result<Value, String> {
        let (a, b) = (self.operand(0), self.operand(1));
        let r = self.op(if is_max { &g::MAX } else { &g::MIN }, &[a, b], AttrDict::new())?;
        if self.nan_propagates()? || !self.tensor(a)?.elem().is_float() {
            return Ok(r);
        }
        let a_num = self.op(&g::EQUAL, &[a, a], AttrDict::new())?;
        let b_num = self.op(&g::EQUAL, &[b, b], AttrDict::new())?;
        let r_or_a = self.op(&g::SELECT, &[b_num, r, a], AttrDict::new())?;
        self.op(&g::SELECT, &[a_num, r_or_a, b], AttrDict::new())
    }

    /// `clamp`; with `nan_mode = "IGNORE"` a NaN becomes `min_val`.
    fn clamp(&mut self) -> Result<Value, String> {
        let (lo, hi) = (self.float("min_val")?, self.float("max_val")?);
        let x = self.operand(0);
        let bounds = attrs(&[("min", Attribute::f64(lo)), ("max", Attribute::f64(hi))]);
        let r = self.op(&g::CLAMP, &[x], bounds)?;
        let elem = self.tensor(x)?.elem();
        if self.nan_propagates()? || !elem.is_float() {
            return Ok(r);
        }
        let is_num = self.op(&g::EQUAL, &[x, x], AttrDict::new())?;
        let low = self.splat(vec![], elem, lo)?;
        self.op(&g::SELECT, &[is_num, r, low], AttrDict::new())
    }

    /// `cast`: as `graph.cast`, except that float -> integer rounds to nearest, ties to
    /// even, before converting (which saturates).
    fn cast(&mut self) -> Result<Value, String> {
        let x = self.operand(0);
        let (src, dst) = (self.tensor(x)?, self.result_type()?);
        let to_int = src.elem().is_float() && dst.elem().is_integer() && dst.elem() != ScalarType::I1;
        let x = if to_int { self.round_half_even(x)? } else { x };
        Ok(self.op_typed(&g::CAST, &[x], AttrDict::new(), vec![Type::from_tensor(dst)]))
    }

    /// Rounds to the nearest integer, ties to even: f = floor(x), d = x - f (exact),
    /// then f + 1 if d > 0.5, f + (f mod 2) if d == 0.5, else f.
    fn round_half_even(&mut self, x: Value) -> Result<Value, String> {
        let elem = self.tensor(x)?.elem();
        let none = AttrDict::new;
        let f = self.op(&g::FLOOR, &[x], none())?;
        let d = self.op(&g::SUB, &[x, f], none())?;
        let (half, one, zero) =
            (self.splat(vec![], elem, 0.5)?, self.splat(vec![], elem, 1.0)?, self.splat(vec![], elem, 0.0)?);
        let two = self.splat(vec![], elem, 2.0)?;
        let f_half = self.op(&g::MUL, &[f, half], none())?;
        let f_half_floor = self.op(&g::FLOOR, &[f_half], none())?;
        let f_even = self.op(&g::MUL, &[f_half_floor, two], none())?;
        let f_odd = self.op(&g::SUB, &[f, f_even], none())?;
        let up = self.op(&g::GREATER, &[d, half], none())?;
        let tie = self.op(&g::EQUAL, &[d, half], none())?;
        let tie_step = self.op(&g::SELECT, &[tie, f_odd, zero], none())?;
        let step = self.op(&g::SELECT, &[up, one, tie_step], none())?;
        self.op(&g::ADD, &[f, step], none())
    }

    /// `reshape`: the shape operand must agree with the result type (-1 matches any
    /// extent).
    fn reshape_op(&mut self) -> Result<Value, String> {
        let shape = self.shape_operand(1)?;
        let result = self.result_type()?;
        let agrees = shape.len() == result.rank() && shape.iter().zip(result.shape()).all(|(&s, &r)| s == -1 || s == r);
        if !agrees {
            return Err(format!("the shape operand {shape:?} does not match the result type {result}"));
        }
        self.reshape(self.operand(0), result.shape())
    }

    fn slice(&mut self) -> Result<Value, String> {
        let x = self.operand(0);
        let in_shape = self.tensor(x)?.shape().to_vec();
        let (start, size) = (self.shape_operand(1)?, self.shape_operand(2)?);
        if start.len() != in_shape.len() || size.len() != in_shape.len() {
            return Err(format!("start and size must have {} entries", in_shape.len()));
        }
        // A size of -1 extends to the end of the dimension.
        let size: Vec<i64> =
            size.iter().zip(&start).zip(&in_shape).map(|((&s, &b), &d)| if s == -1 { d - b } else { s }).collect();
        self.op(
            &g::SLICE,
            &[x],
            attrs(&[("starts", Attribute::i64_list(&start)), ("sizes", Attribute::i64_list(&size))]),
        )
    }

    fn pad(&mut self) -> Result<Value, String> {
        let x = self.operand(0);
        let rank = self.tensor(x)?.rank();
        let padding = self.shape_operand(1)?;
        if padding.len() != 2 * rank {
            return Err(format!("padding must have {} entries (low and high per dimension)", 2 * rank));
        }
        let value = self.constant_of(self.operand(2)).ok_or("the pad value must be a constant")?;
        if value.numel() != 1 {
            return Err("the pad value must have one element".into());
        }
        let low: Vec<i64> = padding.iter().step_by(2).copied().collect();
        let high: Vec<i64> = padding.iter().skip(1).step_by(2).copied().collect();
        let pad_attrs = attrs(&[
            ("low", Attribute::i64_list(&low)),
            ("high", Attribute::i64_list(&high)),
            ("value", Attribute::f64(value.get(0).as_f64())),
        ]);
        self.op(&g::PAD, &[x], pad_attrs)
    }

    /// `tile`: interleave unit dimensions, broadcast them to the multiples, merge.
    fn tile(&mut self) -> Result<Value, String> {
        let x = self.operand(0);
        let shape = self.tensor(x)?.shape().to_vec();
        let multiples = self.shape_operand(1)?;
        if multiples.len() != shape.len() || multiples.iter().any(|&k| k < 1) {
            return Err(format!("multiples must be {} positive extents, got {multiples:?}", shape.len()));
        }
        let spread: Vec<i64> = shape.iter().flat_map(|&d| [1, d]).collect();
        let tiled: Vec<i64> = shape.iter().zip(&multiples).flat_map(|(&d, &k)| [k, d]).collect();
        let merged: Vec<i64> = shape.iter().zip(&multiples).map(|(&d, &k)| d * k).collect();
        let r = self.reshape(x, &spread)?;
        let r = self.op(&g::BROADCAST_TO, &[r], attrs(&[("shape", Attribute::i64_list(&tiled))]))?;
        self.reshape(r, &merged)
    }
}
