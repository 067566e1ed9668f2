//! Generates the on-chain Poseidon(2) hasher, `contracts/src/PoseidonT3.sol`: a Solidity
//! contract whose one function evaluates t = 3 Poseidon in inline assembly, in the optimised
//! form of [`super::fast`] and with its tables (read through `fast::tables3`, never copied by
//! hand).
//!
//! # How
//!
//! [`poseidon_t3_program`] first builds a [`Program`]: straight-line code over a handful of
//! 256-bit variables whose only operations are the EVM's `mulmod(a, b, r)`, `addmod(a, b, r)`
//! and `add(a, b)`. [`Program::run`] executes it in Rust with exactly the EVM's semantics
//! (wrapping `add`, exact `mulmod`/`addmod` on any 256-bit operands) and
//! [`Program::check_bounds`] proves, for every input below r, that no `add` wraps and that the
//! output is below r. [`poseidon_t3_contract`] prints the same program as Yul, one statement per
//! line (a block on one line), so the Solidity text is a literal rendering of a program the tests
//! have run against [`super::hash2`] (`crates/zk/tests/solidity.rs`).
//!
//! The program follows `fast::permute` round by round: round 0 with lane 0 the constant
//! `c₀[0]⁵`; three dense full rounds, the third with the matrix that absorbs the partial
//! rounds' dense factors; 57 partial rounds with one lane-0 constant and the sparse matrix
//! `S_r`; four full rounds, the last computing only lane 0. Three changes of bookkeeping
//! only, all exact over the field:
//!
//! * **Scaled lanes.** Each lane's variable holds its true value times a non-zero factor
//!   (`scale`), chosen per lane and per round by the generator. An S-box turns a factor s
//!   into s⁵ (`(s·x)⁵ = s⁵·x⁵`), a linear layer divides each input's coefficient by the
//!   input's factor, and each output row picks its own new factor so that one of its terms
//!   has coefficient 1: that term is a plain variable instead of a `mulmod`. This saves one
//!   multiplication per row of every linear layer: a partial round costs 3 + 2(t − 1) = 7
//!   (its sparse matrix 2t − 2 = 4 instead of 2t − 1), a dense round t² − t = 6 instead of 9.
//!   The output row alone is computed with factor 1, so the hash is the true value; the
//!   inputs enter with factor 1. (The constants added with a row are multiplied by the
//!   row's factor, at generation time.)
//! * **Constants are added where a lane is written.** A round's constants are added by the
//!   statement that computes the lane in the previous round's linear layer, instead of by a
//!   statement of their own. In round 0 the constant lane 0 also folds into the matrix
//!   product: `M[i][0]·c₀[0]⁵` is one constant per row, computed here.
//! * **Lazy reduction.** A `mulmod` accepts operands up to 2²⁵⁶ − 1 and always returns a value
//!   below r, and r < 2²⁵⁶/5, so sums are built with `add` (3 gas) while their upper bound
//!   stays below 2²⁵⁶, and with `addmod` (8 gas) otherwise. The generator tracks an upper bound
//!   per value to choose; the output is always an `addmod`, hence below r.
//!
//! The full rounds' dense product needs the old lanes until the last row, so its first rows
//! go to spare variables and the lanes are renamed instead of copied. The program uses
//! 2t − 1 = 5 variables (3 lanes and 2 spares, one of which holds a partial round's x⁵) plus
//! the modulus, and each S-box computes x² in a variable local to a `{ }` block of its own,
//! well within the EVM's 16 reachable stack slots. (The block matters for gas: solc's legacy
//! code generator pushes a block-local `let` where it is computed and pops it once at the end
//! of the block, instead of `SWAP`/`POP` into a longer-lived variable, about 3 gas less per
//! S-box; measured with solc 0.8.30.)

use std::fmt::Write as _;

use alloy_primitives::U256;
use ark_ff::{Field, One, Zero};

use super::fast::{self, HALF_FULL, Tables};
use crate::Fr;
use crate::field::{MODULUS, to_u256};

