//! Loops: `loop.for` as a header block with the carried values as block parameters
//! (the exit branch first, so Cranelift's elaborator keeps hoisting out of the body),
//! and `loop.parallel` as an outlined body called through the runtime's thread pool.

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{self as cl, AbiParam, InstBuilder, StackSlotData, StackSlotKind};
use cranelift_module::{Linkage, Module as ClModule};
use tcc_ir::Op;

use super::{CodegenError, Outline, Translator, clif_type};
use crate::model::{captures_of, outline_key};

impl Translator<'_, '_, '_> {
    pub(super) fn for_loop(&mut self, op: Op) -> Result<(), CodegenError> {
        let m = self.m();
        let ops = self.operands(op);
        let (lb, ub, step) = (ops[0], ops[1], ops[2]);
        let carried_types: Vec<cl::Type> =
            m.results(op).iter().map(|&r| clif_type(m.value_type(r))).collect::<Result<_, _>>()?;
        let header = self.b.create_block();
        let iv = self.b.append_block_param(header, cl::types::I64);
        let carried: Vec<cl::Value> = carried_types.iter().map(|&t| self.b.append_block_param(header, t)).collect();
        let body = self.b.create_block();
        let exit = self.b.create_block();
        let results: Vec<cl::Value> = carried_types.iter().map(|&t| self.b.append_block_param(exit, t)).collect();
        let mut args = vec![lb];
        args.extend_from_slice(&ops[3..]);
        let args: Vec<cl::BlockArg> = args.into_iter().map(Into::into).collect();
        self.b.ins().jump(header, &args);
        self.b.switch_to_block(header);
        // `brif done, exit, body`, not `brif go, body, exit`: Cranelift's elaborator
        // visits a block's dominator-tree children in the branch's reverse order and
        // tracks the loops it is in along that walk; visiting the exit first drops the
        // loop from its stack before the body is seen, and then nothing is hoisted out of
        // the body (loop-invariant address arithmetic stays in the inner loop).
        let done = self.b.ins().icmp(IntCC::SignedGreaterThanOrEqual, iv, ub);
        let carried_args: Vec<cl::BlockArg> = carried.iter().map(|&v| v.into()).collect();
        self.b.ins().brif(done, exit, &carried_args, body, &[]);
        self.b.switch_to_block(body);
        let region_block = m.region_blocks(m.regions(op)[0])[0];
        let bargs = m.block_args(region_block).to_vec();
        self.bind(bargs[0], iv);
        for (&a, &c) in bargs[1..].iter().zip(&carried) {
            self.bind(a, c);
        }
        self.loop_ivs.push(iv);
        let yielded = self.block(region_block);
        self.loop_ivs.pop();
        let yielded = yielded?;
        let next = self.b.ins().iadd(iv, step);
        let mut back = vec![next];
        back.extend(yielded);
        let back: Vec<cl::BlockArg> = back.into_iter().map(Into::into).collect();
        self.b.ins().jump(header, &back);
        self.b.switch_to_block(exit);
        for (&r, &v) in m.results(op).iter().zip(&results) {
            self.vals.insert(r, v);
        }
        Ok(())
    }

    pub(super) fn parallel(&mut self, op: Op) -> Result<(), CodegenError> {
        let m = self.m();
        let captures = captures_of(m, op);
        let ptr = cl::types::I64;
        // Slot 0 holds the status pointer; captures follow, 8 bytes each.
        let size = 8 * (captures.len() as u32 + 1);
        let ss = self.b.create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, size, 4));
        self.b.ins().stack_store(ptr, self.status, ss, 0);
        for (i, &v) in captures.iter().enumerate() {
            if m.value_type(v).as_vector().is_some() {
                return Err(CodegenError::Unsupported("a vector value captured by a parallel loop".into()));
            }
            let c = self.get(v);
            self.b.ins().stack_store(ptr, c, ss, 8 * (i as i32 + 1));
        }
        let ctx = self.b.ins().stack_addr(ptr, ss, 0);
        let mut sig = self.module.make_signature();
        for _ in 0..3 {
            sig.params.push(AbiParam::new(ptr));
        }
        // One function per distinct body: an identical loop reuses the first's.
        let key = outline_key(m, op, &captures);
        let (id, new) = match self.shared.outlined_by_key.get(&key) {
            Some(&id) => (id, false),
            None => {
                let name = format!("tcc_parallel_body_{}", self.shared.outlines_made);
                self.shared.outlines_made += 1;
                let id = self
                    .module
                    .declare_function(&name, Linkage::Local, &sig)
                    .map_err(|e| CodegenError::Backend(e.to_string()))?;
                self.shared.outlined_by_key.insert(key, id);
                (id, true)
            }
        };
        let fref = self.module.declare_func_in_func(id, self.b.func);
        let fp = self.b.ins().func_addr(ptr, fref);
        let lb = self.get(m.operand(op, 0));
        let ub = self.get(m.operand(op, 1));
        let n = self.b.ins().isub(ub, lb);
        let pf = self.module.declare_func_in_func(self.shared.parallel_for, self.b.func);
        let pool = self.pool.ok_or_else(|| CodegenError::Unsupported("nested parallel loops".into()))?;
        let blocks = m.attr(op, tcc_dialect_loop::PARALLEL_BLOCKS).and_then(|a| a.as_i64()).unwrap_or(0);
        let blocks = self.b.ins().iconst(ptr, blocks);
        self.b.ins().call(pf, &[pool, fp, ctx, n, blocks]);
        if new {
            self.shared.outlines.push(Outline { id, op, captures });
        }
        Ok(())
    }
}
