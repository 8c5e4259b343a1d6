//! The MLIR text printer.
//!
//! Values are renumbered canonically (`%argN` for block arguments, `%N` / `%N:k` /
//! `%N#i` for results, counted per isolated-from-above op, as MLIR does), so printing
//! is a fixed point: the output re-parses to IR that prints identically. Ops print in
//! their pretty form unless generic printing is requested; constants backed by a
//! resource blob print as `dense_resource<name>` plus the `{-# dialect_resources #-}`
//! section at the end.

use std::collections::{BTreeMap, HashMap};
use std::fmt::{self, Write};
use std::sync::Arc;

use crate::attributes::{AttrDict, Attribute, is_bare_identifier, write_quoted, write_resource_hex};
use crate::dense::{DenseElements, Resource};
use crate::module::{Block, Module, Op, Region, Value};
use crate::opdef::{Syntax, Traits};
use crate::types::{Type, write_result_types};

#[derive(Copy, Clone, Debug, Default)]
pub struct PrintOptions {
    /// Print every op in MLIR's generic form.
    pub generic: bool,
    /// Print dense elements of more elements than this as `dense_resource<__elided__>`
    /// (MLIR's `--mlir-elide-elementsattrs-if-larger`): the text then shows the graph,
    /// not megabytes of weights, and does not parse back.
    pub elide_elements_above: Option<usize>,
}

/// The resource name elided elements print with.
pub const ELIDED: &str = "__elided__";

/// Prints a whole module (and its resource blobs).
pub fn print_module(m: &Module, options: PrintOptions) -> String {
    let mut p = Printer::new(m, options);
    let _ = p.print_op(m.top());
    let mut out = p.out;
    out.push('\n');
    let resources = collect_resources(m, options.elide_elements_above.unwrap_or(usize::MAX));
    if !resources.is_empty() {
        out.push_str("\n{-#\n  dialect_resources: {\n    builtin: {\n");
        let n = resources.len();
        for (i, (name, r)) in resources.into_iter().enumerate() {
            out.push_str("      ");
            if is_bare_identifier(&name) {
                out.push_str(&name);
            } else {
                let _ = write_quoted(&mut out, &name);
            }
            out.push_str(": ");
            let _ = write_resource_hex(&mut out, r.alignment(), r.bytes());
            out.push_str(if i + 1 < n { ",\n" } else { "\n" });
        }
        out.push_str("    }\n  }\n#-}\n");
    }
    out
}

/// Prints one op (and its regions) on its own, for messages and debugging.
pub fn print_op(m: &Module, op: Op) -> String {
    let mut p = Printer::new(m, PrintOptions::default());
    let _ = p.print_op(op);
    p.out
}

/// The resource blobs of the dense attributes of at most `limit` elements (the others
/// print elided).
fn collect_resources(m: &Module, limit: usize) -> BTreeMap<String, Arc<Resource>> {
    fn visit(a: &Attribute, out: &mut BTreeMap<String, Arc<Resource>>, limit: usize) {
        match a {
            Attribute::Dense(d) if d.numel() <= limit => {
                if let Some(r) = d.resource() {
                    out.entry(r.name().to_string()).or_insert_with(|| r.clone());
                }
            }
            Attribute::Array(items) => items.iter().for_each(|x| visit(x, out, limit)),
            Attribute::Dict(d) => d.iter().for_each(|(_, x)| visit(x, out, limit)),
            _ => {}
        }
    }
    let mut out = BTreeMap::new();
    for op in m.walk(m.top()) {
        for (_, a) in m.attrs(op).iter() {
            visit(a, &mut out, limit);
        }
    }
    out
}

/// Printing state; custom op printers use its `pub` methods.
pub struct Printer<'a> {
    m: &'a Module,
    out: String,
    indent: usize,
    options: PrintOptions,
    names: HashMap<Value, String>,
    block_names: HashMap<Block, String>,
    next_value: u32,
    next_arg: u32,
}

impl<'a> Printer<'a> {
    fn new(m: &'a Module, options: PrintOptions) -> Printer<'a> {
        Printer {
            m,
            out: String::new(),
            indent: 0,
            options,
            names: HashMap::new(),
            block_names: HashMap::new(),
            next_value: 0,
            next_arg: 0,
        }
    }

    pub fn module(&self) -> &'a Module {
        self.m
    }

