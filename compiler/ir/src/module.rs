//! The IR container: a [`Module`] owns every operation, value, block and region of one
//! compilation unit in arenas, named by `u32` handles.
//!
//! Structure follows MLIR: an operation has operands, results, attributes and regions;
//! a region holds blocks; a block holds block arguments and a doubly linked list of
//! operations (so insertion and erasure anywhere are O(1)); every value records its
//! uses, so replace-all-uses touches only the users. All mutation goes through `&mut
//! Module`, which keeps those lists consistent; erased entities stay in the arenas as
//! tombstones, so handles never dangle into other entities.

use smallvec::SmallVec;

use crate::attributes::{AttrDict, Attribute};
use crate::diagnostics::Location;
use crate::entity::{Arena, entity};
use crate::opdef::{OpDef, Traits};
use crate::types::Type;

entity!(
    /// An operation.
    Op,
    "op"
);
entity!(
    /// An SSA value: an op result or a block argument.
    Value,
    "%v"
);
entity!(
    /// A block: arguments and a list of ops.
    Block,
    "^bb"
);
entity!(
    /// A region: a list of blocks owned by an op.
    Region,
    "region"
);

/// One use of a value: operand `index` of `op`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Use {
    pub op: Op,
    pub index: u32,
}

/// Where a value comes from.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ValueDef {
    Result { op: Op, index: u32 },
    BlockArg { block: Block, index: u32 },
}

#[derive(Clone, Debug)]
pub struct OpData {
    def: &'static OpDef,
    operands: SmallVec<[Value; 4]>,
    results: SmallVec<[Value; 2]>,
    attrs: AttrDict,
    regions: SmallVec<[Region; 1]>,
    loc: Location,
    parent: Option<Block>,
    prev: Option<Op>,
    next: Option<Op>,
    erased: bool,
}

#[derive(Clone, Debug)]
struct ValueData {
    ty: Type,
    def: ValueDef,
    uses: Vec<Use>,
}

#[derive(Clone, Debug, Default)]
struct BlockData {
    args: Vec<Value>,
    first: Option<Op>,
    last: Option<Op>,
    parent: Option<Region>,
}

#[derive(Clone, Debug, Default)]
struct RegionData {
    blocks: Vec<Block>,
    parent: Option<Op>,
}

/// Everything needed to create an op.
#[derive(Clone, Debug)]
pub struct OperationState {
    pub def: &'static OpDef,
    pub operands: Vec<Value>,
    pub result_types: Vec<Type>,
    pub attrs: AttrDict,
    /// Detached regions (from [`Module::new_region`]) the op will own.
    pub regions: Vec<Region>,
    pub loc: Location,
}

impl OperationState {
    pub fn new(def: &'static OpDef, loc: Location) -> OperationState {
        OperationState {
            def,
            operands: Vec::new(),
            result_types: Vec::new(),
            attrs: AttrDict::new(),
            regions: Vec::new(),
            loc,
        }
    }
}

/// A compilation unit: a `builtin.module` op and everything nested in it.
#[derive(Clone, Debug)]
pub struct Module {
    ops: Arena<Op, OpData>,
    values: Arena<Value, ValueData>,
    blocks: Arena<Block, BlockData>,
    regions: Arena<Region, RegionData>,
    top: Op,
}

impl Module {
    /// An empty module: one `builtin.module` op with one empty block.
    pub fn new(loc: Location) -> Module {
        let mut m = Module {
            ops: Arena::new(),
            values: Arena::new(),
            blocks: Arena::new(),
            regions: Arena::new(),
            top: Op::new_placeholder(),
        };
        let region = m.new_region();
        m.append_block(region, &[]);
        let mut state = OperationState::new(&crate::builtin::MODULE, loc);
        state.result_types.clear();
        state.regions.push(region);
        m.top = m.create_op(state);
        m
    }

    /// The `builtin.module` op.
    pub fn top(&self) -> Op {
        self.top
    }

    pub(crate) fn set_top(&mut self, op: Op) {
        self.top = op;
    }

    /// The block holding the module's top-level ops (functions).
    pub fn body(&self) -> Block {
        self.regions[self.op(self.top).regions[0]].blocks[0]
    }

    // -- creation ------------------------------------------------------------------------

