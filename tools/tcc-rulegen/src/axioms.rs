//! Operator properties (TASO's axioms): equalities between terms over uninterpreted
//! operators, which the verifier assumes for all tensors, and their validation.
//!
//! Terms use the operators `matmul add mul scale relu transpose conv bias enlarge
//! poolmax poolavg` (`bias`: the per-channel addition of a vector to an image; a
//! convolution with a bias operand is `(bias (conv x w) b)`), `concat0 concat1` (along
//! axis 0 or 1), `splitK_P` (part P of the split along axis K that undoes the last
//! concatenation there) and the constants `imm` (an identity of whatever size fits: a
//! matrix, or a 1x1 filter) and `ones`. Before any
//! is used, [`crate::validate`] checks each on every small shape, symbolically.

use tcc::rules::sexpr::{Sexp, read_all};

use crate::spec::{Fill, Op};

/// A term: a variable (by index) or an operator applied to terms.
#[derive(Clone, Debug, PartialEq)]
pub enum Term {
    Var(usize),
    App(&'static str, Vec<Term>),
}

/// The uninterpreted operators, with their arities.
pub const OPERATORS: &[(&str, usize)] = &[
    ("matmul", 2),
    ("add", 2),
    ("mul", 2),
    ("scale", 2),
    ("relu", 1),
    ("transpose", 1),
    ("concat0", 2),
    ("concat1", 2),
    ("split0_0", 1),
    ("split0_1", 1),
    ("split1_0", 1),
    ("split1_1", 1),
    ("conv", 2),
    ("bias", 2),
    ("enlarge", 1),
    ("poolmax", 1),
    ("poolavg", 1),
    ("imm", 0),
    ("ones", 0),
];

/// The constant operator standing for an input of fixed contents, if it is one.
pub fn constant_operator(fill: Fill) -> Option<&'static str> {
    match fill {
        Fill::Random => None,
        Fill::Identity => Some("imm"),
        Fill::Ones => Some("ones"),
    }
}

pub fn constant_fill(op: &str) -> Option<Fill> {
    match op {
        "imm" => Some(Fill::Identity),
        "ones" => Some(Fill::Ones),
        _ => None,
    }
}

/// The term of generator op `op` applied to `args`.
pub fn op_term(op: Op, args: Vec<Term>) -> Term {
    if op == Op::ConvBias {
        let mut args = args;
        let bias = args.pop().expect("a convolution with a bias has three operands");
        return Term::App("bias", vec![Term::App("conv", args), bias]);
    }
    Term::App(operator(op), args)
}

/// The operator of a generator op (a convolution with a bias is two: see [`op_term`]).
fn operator(op: Op) -> &'static str {
    match op {
        Op::MatMul => "matmul",
        Op::Add => "add",
        Op::Mul => "mul",
        Op::Scale => "scale",
        Op::Relu => "relu",
        Op::Transpose => "transpose",
        Op::Concat(0) => "concat0",
        Op::Concat(_) => "concat1",
        Op::Split(0, 0) => "split0_0",
        Op::Split(0, _) => "split0_1",
        Op::Split(_, 0) => "split1_0",
        Op::Split(..) => "split1_1",
        Op::Conv => "conv",
        Op::Bias => "bias",
        Op::ConvBias => unreachable!("two operators: see op_term"),
        Op::Enlarge => "enlarge",
        Op::MaxPool => "poolmax",
        Op::AvgPool => "poolavg",
    }
}

