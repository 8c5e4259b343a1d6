//! What a lowered model's `@main` tells code generation about itself, as attributes of
//! the function (so the loop-level module stays printable and parsable): how many of
//! its buffer arguments are inputs (the rest are outputs), how many bytes of workspace
//! it needs, and, when compiled for profiling, one record per kernel in `loop.kernel`
//! id order. The lowering writes these with [`set_entry_info`] and
//! [`set_kernels`]; backends read them with [`entry_info`].

use tcc_ir::{AttrDict, Attribute, Module, Op};

const NUM_INPUTS: &str = "tcc.num_inputs";
const WORKSPACE_SIZE: &str = "tcc.workspace_size";
const KERNELS: &str = "tcc.kernels";

/// A profiled kernel: a graph op's loops.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelRecord {
    pub name: String,
    pub loc: String,
    pub flops: u64,
    /// Bytes of the tensors the kernel reads and writes.
    pub bytes: u64,
    /// A convolution, pool or matmul lowered to the scalar reference nest (no template
    /// took it): `tcc bench` says so.
    pub naive: bool,
    /// Its products are bf16 dot products (bf16 operands, the bf16 precision policy):
    /// `tcc bench` states it against the bf16 dot peak.
    pub bf16: bool,
    /// Its configuration came from the tuning database (`tcc tune`).
    pub tuned: bool,
}

impl KernelRecord {
    fn to_attribute(&self) -> Attribute {
        Attribute::Dict(
            AttrDict::new()
                .with("name", Attribute::string(&self.name))
                .with("loc", Attribute::string(&self.loc))
                .with("flops", Attribute::i64(self.flops as i64))
                .with("bytes", Attribute::i64(self.bytes as i64))
                .with("naive", Attribute::Bool(self.naive))
                .with("bf16", Attribute::Bool(self.bf16))
                .with("tuned", Attribute::Bool(self.tuned)),
        )
    }

    fn from_attribute(a: &Attribute) -> Option<KernelRecord> {
        let d = a.as_dict()?;
        Some(KernelRecord {
            name: d.get("name")?.as_str()?.to_string(),
            loc: d.get("loc")?.as_str()?.to_string(),
            flops: d.get("flops")?.as_i64()? as u64,
            bytes: d.get("bytes").and_then(|b| b.as_i64()).unwrap_or(0) as u64,
            naive: d.get("naive").and_then(|b| b.as_bool()).unwrap_or(false),
            bf16: d.get("bf16").and_then(|b| b.as_bool()).unwrap_or(false),
            tuned: d.get("tuned").and_then(|b| b.as_bool()).unwrap_or(false),
        })
    }
}

/// What code generation reads off a lowered `@main`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EntryInfo {
    /// Buffer arguments that are inputs (the first ones); `None`: all of them.
    pub num_inputs: Option<usize>,
    pub workspace_size: usize,
    /// With profiling: each kernel, by `loop.kernel` id.
    pub kernels: Vec<KernelRecord>,
}

/// Records the input count and workspace size on `func`.
pub fn set_entry_info(m: &mut Module, func: Op, num_inputs: usize, workspace_size: usize) {
    m.set_attr(func, NUM_INPUTS, Attribute::i64(num_inputs as i64));
    m.set_attr(func, WORKSPACE_SIZE, Attribute::i64(workspace_size as i64));
}

/// Records the profiled kernels on `func`.
pub fn set_kernels(m: &mut Module, func: Op, kernels: &[KernelRecord]) {
    let list: Vec<Attribute> = kernels.iter().map(KernelRecord::to_attribute).collect();
    m.set_attr(func, KERNELS, Attribute::Array(list.into()));
}

/// What `func` records about itself (defaults where it records nothing).
pub fn entry_info(m: &Module, func: Op) -> EntryInfo {
    let int = |name| m.attr(func, name).and_then(|a| a.as_i64()).map(|v| v.max(0) as usize);
    EntryInfo {
        num_inputs: int(NUM_INPUTS),
        workspace_size: int(WORKSPACE_SIZE).unwrap_or(0),
        kernels: m
            .attr(func, KERNELS)
            .and_then(|a| a.as_array())
            .unwrap_or_default()
            .iter()
            .filter_map(KernelRecord::from_attribute)
            .collect(),
    }
}
