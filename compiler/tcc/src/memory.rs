//! The memory budget: what a compiled model will allocate, checked before anything is.
//!
//! A model's run needs its inputs and outputs, its workspace (the intermediate
//! tensors, planned by the lowering), its weights (the constants with data, decoded,
//! folded and packed) and its splat constants materialized (one value in the IR but a
//! whole tensor for the code). [`check`] adds these up from the lowered module and
//! refuses a model that needs more than the budget, naming the largest of the tensors
//! it counted and the bytes asked for, so that a model with a 40 GB intermediate fails
//! to compile with an error instead of aborting the process when the memory is
//! requested. [`check_weights`] refuses a model whose weights alone exceed the budget
//! as soon as it is read, before they are folded and packed (copies of them). The default budget
//! ([`default_budget`]) is three quarters of the machine's physical memory;
//! `--max-memory`, `RuntimeBuilder::max_memory` and `max_memory=` in Python change it.

use tcc_dialect_loop as lp;
use tcc_ir::{Diagnostics, Location, Module, TensorType, Type};

/// Three quarters of this machine's physical memory (`/proc/meminfo`), or no limit
/// where that cannot be read.
pub fn default_budget() -> u64 {
    physical_memory().map_or(u64::MAX, |m| m / 4 * 3)
}

fn physical_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// The largest tensor a run allocates: an input, an output, an intermediate tensor
/// of the workspace or an expanded constant; its bytes, type and location.
#[derive(Clone, Debug)]
pub struct Largest {
    pub bytes: u64,
    pub ty: String,
    pub loc: Location,
}

/// The bytes a model's run touches, by kind, and the largest of its tensors.
#[derive(Clone, Debug, Default)]
pub struct Needs {
    /// The caller's input tensors.
    pub inputs: u64,
    /// The output tensors a run returns.
    pub outputs: u64,
    /// The workspace: every intermediate tensor, as the lowering planned them.
    pub workspace: u64,
    /// Splat constants, expanded for the code.
    pub constants: u64,
    /// Constants with data: the weights, as the code reads them (folded and packed).
    pub weights: u64,
    pub largest: Option<Largest>,
}

impl Needs {
    pub fn total(&self) -> u64 {
        [self.inputs, self.outputs, self.workspace, self.constants, self.weights]
            .into_iter()
            .fold(0, u64::saturating_add)
    }
}

/// What the lowered `@main` of `lm` needs to run, from its signature and memory plan.
pub fn needs(lm: &Module) -> Needs {
    let Ok(entry) = tcc_lower::entry_function(lm) else { return Needs::default() };
    let mut largest: Option<Largest> = None;
    let mut consider = |ty: &Type, loc: &Location| {
        let bytes = bytes_of(ty);
        if largest.as_ref().is_none_or(|l| bytes > l.bytes) {
            // Named as the tensor it holds (what the model's text says).
            let tensor = ty.as_buffer().and_then(|b| TensorType::new(b.shape().to_vec(), b.elem()).ok());
            let ty = tensor.map_or_else(|| ty.to_string(), |t| t.to_string());
            largest = Some(Largest { bytes, ty, loc: loc.clone() });
        }
    };
    let (mut splats, mut weights) = (0u64, 0u64);
    for op in lm.walk(entry) {
        let constant =
            lm.is(op, &lp::CONSTANT_BUFFER).then(|| lm.attr(op, "value").and_then(|a| a.as_dense())).flatten();
        if let Some(value) = constant {
            let bytes = bytes_of(lm.value_type(lm.result(op, 0)));
            if value.is_splat() {
                splats = splats.saturating_add(bytes);
            } else {
                weights = weights.saturating_add(bytes);
            }
        }
        if constant.is_some() || lm.is(op, &lp::WORKSPACE) {
            consider(lm.value_type(lm.result(op, 0)), lm.loc(op));
        }
    }
    // `@main` takes the inputs' buffers, then the outputs'.
    let params: Vec<Type> = tcc_ir::builtin::func_type(lm, entry).map(|ty| ty.inputs.clone()).unwrap_or_default();
    for ty in &params {
        consider(ty, lm.loc(entry));
    }
    let buffers: Vec<u64> = params.iter().map(bytes_of).collect();
    let info = tcc_dialect_loop::abi::entry_info(lm, entry);
    let n_inputs = info.num_inputs.unwrap_or(0).min(buffers.len());
    let sum = |b: &[u64]| b.iter().copied().fold(0, u64::saturating_add);
    Needs {
        inputs: sum(&buffers[..n_inputs]),
        outputs: sum(&buffers[n_inputs..]),
        workspace: info.workspace_size as u64,
        constants: splats,
        weights,
        largest,
    }
}

