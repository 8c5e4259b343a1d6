//! A builder for loop-dialect IR: appends ops to the current block, makes loop nests
//! from closures, and keeps one copy of each constant at the top of the function.

use std::collections::HashMap;

use tcc_dialect_loop::{self as lp, LoopOp};
use tcc_dialect_vector as vp;
use tcc_ir::scalar::{Compare, ScalarBuilder, ScalarFn};
use tcc_ir::{
    AttrDict, Attribute, Block, BufferType, Location, Module, OpDef, OperationState, ScalarType, Type, Value,
    VectorType,
};

pub struct Builder<'m> {
    pub m: &'m mut Module,
    /// Where new ops go: the end of `block`, or before `before` when set.
    block: Block,
    before: Option<tcc_ir::Op>,
    /// The function's entry block, where constants live.
    entry: Block,
    pub loc: Location,
    consts: HashMap<(u64, Type), Value>,
}

pub fn index() -> Type {
    Type::Scalar(ScalarType::Index)
}

impl<'m> Builder<'m> {
    pub fn new(m: &'m mut Module, entry: Block, loc: Location) -> Builder<'m> {
        Builder { m, block: entry, before: None, entry, loc, consts: HashMap::new() }
    }

    /// A builder inserting before `anchor` (constants go to the top of `entry`).
    pub fn before(m: &'m mut Module, anchor: tcc_ir::Op, entry: Block) -> Builder<'m> {
        let block = m.parent_block(anchor).expect("anchor in a block");
        let loc = m.loc(anchor).clone();
        Builder { m, block, before: Some(anchor), entry, loc, consts: HashMap::new() }
    }

    fn place(&mut self, op: tcc_ir::Op) {
        match self.before {
            Some(anchor) => self.m.insert_op_before(anchor, op),
            None => self.m.append_op(self.block, op),
        }
    }

    pub fn ty(&self, v: Value) -> Type {
        self.m.value_type(v).clone()
    }

    pub fn buffer_type(&self, v: Value) -> BufferType {
        self.m.value_type(v).as_buffer().expect("a buffer value").clone()
    }

    /// Appends an op with explicit result types; returns its results.
    pub fn op_typed(
        &mut self,
        def: &'static OpDef,
        operands: &[Value],
        attrs: AttrDict,
        results: Vec<Type>,
    ) -> Vec<Value> {
        let mut st = OperationState::new(def, self.loc.clone());
        st.operands = operands.to_vec();
        st.attrs = attrs;
        st.result_types = results;
        let op = self.m.create_op(st);
        self.place(op);
        self.m.results(op).to_vec()
    }

    /// Appends an op whose result type is inferred; returns its single result.
    pub fn op(&mut self, def: &'static OpDef, operands: &[Value], attrs: AttrDict) -> Value {
        let types: Vec<Type> = operands.iter().map(|&v| self.ty(v)).collect();
        let results =
            def.infer_types(&types, &attrs).unwrap_or_else(|e| panic!("lowering built an invalid '{}': {e}", def.name));
        self.op_typed(def, operands, attrs, results)[0]
    }

    /// `f(a, b)` on scalars or vectors of one type.
    pub fn bin(&mut self, f: ScalarFn, a: Value, b: Value) -> Value {
        self.op(lp::arith(f), &[a, b], AttrDict::new())
    }

    /// `f(a)` on a scalar or a vector.
    pub fn un(&mut self, f: ScalarFn, a: Value) -> Value {
        self.op(lp::arith(f), &[a], AttrDict::new())
    }

    /// A constant, created once per function at the top of the entry block.
    fn constant(&mut self, value: Attribute, ty: Type, bits: u64) -> Value {
        if let Some(&v) = self.consts.get(&(bits, ty.clone())) {
            return v;
        }
        let mut st = OperationState::new(&lp::CONST, self.loc.clone());
        st.attrs.set("value", value);
        st.result_types.push(ty.clone());
        let op = self.m.create_op(st);
        match self.m.first_op(self.entry) {
            Some(first) => self.m.insert_op_before(first, op),
            None => self.m.append_op(self.entry, op),
        }
        let v = self.m.result(op, 0);
        self.consts.insert((bits, ty), v);
        v
    }

    pub fn index(&mut self, v: i64) -> Value {
        self.constant(Attribute::Int(v, ScalarType::Index), index(), v as u64)
    }

    /// A constant of scalar type `elem` (floats from `v`, integers from `v` truncated).
    pub fn scalar(&mut self, elem: ScalarType, v: f64) -> Value {
        if elem.is_half() {
            // A 16-bit float is its f32 value rounded (`expand-half` converts it): code
            // generation has no 16-bit float constants.
            let wide = self.scalar(ScalarType::F32, v);
            return self.cast(wide, Type::Scalar(elem));
        }
        let (attr, bits) = if elem.is_float() {
            let v = if elem == ScalarType::F32 { v as f32 as f64 } else { v };
            (Attribute::Float(v, elem), v.to_bits())
        } else if elem == ScalarType::I1 {
            (Attribute::Bool(v != 0.0), (v != 0.0) as u64)
        } else {
            (Attribute::Int(v as i64, elem), v as i64 as u64)
        };
        self.constant(attr, Type::Scalar(elem), bits)
    }

    pub fn int(&mut self, elem: ScalarType, v: i64) -> Value {
        if elem.is_float() {
            return self.scalar(elem, v as f64);
        }
        let attr = if elem == ScalarType::I1 { Attribute::Bool(v != 0) } else { Attribute::Int(v, elem) };
        self.constant(attr, Type::Scalar(elem), v as u64)
    }

    pub fn load(&mut self, buf: Value, idx: &[Value]) -> Value {
        let elem = self.buffer_type(buf).elem();
        let mut ops = vec![buf];
        ops.extend_from_slice(idx);
        self.op_typed(&lp::LOAD, &ops, AttrDict::new(), vec![Type::Scalar(elem)])[0]
    }

    pub fn store(&mut self, v: Value, buf: Value, idx: &[Value]) {
        let mut ops = vec![v, buf];
        ops.extend_from_slice(idx);
        self.op_typed(&lp::STORE, &ops, AttrDict::new(), vec![]);
    }

    /// A constant of `like`'s type: a scalar, or a splat of it for a vector.
    pub fn constant_like(&mut self, like: Value, v: f64) -> Value {
        let ty = self.ty(like);
        let elem = lp::elem_of(&ty).expect("a scalar or vector value");
        let s = self.scalar(elem, v);
        match ty.as_vector() {
            Some(vt) => self.splat(s, vt.lanes),
            None => s,
        }
    }

    // -- vectors -------------------------------------------------------------------------

    /// `lanes` consecutive elements along the innermost dimension, starting at `idx`.
    pub fn vload(&mut self, buf: Value, idx: &[Value], lanes: u32) -> Value {
        if lanes == 1 {
            return self.load(buf, idx);
        }
        let elem = self.buffer_type(buf).elem();
        let mut ops = vec![buf];
        ops.extend_from_slice(idx);
        self.op_typed(&vp::LOAD, &ops, AttrDict::new(), vec![Type::Vector(VectorType { lanes, elem })])[0]
    }

    /// A load from a kernel's input: `lanes` consecutive elements (a scalar for 1) that
    /// nothing writes while the kernel runs, so the backend may move and merge it.
    pub fn load_input(&mut self, buf: Value, idx: &[Value], lanes: u32) -> Value {
        let v = self.vload(buf, idx, lanes);
        let op = self.m.defining_op(v).expect("a load");
        self.m.set_attr(op, "readonly", Attribute::Bool(true));
        v
    }

    /// A hint that the element at `idx` of `buf` will be read soon (`loop.prefetch`).
    pub fn prefetch(&mut self, buf: Value, idx: &[Value]) {
        let mut ops = vec![buf];
        ops.extend_from_slice(idx);
        self.op_typed(&lp::PREFETCH, &ops, AttrDict::new(), vec![]);
    }

    /// The address of the element at `idx` of `buf`, as an index (`loop.address`).
    pub fn address(&mut self, buf: Value, idx: &[Value]) -> Value {
        let mut ops = vec![buf];
        ops.extend_from_slice(idx);
        self.op_typed(&lp::ADDRESS, &ops, AttrDict::new(), vec![index()])[0]
    }

    /// Calls the broadcast-tile microkernel of `isa` (with `dot`, its bf16 dot tile)
    /// with its 35 arguments (`loop.microkernel`).
    pub fn microkernel(&mut self, isa: tcc_target::Isa, dot: bool, args: &[Value]) {
        let mut attrs = AttrDict::new().with("isa", Attribute::string(isa.name()));
        if dot {
            attrs = attrs.with("dot", Attribute::Bool(true));
        }
        self.op_typed(&lp::MICROKERNEL, args, attrs, vec![]);
    }

    /// Stores a vector (or a scalar) at `idx`.
    pub fn vstore(&mut self, v: Value, buf: Value, idx: &[Value]) {
        if self.ty(v).as_vector().is_none() {
            return self.store(v, buf, idx);
        }
        let mut ops = vec![v, buf];
        ops.extend_from_slice(idx);
        self.op_typed(&vp::STORE, &ops, AttrDict::new(), vec![]);
    }

    /// A vector of `lanes` copies of scalar `x` (`x` itself when `lanes` is 1).
    pub fn splat(&mut self, x: Value, lanes: u32) -> Value {
        if lanes == 1 {
            return x;
        }
        let elem = lp::elem_of(&self.ty(x)).expect("a scalar");
        self.op_typed(&vp::SPLAT, &[x], AttrDict::new(), vec![Type::Vector(VectorType { lanes, elem })])[0]
    }

    /// Lane `i` of vector `v`.
    pub fn extract(&mut self, v: Value, i: u32) -> Value {
        let elem = lp::elem_of(&self.ty(v)).expect("a vector");
        self.op_typed(
            &vp::EXTRACT,
            &[v],
            AttrDict::new().with("index", Attribute::i64(i as i64)),
            vec![Type::Scalar(elem)],
        )[0]
    }

    /// `a * b + c`, fused.
    pub fn fma(&mut self, a: Value, b: Value, c: Value) -> Value {
        self.op(lp::arith(ScalarFn::Fma), &[a, b, c], AttrDict::new())
    }

    pub fn cmp(&mut self, pred: Compare, a: Value, b: Value) -> Value {
        self.op(&lp::CMP, &[a, b], AttrDict::new().with("pred", Attribute::string(pred.name())))
    }

    pub fn select(&mut self, c: Value, a: Value, b: Value) -> Value {
        self.op(&lp::SELECT, &[c, a, b], AttrDict::new())
    }

    pub fn cast(&mut self, v: Value, to: Type) -> Value {
        if self.ty(v) == to {
            return v;
        }
        self.op_typed(&lp::CAST, &[v], AttrDict::new(), vec![to])[0]
    }

    pub fn assert(&mut self, cond: Value, message: String) {
        self.op_typed(&lp::ASSERT, &[cond], AttrDict::new().with("message", Attribute::String(message.into())), vec![]);
    }

    /// `buf` seen with another shape of the same element count; `buf` itself when the
    /// shape is already `shape`.
    pub fn view(&mut self, buf: Value, shape: &[i64]) -> Value {
        let bt = self.buffer_type(buf);
        if bt.shape() == shape && bt.explicit_strides().is_none() {
            return buf;
        }
        let elem = bt.elem();
        let ty = Type::Buffer(std::sync::Arc::new(BufferType::new(shape.to_vec(), elem, None).expect("valid view")));
        self.op_typed(&lp::VIEW, &[buf], AttrDict::new(), vec![ty])[0]
    }

    // -- index arithmetic (folds constants, so nests over static shapes stay readable) ----

    fn const_of(&self, v: Value) -> Option<i64> {
        let op = self.m.defining_op(v)?;
        if lp::kind_of(self.m, op) != Some(LoopOp::Const) || *self.m.value_type(v) != index() {
            return None;
        }
        self.m.attr(op, "value")?.as_i64()
    }

    pub fn add(&mut self, a: Value, b: Value) -> Value {
        match (self.const_of(a), self.const_of(b)) {
            (Some(x), Some(y)) => self.index(x + y),
            (Some(0), _) => b,
            (_, Some(0)) => a,
            _ => self.bin(ScalarFn::Add, a, b),
        }
    }
    pub fn sub(&mut self, a: Value, b: Value) -> Value {
        match (self.const_of(a), self.const_of(b)) {
            (Some(x), Some(y)) => self.index(x - y),
            (_, Some(0)) => a,
            _ => self.bin(ScalarFn::Sub, a, b),
        }
    }
    pub fn mul(&mut self, a: Value, b: Value) -> Value {
        match (self.const_of(a), self.const_of(b)) {
            (Some(x), Some(y)) => self.index(x * y),
            (Some(1), _) => b,
            (_, Some(1)) => a,
            (Some(0), _) | (_, Some(0)) => self.index(0),
            _ => self.bin(ScalarFn::Mul, a, b),
        }
    }
    /// a * k for index values.
    pub fn scale(&mut self, a: Value, k: i64) -> Value {
        let kv = self.index(k);
        self.mul(a, kv)
    }

    /// a * k + c for index values.
    pub fn mul_add(&mut self, a: Value, k: i64, c: Value) -> Value {
        let kv = self.index(k);
        let p = self.mul(a, kv);
        self.add(p, c)
    }
    pub fn div(&mut self, a: Value, b: Value) -> Value {
        match (self.const_of(a), self.const_of(b)) {
            (Some(x), Some(y)) if y != 0 => self.index(x / y),
            (_, Some(1)) => a,
            _ => self.bin(ScalarFn::Div, a, b),
        }
    }
    pub fn rem(&mut self, a: Value, b: Value) -> Value {
        match (self.const_of(a), self.const_of(b)) {
            (Some(x), Some(y)) if y != 0 => self.index(x % y),
            (_, Some(1)) => self.index(0),
            _ => self.bin(ScalarFn::Rem, a, b),
        }
    }
    pub fn min(&mut self, a: Value, b: Value) -> Value {
        match (self.const_of(a), self.const_of(b)) {
            (Some(x), Some(y)) => self.index(x.min(y)),
            _ => self.bin(ScalarFn::Min, a, b),
        }
    }
    pub fn max(&mut self, a: Value, b: Value) -> Value {
        match (self.const_of(a), self.const_of(b)) {
            (Some(x), Some(y)) => self.index(x.max(y)),
            _ => self.bin(ScalarFn::Max, a, b),
        }
    }

    pub fn max_const(&mut self, a: Value, k: i64) -> Value {
        let kv = self.index(k);
        self.max(a, kv)
    }
    pub fn min_const(&mut self, a: Value, k: i64) -> Value {
        let kv = self.index(k);
        self.min(a, kv)
    }

    // -- loops ---------------------------------------------------------------------------

    /// `for iv in lb..ub step step` carrying `inits`; `body(b, iv, carried)` returns the
    /// next carried values. Returns the final carried values.
    pub fn for_loop(
        &mut self,
        lb: Value,
        ub: Value,
        step: Value,
        inits: &[Value],
        body: impl FnOnce(&mut Builder, Value, &[Value]) -> Vec<Value>,
    ) -> Vec<Value> {
        let types: Vec<Type> = inits.iter().map(|&v| self.ty(v)).collect();
        let region = self.m.new_region();
        let mut arg_types = vec![index()];
        arg_types.extend(types.iter().cloned());
        let blk = self.m.append_block(region, &arg_types);
        let args = self.m.block_args(blk).to_vec();
        let saved = (std::mem::replace(&mut self.block, blk), self.before.take());
        let yielded = body(self, args[0], &args[1..]);
        self.op_typed(&lp::YIELD, &yielded, AttrDict::new(), vec![]);
        (self.block, self.before) = saved;
        let mut st = OperationState::new(&lp::FOR, self.loc.clone());
        st.operands = vec![lb, ub, step];
        st.operands.extend_from_slice(inits);
        st.result_types = types;
        st.regions.push(region);
        let op = self.m.create_op(st);
        self.place(op);
        self.m.results(op).to_vec()
    }

    /// `for iv in lb..ub` (step 1) without carried values.
    pub fn range(&mut self, lb: Value, ub: Value, body: impl FnOnce(&mut Builder, Value)) {
        let one = self.index(1);
        self.for_loop(lb, ub, one, &[], |b, iv, _| {
            body(b, iv);
            Vec::new()
        });
    }

    /// `for iv in 0..n` (step 1).
    pub fn range_n(&mut self, n: i64, body: impl FnOnce(&mut Builder, Value)) {
        let (lb, ub) = (self.index(0), self.index(n));
        self.range(lb, ub, body);
    }

    /// `0..n` in parallel on the thread pool.
    pub fn parallel(&mut self, n: i64, body: impl FnOnce(&mut Builder, Value)) {
        self.parallel_in_blocks(n, None, body);
    }

    /// `0..n` in parallel, split into at least `blocks` blocks when given (see
    /// `loop.parallel`'s `blocks`).
    pub fn parallel_in_blocks(&mut self, n: i64, blocks: Option<i64>, body: impl FnOnce(&mut Builder, Value)) {
        let region = self.m.new_region();
        let blk = self.m.append_block(region, &[index()]);
        let iv = self.m.block_args(blk)[0];
        let saved = (std::mem::replace(&mut self.block, blk), self.before.take());
        body(self, iv);
        self.op_typed(&lp::YIELD, &[], AttrDict::new(), vec![]);
        (self.block, self.before) = saved;
        let (lb, ub) = (self.index(0), self.index(n));
        let mut st = OperationState::new(&lp::PARALLEL, self.loc.clone());
        st.operands = vec![lb, ub];
        st.regions.push(region);
        if let Some(blocks) = blocks.filter(|&b| b > 1) {
            st.attrs = AttrDict::new().with(lp::PARALLEL_BLOCKS, Attribute::i64(blocks));
        }
        let op = self.m.create_op(st);
        self.place(op);
    }

    /// Splits a flat index over `dims` (row-major) into one index per dimension.
    pub fn unflatten(&mut self, flat: Value, dims: &[i64]) -> Vec<Value> {
        let mut out = vec![flat; dims.len()];
        let mut rest = flat;
        for d in (0..dims.len()).rev() {
            if d == 0 {
                out[0] = rest;
            } else {
                let n = self.index(dims[d]);
                out[d] = self.rem(rest, n);
                rest = self.div(rest, n);
            }
        }
        out
    }
}

/// Scalar bodies and math expansions build loop arithmetic through the builder.
impl ScalarBuilder for Builder<'_> {
    fn apply(&mut self, f: ScalarFn, args: &[Value]) -> Value {
        self.op(lp::arith(f), args, AttrDict::new())
    }
    fn compare(&mut self, pred: Compare, a: Value, b: Value) -> Value {
        self.cmp(pred, a, b)
    }
    fn select(&mut self, cond: Value, a: Value, b: Value) -> Value {
        Builder::select(self, cond, a, b)
    }
    fn float_like(&mut self, like: Value, x: f64) -> Value {
        self.constant_like(like, x)
    }
    fn int_like(&mut self, like: Value, elem: ScalarType, x: i64) -> Value {
        let s = self.int(elem, x);
        match self.ty(like).as_vector() {
            Some(v) => self.splat(s, v.lanes),
            None => s,
        }
    }
    fn convert(&mut self, v: Value, elem: ScalarType) -> Value {
        let to = lp::with_elem(&self.ty(v), elem);
        self.cast(v, to)
    }
    fn reinterpret(&mut self, v: Value, elem: ScalarType) -> Value {
        let to = lp::with_elem(&self.ty(v), elem);
        self.op_typed(&lp::BITCAST, &[v], AttrDict::new(), vec![to])[0]
    }
    fn elem(&self, v: Value) -> ScalarType {
        lp::elem_of(self.m.value_type(v)).expect("a scalar or vector value")
    }
    fn check(&mut self, ok: Value, message: String) {
        self.assert(ok, message)
    }
}