    /// Creates a detached op (not in any block) from `state`.
    pub fn create_op(&mut self, state: OperationState) -> Op {
        let op = self.ops.push(OpData {
            def: state.def,
            operands: SmallVec::new(),
            results: SmallVec::new(),
            attrs: state.attrs,
            regions: SmallVec::from_vec(state.regions),
            loc: state.loc,
            parent: None,
            prev: None,
            next: None,
            erased: false,
        });
        for (i, ty) in state.result_types.into_iter().enumerate() {
            let v = self.values.push(ValueData { ty, def: ValueDef::Result { op, index: i as u32 }, uses: Vec::new() });
            self.ops[op].results.push(v);
        }
        for (i, v) in state.operands.into_iter().enumerate() {
            self.values[v].uses.push(Use { op, index: i as u32 });
            self.ops[op].operands.push(v);
        }
        for r in self.ops[op].regions.clone() {
            debug_assert!(self.regions[r].parent.is_none(), "region already owned");
            self.regions[r].parent = Some(op);
        }
        op
    }

    /// Creates an op whose result types come from shape inference and appends it to
    /// `block`.
    pub fn append_inferred(
        &mut self,
        block: Block,
        def: &'static OpDef,
        operands: &[Value],
        attrs: AttrDict,
        loc: Location,
    ) -> Result<Op, String> {
        let types: Vec<Type> = operands.iter().map(|&v| self.value_type(v).clone()).collect();
        let mut state = OperationState::new(def, loc);
        state.result_types = def.infer_types(&types, &attrs)?;
        state.operands = operands.to_vec();
        state.attrs = attrs;
        let op = self.create_op(state);
        self.append_op(block, op);
        Ok(op)
    }

    /// A new region owned by nothing yet; give it to an op via [`OperationState::regions`].
    pub fn new_region(&mut self) -> Region {
        self.regions.push(RegionData::default())
    }

    /// Appends a block with arguments of the given types to `region`.
    pub fn append_block(&mut self, region: Region, arg_types: &[Type]) -> Block {
        let block = self.blocks.push(BlockData { parent: Some(region), ..Default::default() });
        for ty in arg_types {
            self.add_block_arg(block, ty.clone());
        }
        self.regions[region].blocks.push(block);
        block
    }

    pub fn add_block_arg(&mut self, block: Block, ty: Type) -> Value {
        let index = self.blocks[block].args.len() as u32;
        let v = self.values.push(ValueData { ty, def: ValueDef::BlockArg { block, index }, uses: Vec::new() });
        self.blocks[block].args.push(v);
        v
    }

    // -- placement -----------------------------------------------------------------------

    /// Appends a detached op at the end of `block`.
    pub fn append_op(&mut self, block: Block, op: Op) {
        self.link(op, block, self.blocks[block].last, None);
    }

    /// Inserts a detached op before `anchor`.
    pub fn insert_op_before(&mut self, anchor: Op, op: Op) {
        let block = self.ops[anchor].parent.expect("anchor op is not in a block");
        self.link(op, block, self.ops[anchor].prev, Some(anchor));
    }

    /// Inserts a detached op after `anchor`.
    pub fn insert_op_after(&mut self, anchor: Op, op: Op) {
        let block = self.ops[anchor].parent.expect("anchor op is not in a block");
        self.link(op, block, Some(anchor), self.ops[anchor].next);
    }

    fn link(&mut self, op: Op, block: Block, prev: Option<Op>, next: Option<Op>) {
        assert!(self.ops[op].parent.is_none(), "op {op:?} is already in a block");
        let data = &mut self.ops[op];
        data.parent = Some(block);
        data.prev = prev;
        data.next = next;
        match prev {
            Some(p) => self.ops[p].next = Some(op),
            None => self.blocks[block].first = Some(op),
        }
        match next {
            Some(n) => self.ops[n].prev = Some(op),
            None => self.blocks[block].last = Some(op),
        }
    }

    /// Removes an op from its block without destroying it.
    pub fn detach_op(&mut self, op: Op) {
        let Some(block) = self.ops[op].parent else { return };
        let (prev, next) = (self.ops[op].prev, self.ops[op].next);
        match prev {
            Some(p) => self.ops[p].next = next,
            None => self.blocks[block].first = next,
        }
        match next {
            Some(n) => self.ops[n].prev = prev,
            None => self.blocks[block].last = prev,
        }
        let data = &mut self.ops[op];
        data.parent = None;
        data.prev = None;
        data.next = None;
    }

    /// Moves `op` (attached or not) to just before `anchor`.
    pub fn move_op_before(&mut self, op: Op, anchor: Op) {
        self.detach_op(op);
        self.insert_op_before(anchor, op);
    }

    // -- erasure and replacement ---------------------------------------------------------

