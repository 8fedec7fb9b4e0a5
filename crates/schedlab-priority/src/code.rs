//! A checked formula compiled to postfix code over a stack of `f64`, and
//! its evaluation.

use crate::lex::lex;
use crate::parse::{BinOp, Expr, ExprKind, Parser};
use crate::{FormulaError, Func, Var, Vars, MAX_LENGTH};

/// One instruction of the postfix code.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Op {
    Num(f64),
    Var(Var),
    Neg,
    Not,
    Bin(BinOp),
    /// A one-argument function.
    Apply(Func),
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
        stack.clear();
        stack.reserve(self.max_stack);
        for op in &self.code {
            let value = match *op {
                Op::Num(x) => x,
                Op::Var(v) => vars.get(v),
                Op::Neg => -pop(stack),
                Op::Not => {
                    let x = pop(stack);
                    truth(!is_true(x), &[x])
                }
                Op::Apply(f) => apply(f, pop(stack)),
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
        pop(stack)
    }

    /// [`Formula::eval`] with a stack of its own, for one-off scores.
    pub fn eval_once(&self, vars: &Vars) -> f64 {
        self.eval(vars, &mut Vec::new())
    }
}

/// The code compiled from a checked tree never pops an empty stack; NaN
/// keeps an impossible underflow visible rather than panicking.
fn pop(stack: &mut Vec<f64>) -> f64 {
    stack.pop().unwrap_or(f64::NAN)
}

fn emit(e: &Expr, code: &mut Vec<Op>) {
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
            Op::Neg | Op::Not | Op::Apply(_) => (1, 1),
            Op::Bin(_) | Op::Pair(_) => (2, 1),
            Op::Clamp | Op::Select => (3, 1),
        };
        depth = depth.saturating_sub(pops) + pushes;
        most = most.max(depth);
    }
    most
}

/// A condition holds when it is not zero.
fn is_true(x: f64) -> bool {
    x != 0.0
}

/// 1 or 0 for a truth value, or NaN when any operand is NaN: a comparison
/// or a logical operator never hides a NaN.
fn truth(b: bool, operands: &[f64]) -> f64 {
    if operands.iter().any(|x| x.is_nan()) {
        f64::NAN
    } else if b {
        1.0
    } else {
        0.0
    }
}

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
