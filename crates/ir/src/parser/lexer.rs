//! Tokenizer for the textual IR.
//!
//! Newlines are plain whitespace (the grammar is unambiguous without them) and
//! `;` starts a comment that runs to the end of the line. Every token carries
//! its 1-based line and column (counted in characters) for error messages.

use super::ParseError;

/// How a function or global is named after `@`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) enum NameTok {
    /// `@ident` or `@"quoted"`.
    Named(String),
    /// `@#3`: the entity with that index.
    Index(u32),
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) enum Tok {
    /// Keywords, types, opcodes and block labels (`bb3`).
    Ident(String),
    /// An unsigned decimal literal.
    Int(u64),
    /// `-N`, kept as its magnitude so that `-2^63` is representable.
    NegInt(u64),
    Str(String),
    Reg(u32),
    Local(u32),
    Name(NameTok),
    /// A bare `@`, which introduces a location.
    At,
    Colon,
    Comma,
    Eq,
    Arrow,
    LParen,
    RParen,
    LBrace,
    RBrace,
    LBracket,
    RBracket,
    Eof,
}

impl Tok {
    /// Short description for "expected X, found Y" messages.
    pub(crate) fn describe(&self) -> String {
        match self {
            Tok::Ident(s) => format!("`{s}`"),
            Tok::Int(v) => format!("integer {v}"),
            Tok::NegInt(v) => format!("integer -{v}"),
            Tok::Str(_) => "string".to_string(),
            Tok::Reg(r) => format!("register %{r}"),
            Tok::Local(l) => format!("local ${l}"),
            Tok::Name(NameTok::Named(n)) => format!("name @{n}"),
            Tok::Name(NameTok::Index(i)) => format!("name @#{i}"),
            Tok::At => "`@`".to_string(),
            Tok::Colon => "`:`".to_string(),
            Tok::Comma => "`,`".to_string(),
            Tok::Eq => "`=`".to_string(),
            Tok::Arrow => "`->`".to_string(),
            Tok::LParen => "`(`".to_string(),
            Tok::RParen => "`)`".to_string(),
            Tok::LBrace => "`{`".to_string(),
            Tok::RBrace => "`}`".to_string(),
            Tok::LBracket => "`[`".to_string(),
            Tok::RBracket => "`]`".to_string(),
            Tok::Eof => "end of input".to_string(),
        }
    }
}

#[derive(Clone, Debug)]
pub(crate) struct Token {
    pub tok: Tok,
    pub line: u32,
    pub col: u32,
}

struct Lexer<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    line: u32,
    col: u32,
}

