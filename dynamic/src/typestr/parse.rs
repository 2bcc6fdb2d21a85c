//! Recursive-descent parser for type strings, depth-capped.

use super::ast::TypeExpr;
use super::error::ParseError;
use super::rewrite::{rewrite_text, QUALIFIED_NAMES, STRIPPED_PREFIXES};

/// Deepest nesting a type string may have. Real runtime types stay below 20;
/// the cap keeps hostile input (`Vec<Vec<Vec<…`) from exhausting the stack.
pub const MAX_DEPTH: usize = 64;

/// Parses a type string as py-scale-codec reads it: textual rewrites first
/// (`T::`, `<T as Trait>::` …), then the structural ones at every level
/// (`Box<T>` → `T`, `()` → `Null`, `Vec<u8>`/`&[u8]` → `Bytes`,
/// `<X as HasCompact>::Type` → `Compact<X>` …).
pub fn parse(input: &str) -> Result<TypeExpr, ParseError> {
    let (text, origin) = rewrite_text(input);
    Parser {
        input,
        text: &text,
        origin: &origin,
        pos: 0,
        rewrite: true,
    }
    .parse_all()
}

/// Parses a type string without any rewrite: the form a preset's type *name*
/// (a registry key such as `"(AccountId, Balance)"` or `"&[u8]"`) is read in,
/// since py-scale-codec does not rewrite keys either.
pub fn parse_key(input: &str) -> Result<TypeExpr, ParseError> {
    let origin: Vec<usize> = (0..=input.len()).collect();
    Parser {
        input,
        text: input,
        origin: &origin,
        pos: 0,
        rewrite: false,
    }
    .parse_all()
}

struct Parser<'a> {
    /// What the caller gave (for errors).
    input: &'a str,
    /// What is parsed (the input after textual rewrites).
    text: &'a str,
    /// Input offset of each byte of `text`, plus one past the end.
    origin: &'a [usize],
    pos: usize,
    rewrite: bool,
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'*') || b >= 0x80
}

