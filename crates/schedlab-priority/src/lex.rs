//! The lexer: characters to tokens, each with its column.

use crate::FormulaError;

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Tok {
    Num(f64),
    Ident(String),
    LParen,
    RParen,
    Comma,
    Plus,
    Minus,
    Star,
    Slash,
    Caret,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    End,
}

impl Tok {
    /// How the token reads in an error message.
    pub fn describe(&self) -> String {
        match self {
            Tok::Num(x) => format!("the number {x}"),
            Tok::Ident(s) => format!("`{s}`"),
            Tok::End => "the end of the formula".to_string(),
            other => format!("`{}`", other.symbol()),
        }
    }

    fn symbol(&self) -> &'static str {
        match self {
            Tok::LParen => "(",
            Tok::RParen => ")",
            Tok::Comma => ",",
            Tok::Plus => "+",
            Tok::Minus => "-",
            Tok::Star => "*",
            Tok::Slash => "/",
            Tok::Caret => "^",
            Tok::Lt => "<",
            Tok::Le => "<=",
            Tok::Gt => ">",
            Tok::Ge => ">=",
            Tok::Eq => "==",
            Tok::Ne => "!=",
            _ => "",
        }
    }
}

/// A token and the column (in characters, from 1) where it starts.
pub(crate) type Spanned = (Tok, usize);

/// Splits `source` into tokens, ending with [`Tok::End`] at the column
/// after the last character.
pub(crate) fn lex(source: &str) -> Result<Vec<Spanned>, FormulaError> {
    let chars: Vec<char> = source.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let column = i + 1;
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        if c.is_ascii_digit() || (c == '.' && chars.get(i + 1).is_some_and(char::is_ascii_digit)) {
            let (value, next) = number(&chars, i)?;
            out.push((Tok::Num(value), column));
            i = next;
            continue;
        }
        if c.is_ascii_alphabetic() || c == '_' {
            let end = (i..chars.len()).find(|&k| !(chars[k].is_ascii_alphanumeric() || chars[k] == '_'));
            let end = end.unwrap_or(chars.len());
            out.push((Tok::Ident(chars[i..end].iter().collect()), column));
            i = end;
            continue;
        }
        let next = chars.get(i + 1).copied();
        let (tok, width) = match (c, next) {
            ('<', Some('=')) => (Tok::Le, 2),
            ('>', Some('=')) => (Tok::Ge, 2),
            ('=', Some('=')) => (Tok::Eq, 2),
            ('!', Some('=')) => (Tok::Ne, 2),
            ('<', _) => (Tok::Lt, 1),
            ('>', _) => (Tok::Gt, 1),
            ('(', _) => (Tok::LParen, 1),
            (')', _) => (Tok::RParen, 1),
            (',', _) => (Tok::Comma, 1),
            ('+', _) => (Tok::Plus, 1),
            ('-' | '−', _) => (Tok::Minus, 1),
            ('*' | '×' | '·', _) => (Tok::Star, 1),
            ('/', _) => (Tok::Slash, 1),
            ('^', _) => (Tok::Caret, 1),
            _ => return Err(unexpected_char(c, column)),
        };
        out.push((tok, column));
        i += width;
    }
    out.push((Tok::End, chars.len() + 1));
    Ok(out)
}

fn unexpected_char(c: char, column: usize) -> FormulaError {
    let hint = match c {
        '=' => Some("write `==` to compare".to_string()),
        '!' => Some("write `not` for negation, `!=` for \"differs\"".to_string()),
        '&' => Some("write `and`".to_string()),
        '|' => Some("write `or`".to_string()),
        _ => None,
    };
    FormulaError::at(column, format!("unexpected character `{}`", c.escape_default())).hint(hint)
}

/// A decimal number starting at `start`: digits, an optional fraction and
/// an optional exponent (`6860000`, `0.1`, `.5`, `1e-15`). Returns its
/// value and the index after it.
fn number(chars: &[char], start: usize) -> Result<(f64, usize), FormulaError> {
    let digits = |mut k: usize| {
        while k < chars.len() && chars[k].is_ascii_digit() {
            k += 1;
        }
        k
    };
    let mut i = digits(start);
    if chars.get(i) == Some(&'.') {
        i = digits(i + 1);
    }
    if matches!(chars.get(i), Some('e' | 'E')) {
        let mut k = i + 1;
        if matches!(chars.get(k), Some('+' | '-')) {
            k += 1;
        }
        let end = digits(k);
        if end == k {
            return Err(FormulaError::at(start + 1, "a number's exponent has no digits"));
        }
        i = end;
    }
    if chars.get(i).is_some_and(|c| c.is_ascii_alphabetic() || *c == '_' || *c == '.') {
        return Err(FormulaError::at(i + 1, format!("unexpected `{}` right after a number", chars[i])));
    }
    let text: String = chars[start..i].iter().collect();
    // Digits with an optional fraction and exponent always parse; an
    // exponent too large gives infinity, which is an ordinary value here.
    let value = text.parse::<f64>().map_err(|_| FormulaError::at(start + 1, format!("`{text}` is not a number")))?;
    Ok((value, i))
}
