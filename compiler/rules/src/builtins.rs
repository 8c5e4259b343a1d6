//! The functions rule expressions may call, with their arities. The dialect that
//! includes generated matchers implements each as a Rust function named by
//! [`Builtin::rust_name`] in its `rule_builtins` module, taking `(&Module, &[Val])` and
//! returning `Option<Val>` (`None`: the rule does not apply).

/// One builtin function of the rule language.
#[derive(Clone, Copy, Debug)]
pub struct Builtin {
    pub name: &'static str,
    pub min_args: usize,
    /// `usize::MAX` for variadic functions.
    pub max_args: usize,
    pub doc: &'static str,
}

impl Builtin {
    /// The Rust function implementing it: `same-type` -> `same_type`, `+` -> `plus`.
    pub fn rust_name(&self) -> String {
        match self.name {
            "+" => "plus".into(),
            "-" => "minus".into(),
            "*" => "times".into(),
            "=" => "equal".into(),
            "!=" => "not_equal".into(),
            "<" => "less".into(),
            "<=" => "less_equal".into(),
            ">" => "greater".into(),
            ">=" => "greater_equal".into(),
            n => n.replace('-', "_"),
        }
    }
}

const fn f(name: &'static str, min_args: usize, max_args: usize, doc: &'static str) -> Builtin {
    Builtin { name, min_args, max_args, doc }
}

/// Every builtin, by name.
pub static BUILTINS: &[Builtin] = &[
    f("=", 2, 2, "equality of integers, lists, attributes or values"),
    f("!=", 2, 2, "inequality"),
    f("<", 2, 2, "integer comparison"),
    f("<=", 2, 2, "integer comparison"),
    f(">", 2, 2, "integer comparison"),
    f(">=", 2, 2, "integer comparison"),
    f("and", 1, usize::MAX, "all true"),
    f("or", 1, usize::MAX, "any true"),
    f("not", 1, 1, "negation"),
    f("+", 2, 2, "integer sum (elementwise on lists of one length)"),
    f("-", 2, 2, "integer difference (elementwise on lists)"),
    f("*", 2, 2, "integer product (elementwise on lists)"),
    f("present-or", 2, 2, "(present-or ?a e): attribute ?a, or e when the op does not have it"),
    f("ones", 1, 1, "(ones n): a list of n ones"),
    f("absent-if", 2, 2, "(absent-if c e): as a target attribute, left out when c holds; else e"),
    f("compose", 2, 2, "(compose p q): the permutation of transpose(transpose(x, p), q), r[k] = p[q[k]]"),
    f("identity-perm", 1, 1, "whether a permutation is 0, 1, ..., n-1"),
    f("inverse-perm", 1, 1, "the inverse permutation"),
    f(
        "swap-last-two",
        1,
        1,
        "(swap-last-two n): the permutation of rank n >= 2 exchanging its last two axes (a matrix transpose \
         of each matrix of a batch)",
    ),
    f("same-type", 2, 2, "whether two values have the same type (shape, element type, layout)"),
    f("rank", 1, 1, "a tensor value's rank"),
    f("dim", 2, 2, "(dim ?x i): extent i of ?x (negative i counts from the end)"),
    f("shape", 1, 1, "a tensor value's extents"),
    f("splat", 2, 2, "(splat ?c v): ?c is a constant whose every element is v (floats bitwise, so -0 is not 0)"),
    f(
        "is-identity",
        1,
        1,
        "whether a value is a constant identity matrix, or a [c, c, 1, 1] filter passing each channel through",
    ),
    f("is-float", 1, 1, "whether a value's elements are floats"),
    f(
        "exact-widening",
        2,
        2,
        "(exact-widening ?x ?y): ?y's element type holds every value of ?x's exactly (a wider float, a \
         wider integer, or any type for i1)",
    ),
    f("single-use", 1, 1, "whether a value has exactly one use"),
    f("moves-nothing", 2, 2, "(moves-nothing p ?x): transposing ?x by p keeps the order of its extents other than 1"),
    f("float-splat", 1, 1, "the number every element of a float constant equals (not NaN); no match otherwise"),
    f("fmax", 2, 2, "the larger float, -0 below +0 (IEEE total order)"),
    f("fmin", 2, 2, "the smaller float, -0 below +0 (IEEE total order)"),
    f("float-le", 2, 2, "a <= b in the IEEE total order"),
];

/// The builtin called `name`.
pub fn lookup(name: &str) -> Option<&'static Builtin> {
    BUILTINS.iter().find(|b| b.name == name)
}