    pub fn write(&mut self, s: &str) {
        self.out.push_str(s);
    }

    pub fn value_name(&self, v: Value) -> String {
        self.names.get(&v).cloned().unwrap_or_else(|| "%<<UNKNOWN SSA VALUE>>".into())
    }

    pub fn print_value(&mut self, v: Value) {
        let name = self.value_name(v);
        self.out.push_str(&name);
    }

    pub fn print_values(&mut self, vs: &[Value]) {
        for (i, &v) in vs.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.print_value(v);
        }
    }

    pub fn print_type(&mut self, t: &Type) {
        let _ = write!(self.out, "{t}");
    }

    pub fn print_types(&mut self, ts: &[Type]) {
        for (i, t) in ts.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.print_type(t);
        }
    }

    pub fn print_attr(&mut self, a: &Attribute) {
        let a = self.elided(a);
        let _ = write!(self.out, "{a}");
    }

    /// `a`, or for dense elements larger than the options allow, a placeholder of the
    /// same type.
    fn elided<'x>(&self, a: &'x Attribute) -> std::borrow::Cow<'x, Attribute> {
        match (a, self.options.elide_elements_above) {
            (Attribute::Dense(d), Some(limit)) if d.numel() > limit => {
                let placeholder = DenseElements::from_resource(d.ty().clone(), Resource::new(ELIDED));
                placeholder.map_or(std::borrow::Cow::Borrowed(a), |p| std::borrow::Cow::Owned(Attribute::Dense(p)))
            }
            _ => std::borrow::Cow::Borrowed(a),
        }
    }

    /// A constant op's value: a scalar always with its type (so `4 : index` and `4 : i64`
    /// stay distinct), anything else as an attribute (dense values carry their type).
    pub fn print_constant_value(&mut self, a: &Attribute) {
        let _ = match *a {
            Attribute::Int(x, t) => write!(self.out, "{x} : {t}"),
            Attribute::Float(x, t) => write!(self.out, "{} : {t}", crate::attributes::format_float(x, t)),
            ref other => {
                let other = self.elided(other);
                write!(self.out, "{other}")
            }
        };
    }

    /// ` {..}` with the entries not in `skip`, or nothing if none remain.
    pub fn print_attr_dict(&mut self, attrs: &AttrDict, skip: &[&str]) {
        let kept: AttrDict =
            attrs.iter().filter(|(k, _)| !skip.contains(k)).map(|(k, v)| (k, self.elided(v).into_owned())).collect();
        if !kept.is_empty() {
            let _ = write!(self.out, " {kept}");
        }
    }

    /// `(T, ..) -> R` of an op's operands and results.
    pub fn print_functional_type(&mut self, op: Op) {
        let m = self.m;
        self.out.push('(');
        let ins: Vec<Type> = m.operands(op).iter().map(|&v| m.value_type(v).clone()).collect();
        self.print_types(&ins);
        self.out.push_str(") -> ");
        let outs: Vec<Type> = m.results(op).iter().map(|&v| m.value_type(v).clone()).collect();
        let _ = write_result_types(&mut self.out, &outs);
    }

    fn newline(&mut self) {
        self.out.push('\n');
        for _ in 0..self.indent {
            self.out.push_str("  ");
        }
    }

    /// Names the arguments of `block` (`%argN`), for syntaxes that print them outside
    /// the region (like `func.func`'s signature).
    pub fn name_block_args(&mut self, block: Block) {
        for &a in self.m.block_args(block) {
            let name = format!("%arg{}", self.next_arg);
            self.next_arg += 1;
            self.names.insert(a, name);
        }
    }

    fn name_results(&mut self, op: Op) -> Option<String> {
        let results = self.m.results(op);
        if results.is_empty() {
            return None;
        }
        let n = self.next_value;
        self.next_value += 1;
        if results.len() == 1 {
            self.names.insert(results[0], format!("%{n}"));
            Some(format!("%{n}"))
        } else {
            for (i, &r) in results.iter().enumerate() {
                self.names.insert(r, format!("%{n}#{i}"));
            }
            Some(format!("%{n}:{}", results.len()))
        }
    }

    /// Prints an op at the current position (no leading newline or indentation).
    pub fn print_op(&mut self, op: Op) -> fmt::Result {
        if let Some(lhs) = self.name_results(op) {
            self.out.push_str(&lhs);
            self.out.push_str(" = ");
        }
        let def = self.m.def(op);
        // Isolated ops number their insides from zero.
        let saved = (self.next_value, self.next_arg);
        if def.has(Traits::ISOLATED_FROM_ABOVE) {
            (self.next_value, self.next_arg) = (0, 0);
        }
        match def.syntax {
            Syntax::Functional if !self.options.generic => {
                self.out.push_str(def.name);
                if !self.m.operands(op).is_empty() {
                    self.out.push(' ');
                    self.print_values(self.m.operands(op));
                }
                self.print_attr_dict(self.m.attrs(op), &[]);
                self.out.push_str(" : ");
                self.print_functional_type(op);
                self.print_region_list(op);
            }
            Syntax::SameType if !self.options.generic && self.has_same_types(op) => {
                self.out.push_str(def.name);
                self.out.push(' ');
                self.print_values(self.m.operands(op));
                self.print_attr_dict(self.m.attrs(op), &[]);
                self.out.push_str(" : ");
                let ty = self.m.value_type(self.m.result(op, 0)).clone();
                self.print_type(&ty);
            }
            Syntax::Custom { print, .. } if !self.options.generic => print(self, op)?,
            _ => self.print_generic(op),
        }
        if def.has(Traits::ISOLATED_FROM_ABOVE) {
            (self.next_value, self.next_arg) = saved;
        }
        Ok(())
    }

    /// Whether the `SameType` form can print `op` (it cannot express mismatched types,
    /// which the verifier rejects but a printer must still show).
    fn has_same_types(&self, op: Op) -> bool {
        let m = self.m;
        let [r] = m.results(op) else { return false };
        let ty = m.value_type(*r);
        !m.operands(op).is_empty() && m.operands(op).iter().all(|&v| m.value_type(v) == ty)
    }

    fn print_generic(&mut self, op: Op) {
        let m = self.m;
        let _ = write_quoted(&mut self.out, m.name(op));
        self.out.push('(');
        self.print_values(m.operands(op));
        self.out.push(')');
        self.print_region_list(op);
        self.print_attr_dict(m.attrs(op), &[]);
        self.out.push_str(" : ");
        self.print_functional_type(op);
    }

    /// ` ({..}, {..})`: the op's regions with their entry blocks' arguments, or nothing.
    fn print_region_list(&mut self, op: Op) {
        let regions = self.m.regions(op);
        if regions.is_empty() {
            return;
        }
        self.out.push_str(" (");
        for (i, &r) in regions.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.print_region(r, true);
        }
        self.out.push(')');
    }

    /// `{ ops }`. The entry block's label and arguments print only if
    /// `print_entry_args` is set and it has arguments (or the region has several blocks).
    pub fn print_region(&mut self, region: Region, print_entry_args: bool) {
        let m = self.m;
        let blocks = m.region_blocks(region).to_vec();
        for (i, &b) in blocks.iter().enumerate() {
            self.block_names.insert(b, format!("^bb{i}"));
        }
        self.out.push('{');
        for (i, &b) in blocks.iter().enumerate() {
            let has_args = !m.block_args(b).is_empty();
            if i > 0 || (print_entry_args && (has_args || blocks.len() > 1)) {
                self.newline();
                let label = self.block_names[&b].clone();
                self.out.push_str(&label);
                if has_args {
                    self.name_block_args(b);
                    self.out.push('(');
                    for (j, &a) in m.block_args(b).iter().enumerate() {
                        if j > 0 {
                            self.out.push_str(", ");
                        }
                        let _ = write!(self.out, "{}: {}", self.value_name(a), m.value_type(a));
                    }
                    self.out.push(')');
                }
                self.out.push(':');
            } else if has_args && !self.names.contains_key(&m.block_args(b)[0]) {
                self.name_block_args(b);
            }
            self.indent += 1;
            for op in m.block_ops(b) {
                self.newline();
                let _ = self.print_op(op);
            }
            self.indent -= 1;
        }
        self.newline();
        self.out.push('}');
    }
}
