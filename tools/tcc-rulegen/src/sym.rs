//! Symbolic reals, for validating the axioms on every small shape ([`crate::validate`]).
//!
//! A [`Sym`] is a polynomial with rational coefficients over *atoms*, kept in a
//! canonical form: the atoms are the inputs' elements and `max` of a set of
//! polynomials (nested maxima flattened, terms common to all arguments taken out,
//! duplicates dropped, constants folded, an argument dropped when another exceeds it
//! by a constant). ReLU is `max(x, 0)`, and a window's mean its sum times 1/9. These
//! are facts of real arithmetic, not axioms, so two expressions with the same canonical
//! form are equal for all real inputs; and two polynomials without `max` whose forms
//! differ are different functions. Only a difference involving `max` is undecided by
//! the forms: [`decide`] then looks for a counterexample by evaluation and, with Z3
//! (feature `z3`), proves or refutes the equality in real arithmetic with `max`
//! defined by `ite`.
//!
//! `Sym`s are indices into a per-thread arena, so they are `Copy` like the
//! specifications' other numbers; [`reset`] clears it between instances.

use std::cell::RefCell;
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet, HashMap};

use crate::spec::Num;

/// A rational number in lowest terms, with a positive denominator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rat {
    num: i128,
    den: i128,
}

fn gcd(a: i128, b: i128) -> i128 {
    if b == 0 { a.abs() } else { gcd(b, a % b) }
}

impl Rat {
    pub const ZERO: Rat = Rat { num: 0, den: 1 };

    pub fn new(num: i128, den: i128) -> Rat {
        let g = gcd(num, den).max(1) * den.signum();
        Rat { num: num / g, den: den / g }
    }

    fn add(self, o: Rat) -> Rat {
        Rat::new(self.num * o.den + o.num * self.den, self.den * o.den)
    }

    fn mul(self, o: Rat) -> Rat {
        Rat::new(self.num * o.num, self.den * o.den)
    }

    /// Numeric order (the derived `Ord` is only a canonical one).
    fn value_cmp(self, o: Rat) -> Ordering {
        (self.num * o.den).cmp(&(o.num * self.den))
    }

    fn to_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }

    fn smt(self) -> String {
        let n = if self.num < 0 { format!("(- {}.0)", -self.num) } else { format!("{}.0", self.num) };
        if self.den == 1 { n } else { format!("(/ {n} {}.0)", self.den) }
    }
}

/// A monomial: atom ids in ascending order, repeated for powers; empty for 1.
type Monomial = Vec<u32>;

/// A polynomial: nonzero coefficients by monomial.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Poly(BTreeMap<Monomial, Rat>);

impl Poly {
    fn constant(c: Rat) -> Poly {
        let mut p = Poly::default();
        if c != Rat::ZERO {
            p.0.insert(Vec::new(), c);
        }
        p
    }

    fn atom(id: u32) -> Poly {
        Poly(BTreeMap::from([(vec![id], Rat::new(1, 1))]))
    }

    fn add_term(&mut self, m: Monomial, c: Rat) {
        let sum = self.0.get(&m).map_or(c, |&old| old.add(c));
        if sum == Rat::ZERO {
            self.0.remove(&m);
        } else {
            self.0.insert(m, sum);
        }
    }

    fn add(&self, o: &Poly) -> Poly {
        let mut out = self.clone();
        for (m, &c) in &o.0 {
            out.add_term(m.clone(), c);
        }
        out
    }

    fn scaled(&self, k: Rat) -> Poly {
        let mut out = Poly::default();
        for (m, &c) in &self.0 {
            out.add_term(m.clone(), c.mul(k));
        }
        out
    }

    fn mul(&self, o: &Poly) -> Poly {
        let mut out = Poly::default();
        for (m1, &c1) in &self.0 {
            for (m2, &c2) in &o.0 {
                let mut m = m1.clone();
                m.extend_from_slice(m2);
                m.sort_unstable();
                out.add_term(m, c1.mul(c2));
            }
        }
        out
    }

    /// The constant this is, if it is one.
    fn as_constant(&self) -> Option<Rat> {
        match self.0.len() {
            0 => Some(Rat::ZERO),
            1 => self.0.get(&Vec::new()).copied(),
            _ => None,
        }
    }

    /// The atom this is (coefficient 1, degree 1), if it is one.
    fn as_atom(&self) -> Option<u32> {
        match self.0.iter().next() {
            Some((m, &c)) if self.0.len() == 1 && m.len() == 1 && c == Rat::new(1, 1) => Some(m[0]),
            _ => None,
        }
    }