/// The Solidity source of `PoseidonT3` (see `contracts/src/PoseidonT3.sol`): `poseidon(uint256[2])`
/// returns circomlib's Poseidon of the two inputs, equal to [`super::hash2`], and reverts if
/// either input is not below r. Deterministic: the same bytes on every run.
pub fn poseidon_t3_contract() -> String {
    render_contract(&poseidon_t3_program(), &T3)
}

/// The straight-line program the contract's assembly renders: Poseidon t = 3 from two inputs
/// below r to its output below r.
pub fn poseidon_t3_program() -> Program {
    build(fast::tables3())
}

/// The Solidity source of `PoseidonT5` (see `contracts/src/PoseidonT5.sol`):
/// `poseidon(uint256[4])` returns circomlib's Poseidon of the four inputs, equal to
/// [`super::hash4`], and reverts if any input is not below r. One call binds a batch proof's
/// four public values where t = 3 would take three calls (the batch's CPU time on TRON: each
/// call is about 0.4 ms of java-tron's time, this one about as much as two).
pub fn poseidon_t5_contract() -> String {
    render_contract(&poseidon_t5_program(), &T5)
}

/// The program of [`poseidon_t5_contract`]: Poseidon t = 5 from four inputs below r.
pub fn poseidon_t5_program() -> Program {
    build(fast::tables5())
}

/// A 256-bit variable of the program (rendered `v0`, `v1`, …).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Var(pub usize);

/// An expression over variables and constants, with EVM semantics modulo r.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expr {
    Var(Var),
    /// A constant below r, rendered as a 64-digit hex literal.
    Const(U256),
    /// `add(a, b)`: wraps modulo 2²⁵⁶ on the EVM, so it must only be used where the operands'
    /// bounds exclude a wrap ([`Program::check_bounds`]).
    Add(Box<Expr>, Box<Expr>),
    /// `addmod(a, b, r)`.
    AddMod(Box<Expr>, Box<Expr>),
    /// `mulmod(a, b, r)`.
    MulMod(Box<Expr>, Box<Expr>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Statement {
    /// A line of commentary in the rendered code.
    Comment(String),
    /// `var := expr` (`let var := expr` the first time in its scope).
    Assign(Var, Expr),
    /// `{ … }`: variables first assigned inside are local to it, as in Yul, and cannot be read
    /// after it.
    Block(Vec<Statement>),
}

/// Straight-line code: `inputs` hold the hash inputs (below r) on entry and `output` holds the
/// hash at the end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    pub inputs: Vec<Var>,
    pub statements: Vec<Statement>,
    pub output: Var,
}

/// How many operations of each kind one evaluation executes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OpCounts {
    pub mulmod: usize,
    pub addmod: usize,
    pub add: usize,
    /// Constant operands (each one `PUSH32`).
    pub constants: usize,
    /// Assignments.
    pub assignments: usize,
}

impl Program {
    /// Executes the program as the EVM would, on inputs that must be below r (the contract
    /// reverts otherwise). Panics if a variable is read before it is assigned.
    pub fn run<const N: usize>(&self, inputs: [U256; N]) -> U256 {
        assert_eq!(N, self.inputs.len(), "one value per input");
        assert!(inputs.iter().all(|x| *x < MODULUS), "inputs below r");
        let mut vars: Vec<Option<U256>> = vec![None; self.variables()];
        for (var, value) in self.inputs.iter().zip(inputs) {
            vars[var.0] = Some(value);
        }
        let evaluated: Result<(), std::convert::Infallible> =
            walk(&self.statements, &mut vars, &mut |_, expr, vars| {
                Ok(expr.eval(vars))
            });
        evaluated.expect("evaluation cannot fail");
        vars[self.output.0].expect("the output is assigned")
    }