/// Refuses the model `m` as read (graph dialect or TOSA) when its constants with data
/// (its weights, decoded) alone take more than `budget` bytes, naming the largest: the
/// optimization would fold and pack copies of them, and the run needs them all.
pub fn check_weights(m: &Module, budget: u64) -> Result<(), Diagnostics> {
    let (mut weights, mut largest) = (0u64, None::<(u64, tcc_ir::Op)>);
    for op in m.walk(m.top()) {
        // `graph.constant`'s `value`, `tosa.const`'s `values`.
        let dense = m.attr(op, "value").or_else(|| m.attr(op, "values")).and_then(|a| a.as_dense());
        let data = dense.is_some_and(|d| !d.is_splat());
        let Some(&result) = m.results(op).first().filter(|_| data) else { continue };
        let bytes = bytes_of(m.value_type(result));
        weights = weights.saturating_add(bytes);
        if largest.is_none_or(|(b, _)| bytes > b) {
            largest = Some((bytes, op));
        }
    }
    let Some((bytes, op)) = largest.filter(|_| weights > budget) else { return Ok(()) };
    let message = format!(
        "the model's weights take {} of memory, more than the budget of {} (set it with --max-memory, \
         RuntimeBuilder::max_memory or max_memory= in Python); the largest is {} ({bytes} bytes)",
        human(weights),
        human(budget),
        m.value_type(m.result(op, 0))
    );
    Err(Diagnostics::error(m.loc(op).clone(), message))
}

/// The bytes of a buffer or tensor type (0 for anything else).
fn bytes_of(ty: &Type) -> u64 {
    let (shape, elem) = match (ty.as_buffer(), ty.as_tensor()) {
        (Some(b), _) => (b.shape(), b.elem()),
        (_, Some(t)) => (t.shape(), t.elem()),
        _ => return 0,
    };
    let numel = shape.iter().map(|&d| d.max(0) as u64).fold(1, u64::saturating_mul);
    numel.saturating_mul(elem.byte_size() as u64)
}

/// Refuses the lowered module `lm` when what its run needs exceeds `budget` bytes,
/// naming the largest tensor it counted.
pub fn check(lm: &Module, budget: u64) -> Result<(), Diagnostics> {
    let n = needs(lm);
    if n.total() <= budget {
        return Ok(());
    }
    let loc = n.largest.as_ref().map_or_else(|| lm.loc(lm.top()).clone(), |l| l.loc.clone());
    let mut message = format!(
        "the model needs {} of memory to run ({} of inputs, {} of outputs, {} of workspace for its intermediate \
         tensors, {} of weights, {} of expanded constants), more than the budget of {} (set it with --max-memory, \
         RuntimeBuilder::max_memory or max_memory= in Python)",
        human(n.total()),
        human(n.inputs),
        human(n.outputs),
        human(n.workspace),
        human(n.weights),
        human(n.constants),
        human(budget)
    );
    if let Some(l) = &n.largest {
        message += &format!("; its largest tensor is {} ({} bytes)", l.ty, l.bytes);
    }
    Err(Diagnostics::error(loc, message))
}

/// Bytes in the largest binary unit that keeps them at least 1 (`1.5 GiB`).
pub fn human(bytes: u64) -> String {
    let units = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < units.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 { format!("{bytes} bytes") } else { format!("{value:.1} {}", units[unit]) }
}

/// Parses a size: a number of bytes with an optional K, M, G, T, P or E suffix (binary
/// units, `KiB`/`KB`/`k` spellings accepted), e.g. `512M`, `16GiB`, `1000000`.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let split = t.find(|c: char| !c.is_ascii_digit() && c != '.').unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let value: f64 = number.parse().map_err(|_| format!("invalid size '{text}' (expected e.g. 512M or 16G)"))?;
    let shift = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        "t" | "tb" | "tib" => 40,
        "p" | "pb" | "pib" => 50,
        "e" | "eb" | "eib" => 60,
        _ => return Err(format!("invalid size unit in '{text}' (expected K, M, G, T, P or E)")),
    };
    let bytes = value * (1u64 << shift) as f64;
    // (`u64::MAX as f64` is 2^64, one past the largest size.)
    if !bytes.is_finite() || bytes < 1.0 || bytes >= u64::MAX as f64 {
        return Err(format!("invalid size '{text}': must be from one byte to 16 EiB"));
    }
    Ok(bytes as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_and_print() {
        assert_eq!(parse_size("512M"), Ok(512 << 20));
        assert_eq!(parse_size("16GiB"), Ok(16 << 30));
        assert_eq!(parse_size("1.5k"), Ok(1536));
        assert_eq!(parse_size("1000"), Ok(1000));
        assert_eq!(parse_size("2E"), Ok(2 << 60));
        assert!(parse_size("16E").is_err());
        assert!(parse_size("0").is_err() && parse_size("12X").is_err() && parse_size("-5").is_err());
        assert!(parse_size("abc").is_err() && parse_size("").is_err());
        assert_eq!(human(1536), "1.5 KiB");
        assert_eq!(human(40_000_000_000), "37.3 GiB");
        assert_eq!(human(12), "12 bytes");
    }

    #[test]
    fn the_default_budget_is_below_physical_memory() {
        let budget = default_budget();
        assert!(budget > 0);
        if let Some(total) = physical_memory() {
            assert!(budget < total);
        }
    }
}