/// The axioms, one per line: `LEFT = RIGHT` over variables `a b c d`.
pub const AXIOMS: &str = "
(add a b) = (add b a)
(add (add a b) c) = (add a (add b c))
(mul a b) = (mul b a)
(mul (mul a b) c) = (mul a (mul b c))
(mul (add a b) c) = (add (mul a c) (mul b c))
(scale (add a b) c) = (add (scale a c) (scale b c))
(scale (mul a b) c) = (mul (scale a c) b)
(scale (scale a b) c) = (scale (scale a c) b)
(matmul (scale a c) b) = (scale (matmul a b) c)
(matmul a (scale b c)) = (scale (matmul a b) c)
(transpose (scale a c)) = (scale (transpose a) c)
(matmul (matmul a b) c) = (matmul a (matmul b c))
(matmul a (add b c)) = (add (matmul a b) (matmul a c))
(matmul (add a b) c) = (add (matmul a c) (matmul b c))
(transpose (transpose a)) = a
(transpose (matmul a b)) = (matmul (transpose b) (transpose a))
(transpose (add a b)) = (add (transpose a) (transpose b))
(transpose (mul a b)) = (mul (transpose a) (transpose b))
(transpose (relu a)) = (relu (transpose a))
(relu (relu a)) = (relu a)
(split0_0 (concat0 a b)) = a
(split0_1 (concat0 a b)) = b
(split1_0 (concat1 a b)) = a
(split1_1 (concat1 a b)) = b
(add (concat0 a b) (concat0 c d)) = (concat0 (add a c) (add b d))
(add (concat1 a b) (concat1 c d)) = (concat1 (add a c) (add b d))
(mul (concat0 a b) (concat0 c d)) = (concat0 (mul a c) (mul b d))
(mul (concat1 a b) (concat1 c d)) = (concat1 (mul a c) (mul b d))
(relu (concat0 a b)) = (concat0 (relu a) (relu b))
(relu (concat1 a b)) = (concat1 (relu a) (relu b))
(scale (concat0 a b) c) = (concat0 (scale a c) (scale b c))
(scale (concat1 a b) c) = (concat1 (scale a c) (scale b c))
(matmul (concat0 a b) c) = (concat0 (matmul a c) (matmul b c))
(matmul a (concat1 b c)) = (concat1 (matmul a b) (matmul a c))
(matmul (concat1 a b) (concat0 c d)) = (add (matmul a c) (matmul b d))
(transpose (concat0 a b)) = (concat1 (transpose a) (transpose b))
(transpose (concat1 a b)) = (concat0 (transpose a) (transpose b))
(conv (add a b) c) = (add (conv a c) (conv b c))
(conv a (add b c)) = (add (conv a b) (conv a c))
(conv a (concat0 b c)) = (concat1 (conv a b) (conv a c))
(conv (concat1 a b) (concat1 c d)) = (add (conv a c) (conv b d))
(conv a (enlarge b)) = (conv a b)
(bias (concat1 a b) (concat0 c d)) = (concat1 (bias a c) (bias b d))
(bias (concat0 a b) c) = (concat0 (bias a c) (bias b c))
(bias (add a b) c) = (add (bias a c) b)
(bias (bias a b) c) = (bias a (add b c))
(poolmax (bias a b)) = (bias (poolmax a) b)
(poolavg (bias a b)) = (bias (poolavg a) b)
(enlarge (add a b)) = (add (enlarge a) (enlarge b))
(enlarge (concat0 a b)) = (concat0 (enlarge a) (enlarge b))
(enlarge (concat1 a b)) = (concat1 (enlarge a) (enlarge b))
(poolmax (concat0 a b)) = (concat0 (poolmax a) (poolmax b))
(poolmax (concat1 a b)) = (concat1 (poolmax a) (poolmax b))
(poolmax (relu a)) = (relu (poolmax a))
(poolavg (concat0 a b)) = (concat0 (poolavg a) (poolavg b))
(poolavg (concat1 a b)) = (concat1 (poolavg a) (poolavg b))
(poolavg (add a b)) = (add (poolavg a) (poolavg b))
(matmul a imm) = a
(matmul imm a) = a
(transpose imm) = imm
(conv a imm) = a
(mul a ones) = a
";

/// An axiom: two terms over `vars` variables.
#[derive(Clone, Debug)]
pub struct Axiom {
    pub text: String,
    pub left: Term,
    pub right: Term,
    pub vars: usize,
}