impl Parser<'_> {
    fn error(&self, at: usize, message: impl Into<String>) -> ParseError {
        ParseError {
            input: self.input.to_string(),
            offset: self.origin[at.min(self.origin.len() - 1)],
            message: message.into(),
        }
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn skip_ws(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_whitespace()) {
            self.pos += 1;
        }
    }

    fn describe_next(&self) -> String {
        match self.text[self.pos..].chars().next() {
            Some(c) => format!("'{c}'"),
            None => "end of string".to_string(),
        }
    }

    fn expect(&mut self, byte: u8, context: &str) -> Result<(), ParseError> {
        self.skip_ws();
        if self.peek() == Some(byte) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.error(
                self.pos,
                format!(
                    "expected '{}' {context}, found {}",
                    byte as char,
                    self.describe_next()
                ),
            ))
        }
    }

    fn parse_all(mut self) -> Result<TypeExpr, ParseError> {
        self.skip_ws();
        if self.peek().is_none() {
            return Err(self.error(self.pos, "empty type string"));
        }
        let expr = self.parse_type(1)?;
        self.skip_ws();
        if self.pos < self.text.len() {
            return Err(self.error(
                self.pos,
                format!("unexpected {} after a complete type", self.describe_next()),
            ));
        }
        Ok(expr)
    }

    fn parse_type(&mut self, depth: usize) -> Result<TypeExpr, ParseError> {
        self.skip_ws();
        if depth > MAX_DEPTH {
            return Err(self.error(
                self.pos,
                format!("type nested deeper than {MAX_DEPTH} levels"),
            ));
        }
        match self.peek() {
            Some(b'(') => self.parse_tuple(depth),
            Some(b'[') => self.parse_array(depth),
            Some(b'&') => self.parse_byte_slice(depth),
            Some(b'<') => self.parse_qualified(depth),
            Some(b) if is_ident_byte(b) => self.parse_named(depth),
            _ => Err(self.error(
                self.pos,
                format!("expected a type, found {}", self.describe_next()),
            )),
        }
    }

    /// `A, B, …` up to (and consuming) `close`; a trailing comma is allowed.
    fn parse_list(&mut self, close: u8, depth: usize) -> Result<Vec<TypeExpr>, ParseError> {
        let mut items = Vec::new();
        loop {
            self.skip_ws();
            if self.peek() == Some(close) {
                self.pos += 1;
                return Ok(items);
            }
            items.push(self.parse_type(depth + 1)?);
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b) if b == close => {}
                _ => {
                    return Err(self.error(
                        self.pos,
                        format!(
                            "expected ',' or '{}', found {}",
                            close as char,
                            self.describe_next()
                        ),
                    ))
                }
            }
        }
    }

    fn parse_tuple(&mut self, depth: usize) -> Result<TypeExpr, ParseError> {
        self.pos += 1; // '('
        let items = self.parse_list(b')', depth)?;
        if items.is_empty() && self.rewrite {
            return Ok(TypeExpr::path("Null"));
        }
        Ok(TypeExpr::Tuple(items))
    }

    fn parse_array(&mut self, depth: usize) -> Result<TypeExpr, ParseError> {
        self.pos += 1; // '['
        let inner = self.parse_type(depth + 1)?;
        self.expect(b';', "between the element type and the length of an array")?;
        self.skip_ws();
        let start = self.pos;
        while self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.pos += 1;
        }
        if start == self.pos {
            return Err(self.error(
                self.pos,
                format!("expected an array length, found {}", self.describe_next()),
            ));
        }
        let len: u64 = self.text[start..self.pos]
            .parse()
            .map_err(|_| self.error(start, "array length does not fit in 64 bits"))?;
        self.expect(b']', "to close the array")?;
        Ok(TypeExpr::Array(Box::new(inner), len))
    }

    /// `&[u8]`, `&'static [u8]`, `& 'static[u8]`: byte slices, read as `Bytes`.
    fn parse_byte_slice(&mut self, depth: usize) -> Result<TypeExpr, ParseError> {
        self.pos += 1; // '&'
        self.skip_ws();
        if self.peek() == Some(b'\'') {
            self.pos += 1;
            let start = self.pos;
            self.ident();
            if start == self.pos {
                return Err(self.error(self.pos, "expected a lifetime name after '"));
            }
        }
        self.expect(b'[', "after '&' (only &[u8] is a type)")?;
        let at = self.pos;
        let inner = self.parse_type(depth + 1)?;
        if !matches!(&inner, TypeExpr::Path(p) if p.eq_ignore_ascii_case("u8")) {
            return Err(self.error(at, "only &[u8] is supported as a slice type"));
        }
        self.expect(b']', "to close &[u8]")?;
        Ok(if self.rewrite {
            TypeExpr::path("Bytes")
        } else {
            TypeExpr::ByteSlice
        })
    }

    /// `<Self as Trait>::Assoc`.
    fn parse_qualified(&mut self, depth: usize) -> Result<TypeExpr, ParseError> {
        self.pos += 1; // '<'
        let self_ty = self.parse_type(depth + 1)?;
        self.skip_ws();
        let at = self.pos;
        let word = self.ident();
        if word != "as" {
            return Err(self.error(
                at,
                "expected 'as' in a qualified path <Type as Trait>::Name",
            ));
        }
        let trait_ty = self.parse_type(depth + 1)?;
        self.expect(b'>', "to close <Type as Trait>")?;
        self.skip_ws();
        if !self.text[self.pos..].starts_with("::") {
            return Err(self.error(self.pos, "expected '::' after <Type as Trait>"));
        }
        self.pos += 2;
        self.skip_ws();
        let at = self.pos;
        let assoc = self.path();
        if assoc.is_empty() {
            return Err(self.error(at, "expected a name after '>::'"));
        }
        let expr = TypeExpr::Qualified {
            self_ty: Box::new(self_ty),
            trait_ty: Box::new(trait_ty),
            assoc,
        };
        Ok(if self.rewrite {
            rewrite_qualified(expr)
        } else {
            expr
        })
    }

    /// An identifier (possibly empty).
    fn ident(&mut self) -> &str {
        let start = self.pos;
        while self.peek().is_some_and(is_ident_byte) {
            self.pos += 1;
        }
        // Identifier bytes are ASCII or whole UTF-8 sequences (all bytes >= 0x80).
        &self.text[start..self.pos]
    }

    /// `a::b::c` (whitespace around `::` tolerated).
    fn path(&mut self) -> String {
        let mut path = self.ident().to_string();
        loop {
            let save = self.pos;
            self.skip_ws();
            if self.text[self.pos..].starts_with("::") {
                self.pos += 2;
                self.skip_ws();
                let seg = self.ident();
                if !seg.is_empty() {
                    path.push_str("::");
                    path.push_str(seg);
                    continue;
                }
            }
            self.pos = save;
            return path;
        }
    }

    fn parse_named(&mut self, depth: usize) -> Result<TypeExpr, ParseError> {
        let mut name = self.path();
        if self.rewrite {
            if let Some(prefix) = STRIPPED_PREFIXES.iter().find(|p| name.starts_with(**p)) {
                name.drain(..prefix.len());
            }
        }
        let save = self.pos;
        self.skip_ws();
        if self.peek() == Some(b'<') {
            let open = self.pos;
            self.pos += 1;
            let args = self.parse_list(b'>', depth)?;
            if args.is_empty() {
                return Err(self.error(open + 1, format!("'{name}<>' needs a type argument")));
            }
            let expr = TypeExpr::Generic(name, args);
            return Ok(if self.rewrite {
                rewrite_generic(expr)
            } else {
                expr
            });
        }
        self.pos = save;
        Ok(scale_info_index(&name).map_or(TypeExpr::Path(name), TypeExpr::ScaleInfo))
    }
}