    /// Erases an op and everything nested in it. Its results must be unused.
    ///
    /// # Panics
    /// If a result still has uses: that is a bug in the calling pass.
    pub fn erase_op(&mut self, op: Op) {
        for &r in &self.ops[op].results {
            assert!(self.values[r].uses.is_empty(), "erasing {} whose result is still used", self.ops[op].def.name);
        }
        self.detach_op(op);
        // Erase nested ops innermost first: drop all operand uses, then tombstone.
        let nested = self.walk(op);
        for &o in nested.iter().rev() {
            for i in 0..self.ops[o].operands.len() {
                let v = self.ops[o].operands[i];
                self.remove_use(v, Use { op: o, index: i as u32 });
            }
            self.ops[o].operands.clear();
            self.ops[o].erased = true;
        }
    }

    pub fn is_erased(&self, op: Op) -> bool {
        self.ops[op].erased
    }

    /// Removes the use `u` of `v` (there is at most one). Searched from the back: ops
    /// are mostly erased last first (a user before its producer), and their uses are
    /// then the latest, so erasing the users of a value with many is not quadratic.
    fn remove_use(&mut self, v: Value, u: Use) {
        let uses = &mut self.values[v].uses;
        if let Some(pos) = uses.iter().rposition(|x| *x == u) {
            uses.remove(pos);
        }
    }

    /// Makes every user of `old` use `new` instead.
    pub fn replace_all_uses(&mut self, old: Value, new: Value) {
        if old == new {
            return;
        }
        let uses = std::mem::take(&mut self.values[old].uses);
        for u in &uses {
            self.ops[u.op].operands[u.index as usize] = new;
        }
        self.values[new].uses.extend(uses);
    }

    /// Replaces every use of `op`'s results by `new` (one per result), then erases it.
    pub fn replace_op(&mut self, op: Op, new: &[Value]) {
        let results = self.ops[op].results.clone();
        assert_eq!(results.len(), new.len(), "replace_op: result count mismatch");
        for (&old, &n) in results.iter().zip(new) {
            self.replace_all_uses(old, n);
        }
        self.erase_op(op);
    }

    pub fn set_operand(&mut self, op: Op, index: usize, v: Value) {
        let old = self.ops[op].operands[index];
        let u = Use { op, index: index as u32 };
        self.remove_use(old, u);
        self.ops[op].operands[index] = v;
        self.values[v].uses.push(u);
    }

    pub fn set_attr(&mut self, op: Op, name: &str, value: Attribute) {
        self.ops[op].attrs.set(name, value);
    }

    pub fn remove_attr(&mut self, op: Op, name: &str) -> Option<Attribute> {
        self.ops[op].attrs.remove(name)
    }

    pub fn set_value_type(&mut self, v: Value, ty: Type) {
        self.values[v].ty = ty;
    }

    pub fn set_loc(&mut self, op: Op, loc: Location) {
        self.ops[op].loc = loc;
    }

    // -- queries -------------------------------------------------------------------------