impl Lexer<'_> {
    fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            self.line = self.line.saturating_add(1);
            self.col = 1;
        } else {
            self.col = self.col.saturating_add(1);
        }
        Some(c)
    }

    fn err(&self, line: u32, col: u32, message: impl Into<String>) -> ParseError {
        ParseError { line, col, message: message.into() }
    }

    /// Skip whitespace and `;` comments.
    fn skip_trivia(&mut self) {
        while let Some(c) = self.peek() {
            if c.is_whitespace() {
                self.bump();
            } else if c == ';' {
                while let Some(c) = self.peek() {
                    if c == '\n' {
                        break;
                    }
                    self.bump();
                }
            } else {
                break;
            }
        }
    }

    /// Decimal digits as a `u64`; the caller has checked that one is present.
    fn digits(&mut self, line: u32, col: u32) -> Result<u64, ParseError> {
        let mut v: u64 = 0;
        while let Some(c) = self.peek() {
            let Some(d) = c.to_digit(10) else { break };
            self.bump();
            v = v
                .checked_mul(10)
                .and_then(|v| v.checked_add(u64::from(d)))
                .ok_or_else(|| self.err(line, col, "integer literal too large"))?;
        }
        Ok(v)
    }

    /// Digits after a sigil (`%`, `$`, `@#`), as a `u32` index.
    fn index(&mut self, sigil: &str, line: u32, col: u32) -> Result<u32, ParseError> {
        if !self.peek().is_some_and(|c| c.is_ascii_digit()) {
            return Err(self.err(line, col, format!("expected digits after `{sigil}`")));
        }
        let v = self.digits(line, col)?;
        u32::try_from(v).map_err(|_| self.err(line, col, format!("index after `{sigil}` too large")))
    }

    fn ident(&mut self) -> String {
        let mut s = String::new();
        while let Some(c) = self.peek() {
            if c.is_ascii_alphanumeric() || c == '_' || c == '.' {
                s.push(c);
                self.bump();
            } else {
                break;
            }
        }
        s
    }

    /// A quoted string; the opening quote is the next character.
    fn string(&mut self, line: u32, col: u32) -> Result<String, ParseError> {
        self.bump();
        let mut s = String::new();
        loop {
            let (el, ec) = (self.line, self.col);
            match self.bump() {
                None | Some('\n') => return Err(self.err(line, col, "unterminated string")),
                Some('"') => return Ok(s),
                Some('\\') => s.push(self.escape(el, ec)?),
                Some(c) => s.push(c),
            }
        }
    }

    fn escape(&mut self, line: u32, col: u32) -> Result<char, ParseError> {
        Ok(match self.bump() {
            Some('"') => '"',
            Some('\\') => '\\',
            Some('n') => '\n',
            Some('t') => '\t',
            Some('r') => '\r',
            Some('x') => {
                let mut v = 0u32;
                for _ in 0..2 {
                    let d = self.bump().and_then(|c| c.to_digit(16));
                    v = v * 16 + d.ok_or_else(|| self.err(line, col, "expected two hex digits after `\\x`"))?;
                }
                // Only ASCII: a lone byte >= 0x80 would not be valid UTF-8.
                if v >= 0x80 {
                    return Err(self.err(line, col, "`\\x` escapes must be ASCII (< 0x80)"));
                }
                char::from(v as u8)
            }
            _ => return Err(self.err(line, col, "unknown escape sequence")),
        })
    }

    fn next_token(&mut self) -> Result<Token, ParseError> {
        self.skip_trivia();
        let (line, col) = (self.line, self.col);
        let Some(c) = self.peek() else {
            return Ok(Token { tok: Tok::Eof, line, col });
        };
        let single = |t: Tok| Some(t);
        let simple = match c {
            ':' => single(Tok::Colon),
            ',' => single(Tok::Comma),
            '=' => single(Tok::Eq),
            '(' => single(Tok::LParen),
            ')' => single(Tok::RParen),
            '{' => single(Tok::LBrace),
            '}' => single(Tok::RBrace),
            '[' => single(Tok::LBracket),
            ']' => single(Tok::RBracket),
            _ => None,
        };
        let tok = if let Some(t) = simple {
            self.bump();
            t
        } else if c.is_ascii_digit() {
            Tok::Int(self.digits(line, col)?)
        } else if c.is_ascii_alphabetic() || c == '_' || c == '.' {
            Tok::Ident(self.ident())
        } else if c == '"' {
            Tok::Str(self.string(line, col)?)
        } else {
            self.bump();
            self.sigil(c, line, col)?
        };
        Ok(Token { tok, line, col })
    }

    /// Tokens introduced by a punctuation character that was just consumed.
    fn sigil(&mut self, c: char, line: u32, col: u32) -> Result<Tok, ParseError> {
        Ok(match c {
            '%' => Tok::Reg(self.index("%", line, col)?),
            '$' => Tok::Local(self.index("$", line, col)?),
            '-' => match self.peek() {
                Some('>') => {
                    self.bump();
                    Tok::Arrow
                }
                Some(d) if d.is_ascii_digit() => Tok::NegInt(self.digits(line, col)?),
                _ => return Err(self.err(line, col, "expected `->` or a negative number")),
            },
            '@' => match self.peek() {
                Some('"') => Tok::Name(NameTok::Named(self.string(line, col)?)),
                Some('#') => {
                    self.bump();
                    Tok::Name(NameTok::Index(self.index("@#", line, col)?))
                }
                Some(d) if d.is_ascii_alphabetic() || d == '_' || d == '.' => Tok::Name(NameTok::Named(self.ident())),
                _ => Tok::At,
            },
            other => return Err(self.err(line, col, format!("unexpected character {other:?}"))),
        })
    }
}

/// Split `text` into tokens, ending with [`Tok::Eof`].
pub(crate) fn tokenize(text: &str) -> Result<Vec<Token>, ParseError> {
    let mut lx = Lexer { chars: text.chars().peekable(), line: 1, col: 1 };
    let mut out = Vec::new();
    loop {
        let t = lx.next_token()?;
        let end = t.tok == Tok::Eof;
        out.push(t);
        if end {
            return Ok(out);
        }
    }
}
