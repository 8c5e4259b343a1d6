//! Operation definitions: one declarative [`OpDef`] per op kind, and the [`Registry`]
//! that maps names to them.
//!
//! An `OpDef` carries everything the rest of the compiler needs to know about an op:
//! its name and documentation, operand/result/region counts, attribute specs with
//! defaults, traits, shape inference, extra verification, its textual syntax and its
//! canonicalization patterns. Dialects declare their ops as `static` `OpDef`s and
//! register them; the IR stores a `&'static OpDef` in every operation, so asking an op
//! about its kind is a pointer dereference.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Mutex, OnceLock};

use crate::attributes::{AttrDict, Attribute};
use crate::module::OperationState;
use crate::module::{Module, Op};
use crate::parser::Parser;
use crate::printer::Printer;
use crate::rewrite::Rewriter;
use crate::types::{TensorType, Type};

/// How many operands, results or regions an op takes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Arity {
    Exactly(usize),
    AtLeast(usize),
    Between(usize, usize),
}

impl Arity {
    pub fn accepts(self, n: usize) -> bool {
        match self {
            Arity::Exactly(k) => n == k,
            Arity::AtLeast(k) => n >= k,
            Arity::Between(a, b) => (a..=b).contains(&n),
        }
    }
}

impl fmt::Display for Arity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Arity::Exactly(k) => write!(f, "{k}"),
            Arity::AtLeast(k) => write!(f, "at least {k}"),
            Arity::Between(a, b) => write!(f, "{a} to {b}"),
        }
    }
}

/// Properties of an op kind that passes query.
#[derive(Copy, Clone, PartialEq, Eq, Default)]
pub struct Traits(u32);

impl Traits {
    pub const NONE: Traits = Traits(0);
    /// No side effects: dead results mean the op can go, equal ops can merge.
    pub const PURE: Traits = Traits(1);
    /// Applies a scalar function to every element (numpy-broadcast operands).
    pub const ELEMENTWISE: Traits = Traits(1 << 1);
    /// Reduces some dimensions of its operand.
    pub const REDUCTION: Traits = Traits(1 << 2);
    /// Dominated by arithmetic (conv, matmul): the backbone of a kernel.
    pub const COMPUTE_INTENSIVE: Traits = Traits(1 << 3);
    pub const COMMUTATIVE: Traits = Traits(1 << 4);
    /// Ends a block.
    pub const TERMINATOR: Traits = Traits(1 << 5);
    /// Regions cannot see values defined outside the op.
    pub const ISOLATED_FROM_ABOVE: Traits = Traits(1 << 6);
    /// Blocks in the op's regions need no terminator.
    pub const NO_TERMINATOR: Traits = Traits(1 << 7);
    /// Produces a constant from its attributes alone.
    pub const CONSTANT_LIKE: Traits = Traits(1 << 8);
    /// Only moves or reinterprets data (reshape, transpose, slice, ...).
    pub const DATA_MOVEMENT: Traits = Traits(1 << 9);
    /// Each region holds exactly one block; an empty region written `{}` gets it.
    pub const SINGLE_BLOCK: Traits = Traits(1 << 10);
    /// With a region, the op's result is what the region yields: inference gives the
    /// raw result, which the region's block takes as its first argument (a kernel op's
    /// epilogue, which may end by narrowing the element type).
    pub const REGION_RESULT: Traits = Traits(1 << 11);

    pub const fn union(self, other: Traits) -> Traits {
        Traits(self.0 | other.0)
    }
    pub const fn contains(self, other: Traits) -> bool {
        self.0 & other.0 == other.0
    }
}

impl std::ops::BitOr for Traits {
    type Output = Traits;
    fn bitor(self, rhs: Traits) -> Traits {
        self.union(rhs)
    }
}

impl fmt::Debug for Traits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const NAMES: [&str; 12] = [
            "Pure",
            "Elementwise",
            "Reduction",
            "ComputeIntensive",
            "Commutative",
            "Terminator",
            "IsolatedFromAbove",
            "NoTerminator",
            "ConstantLike",
            "DataMovement",
            "SingleBlock",
            "RegionResult",
        ];
        let names: Vec<&str> = (0..NAMES.len()).filter(|i| self.0 & (1 << i) != 0).map(|i| NAMES[i]).collect();
        write!(f, "{}", names.join(" | "))
    }
}

/// What an attribute must hold.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum AttrKind {
    Int,
    /// A float; integers are accepted and converted.
    Float,
    Bool,
    String,
    /// One of the listed strings.
    Enum(&'static [&'static str]),
    /// A list of integers: `[1, 2]` or `array<i64: 1, 2>`.
    IntList,
    Dense,
    Type,
    Symbol,
    Any,
}

