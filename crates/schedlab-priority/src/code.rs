//! A checked formula compiled to postfix code over a stack of `f64`, and
//! its evaluation.

use crate::lex::lex;
use crate::parse::{BinOp, Expr, ExprKind, Parser};
use crate::{FormulaError, Func, Var, Vars, MAX_LENGTH};

/// One instruction of the postfix code.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Op {
    Num(f64),
    Var(Var),
    Neg,
    Not,
    Bin(BinOp),
    /// A one-argument function.
    Apply(Func),
    /// `^` with a whole-number constant exponent (see [`power`]).
    PowInt(i32),
    /// `min` or `max` of the two values on top.
    Pair(Func),
    Clamp,
    /// `if(c, a, b)`: both branches are computed (they have no effects) and
    /// the condition picks one.
    Select,
}

/// A formula, checked and compiled once; [`Formula::eval`] scores one job.
#[derive(Clone, Debug, PartialEq)]
pub struct Formula {
    source: String,
    tree: Expr,
    code: Vec<Op>,
    /// The variables it reads, one bit per [`Var`].
    reads: u16,
    /// The deepest the stack gets while it runs.
    max_stack: usize,
}

impl Formula {
    /// Lexes, parses, checks and compiles `source`.
    pub fn compile(source: &str) -> Result<Formula, FormulaError> {
        #[cfg(feature = "counters")]
        crate::counters::count(source);
        let length = source.chars().count();
        if length > MAX_LENGTH {
            return Err(FormulaError {
                message: format!("the formula is {length} characters long; at most {MAX_LENGTH} are accepted"),
                column: None,
                hint: None,
            });
        }
        let tree = Parser::new(lex(source)?).formula()?;
        let mut code = Vec::new();
        emit(&tree, &mut code);
        let reads = code.iter().fold(0, |bits, op| if let Op::Var(v) = op { bits | v.bit() } else { bits });
        let max_stack = stack_depth(&code);
        Ok(Formula { source: source.to_string(), tree, code, reads, max_stack })
    }

    /// The text it was compiled from.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The parsed tree, with columns.
    pub fn tree(&self) -> &Expr {
        &self.tree
    }

    pub fn reads(&self, var: Var) -> bool {
        self.reads & var.bit() != 0
    }

    /// Whether it reads a variable that changes while a job waits (`wait`,
    /// `now`, `free`, `queued`), so that a policy must score every waiting
    /// job again at each pass; otherwise a job's score is fixed at arrival
    /// (unless it reads `predicted` under a runtime source that learns,
    /// which the policy decides).
    pub fn is_time_dependent(&self) -> bool {
        Var::ALL.iter().any(|v| v.changes_while_waiting() && self.reads(*v))
    }

    /// The score of one job. `stack` is scratch space the caller reuses
    /// from job to job (it is cleared first).
    pub fn eval(&self, vars: &Vars, stack: &mut Vec<f64>) -> f64 {
        stack.reserve(self.max_stack);
        run(&self.code, vars, stack)
    }

    /// [`Formula::eval`] with a stack of its own, for one-off scores.
    pub fn eval_once(&self, vars: &Vars) -> f64 {
        self.eval(vars, &mut Vec::new())
    }
}

/// Runs postfix `code` with `vars` on `stack` (cleared first) and returns
/// the value it leaves.
pub(crate) fn run(code: &[Op], vars: &Vars, stack: &mut Vec<f64>) -> f64 {
    stack.clear();
    {
        for op in code {
            let value = match *op {
                Op::Num(x) => x,
                Op::Var(v) => vars.get(v),
                Op::Neg => -pop(stack),
                Op::Not => {
                    let x = pop(stack);
                    truth(!is_true(x), &[x])
                }
                Op::Apply(f) => apply(f, pop(stack)),
                Op::PowInt(n) => power(pop(stack), n),
                Op::Bin(op) => {
                    let b = pop(stack);
                    let a = pop(stack);
                    binary(op, a, b)
                }
                Op::Pair(f) => {
                    let b = pop(stack);
                    let a = pop(stack);
                    pair(f, a, b)
                }
                Op::Clamp => {
                    let hi = pop(stack);
                    let lo = pop(stack);
                    let x = pop(stack);
                    pair(Func::Min, pair(Func::Max, x, lo), hi)
                }
                Op::Select => {
                    let b = pop(stack);
                    let a = pop(stack);
                    let c = pop(stack);
                    if c.is_nan() {
                        c
                    } else if is_true(c) {
                        a
                    } else {
                        b
                    }
                }
            };
            stack.push(value);
        }
    }
    pop(stack)
}

/// The values of the variables for many jobs at once, one column per
/// variable, and the scratch columns of [`Formula::eval_all`]; kept by the
/// caller and reused from pass to pass.
#[derive(Clone, Debug, Default)]
pub struct Columns {
    vars: [Vec<f64>; 13],
    stack: Vec<Vec<f64>>,
}

impl Columns {
    /// Empties every variable's column (the memory is kept).
    pub fn clear(&mut self) {
        for column in &mut self.vars {
            column.clear();
        }
    }