    pub fn op(&self, op: Op) -> &OpData {
        &self.ops[op]
    }
    pub fn def(&self, op: Op) -> &'static OpDef {
        self.ops[op].def
    }
    /// Whether `op` is of kind `def`.
    pub fn is(&self, op: Op, def: &OpDef) -> bool {
        std::ptr::eq(self.ops[op].def, def)
    }
    pub fn has_trait(&self, op: Op, t: Traits) -> bool {
        self.ops[op].def.traits.contains(t)
    }
    pub fn name(&self, op: Op) -> &'static str {
        self.ops[op].def.name
    }
    pub fn operands(&self, op: Op) -> &[Value] {
        &self.ops[op].operands
    }
    pub fn operand(&self, op: Op, i: usize) -> Value {
        self.ops[op].operands[i]
    }
    pub fn results(&self, op: Op) -> &[Value] {
        &self.ops[op].results
    }
    pub fn result(&self, op: Op, i: usize) -> Value {
        self.ops[op].results[i]
    }
    pub fn attrs(&self, op: Op) -> &AttrDict {
        &self.ops[op].attrs
    }
    pub fn attr(&self, op: Op, name: &str) -> Option<&Attribute> {
        self.ops[op].attrs.get(name)
    }
    /// An attribute or, if absent, its default from the op's definition.
    pub fn attr_or_default(&self, op: Op, name: &str) -> Option<Attribute> {
        self.attr(op, name).cloned().or_else(|| self.def(op).attr_spec(name).and_then(|s| s.default_value()))
    }
    pub fn regions(&self, op: Op) -> &[Region] {
        &self.ops[op].regions
    }
    pub fn loc(&self, op: Op) -> &Location {
        &self.ops[op].loc
    }
    pub fn parent_block(&self, op: Op) -> Option<Block> {
        self.ops[op].parent
    }
    pub fn next_op(&self, op: Op) -> Option<Op> {
        self.ops[op].next
    }
    pub fn prev_op(&self, op: Op) -> Option<Op> {
        self.ops[op].prev
    }
    /// The op whose region holds `op`'s block.
    pub fn parent_op(&self, op: Op) -> Option<Op> {
        self.block_parent_op(self.ops[op].parent?)
    }

    pub fn value_type(&self, v: Value) -> &Type {
        &self.values[v].ty
    }
    pub fn value_def(&self, v: Value) -> ValueDef {
        self.values[v].def
    }
    /// The op producing `v`, or `None` for a block argument.
    pub fn defining_op(&self, v: Value) -> Option<Op> {
        match self.values[v].def {
            ValueDef::Result { op, .. } => Some(op),
            ValueDef::BlockArg { .. } => None,
        }
    }
    pub fn uses(&self, v: Value) -> &[Use] {
        &self.values[v].uses
    }
    pub fn has_uses(&self, v: Value) -> bool {
        !self.values[v].uses.is_empty()
    }
    /// Whether no result of `op` is used.
    pub fn results_unused(&self, op: Op) -> bool {
        self.ops[op].results.iter().all(|&r| self.values[r].uses.is_empty())
    }

    pub fn block_args(&self, block: Block) -> &[Value] {
        &self.blocks[block].args
    }
    pub fn block_region(&self, block: Block) -> Option<Region> {
        self.blocks[block].parent
    }
    pub fn block_parent_op(&self, block: Block) -> Option<Op> {
        self.regions[self.blocks[block].parent?].parent
    }
    pub fn first_op(&self, block: Block) -> Option<Op> {
        self.blocks[block].first
    }
    pub fn last_op(&self, block: Block) -> Option<Op> {
        self.blocks[block].last
    }
    /// The ops of `block` in order. Collect before mutating the block.
    pub fn block_ops(&self, block: Block) -> BlockOps<'_> {
        BlockOps { module: self, next: self.blocks[block].first }
    }
    pub fn region_blocks(&self, region: Region) -> &[Block] {
        &self.regions[region].blocks
    }
    pub fn region_parent(&self, region: Region) -> Option<Op> {
        self.regions[region].parent
    }

    /// `op` and every op nested in it, in pre-order (parents before children, blocks
    /// in order). Iterative, so depth is no concern.
    pub fn walk(&self, op: Op) -> Vec<Op> {
        let mut out = Vec::new();
        let mut stack = vec![op];
        while let Some(o) = stack.pop() {
            out.push(o);
            let mut children = Vec::new();
            for &r in self.ops[o].regions.iter() {
                for &b in &self.regions[r].blocks {
                    children.extend(self.block_ops(b));
                }
            }
            stack.extend(children.into_iter().rev());
        }
        out
    }

    /// Whether `ancestor` is `op` or encloses it.
    pub fn is_ancestor(&self, ancestor: Op, op: Op) -> bool {
        let mut cur = Some(op);
        while let Some(o) = cur {
            if o == ancestor {
                return true;
            }
            cur = self.parent_op(o);
        }
        false
    }

    /// The top-level `func.func` ops, in order.
    pub fn funcs(&self) -> Vec<Op> {
        self.block_ops(self.body()).filter(|&op| self.is(op, &crate::builtin::FUNC)).collect()
    }

    /// The top-level function named `name`.
    pub fn func(&self, name: &str) -> Option<Op> {
        self.funcs().into_iter().find(|&f| crate::builtin::func_name(self, f) == name)
    }

    /// How many op handles were ever created (erased ops included): an op whose
    /// handle's index is at least this was created after the count was taken.
    pub fn op_capacity(&self) -> usize {
        self.ops.len()
    }
}

impl Op {
    fn new_placeholder() -> Op {
        <Op as crate::entity::EntityRef>::new(0)
    }
}

pub struct BlockOps<'a> {
    module: &'a Module,
    next: Option<Op>,
}

impl Iterator for BlockOps<'_> {
    type Item = Op;
    fn next(&mut self) -> Option<Op> {
        let op = self.next?;
        self.next = self.module.ops[op].next;
        Some(op)
    }
}