/// An attribute's default, used when the attribute is absent.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum AttrDefault {
    /// The attribute must be present.
    Required,
    /// The attribute may be absent and has no value then.
    Optional,
    Int(i64),
    Float(f64),
    Bool(bool),
    Str(&'static str),
    Ints(&'static [i64]),
}

#[derive(Copy, Clone, Debug)]
pub struct AttrSpec {
    pub name: &'static str,
    pub kind: AttrKind,
    pub default: AttrDefault,
    pub doc: &'static str,
}

impl AttrSpec {
    pub const fn required(name: &'static str, kind: AttrKind, doc: &'static str) -> AttrSpec {
        AttrSpec { name, kind, default: AttrDefault::Required, doc }
    }
    pub const fn optional(name: &'static str, kind: AttrKind, default: AttrDefault, doc: &'static str) -> AttrSpec {
        AttrSpec { name, kind, default, doc }
    }

    /// The default as an attribute value, if there is one.
    pub fn default_value(&self) -> Option<Attribute> {
        Some(match self.default {
            AttrDefault::Required | AttrDefault::Optional => return None,
            AttrDefault::Int(v) => Attribute::i64(v),
            AttrDefault::Float(v) => Attribute::f64(v),
            AttrDefault::Bool(v) => Attribute::Bool(v),
            AttrDefault::Str(s) => Attribute::string(s),
            AttrDefault::Ints(v) => Attribute::i64_list(v),
        })
    }

    /// Checks that `value` has this spec's kind.
    pub fn check(&self, value: &Attribute) -> Result<(), String> {
        let ok = match self.kind {
            AttrKind::Int => value.as_i64().is_some(),
            AttrKind::Float => value.as_f64().is_some(),
            AttrKind::Bool => matches!(value, Attribute::Bool(_) | Attribute::Unit),
            AttrKind::String => value.as_str().is_some(),
            AttrKind::Enum(options) => {
                if let Some(s) = value.as_str() {
                    if !options.contains(&s) {
                        return Err(format!(
                            "attribute '{}' must be one of {}, got \"{s}\"",
                            self.name,
                            options.iter().map(|o| format!("\"{o}\"")).collect::<Vec<_>>().join(", ")
                        ));
                    }
                    true
                } else {
                    false
                }
            }
            AttrKind::IntList => value.as_i64_list().is_some(),
            AttrKind::Dense => value.as_dense().is_some(),
            AttrKind::Type => value.as_type().is_some(),
            AttrKind::Symbol => matches!(value, Attribute::SymbolRef(_)),
            AttrKind::Any => true,
        };
        if ok {
            Ok(())
        } else {
            Err(format!("attribute '{}' must be {}, got {} {value}", self.name, self.kind_text(), value.kind_name()))
        }
    }

    fn kind_text(&self) -> &'static str {
        match self.kind {
            AttrKind::Int => "an integer",
            AttrKind::Float => "a number",
            AttrKind::Bool => "a bool",
            AttrKind::String | AttrKind::Enum(_) => "a string",
            AttrKind::IntList => "a list of integers",
            AttrKind::Dense => "dense elements",
            AttrKind::Type => "a type",
            AttrKind::Symbol => "a symbol reference",
            AttrKind::Any => "an attribute",
        }
    }
}

/// Operand types and attributes of an op (existing or about to be built): what shape
/// inference looks at. Attribute accessors fall back to the spec's defaults and turn
/// every problem into a message.
pub struct Signature<'a> {
    pub def: &'static OpDef,
    pub operands: &'a [Type],
    pub attrs: &'a AttrDict,
}

impl<'a> Signature<'a> {
    pub fn operand(&self, i: usize) -> Result<&'a Type, String> {
        self.operands.get(i).ok_or_else(|| format!("missing operand #{i}"))
    }

    /// Operand `i` as a tensor type.
    pub fn tensor(&self, i: usize) -> Result<&'a TensorType, String> {
        self.operand(i)?.as_tensor().ok_or_else(|| format!("operand #{i} must be a tensor, got {}", self.operands[i]))
    }

    /// The attribute or its default.
    pub fn attr(&self, name: &str) -> Option<Attribute> {
        if let Some(a) = self.attrs.get(name) {
            return Some(a.clone());
        }
        self.def.attr_spec(name).and_then(|s| s.default_value())
    }

    fn need(&self, name: &str) -> Result<Attribute, String> {
        self.attr(name).ok_or_else(|| format!("requires attribute '{name}'"))
    }

    pub fn int(&self, name: &str) -> Result<i64, String> {
        self.need(name)?.as_i64().ok_or_else(|| format!("attribute '{name}' must be an integer"))
    }
    pub fn float(&self, name: &str) -> Result<f64, String> {
        self.need(name)?.as_f64().ok_or_else(|| format!("attribute '{name}' must be a number"))
    }
    pub fn bool(&self, name: &str) -> Result<bool, String> {
        self.need(name)?.as_bool().ok_or_else(|| format!("attribute '{name}' must be a bool"))
    }
    pub fn string(&self, name: &str) -> Result<String, String> {
        self.need(name)?.as_str().map(String::from).ok_or_else(|| format!("attribute '{name}' must be a string"))
    }
    pub fn ints(&self, name: &str) -> Result<Vec<i64>, String> {
        self.need(name)?.as_i64_list().ok_or_else(|| format!("attribute '{name}' must be a list of integers"))
    }
    /// An integer list that must have exactly `len` entries.
    pub fn ints_n(&self, name: &str, len: usize) -> Result<Vec<i64>, String> {
        let v = self.ints(name)?;
        if v.len() != len {
            return Err(format!("attribute '{name}' must have {len} entries, got {}", v.len()));
        }
        Ok(v)
    }
}