    /// The column of `var`, to which the caller appends one value per job.
    pub fn column(&mut self, var: Var) -> &mut Vec<f64> {
        &mut self.vars[var as usize]
    }
}

impl Formula {
    /// The scores of `n` jobs at once into `out` (after clearing it): each
    /// variable the formula reads must have `n` values in `columns` (a
    /// column too short reads as NaN). The code runs one instruction at a
    /// time over all the jobs, so its dispatch and stack are paid once per
    /// instruction rather than once per job; each job's score comes from
    /// the same IEEE operations in the same order as [`Formula::eval`]'s,
    /// so the two agree bit for bit.
    pub fn eval_all(&self, columns: &mut Columns, n: usize, out: &mut Vec<f64>) {
        let Columns { vars, stack } = columns;
        if stack.len() < self.max_stack {
            stack.resize(self.max_stack, Vec::new());
        }
        let mut depth = 0;
        for op in &self.code {
            match *op {
                Op::Num(x) => push_with(stack, &mut depth, n, |_| x),
                Op::Var(v) => {
                    let column = &vars[v as usize];
                    push_with(stack, &mut depth, n, |i| column.get(i).copied().unwrap_or(f64::NAN));
                }
                Op::Neg => map_top(stack, depth, |x| -x),
                Op::Not => map_top(stack, depth, |x| truth(!is_true(x), &[x])),
                Op::Apply(f) => map_top(stack, depth, |x| apply(f, x)),
                Op::PowInt(k) => map_top(stack, depth, |x| power(x, k)),
                Op::Bin(op) => join_top(stack, &mut depth, |a, b| binary(op, a, b)),
                Op::Pair(f) => join_top(stack, &mut depth, |a, b| pair(f, a, b)),
                Op::Clamp => {
                    let clamp = |x, lo, hi| pair(Func::Min, pair(Func::Max, x, lo), hi);
                    if !join_three(stack, &mut depth, clamp) {
                        return fill_nan(out, n);
                    }
                }
                Op::Select => {
                    let select = |c: f64, a, b| {
                        if c.is_nan() {
                            c
                        } else if is_true(c) {
                            a
                        } else {
                            b
                        }
                    };
                    if !join_three(stack, &mut depth, select) {
                        return fill_nan(out, n);
                    }
                }
            }
        }
        out.clear();
        match depth.checked_sub(1).and_then(|top| stack.get(top)) {
            Some(top) => out.extend_from_slice(&top[..n]),
            None => fill_nan(out, n),
        }
    }
}

// The helpers of `eval_all` run once per instruction, each over every job;
// the operations they apply are inlined into their loops (`#[inline]`
// above), so the choice of operation is the only work per job besides it.

/// Pushes a column of `n` values `value(i)` onto the column stack.
fn push_with(stack: &mut [Vec<f64>], depth: &mut usize, n: usize, value: impl Fn(usize) -> f64) {
    let column = &mut stack[*depth];
    column.clear();
    column.extend((0..n).map(value));
    *depth += 1;
}

/// Replaces each value of the top column by `f` of it.
fn map_top(stack: &mut [Vec<f64>], depth: usize, f: impl Fn(f64) -> f64) {
    if let Some(top) = depth.checked_sub(1).map(|d| &mut stack[d]) {
        for x in top.iter_mut() {
            *x = f(*x);
        }
    }
}

/// Pops the top column b and replaces each value a of the one below by
/// `f(a, b)`.
fn join_top(stack: &mut [Vec<f64>], depth: &mut usize, f: impl Fn(f64, f64) -> f64) {
    if *depth < 2 {
        return;
    }
    let (low, high) = stack.split_at_mut(*depth - 1);
    let (a, b) = (&mut low[*depth - 2], &high[0]);
    for (x, &y) in a.iter_mut().zip(b.iter()) {
        *x = f(*x, y);
    }
    *depth -= 1;
}

/// Pops the top two columns (z on top of y) and replaces each value x of
/// the one below by `f(x, y, z)`; false if the stack is too shallow.
fn join_three(stack: &mut [Vec<f64>], depth: &mut usize, f: impl Fn(f64, f64, f64) -> f64) -> bool {
    if *depth < 3 {
        return false;
    }
    let (low, high) = stack.split_at_mut(*depth - 2);
    let x = &mut low[*depth - 3];
    for (i, v) in x.iter_mut().enumerate() {
        *v = f(*v, high[0][i], high[1][i]);
    }
    *depth -= 2;
    true
}

fn fill_nan(out: &mut Vec<f64>, n: usize) {
    out.clear();
    out.resize(n, f64::NAN);
}

/// The code compiled from a checked tree never pops an empty stack; NaN
/// keeps an impossible underflow visible rather than panicking.
fn pop(stack: &mut Vec<f64>) -> f64 {
    stack.pop().unwrap_or(f64::NAN)
}