    fn atoms(&self) -> impl Iterator<Item = u32> + '_ {
        self.0.keys().flatten().copied()
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Atom {
    /// An input element (numbered in creation order).
    Var(u32),
    /// The largest of two or more polynomials.
    Max(BTreeSet<Poly>),
}

/// Polynomials and atoms of the current instance. An atom's arguments only mention
/// atoms created before it.
#[derive(Default)]
struct Arena {
    polys: Vec<Poly>,
    atoms: Vec<Atom>,
    index: HashMap<Atom, u32>,
    vars: u32,
}

impl Arena {
    fn push(&mut self, p: Poly) -> Sym {
        self.polys.push(p);
        Sym(self.polys.len() as u32 - 1)
    }

    fn intern(&mut self, a: Atom) -> u32 {
        if let Some(&id) = self.index.get(&a) {
            return id;
        }
        let id = self.atoms.len() as u32;
        self.atoms.push(a.clone());
        self.index.insert(a, id);
        id
    }

    /// `max(a, b)` in canonical form.
    fn max(&mut self, a: &Poly, b: &Poly) -> Poly {
        self.max_of(&[a.clone(), b.clone()])
    }

    /// The largest of `args` in canonical form: nested maxima flattened, terms common
    /// to every argument taken out (`max(a + c, b + c) = max(a, b) + c`), dominated
    /// arguments dropped.
    fn max_of(&mut self, given: &[Poly]) -> Poly {
        let mut args: Vec<Poly> = Vec::new();
        for p in given {
            match p.as_atom().map(|id| &self.atoms[id as usize]) {
                Some(Atom::Max(inner)) => args.extend(inner.iter().cloned()),
                _ => args.push(p.clone()),
            }
        }
        let mut common = args[0].clone();
        common.0.retain(|m, c| args[1..].iter().all(|p| p.0.get(m) == Some(c)));
        if !common.0.is_empty() {
            let rest: Vec<Poly> = args.iter().map(|p| p.add(&common.scaled(Rat::new(-1, 1)))).collect();
            return self.max_of(&rest).add(&common);
        }
        // Drop an argument another exceeds (or equals) by a constant: this also folds
        // constants and duplicates.
        let mut keep: Vec<Poly> = Vec::new();
        for p in args {
            let dominated = keep.iter().any(|q| {
                q.add(&p.scaled(Rat::new(-1, 1))).as_constant().is_some_and(|d| d.value_cmp(Rat::ZERO).is_ge())
            });
            if !dominated {
                keep.retain(|q| {
                    p.add(&q.scaled(Rat::new(-1, 1))).as_constant().is_none_or(|d| d.value_cmp(Rat::ZERO).is_lt())
                });
                keep.push(p);
            }
        }
        if keep.len() == 1 {
            return keep.pop().expect("one argument");
        }
        Poly::atom(self.intern(Atom::Max(keep.into_iter().collect())))
    }
}

thread_local! {
    static ARENA: RefCell<Arena> = RefCell::default();
}

/// A symbolic real of the current thread's arena.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sym(u32);

/// Clears this thread's arena; earlier `Sym`s are invalid after it.
pub fn reset() {
    ARENA.with(|a| *a.borrow_mut() = Arena::default());
}

/// A fresh input element.
pub fn var() -> Sym {
    ARENA.with(|a| {
        let mut a = a.borrow_mut();
        let n = a.vars;
        a.vars += 1;
        let id = a.intern(Atom::Var(n));
        a.push(Poly::atom(id))
    })
}

/// The canonical form of `s`.
pub fn poly(s: Sym) -> Poly {
    ARENA.with(|a| a.borrow().polys[s.0 as usize].clone())
}

fn binary(x: Sym, y: Sym, f: impl FnOnce(&mut Arena, &Poly, &Poly) -> Poly) -> Sym {
    ARENA.with(|a| {
        let mut a = a.borrow_mut();
        let (p, q) = (a.polys[x.0 as usize].clone(), a.polys[y.0 as usize].clone());
        let r = f(&mut a, &p, &q);
        a.push(r)
    })
}

impl Num for Sym {
    fn zero() -> Sym {
        Sym::from_i64(0)
    }
    fn add(self, o: Sym) -> Sym {
        binary(self, o, |_, p, q| p.add(q))
    }
    fn mul(self, o: Sym) -> Sym {
        binary(self, o, |_, p, q| p.mul(q))
    }
    fn relu(self) -> Sym {
        binary(self, Sym::zero(), |a, p, q| a.max(p, q))
    }
    fn max(self, o: Sym) -> Sym {
        binary(self, o, |a, p, q| a.max(p, q))
    }
    fn mean9(sum: Sym) -> Sym {
        ARENA.with(|a| {
            let mut a = a.borrow_mut();
            let p = a.polys[sum.0 as usize].scaled(Rat::new(1, 9));
            a.push(p)
        })
    }
    fn from_i64(v: i64) -> Sym {
        ARENA.with(|a| a.borrow_mut().push(Poly::constant(Rat::new(v as i128, 1))))
    }
}

/// What [`decide`] concluded about pairs of canonical forms.
#[derive(Debug, PartialEq)]
pub enum Decision {
    /// Equal for all real inputs (the forms are equal, or Z3 proved it).
    Equal { by_solver: bool },
    /// Different somewhere: pair `index` differs (at the point given, if one was found).
    Differs { index: usize, at: Option<Vec<f64>> },
    /// Neither proved nor refuted.
    Unknown(String),
}

/// The values of every atom at the point `vars`, in id order.
fn atom_values(arena: &Arena, vars: &[f64]) -> Vec<f64> {
    let mut vals: Vec<f64> = Vec::with_capacity(arena.atoms.len());
    for atom in &arena.atoms {
        let v = match atom {
            Atom::Var(i) => vars[*i as usize],
            Atom::Max(args) => args.iter().map(|p| eval_with(p, &vals)).fold(f64::NEG_INFINITY, f64::max),
        };
        vals.push(v);
    }
    vals
}

fn eval_with(p: &Poly, atoms: &[f64]) -> f64 {
    p.0.iter().map(|(m, c)| c.to_f64() * m.iter().map(|&a| atoms[a as usize]).product::<f64>()).sum()
}

/// Whether `left[i] == right[i]` for all i and all real values of the inputs.
pub fn decide(left: &[Poly], right: &[Poly], #[allow(unused)] timeout_ms: u32) -> Decision {
    let differing: Vec<usize> = (0..left.len()).filter(|&i| left[i] != right[i]).collect();
    let Some(&first) = differing.first() else { return Decision::Equal { by_solver: false } };
    ARENA.with(|a| {
        let a = a.borrow();
        let has_max = |p: &Poly| p.atoms().any(|id| matches!(a.atoms[id as usize], Atom::Max(_)));
        if differing.iter().all(|&i| !has_max(&left[i]) && !has_max(&right[i])) {
            // Different polynomials are different functions.
            return Decision::Differs { index: first, at: None };
        }
        let mut next = crate::spec::xorshift(0x5EED);
        for _ in 0..64 {
            let point: Vec<f64> = (0..a.vars).map(|_| (next() % 2001) as f64 / 1000.0 - 1.0).collect();
            let vals = atom_values(&a, &point);
            for &i in &differing {
                let (l, r) = (eval_with(&left[i], &vals), eval_with(&right[i], &vals));
                if (l - r).abs() > 1e-9 * (1.0 + l.abs()) {
                    return Decision::Differs { index: i, at: Some(point) };
                }
            }
        }
        match prove(&a, &differing.iter().map(|&i| (&left[i], &right[i])).collect::<Vec<_>>(), timeout_ms) {
            Decision::Differs { at, .. } => Decision::Differs { index: first, at },
            d => d,
        }
    })
}

#[cfg(not(feature = "z3"))]
fn prove(_: &Arena, _: &[(&Poly, &Poly)], _: u32) -> Decision {
    Decision::Unknown("the canonical forms differ by a `max` and tcc-rulegen was built without Z3".into())
}

#[cfg(feature = "z3")]
fn prove(a: &Arena, pairs: &[(&Poly, &Poly)], timeout_ms: u32) -> Decision {
    let query = smt_query(a, pairs);
    // A fresh context per query, so that the outcome does not depend on earlier ones.
    z3::with_z3_config(&z3::Config::new(), || {
        let solver = z3::Solver::new();
        let mut params = z3::Params::new();
        params.set_u32("timeout", timeout_ms);
        solver.set_params(&params);
        solver.from_string(query.as_str());
        match solver.check() {
            z3::SatResult::Unsat => Decision::Equal { by_solver: true },
            z3::SatResult::Sat => Decision::Differs { index: 0, at: None },
            z3::SatResult::Unknown => {
                Decision::Unknown(format!("Z3 could not decide: {}", solver.get_reason_unknown().unwrap_or_default()))
            }
        }
    })
}

fn smt_poly(p: &Poly) -> String {
    if p.0.is_empty() {
        return "0.0".into();
    }
    let terms: Vec<String> = p
        .0
        .iter()
        .map(|(m, c)| {
            let factors: Vec<String> = std::iter::once(c.smt()).chain(m.iter().map(|id| format!("a{id}"))).collect();
            if factors.len() == 1 { factors[0].clone() } else { format!("(* {})", factors.join(" ")) }
        })
        .collect();
    if terms.len() == 1 { terms[0].clone() } else { format!("(+ {})", terms.join(" ")) }
}

/// The SMT-LIB query claiming some pair differs: inputs as real constants, each atom
/// defined in turn (`max` by `ite`).
#[cfg_attr(not(feature = "z3"), allow(dead_code))]
fn smt_query(a: &Arena, pairs: &[(&Poly, &Poly)]) -> String {
    let mut q = String::new();
    for (id, atom) in a.atoms.iter().enumerate() {
        let def = match atom {
            Atom::Var(i) => {
                q += &format!("(declare-const x{i} Real)\n");
                format!("x{i}")
            }
            Atom::Max(args) => {
                let mut it = args.iter().map(smt_poly);
                let first = it.next().unwrap_or_else(|| "0.0".into());
                it.fold(first, |acc, p| format!("(ite (>= {acc} {p}) {acc} {p})"))
            }
        };
        q += &format!("(define-fun a{id} () Real {def})\n");
    }
    let claims: Vec<String> = pairs.iter().map(|(l, r)| format!("(not (= {} {}))", smt_poly(l), smt_poly(r))).collect();
    q += &format!("(assert (or false {}))\n", claims.join(" "));
    q
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_forms_identify_equal_expressions() {
        reset();
        let (a, b, c) = (var(), var(), var());
        // (a + b) * c == c * b + a * c
        assert_eq!(poly(a.add(b).mul(c)), poly(c.mul(b).add(a.mul(c))));
        // relu(relu(a)) == relu(a); max(relu(a), relu(b)) == relu(max(a, b))
        assert_eq!(poly(a.relu().relu()), poly(a.relu()));
        assert_eq!(poly(a.relu().max(b.relu())), poly(a.max(b).relu()));
        // max(a + c, b + c) == max(a, b) + c, however the maxima nest.
        assert_eq!(poly(a.add(c).max(b.add(c))), poly(a.max(b).add(c)));
        assert_eq!(poly(a.add(c).max(b.add(c)).max(c)), poly(a.max(b).max(Sym::zero()).add(c)));
        // max(a + 1, a) == a + 1; the mean of nine a's is a
        let one = Sym::from_i64(1);
        assert_eq!(poly(a.add(one).max(a)), poly(a.add(one)));
        let nine = (0..9).fold(Sym::zero(), |s, _| s.add(a));
        assert_eq!(poly(Sym::mean9(nine)), poly(a));
        assert_ne!(poly(a.mul(b)), poly(a.add(b)));
    }

    #[test]
    fn decisions() {
        reset();
        let (a, b) = (var(), var());
        let same = decide(&[poly(a.mul(b))], &[poly(b.mul(a))], 1000);
        assert_eq!(same, Decision::Equal { by_solver: false });
        // Polynomials that differ: no search needed.
        let d = decide(&[poly(a.mul(a))], &[poly(a)], 1000);
        assert_eq!(d, Decision::Differs { index: 0, at: None });
        // relu(a + b) != relu(a) + relu(b): a point shows it.
        let d = decide(&[poly(a.add(b).relu())], &[poly(a.relu().add(b.relu()))], 1000);
        assert!(matches!(d, Decision::Differs { index: 0, at: Some(_) }), "{d:?}");
    }

    /// 2 max(a, b) == a + b + max(a - b, b - a): true, but not by canonical forms.
    #[test]
    fn z3_decides_what_the_forms_cannot() {
        reset();
        let (a, b) = (var(), var());
        let neg = Sym::from_i64(-1);
        let left = a.max(b).mul(Sym::from_i64(2));
        let right = a.add(b).add(a.add(b.mul(neg)).max(b.add(a.mul(neg))));
        assert_ne!(poly(left), poly(right));
        let d = decide(&[poly(left)], &[poly(right)], 5000);
        if cfg!(feature = "z3") {
            assert_eq!(d, Decision::Equal { by_solver: true });
        } else {
            assert!(matches!(d, Decision::Unknown(_)), "{d:?}");
        }
        // And a false one no random point in [-1, 1] refutes: max(a, 2) == 2.
        let two = Sym::from_i64(2);
        let d = decide(&[poly(a.max(two))], &[poly(two)], 5000);
        if cfg!(feature = "z3") {
            assert!(matches!(d, Decision::Differs { .. }), "{d:?}");
        }
    }
}