pub type InferFn = fn(&Signature) -> Result<Vec<Type>, String>;
pub type VerifyFn = fn(&Module, Op) -> Result<(), String>;
pub type CustomParseFn = fn(&mut Parser<'_>, &mut OperationState) -> Result<(), crate::Diagnostic>;
pub type CustomPrintFn = fn(&mut Printer<'_>, Op) -> fmt::Result;

/// How an op is written.
#[derive(Copy, Clone)]
pub enum Syntax {
    /// Only MLIR's generic form: `%0 = "d.op"(%a) {attrs} : (T) -> T`.
    Generic,
    /// `%0 = d.op %a, %b {attrs} : (T, T) -> T` (the generic form parses too).
    Functional,
    /// `%0 = d.op %a, %b {attrs} : T` where every operand and the result have type T.
    SameType,
    Custom {
        parse: CustomParseFn,
        print: CustomPrintFn,
    },
}

/// A named rewrite applied by canonicalization to ops of one kind. `apply` returns
/// whether it changed the IR.
#[derive(Copy, Clone)]
pub struct Pattern {
    pub name: &'static str,
    pub apply: fn(&mut Rewriter<'_>, Op) -> bool,
}

/// The definition of an op kind.
pub struct OpDef {
    pub name: &'static str,
    pub summary: &'static str,
    /// Longer documentation, with an example.
    pub description: &'static str,
    pub operands: Arity,
    pub results: Arity,
    pub regions: Arity,
    pub attrs: &'static [AttrSpec],
    pub traits: Traits,
    /// Result types from operand types and attributes.
    pub infer: Option<InferFn>,
    /// Checks beyond counts, attribute kinds and inferred types.
    pub verify: Option<VerifyFn>,
    pub syntax: Syntax,
    pub patterns: &'static [Pattern],
    /// False only for ops the registry did not know (parsed under
    /// `--allow-unregistered-dialect`).
    pub registered: bool,
    /// What the op's dialect knows about it beyond this definition (the graph dialect
    /// keeps its reference semantics and layout class here), so that everything about
    /// an op is declared in one place.
    pub dialect_data: Option<&'static (dyn std::any::Any + Sync)>,
}

impl OpDef {
    /// A template for `..OpDef::DEFAULT` in static definitions.
    pub const DEFAULT: OpDef = OpDef {
        name: "",
        summary: "",
        description: "",
        operands: Arity::Exactly(0),
        results: Arity::Exactly(1),
        regions: Arity::Exactly(0),
        attrs: &[],
        traits: Traits::NONE,
        infer: None,
        verify: None,
        syntax: Syntax::Generic,
        patterns: &[],
        registered: true,
        dialect_data: None,
    };

    pub fn has(&self, t: Traits) -> bool {
        self.traits.contains(t)
    }

    /// The result types shape inference gives for these operands and attributes.
    pub fn infer_types(&'static self, operands: &[Type], attrs: &AttrDict) -> Result<Vec<Type>, String> {
        let infer = self.infer.ok_or_else(|| format!("'{}' has no shape inference", self.name))?;
        infer(&Signature { def: self, operands, attrs })
    }

    /// The dialect's data on this definition, if it is a `T` (a dialect's op kind or
    /// semantics).
    pub fn data<T: 'static>(&self) -> Option<&'static T> {
        let data: &'static dyn std::any::Any = self.dialect_data?;
        data.downcast_ref::<T>()
    }

    pub fn attr_spec(&self, name: &str) -> Option<&'static AttrSpec> {
        self.attrs.iter().find(|s| s.name == name)
    }

    pub fn dialect(&self) -> &'static str {
        self.name.split('.').next().unwrap_or("")
    }
}

impl PartialEq for OpDef {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other)
    }
}

impl fmt::Debug for OpDef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "OpDef({})", self.name)
    }
}