pub(crate) fn emit(e: &Expr, code: &mut Vec<Op>) {
    match &e.kind {
        ExprKind::Num(x) => code.push(Op::Num(*x)),
        ExprKind::Var(v) => code.push(Op::Var(*v)),
        ExprKind::Neg(inner) => {
            emit(inner, code);
            code.push(Op::Neg);
        }
        ExprKind::Not(inner) => {
            emit(inner, code);
            code.push(Op::Not);
        }
        ExprKind::Binary(BinOp::Pow, a, b) if whole_exponent(b).is_some() => {
            emit(a, code);
            code.push(Op::PowInt(whole_exponent(b).unwrap_or(1)));
        }
        ExprKind::Binary(op, a, b) => {
            emit(a, code);
            emit(b, code);
            code.push(Op::Bin(*op));
        }
        ExprKind::Call(f, args) => emit_call(*f, args, code),
    }
}

fn emit_call(f: Func, args: &[Expr], code: &mut Vec<Op>) {
    emit(&args[0], code);
    for a in &args[1..] {
        emit(a, code);
        if matches!(f, Func::Min | Func::Max) {
            code.push(Op::Pair(f));
        }
    }
    match f {
        Func::Min | Func::Max => {}
        Func::Clamp => code.push(Op::Clamp),
        Func::If => code.push(Op::Select),
        _ => code.push(Op::Apply(f)),
    }
}

fn stack_depth(code: &[Op]) -> usize {
    let (mut depth, mut most) = (0usize, 0usize);
    for op in code {
        let (pops, pushes) = match op {
            Op::Num(_) | Op::Var(_) => (0, 1),
            Op::Neg | Op::Not | Op::Apply(_) | Op::PowInt(_) => (1, 1),
            Op::Bin(_) | Op::Pair(_) => (2, 1),
            Op::Clamp | Op::Select => (3, 1),
        };
        depth = depth.saturating_sub(pops) + pushes;
        most = most.max(depth);
    }
    most
}

/// The largest constant exponent computed by multiplication.
const MAX_WHOLE_EXPONENT: f64 = 64.0;

/// The exponent of `x ^ e` when `e` is a whole-number constant of at most
/// [`MAX_WHOLE_EXPONENT`] in size (`(w / r)^3`).
pub(crate) fn whole_exponent(e: &Expr) -> Option<i32> {
    match e.kind {
        ExprKind::Num(n) if n.fract() == 0.0 && n.abs() <= MAX_WHOLE_EXPONENT => Some(n as i32),
        _ => None,
    }
}

/// `x ^ n` for a whole n by repeated squaring: IEEE multiplications (and a
/// division for n < 0), so the same on every platform, and ten times
/// cheaper than `libm::pow`, which scoring WFP3 at every pass spent half
/// its time in. It can differ from the correctly rounded power in the last
/// bits.
#[inline]
pub(crate) fn power(x: f64, n: i32) -> f64 {
    let (mut base, mut left, mut result) = (x, n.unsigned_abs(), 1.0);
    while left > 0 {
        if left & 1 == 1 {
            result *= base;
        }
        base *= base;
        left >>= 1;
    }
    if n < 0 {
        1.0 / result
    } else {
        result
    }
}

/// A condition holds when it is not zero.
#[inline]
fn is_true(x: f64) -> bool {
    x != 0.0
}

/// 1 or 0 for a truth value, or NaN when any operand is NaN: a comparison
/// or a logical operator never hides a NaN.
#[inline]
fn truth(b: bool, operands: &[f64]) -> f64 {
    if operands.iter().any(|x| x.is_nan()) {
        f64::NAN
    } else if b {
        1.0
    } else {
        0.0
    }
}

#[inline]
fn binary(op: BinOp, a: f64, b: f64) -> f64 {
    match op {
        BinOp::Add => a + b,
        BinOp::Sub => a - b,
        BinOp::Mul => a * b,
        BinOp::Div => a / b,
        BinOp::Pow => libm::pow(a, b),
        BinOp::Lt => truth(a < b, &[a, b]),
        BinOp::Le => truth(a <= b, &[a, b]),
        BinOp::Gt => truth(a > b, &[a, b]),
        BinOp::Ge => truth(a >= b, &[a, b]),
        BinOp::Eq => truth(a == b, &[a, b]),
        BinOp::Ne => truth(a != b, &[a, b]),
        BinOp::And => truth(is_true(a) && is_true(b), &[a, b]),
        BinOp::Or => truth(is_true(a) || is_true(b), &[a, b]),
    }
}

/// `min` and `max` that propagate NaN (the standard ones drop it).
#[inline]
fn pair(f: Func, a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        return f64::NAN;
    }
    match f {
        Func::Min => a.min(b),
        _ => a.max(b),
    }
}

fn apply(f: Func, x: f64) -> f64 {
    match f {
        Func::Log => libm::log(x),
        Func::Log2 => libm::log2(x),
        Func::Log10 => libm::log10(x),
        Func::Sqrt => libm::sqrt(x),
        Func::Exp => libm::exp(x),
        Func::Abs => x.abs(),
        Func::Floor => x.floor(),
        Func::Ceil => x.ceil(),
        // Only one-argument functions are applied.
        Func::Min | Func::Max | Func::Clamp | Func::If => f64::NAN,
    }
}