    /// Proves, by interval arithmetic over upper bounds, that for all inputs below r no `add`
    /// wraps and the output is below r; returns the output's bound. Every variable is assigned
    /// before it is read.
    pub fn check_bounds(&self) -> Result<U256, String> {
        let mut max: Vec<Option<U256>> = vec![None; self.variables()];
        for var in &self.inputs {
            max[var.0] = Some(MODULUS - U256::from(1));
        }
        let mut line = 0;
        walk(&self.statements, &mut max, &mut |var, expr, max| {
            line += 1;
            expr.max(max)
                .map_err(|e| format!("assignment {line} ({}): {e}", var_name(var)))
        })?;
        let out = max[self.output.0].ok_or("the output is never assigned")?;
        if out >= MODULUS {
            return Err(format!("the output may reach {out}, not below r"));
        }
        Ok(out)
    }

    pub fn counts(&self) -> OpCounts {
        let mut counts = OpCounts::default();
        for (_, expr) in self.assignments() {
            counts.assignments += 1;
            expr.count(&mut counts);
        }
        counts
    }

    /// Every assignment in order, blocks flattened.
    pub fn assignments(&self) -> Vec<(Var, &Expr)> {
        fn collect<'a>(statements: &'a [Statement], out: &mut Vec<(Var, &'a Expr)>) {
            for statement in statements {
                match statement {
                    Statement::Comment(_) => {}
                    Statement::Assign(var, expr) => out.push((*var, expr)),
                    Statement::Block(inner) => collect(inner, out),
                }
            }
        }
        let mut out = Vec::new();
        collect(&self.statements, &mut out);
        out
    }

    /// Number of distinct variables (they are numbered from 0).
    pub fn variables(&self) -> usize {
        let mut n = self
            .inputs
            .iter()
            .chain([&self.output])
            .map(|v| v.0 + 1)
            .max();
        for (var, expr) in self.assignments() {
            n = n.max(Some(var.0 + 1)).max(expr.max_var().map(|v| v.0 + 1));
        }
        n.unwrap_or(0)
    }
}

/// Runs `assign` on each assignment in order, storing what it returns in the variable, with
/// Yul's scoping: a variable unassigned before a block is unassigned again after it.
fn walk<E>(
    statements: &[Statement],
    vars: &mut [Option<U256>],
    assign: &mut impl FnMut(Var, &Expr, &[Option<U256>]) -> Result<U256, E>,
) -> Result<(), E> {
    for statement in statements {
        match statement {
            Statement::Comment(_) => {}
            Statement::Assign(var, expr) => vars[var.0] = Some(assign(*var, expr, vars)?),
            Statement::Block(inner) => {
                let outer: Vec<bool> = vars.iter().map(Option::is_some).collect();
                walk(inner, vars, assign)?;
                for (var, was) in vars.iter_mut().zip(outer) {
                    if !was {
                        *var = None;
                    }
                }
            }
        }
    }
    Ok(())
}

impl Expr {
    fn eval(&self, vars: &[Option<U256>]) -> U256 {
        match self {
            Expr::Var(v) => vars[v.0].unwrap_or_else(|| panic!("{} read unassigned", var_name(*v))),
            Expr::Const(c) => *c,
            Expr::Add(a, b) => a.eval(vars).wrapping_add(b.eval(vars)),
            Expr::AddMod(a, b) => a.eval(vars).add_mod(b.eval(vars), MODULUS),
            Expr::MulMod(a, b) => a.eval(vars).mul_mod(b.eval(vars), MODULUS),
        }
    }

    fn max(&self, vars: &[Option<U256>]) -> Result<U256, String> {
        Ok(match self {
            Expr::Var(v) => vars[v.0].ok_or_else(|| format!("{} read unassigned", var_name(*v)))?,
            Expr::Const(c) if *c < MODULUS => *c,
            Expr::Const(c) => return Err(format!("constant {c:#x} is not below r")),
            Expr::Add(a, b) => a
                .max(vars)?
                .checked_add(b.max(vars)?)
                .ok_or("an `add` may wrap")?,
            Expr::AddMod(a, b) | Expr::MulMod(a, b) => {
                a.max(vars)?;
                b.max(vars)?;
                MODULUS - U256::from(1)
            }
        })
    }

