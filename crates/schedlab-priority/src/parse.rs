//! The parser and checker: tokens to a tree of [`Expr`] whose nodes know
//! their column. Names are resolved here (unknown variable or function,
//! with the nearest known name), functions get their number of arguments
//! checked, and nesting is bounded by [`crate::MAX_NESTING`].
//!
//! Grammar, loosest first (`^` groups to the right; comparisons do not
//! chain):
//!
//! ```text
//! or      := and ("or" and)*
//! and     := not ("and" not)*
//! not     := "not" not | compare
//! compare := sum (("<" | "<=" | ">" | ">=" | "==" | "!=") sum)?
//! sum     := product (("+" | "-") product)*
//! product := unary (("*" | "/") unary)*
//! unary   := "-" unary | power
//! power   := atom ("^" unary)?
//! atom    := number | variable | function "(" or ("," or)* ")" | "(" or ")"
//! ```

use crate::lex::{Spanned, Tok};
use crate::{suggestion, FormulaError, Func, Var, MAX_NESTING};

/// A node of a parsed formula and the column where it starts.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub column: usize,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Num(f64),
    Var(Var),
    Neg(Box<Expr>),
    Not(Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Call(Func, Vec<Expr>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Pow,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    And,
    Or,
}

const KEYWORDS: [&str; 3] = ["and", "or", "not"];

pub(crate) struct Parser {
    tokens: Vec<Spanned>,
    at: usize,
    depth: usize,
}

impl Parser {
    pub fn new(tokens: Vec<Spanned>) -> Self {
        Self { tokens, at: 0, depth: 0 }
    }

    /// The whole formula: one expression, then the end.
    pub fn formula(&mut self) -> Result<Expr, FormulaError> {
        if self.peek() == &Tok::End {
            return Err(FormulaError::at(self.column(), "the formula is empty"));
        }
        let e = self.or()?;
        match self.peek() {
            Tok::End => Ok(e),
            Tok::RParen => Err(FormulaError::at(self.column(), "unmatched `)`")),
            other => Err(FormulaError::at(self.column(), format!("expected an operator, found {}", other.describe()))),
        }
    }

    fn peek(&self) -> &Tok {
        &self.tokens[self.at].0
    }

    fn column(&self) -> usize {
        self.tokens[self.at].1
    }

    fn bump(&mut self) -> Spanned {
        let t = self.tokens[self.at].clone();
        if self.at + 1 < self.tokens.len() {
            self.at += 1;
        }
        t
    }

    fn is_keyword(&self, word: &str) -> bool {
        matches!(self.peek(), Tok::Ident(s) if s == word)
    }

    /// One level deeper; refuses past [`MAX_NESTING`].
    fn enter(&mut self, column: usize) -> Result<(), FormulaError> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(FormulaError::at(column, format!("the formula nests deeper than {MAX_NESTING} levels")));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    fn or(&mut self) -> Result<Expr, FormulaError> {
        let mut left = self.and()?;
        while self.is_keyword("or") {
            let (_, column) = self.bump();
            let right = self.and()?;
            left = binary(BinOp::Or, left, right, column);
        }
        Ok(left)
    }

    fn and(&mut self) -> Result<Expr, FormulaError> {
        let mut left = self.not()?;
        while self.is_keyword("and") {
            let (_, column) = self.bump();
            let right = self.not()?;
            left = binary(BinOp::And, left, right, column);
        }
        Ok(left)
    }

    fn not(&mut self) -> Result<Expr, FormulaError> {
        if !self.is_keyword("not") {
            return self.compare();
        }
        let (_, column) = self.bump();
        self.enter(column)?;
        let inner = self.not()?;
        self.leave();
        Ok(Expr { kind: ExprKind::Not(Box::new(inner)), column })
    }

    fn compare(&mut self) -> Result<Expr, FormulaError> {
        let left = self.sum()?;
        let Some(op) = comparison(self.peek()) else { return Ok(left) };
        let (_, column) = self.bump();
        let right = self.sum()?;
        if comparison(self.peek()).is_some() {
            return Err(FormulaError::at(self.column(), "comparisons do not chain")
                .hint(Some("write `a < b and b < c`".to_string())));
        }
        Ok(binary(op, left, right, column))
    }

    fn sum(&mut self) -> Result<Expr, FormulaError> {
        let mut left = self.product()?;
        loop {
            let op = match self.peek() {
                Tok::Plus => BinOp::Add,
                Tok::Minus => BinOp::Sub,
                _ => return Ok(left),
            };
            let (_, column) = self.bump();
            let right = self.product()?;
            left = binary(op, left, right, column);
        }
    }

    fn product(&mut self) -> Result<Expr, FormulaError> {
        let mut left = self.unary()?;
        loop {
            let op = match self.peek() {
                Tok::Star => BinOp::Mul,
                Tok::Slash => BinOp::Div,
                _ => return Ok(left),
            };
            let (_, column) = self.bump();
            let right = self.unary()?;
            left = binary(op, left, right, column);
        }
    }

    fn unary(&mut self) -> Result<Expr, FormulaError> {
        if self.peek() != &Tok::Minus {
            return self.power();
        }
        let (_, column) = self.bump();
        self.enter(column)?;
        let inner = self.unary()?;
        self.leave();
        Ok(Expr { kind: ExprKind::Neg(Box::new(inner)), column })
    }

    fn power(&mut self) -> Result<Expr, FormulaError> {
        let base = self.atom()?;
        if self.peek() != &Tok::Caret {
            return Ok(base);
        }
        let (_, column) = self.bump();
        self.enter(column)?;
        let exponent = self.unary()?;
        self.leave();
        Ok(binary(BinOp::Pow, base, exponent, column))
    }

    fn atom(&mut self) -> Result<Expr, FormulaError> {
        let (tok, column) = self.bump();
        match tok {
            Tok::Num(x) => Ok(Expr { kind: ExprKind::Num(x), column }),
            Tok::LParen => {
                self.enter(column)?;
                let inner = self.or()?;
                self.leave();
                self.expect_close(column, "`(`")?;
                Ok(inner)
            }
            Tok::Ident(name) => self.name(name, column),
            Tok::End => Err(FormulaError::at(column, "the formula ends where a value is expected")),
            other => Err(FormulaError::at(column, format!("expected a value, found {}", other.describe()))),
        }
    }

    fn expect_close(&mut self, open: usize, what: &str) -> Result<(), FormulaError> {
        match self.peek() {
            Tok::RParen => {
                self.bump();
                Ok(())
            }
            Tok::End => Err(FormulaError::at(open, format!("{what} is never closed"))),
            other => Err(FormulaError::at(self.column(), format!("expected `)`, found {}", other.describe()))),
        }
    }

    /// A variable, or a function and its arguments.
    fn name(&mut self, name: String, column: usize) -> Result<Expr, FormulaError> {
        let called = self.peek() == &Tok::LParen;
        if KEYWORDS.contains(&name.as_str()) {
            return Err(FormulaError::at(column, format!("expected a value, found the operator `{name}`")));
        }
        match (Var::from_name(&name), Func::from_name(&name), called) {
            (Some(v), _, false) => Ok(Expr { kind: ExprKind::Var(v), column }),
            (Some(_), _, true) => Err(FormulaError::at(column, format!("`{name}` is a variable, not a function"))),
            (None, Some(f), true) => self.call(f, column),
            (None, Some(f), false) => Err(FormulaError::at(column, format!("`{name}` is a function"))
                .hint(Some(format!("call it: {}", f.signature())))),
            (None, None, true) => {
                let hint = suggestion(&name, Func::ALL.iter().map(|f| f.name()));
                Err(FormulaError::at(column, format!("unknown function `{name}`")).hint(hint))
            }
            (None, None, false) => {
                let hint = suggestion(&name, Var::ALL.iter().map(|v| v.name()));
                Err(FormulaError::at(column, format!("unknown variable `{name}`")).hint(hint))
            }
        }
    }

    fn call(&mut self, f: Func, column: usize) -> Result<Expr, FormulaError> {
        let (_, open) = self.bump();
        self.enter(open)?;
        let mut args = vec![self.or()?];
        while self.peek() == &Tok::Comma {
            self.bump();
            args.push(self.or()?);
        }
        self.leave();
        self.expect_close(open, &format!("the `(` of `{}`", f.name()))?;
        let (least, most) = f.arity();
        if args.len() < least || args.len() > most {
            let wanted = match (least, most) {
                (1, 1) => "one argument".to_string(),
                (l, usize::MAX) => format!("at least {l} arguments"),
                (l, _) => format!("{l} arguments"),
            };
            return Err(FormulaError::at(column, format!("`{}` takes {wanted}, not {}", f.name(), args.len()))
                .hint(Some(f.signature().to_string())));
        }
        Ok(Expr { kind: ExprKind::Call(f, args), column })
    }
}

fn comparison(t: &Tok) -> Option<BinOp> {
    Some(match t {
        Tok::Lt => BinOp::Lt,
        Tok::Le => BinOp::Le,
        Tok::Gt => BinOp::Gt,
        Tok::Ge => BinOp::Ge,
        Tok::Eq => BinOp::Eq,
        Tok::Ne => BinOp::Ne,
        _ => return None,
    })
}

fn binary(op: BinOp, left: Expr, right: Expr, column: usize) -> Expr {
    Expr { kind: ExprKind::Binary(op, Box::new(left), Box::new(right)), column }
}