/// `scale_info::N` → `N`.
fn scale_info_index(name: &str) -> Option<u32> {
    let (prefix, rest) = name.split_at_checked(12)?;
    if !prefix.eq_ignore_ascii_case("scale_info::") || rest.starts_with('+') {
        return None;
    }
    rest.parse().ok()
}

/// `Box<T>` → `T`; `Vec<u8>` → `Bytes`.
fn rewrite_generic(expr: TypeExpr) -> TypeExpr {
    match expr {
        TypeExpr::Generic(base, mut args)
            if base.eq_ignore_ascii_case("Box") && args.len() == 1 =>
        {
            args.pop().expect("one argument")
        }
        TypeExpr::Generic(base, args)
            if base.eq_ignore_ascii_case("Vec")
                && matches!(args.as_slice(), [TypeExpr::Path(p)] if p.eq_ignore_ascii_case("u8")) =>
        {
            TypeExpr::path("Bytes")
        }
        other => other,
    }
}

/// py-scale-codec's qualified-path rewrites; `<X as HasCompact>::Type` is
/// generalised from its `Balance`/`BlockNumber`/`Moment` cases to any `X`.
fn rewrite_qualified(expr: TypeExpr) -> TypeExpr {
    let TypeExpr::Qualified {
        self_ty,
        trait_ty,
        assoc,
    } = &expr
    else {
        return expr;
    };
    let trait_name = trait_ty.to_string();
    let self_name = self_ty.to_string();
    if trait_name.eq_ignore_ascii_case("HasCompact") && assoc.eq_ignore_ascii_case("Type") {
        return TypeExpr::Generic("Compact".into(), vec![(**self_ty).clone()]);
    }
    for &(self_want, trait_want, assoc_want, plain) in QUALIFIED_NAMES {
        if self_name.eq_ignore_ascii_case(self_want)
            && trait_name.eq_ignore_ascii_case(trait_want)
            && assoc.eq_ignore_ascii_case(assoc_want)
        {
            return TypeExpr::path(plain);
        }
    }
    expr
}