    fn count(&self, counts: &mut OpCounts) {
        let (a, b) = match self {
            Expr::Var(_) => return,
            Expr::Const(_) => {
                counts.constants += 1;
                return;
            }
            Expr::Add(a, b) => {
                counts.add += 1;
                (a, b)
            }
            Expr::AddMod(a, b) => {
                counts.addmod += 1;
                (a, b)
            }
            Expr::MulMod(a, b) => {
                counts.mulmod += 1;
                (a, b)
            }
        };
        a.count(counts);
        b.count(counts);
    }

    fn max_var(&self) -> Option<Var> {
        match self {
            Expr::Var(v) => Some(*v),
            Expr::Const(_) => None,
            Expr::Add(a, b) | Expr::AddMod(a, b) | Expr::MulMod(a, b) => {
                a.max_var().max(b.max_var())
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Building the program from the tables.

/// An expression with an upper bound on its value.
struct Value {
    expr: Expr,
    max: U256,
}

/// A lane of the state: a variable, or (lane 0 in round 0) a constant.
#[derive(Clone, Copy)]
enum Lane {
    Var(Var),
    Const(Fr),
}

struct Builder {
    statements: Vec<Statement>,
    /// Upper bound of each variable's current value.
    max: Vec<Option<U256>>,
    /// The S-boxes' block-local x².
    square: Var,
}

impl Builder {
    fn comment(&mut self, text: String) {
        self.statements.push(Statement::Comment(text));
    }

    fn read(&self, var: Var) -> Value {
        Value {
            expr: Expr::Var(var),
            max: self.max[var.0].expect("variable read before assignment"),
        }
    }

    fn assign(&mut self, var: Var, value: Value) {
        if self.max.len() <= var.0 {
            self.max.resize(var.0 + 1, None);
        }
        self.max[var.0] = Some(value.max);
        self.statements.push(Statement::Assign(var, value.expr));
    }

    /// `to := x⁵` (`to` may be `x`): `{ let q := x²  to := q²·x }`.
    fn sbox(&mut self, x: Var, to: Var) {
        let outer = std::mem::take(&mut self.statements);
        let q = self.square;
        let square = mulmod(self.read(x), self.read(x));
        self.assign(q, square);
        let fifth = mulmod(mulmod(self.read(q), self.read(q)), self.read(x));
        self.assign(to, fifth);
        self.max[q.0] = None;
        let block = std::mem::replace(&mut self.statements, outer);
        self.statements.push(Statement::Block(block));
    }

    /// `Σ row[j]·lanes[j] + constant`, reduced below r if `reduce`.
    fn dot(&self, row: &[Fr], lanes: &[Lane], constant: Fr, reduce: bool) -> Value {
        let mut constant = constant;
        let mut terms = Vec::new();
        for (&m, lane) in row.iter().zip(lanes) {
            match *lane {
                Lane::Const(c) => constant += m * c,
                Lane::Var(_) if m.is_zero() => {}
                Lane::Var(v) if m.is_one() => terms.push(self.read(v)),
                Lane::Var(v) => terms.push(mulmod(self.read(v), constant_value(m))),
            }
        }
        if !constant.is_zero() {
            terms.push(constant_value(constant));
        }
        let mut terms = terms.into_iter();
        let mut sum = terms.next().expect("a non-zero row");
        let last = terms.len();
        for (i, term) in terms.enumerate() {
            sum = if reduce && i + 1 == last {
                addmod(sum, term)
            } else {
                add_lazy(sum, term)
            };
        }
        if reduce && sum.max >= MODULUS {
            sum = addmod(sum, constant_value(Fr::zero()));
        }
        sum
    }

    /// Row `row` of a linear layer whose inputs are stored scaled: lane j's variable holds
    /// `divisors[j]` times its true value (a constant lane holds its true value; its divisor
    /// must be 1). The result, plus `constant`, is stored scaled by a factor `s` chosen so
    /// that one term has coefficient 1 and costs no multiplication: the term with the smallest
    /// bound (first on a tie), which also keeps the sum's bound small. Returns the value
    /// (unreduced) and `s`.
    fn scaled_dot(&self, row: &[Fr], lanes: &[Lane], divisors: &[Fr], constant: Fr) -> (Value, Fr) {
        let pivot = row
            .iter()
            .zip(lanes)
            .enumerate()
            .filter_map(|(j, (m, lane))| match lane {
                Lane::Var(v) if !m.is_zero() => Some((j, self.max[v.0].expect("assigned"))),
                _ => None,
            })
            .min_by_key(|&(j, max)| (max, j))
            .map(|(j, _)| j)
            .expect("a row with a variable term");
        let s = divisors[pivot] * row[pivot].inverse().expect("a non-zero coefficient");
        let scaled: Vec<Fr> = row
            .iter()
            .zip(divisors)
            .map(|(&m, d)| s * m * d.inverse().expect("scales are non-zero"))
            .collect();
        debug_assert!(scaled[pivot].is_one());
        (self.dot(&scaled, lanes, s * constant, false), s)
    }
}

fn constant_value(c: Fr) -> Value {
    let c = to_u256(&c);
    Value {
        expr: Expr::Const(c),
        max: c,
    }
}

fn mulmod(a: Value, b: Value) -> Value {
    Value {
        expr: Expr::MulMod(Box::new(a.expr), Box::new(b.expr)),
        max: MODULUS - U256::from(1),
    }
}

fn addmod(a: Value, b: Value) -> Value {
    Value {
        expr: Expr::AddMod(Box::new(a.expr), Box::new(b.expr)),
        max: MODULUS - U256::from(1),
    }
}

/// `add` if the sum of the bounds cannot wrap, `addmod` otherwise.
fn add_lazy(a: Value, b: Value) -> Value {
    match a.max.checked_add(b.max) {
        Some(max) => Value {
            expr: Expr::Add(Box::new(a.expr), Box::new(b.expr)),
            max,
        },
        None => addmod(a, b),
    }
}

/// `a + c` with the constant `c`, skipping zero.
fn add_constant(a: Value, c: Fr) -> Value {
    if c.is_zero() {
        a
    } else {
        add_lazy(a, constant_value(c))
    }
}

/// The program for width `T`, following `fast::permute` with every lane stored scaled (see
/// the module docs): `scale[i]` is the factor between lane i's variable and its true value.
fn build<const T: usize>(tables: &Tables<T>) -> Program {
    // Variables: lanes 1.. start as the inputs; 0 and T..2T-1 are spares; 2T-1 is the
    // S-boxes' block-local square.
    let mut lanes: [Lane; T] = std::array::from_fn(|i| Lane::Var(Var(i)));
    lanes[0] = Lane::Const(tables.first_lane0);
    let mut scale = [Fr::one(); T];
    let mut spares: Vec<Var> = (T..2 * T - 1).map(Var).chain([Var(0)]).collect();
    let inputs: Vec<Var> = (1..T).map(Var).collect();
    let mut b = Builder {
        statements: Vec::new(),
        max: vec![None; 2 * T],
        square: Var(2 * T - 1),
    };
    for var in &inputs {
        b.max[var.0] = Some(MODULUS - U256::from(1));
    }
    let var = |lane: Lane| match lane {
        Lane::Var(v) => v,
        Lane::Const(_) => unreachable!("only lane 0 of round 0 is a constant"),
    };
    // What a full round's S-boxes make of the scales: (s·x)⁵ = s⁵·x⁵.
    let fifth = |scale: &[Fr; T]| -> [Fr; T] { std::array::from_fn(|i| scale[i].pow([5u64])) };

    // The constants each round adds before its S-boxes, in order: the full rounds' vectors
    // and the partial rounds' lane-0 scalars. A linear layer adds the next round's.
    let partial_rounds = tables.partial.len();
    let next_constants = |round: usize| -> [Fr; T] {
        let next = round + 1;
        if next < HALF_FULL {
            tables.first_constants[next]
        } else if next < HALF_FULL + partial_rounds {
            let mut c = [Fr::zero(); T];
            c[0] = tables.partial[next - HALF_FULL].constant;
            c
        } else {
            tables.last_constants[next - HALF_FULL - partial_rounds]
        }
    };

    // A dense full-round linear layer over the S-boxes' outputs (scaled by `divisors`): the
    // rows before the last into spares (the old lanes are still needed), the last in place;
    // then the lanes are renamed and the old ones freed. Each row picks its new scale.
    let dense = |b: &mut Builder,
                 lanes: &mut [Lane; T],
                 scale: &mut [Fr; T],
                 spares: &mut Vec<Var>,
                 matrix: &[[Fr; T]; T],
                 divisors: [Fr; T],
                 next: [Fr; T]| {
        let mut new: [Lane; T] = *lanes;
        for i in 0..T {
            let (value, s) = b.scaled_dot(&matrix[i], lanes, &divisors, next[i]);
            let to = if i + 1 == T {
                var(lanes[T - 1])
            } else {
                spares.pop().expect("enough spare variables")
            };
            b.assign(to, value);
            new[i] = Lane::Var(to);
            scale[i] = s;
        }
        let freed: Vec<Var> = lanes[..T - 1]
            .iter()
            .filter_map(|l| match l {
                Lane::Var(v) => Some(*v),
                Lane::Const(_) => None,
            })
            .collect();
        spares.extend(freed.into_iter().rev());
        *lanes = new;
    };

    // Round 0: lane 0 is the constant c₀[0]⁵; lanes 1.. are the inputs plus c₀ (scale 1).
    b.comment("round 0 (full); lane 0 is the constant c[0][0]^5".into());
    for (lane, &c) in lanes.iter().zip(&tables.first_constants[0]).skip(1) {
        let v = var(*lane);
        let x = add_constant(b.read(v), c);
        b.assign(v, x);
    }
    for lane in &lanes[1..] {
        b.sbox(var(*lane), var(*lane));
    }
    let divisors = fifth(&scale);
    dense(
        &mut b,
        &mut lanes,
        &mut scale,
        &mut spares,
        &tables.mds,
        divisors,
        next_constants(0),
    );

    // Rounds 1..HALF_FULL; the last with the matrix absorbing the partial rounds' factors.
    for round in 1..HALF_FULL {
        b.comment(format!("round {round} (full)"));
        for lane in lanes {
            b.sbox(var(lane), var(lane));
        }
        let matrix = if round == HALF_FULL - 1 {
            &tables.pre_partial
        } else {
            &tables.mds
        };
        let divisors = fifth(&scale);
        dense(
            &mut b,
            &mut lanes,
            &mut scale,
            &mut spares,
            matrix,
            divisors,
            next_constants(round),
        );
    }

    // Partial rounds: t = s₀⁵; s₀ = row·(t, s₁, …); sᵢ = sᵢ + column[i]·t, each row with its
    // new scale (so t has coefficient 1 in every row: 2t − 2 multiplications).
    for (k, partial) in tables.partial.iter().enumerate() {
        let round = HALF_FULL + k;
        b.comment(format!("round {round} (partial)"));
        let temp = *spares.last().expect("a spare");
        let s0 = var(lanes[0]);
        b.sbox(s0, temp);
        let next = next_constants(round);
        let mut inputs = lanes;
        inputs[0] = Lane::Var(temp);
        let mut divisors = scale;
        divisors[0] = scale[0].pow([5u64]);
        let (new0, s) = b.scaled_dot(&partial.row, &inputs, &divisors, next[0]);
        b.assign(s0, new0);
        scale[0] = s;
        for i in 1..T {
            let mut row = [Fr::zero(); T];
            row[0] = partial.column[i];
            row[i] = Fr::one();
            let (updated, s) = b.scaled_dot(&row, &inputs, &divisors, next[i]);
            b.assign(var(lanes[i]), updated);
            scale[i] = s;
        }
    }

    // The last full rounds; the very last computes only lane 0, unscaled and reduced.
    let first_last = HALF_FULL + partial_rounds;
    for round in first_last..first_last + HALF_FULL {
        b.comment(format!("round {round} (full)"));
        for lane in lanes {
            b.sbox(var(lane), var(lane));
        }
        if round + 1 < first_last + HALF_FULL {
            let divisors = fifth(&scale);
            dense(
                &mut b,
                &mut lanes,
                &mut scale,
                &mut spares,
                &tables.mds,
                divisors,
                next_constants(round),
            );
        }
    }
    let divisors = fifth(&scale);
    let row: [Fr; T] = std::array::from_fn(|j| {
        tables.mds[0][j] * divisors[j].inverse().expect("scales are non-zero")
    });
    let out = b.dot(&row, &lanes, Fr::zero(), true);
    let output = var(lanes[0]);
    b.assign(output, out);

    Program {
        inputs,
        statements: b.statements,
        output,
    }
}

// ---------------------------------------------------------------------------------------------
// Rendering.

fn var_name(var: Var) -> String {
    format!("v{}", var.0)
}

fn render_expr(expr: &Expr, out: &mut String) {
    let binary = |out: &mut String, op: &str, a: &Expr, b: &Expr, modulus: bool| {
        out.push_str(op);
        out.push('(');
        render_expr(a, out);
        out.push_str(", ");
        render_expr(b, out);
        out.push_str(if modulus { ", r)" } else { ")" });
    };
    match expr {
        Expr::Var(v) => out.push_str(&var_name(*v)),
        Expr::Const(c) => write!(out, "{c:#066x}").expect("writing to a String"),
        Expr::Add(a, b) => binary(out, "add", a, b, false),
        Expr::AddMod(a, b) => binary(out, "addmod", a, b, true),
        Expr::MulMod(a, b) => binary(out, "mulmod", a, b, true),
    }
}

/// One statement on one line; `declared` says which variables are in scope.
fn render_statement(statement: &Statement, declared: &mut [bool], out: &mut String) {
    match statement {
        Statement::Comment(text) => write!(out, "// {text}").expect("writing to a String"),
        Statement::Assign(var, expr) => {
            if !std::mem::replace(&mut declared[var.0], true) {
                out.push_str("let ");
            }
            write!(out, "{} := ", var_name(*var)).expect("writing to a String");
            render_expr(expr, out);
        }
        Statement::Block(inner) => {
            let outer = declared.to_vec();
            out.push('{');
            for statement in inner {
                assert!(
                    !matches!(statement, Statement::Comment(_)),
                    "no comments inside a one-line block"
                );
                out.push(' ');
                render_statement(statement, declared, out);
            }
            out.push_str(" }");
            declared.copy_from_slice(&outer);
        }
    }
}

/// What differs between the generated hashers: their names and documentation.
struct Contract {
    /// The `@title` and `@dev` lines after the generator's notice.
    header: &'static str,
    /// `contract <name> {`, the function's documentation and signature.
    opening: &'static str,
}

const T3: Contract = Contract {
    header: "/// @title Poseidon(2) over BN254, circomlib-compatible
/// @dev t = 3, x^5, 8 full and 57 partial rounds, circomlib's (light-poseidon's) constants,
/// output state[0]. Evaluated in the optimised form of `zk::poseidon::fast`: partial-round
/// constants folded forward into lane 0, sparse partial-round matrices, dense matrices in the
/// full rounds, the last round computing only lane 0. Every lane is kept multiplied by a
/// factor chosen per round so that one term of each matrix row has coefficient 1 (4
/// multiplications per sparse matrix, 6 per dense one); the output is unscaled. Sums are
/// reduced lazily (`add` where the Rust generator proved no 256-bit overflow is possible).
",
    opening: "contract PoseidonT3 {
    /// @notice circomlib's Poseidon([inputs[0], inputs[1]]), the hash of the pool's Merkle tree
    /// and commitments; equal to circomlibjs's `poseidon([a, b])` and to `zk::poseidon::hash2`.
    /// @dev Reverts, with no data, unless both inputs are below the BN254 scalar field order r
    /// (21888242871839275222246405745257275088548364400416034343698204186575808495617): x and
    /// x + r would otherwise hash alike. Tornado's `hashLeftRight` requires the same.
    function poseidon(uint256[2] calldata inputs) external pure returns (uint256) {
",
};

const T5: Contract = Contract {
    header: "/// @title Poseidon(4) over BN254, circomlib-compatible
/// @dev t = 5, x^5, 8 full and 60 partial rounds, circomlib's (light-poseidon's) constants,
/// output state[0]. The same optimised form as `PoseidonT3` (see there): folded partial-round
/// constants, sparse partial-round matrices (8 multiplications each), dense full rounds (20),
/// lanes kept scaled, lazy reduction.
",
    opening: "contract PoseidonT5 {
    /// @notice circomlib's Poseidon([inputs[0], ..., inputs[3]]), which binds a batch proof's
    /// four public values in one call; equal to circomlibjs's `poseidon([a, b, c, d])` and to
    /// `zk::poseidon::hash4`.
    /// @dev Reverts, with no data, unless every input is below the BN254 scalar field order r.
    function poseidon(uint256[4] calldata inputs) external pure returns (uint256) {
",
};

fn render_contract(program: &Program, contract: &Contract) -> String {
    const INDENT: &str = "            ";
    let counts = program.counts();
    let mut s = String::new();
    s.push_str(
        "// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;
/// generated by `zk::poseidon::solidity` from circomlib's constants; do not edit
",
    );
    s.push_str(contract.header);
    writeln!(
        s,
        "/// Per hash: {} mulmod, {} addmod, {} add.",
        counts.mulmod, counts.addmod, counts.add
    )
    .expect("writing to a String");
    s.push_str(contract.opening);
    s.push_str(
        "        assembly (\"memory-safe\") {
",
    );
    let line = |s: &mut String, text: &str| {
        s.push_str(INDENT);
        s.push_str(text);
        s.push('\n');
    };
    line(&mut s, &format!("let r := {MODULUS:#066x}"));
    for (i, var) in program.inputs.iter().enumerate() {
        let at = if i == 0 {
            "inputs".to_owned()
        } else {
            format!("add(inputs, {:#04x})", 32 * i)
        };
        line(
            &mut s,
            &format!("let {} := calldataload({at})", var_name(*var)),
        );
    }
    let below = program
        .inputs
        .iter()
        .map(|var| format!("lt({}, r)", var_name(*var)))
        .reduce(|all, next| format!("and({all}, {next})"))
        .expect("at least one input");
    line(&mut s, &format!("if iszero({below}) {{ revert(0, 0) }}"));
    let mut declared = vec![false; program.variables()];
    for var in &program.inputs {
        declared[var.0] = true;
    }
    for statement in &program.statements {
        let mut text = String::new();
        render_statement(statement, &mut declared, &mut text);
        line(&mut s, &text);
    }
    line(&mut s, &format!("mstore(0, {})", var_name(program.output)));
    line(&mut s, "return(0, 0x20)");
    s.push_str(
        "        }
    }
}
",
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn program_matches_hash2_on_a_vector() {
        let program = poseidon_t3_program();
        program.check_bounds().unwrap();
        let out = program.run([U256::from(1), U256::from(2)]);
        assert_eq!(
            out,
            to_u256(&super::super::hash2(Fr::from(1u64), Fr::from(2u64)))
        );
    }

    #[test]
    fn contract_is_deterministic() {
        assert_eq!(poseidon_t3_contract(), poseidon_t3_contract());
    }

    #[test]
    fn t5_program_matches_hash4_on_a_vector() {
        let program = poseidon_t5_program();
        program.check_bounds().unwrap();
        let x = [1u64, 2, 3, 4].map(Fr::from);
        let out = program.run(x.map(|v| to_u256(&v)));
        assert_eq!(out, to_u256(&super::super::hash4(x[0], x[1], x[2], x[3])));
    }
}