impl OpDef {
    /// Markdown documentation of the op, generated from its definition.
    pub fn markdown(&self) -> String {
        let mut out = format!("### `{}`\n\n{}\n\n", self.name, self.summary);
        out += &format!("- operands: {}, results: {}", self.operands, self.results);
        if self.regions != Arity::Exactly(0) {
            out += &format!(", regions: {}", self.regions);
        }
        out += &format!("\n- traits: {:?}\n", self.traits);
        if !self.attrs.is_empty() {
            out += "- attributes:\n";
            for a in self.attrs {
                let default = match a.default {
                    AttrDefault::Required => "required".to_string(),
                    AttrDefault::Optional => "optional".to_string(),
                    _ => format!("default `{}`", a.default_value().map(|v| v.to_string()).unwrap_or_default()),
                };
                out += &format!("  - `{}` ({:?}, {default}): {}\n", a.name, a.kind, a.doc);
            }
        }
        if !self.patterns.is_empty() {
            let names: Vec<&str> = self.patterns.iter().map(|p| p.name).collect();
            out += &format!("- canonicalization: {}\n", names.join(", "));
        }
        if !self.description.is_empty() {
            out += &format!("\n{}\n", self.description);
        }
        out
    }
}

/// The op kinds a tool knows, by name.
#[derive(Clone)]
pub struct Registry {
    ops: HashMap<&'static str, &'static OpDef>,
    /// Where each dialect's ops are listed for users (`tosa` -> `docs/tosa.md`), and
    /// whether the dialect is another tool's, imported (so an op missing may come later).
    references: HashMap<&'static str, (&'static str, bool)>,
    /// Accept ops the registry does not know (in generic form only).
    pub allow_unregistered: bool,
}

impl Registry {
    /// A registry holding the builtin ops (`builtin.module`, `func.func`, `func.return`).
    pub fn new() -> Registry {
        let mut r = Registry { ops: HashMap::new(), references: HashMap::new(), allow_unregistered: false };
        r.register_all(crate::builtin::OPS);
        r
    }

    pub fn register(&mut self, def: &'static OpDef) {
        self.ops.insert(def.name, def);
    }

    pub fn register_all(&mut self, defs: &[&'static OpDef]) {
        for d in defs {
            self.register(d);
        }
    }

    pub fn lookup(&self, name: &str) -> Option<&'static OpDef> {
        self.ops.get(name).copied()
    }

    /// Records where `dialect`'s ops are listed for users (a path in the repository);
    /// `imported`: the dialect is another tool's, of which tcc reads a part.
    pub fn set_reference(&mut self, dialect: &'static str, reference: &'static str, imported: bool) {
        self.references.insert(dialect, (reference, imported));
    }

    /// What to tell a user about `name`, an op this registry does not know: that its
    /// dialect lacks it (and where that dialect's ops are listed), or which dialects
    /// there are.
    pub fn unknown_op_message(&self, name: &str) -> String {
        let dialect = name.split('.').next().unwrap_or("");
        let known = self.ops.keys().any(|k| k.split('.').next() == Some(dialect));
        match (known, self.references.get(dialect)) {
            (true, Some((reference, true))) => {
                format!("tcc does not support '{name}' yet (the {dialect} ops it supports are listed in {reference})")
            }
            (true, Some((reference, false))) => {
                format!("the {dialect} dialect has no op '{name}' (its ops are listed in {reference})")
            }
            (true, None) => format!("the {dialect} dialect has no op '{name}'"),
            (false, _) => {
                let mut dialects: Vec<&str> = self.ops.keys().filter_map(|k| k.split('.').next()).collect();
                dialects.sort_unstable();
                dialects.dedup();
                format!("unknown operation '{name}': tcc knows the dialects {}", dialects.join(", "))
            }
        }
    }

    /// All registered ops, sorted by name.
    pub fn ops(&self) -> Vec<&'static OpDef> {
        let mut v: Vec<_> = self.ops.values().copied().collect();
        v.sort_by_key(|d| d.name);
        v
    }
}

/// The definition used for an op name no dialect registered. Interned, so each
/// distinct name allocates once per process.
pub fn unregistered(name: &str) -> &'static OpDef {
    static TABLE: OnceLock<Mutex<HashMap<String, &'static OpDef>>> = OnceLock::new();
    let mut table = TABLE.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
    if let Some(d) = table.get(name) {
        return d;
    }
    let name_static: &'static str = Box::leak(name.to_string().into_boxed_str());
    let def: &'static OpDef = Box::leak(Box::new(OpDef {
        name: name_static,
        operands: Arity::AtLeast(0),
        results: Arity::AtLeast(0),
        regions: Arity::AtLeast(0),
        registered: false,
        ..OpDef::DEFAULT
    }));
    table.insert(name.to_string(), def);
    def
}