fn term(s: &Sexp, vars: &mut Vec<String>) -> Result<Term, String> {
    match s {
        Sexp::Symbol(name, _) if constant_fill(name).is_some() => {
            let &(op, _) = OPERATORS.iter().find(|(o, _)| o == name).expect("constants are operators");
            Ok(Term::App(op, Vec::new()))
        }
        Sexp::Symbol(name, _) if !OPERATORS.iter().any(|(o, _)| o == name) => {
            let i = vars.iter().position(|v| v == name).unwrap_or_else(|| {
                vars.push(name.clone());
                vars.len() - 1
            });
            Ok(Term::Var(i))
        }
        Sexp::List(items, pos) => {
            let name = items.first().and_then(Sexp::symbol).ok_or(format!("{pos}: expected an operator"))?;
            let &(op, arity) =
                OPERATORS.iter().find(|(o, _)| *o == name).ok_or(format!("{pos}: unknown operator `{name}`"))?;
            if items.len() - 1 != arity {
                return Err(format!("{pos}: `{op}` takes {arity} operands"));
            }
            Ok(Term::App(op, items[1..].iter().map(|i| term(i, vars)).collect::<Result<_, _>>()?))
        }
        other => Err(format!("{}: expected a term, found {}", other.pos(), other.describe())),
    }
}

/// Parses axioms, one `LEFT = RIGHT` per line.
pub fn parse_axioms(text: &str) -> Result<Vec<Axiom>, String> {
    let mut out = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with(';')) {
        let (l, r) = line.split_once(" = ").ok_or(format!("axiom `{line}`: expected `LEFT = RIGHT`"))?;
        let mut vars = Vec::new();
        let parse = |t: &str, vars: &mut Vec<String>| -> Result<Term, String> {
            let s = read_all(t).map_err(|e| format!("axiom `{line}`: {}", e.message))?;
            let [s] = &s[..] else { return Err(format!("axiom `{line}`: one term per side")) };
            term(s, vars).map_err(|e| format!("axiom `{line}`: {e}"))
        };
        let left = parse(l, &mut vars)?;
        let right = parse(r, &mut vars)?;
        out.push(Axiom { text: line.to_string(), left, right, vars: vars.len() });
    }
    Ok(out)
}

/// The SMT-LIB text of a term; variables are named by `var`.
#[cfg_attr(not(feature = "z3"), allow(dead_code))]
pub fn smt(term: &Term, var: &dyn Fn(usize) -> String) -> String {
    match term {
        Term::Var(i) => var(*i),
        Term::App(op, args) if args.is_empty() => op.to_string(),
        Term::App(op, args) => format!("({op} {})", args.iter().map(|a| smt(a, var)).collect::<Vec<_>>().join(" ")),
    }
}

/// SMT-LIB declarations of the sort and operators, and the axioms as quantified
/// assertions.
#[cfg_attr(not(feature = "z3"), allow(dead_code))]
pub fn smt_prelude(axioms: &[Axiom]) -> String {
    let mut out = String::from("(declare-sort T 0)\n");
    for (op, arity) in OPERATORS {
        out += &format!("(declare-fun {op} ({}) T)\n", vec!["T"; *arity].join(" "));
    }
    for a in axioms {
        let var = |i: usize| format!("v{i}");
        let bound: Vec<String> = (0..a.vars).map(|i| format!("(v{i} T)")).collect();
        let eq = format!("(= {} {})", smt(&a.left, &var), smt(&a.right, &var));
        out += &if a.vars == 0 {
            format!("(assert {eq})\n")
        } else {
            format!("(assert (forall ({}) {eq}))\n", bound.join(" "))
        };
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn malformed_axioms_are_errors() {
        assert!(parse_axioms("(matmul a) = a").unwrap_err().contains("takes 2 operands"));
        assert!(parse_axioms("(frob a) = a").unwrap_err().contains("unknown operator"));
        assert!(parse_axioms("(add a b)").unwrap_err().contains("LEFT = RIGHT"));
    }
}
