//! A small JSON reader for `llvm-readelf-22 --elf-output-style=JSON`: enough of RFC 8259 to read
//! what llvm-readelf prints, kept here because the tests crate has no JSON dependency and needs
//! none beyond this. Numbers keep their text, so 64-bit values and negative addends stay exact.
//! Values borrow from the input where they can: a static binary's JSON is megabytes of small
//! strings, read twice per differential trial.

use std::borrow::Cow;

/// A parsed JSON value. Objects keep their keys in order (and duplicates, which llvm-readelf
/// never prints but which must not be silently merged).
#[derive(Debug, Clone, PartialEq)]
pub enum Json<'a> {
    Null,
    Bool(bool),
    /// The number as written.
    Num(&'a str),
    Str(Cow<'a, str>),
    Arr(Vec<Json<'a>>),
    Obj(Vec<(Cow<'a, str>, Json<'a>)>),
}

impl<'a> Json<'a> {
    pub fn parse(text: &'a str) -> Result<Json<'a>, String> {
        let mut p = Parser {
            text,
            s: text.as_bytes(),
            i: 0,
        };
        let v = p.value()?;
        p.ws();
        if p.i != p.s.len() {
            return Err(p.error("trailing text after the JSON value"));
        }
        Ok(v)
    }

    /// The member `key` of an object, if this is an object that has it.
    pub fn get(&self, key: &str) -> Option<&Json<'a>> {
        match self {
            Json::Obj(m) => m.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The member `key`, or an error naming it.
    pub fn at(&self, key: &str) -> Result<&Json<'a>, String> {
        self.get(key)
            .ok_or_else(|| format!("JSON: no member `{key}` in {}", self.brief()))
    }

    /// Follows a path of member names: `j.path(&["Type", "Name"])`.
    pub fn path(&self, keys: &[&str]) -> Result<&Json<'a>, String> {
        keys.iter().try_fold(self, |j, k| j.at(k))
    }

    pub fn as_str(&self) -> Result<&str, String> {
        match self {
            Json::Str(s) => Ok(s),
            _ => Err(format!("JSON: expected a string, found {}", self.brief())),
        }
    }

    pub fn as_arr(&self) -> Result<&[Json<'a>], String> {
        match self {
            Json::Arr(a) => Ok(a),
            _ => Err(format!("JSON: expected an array, found {}", self.brief())),
        }
    }

    pub fn as_u64(&self) -> Result<u64, String> {
        match self {
            Json::Num(n) => n
                .parse()
                .map_err(|_| format!("JSON: `{n}` is not an unsigned 64-bit integer")),
            _ => Err(format!("JSON: expected a number, found {}", self.brief())),
        }
    }

    pub fn as_i64(&self) -> Result<i64, String> {
        match self {
            Json::Num(n) => n
                .parse()
                .map_err(|_| format!("JSON: `{n}` is not a signed 64-bit integer")),
            _ => Err(format!("JSON: expected a number, found {}", self.brief())),
        }
    }

    /// A one-line description for error messages, clipped.
    fn brief(&self) -> String {
        let s = match self {
            Json::Null => "null".to_string(),
            Json::Bool(b) => b.to_string(),
            Json::Num(n) => n.to_string(),
            Json::Str(s) => format!("{s:?}"),
            Json::Arr(a) => format!("an array of {}", a.len()),
            Json::Obj(m) => format!(
                "an object with {}",
                m.iter()
                    .map(|(k, _)| k.as_ref())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        s.chars().take(200).collect()
    }
}

struct Parser<'a> {
    text: &'a str,
    s: &'a [u8],
    i: usize,
}

impl<'a> Parser<'a> {
    fn error(&self, what: &str) -> String {
        let from = self.i.saturating_sub(40);
        let to = (self.i + 40).min(self.s.len());
        format!(
            "JSON: {what} at byte {}: `{}`",
            self.i,
            String::from_utf8_lossy(&self.s[from..to])
        )
    }

    fn ws(&mut self) {
        while self.i < self.s.len() && matches!(self.s[self.i], b' ' | b'\t' | b'\n' | b'\r') {
            self.i += 1;
        }
    }

    fn eat(&mut self, c: u8) -> Result<(), String> {
        self.ws();
        if self.s.get(self.i) == Some(&c) {
            self.i += 1;
            Ok(())
        } else {
            Err(self.error(&format!("expected `{}`", c as char)))
        }
    }

    fn value(&mut self) -> Result<Json<'a>, String> {
        self.ws();
        match self.s.get(self.i) {
            Some(b'{') => self.object(),
            Some(b'[') => self.array(),
            Some(b'"') => Ok(Json::Str(self.string()?)),
            Some(b'-' | b'0'..=b'9') => Ok(self.number()),
            Some(_) => {
                for (word, v) in [
                    ("true", Json::Bool(true)),
                    ("false", Json::Bool(false)),
                    ("null", Json::Null),
                ] {
                    if self.s[self.i..].starts_with(word.as_bytes()) {
                        self.i += word.len();
                        return Ok(v);
                    }
                }
                Err(self.error("unexpected character"))
            }
            None => Err(self.error("unexpected end of input")),
        }
    }

    fn object(&mut self) -> Result<Json<'a>, String> {
        self.eat(b'{')?;
        let mut members = Vec::new();
        self.ws();
        if self.s.get(self.i) == Some(&b'}') {
            self.i += 1;
            return Ok(Json::Obj(members));
        }
        loop {
            self.ws();
            if self.s.get(self.i) != Some(&b'"') {
                return Err(self.error("expected a member name"));
            }
            let key = self.string()?;
            self.eat(b':')?;
            members.push((key, self.value()?));
            self.ws();
            match self.s.get(self.i) {
                Some(b',') => self.i += 1,
                Some(b'}') => {
                    self.i += 1;
                    return Ok(Json::Obj(members));
                }
                _ => return Err(self.error("expected `,` or `}`")),
            }
        }
    }

    fn array(&mut self) -> Result<Json<'a>, String> {
        self.eat(b'[')?;
        let mut items = Vec::new();
        self.ws();
        if self.s.get(self.i) == Some(&b']') {
            self.i += 1;
            return Ok(Json::Arr(items));
        }
        loop {
            items.push(self.value()?);
            self.ws();
            match self.s.get(self.i) {
                Some(b',') => self.i += 1,
                Some(b']') => {
                    self.i += 1;
                    return Ok(Json::Arr(items));
                }
                _ => return Err(self.error("expected `,` or `]`")),
            }
        }
    }

    fn number(&mut self) -> Json<'a> {
        let start = self.i;
        while self.i < self.s.len()
            && matches!(
                self.s[self.i],
                b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'
            )
        {
            self.i += 1;
        }
        // Only ASCII was consumed, so both ends are character boundaries.
        Json::Num(&self.text[start..self.i])
    }

    fn string(&mut self) -> Result<Cow<'a, str>, String> {
        self.i += 1; // the opening quote
                     // Fast path, taken by nearly every string llvm-readelf prints: no escapes.
        let start = self.i;
        let plain = self.s[start..]
            .iter()
            .position(|&c| c == b'"' || c == b'\\')
            .map(|n| start + n);
        if let Some(end) = plain.filter(|&e| self.s[e] == b'"') {
            self.i = end + 1;
            // Quotes are ASCII, so both ends are character boundaries.
            return Ok(Cow::Borrowed(&self.text[start..end]));
        }
        let mut bytes = Vec::new();
        loop {
            let Some(&c) = self.s.get(self.i) else {
                return Err(self.error("unterminated string"));
            };
            self.i += 1;
            match c {
                b'"' => break,
                b'\\' => {
                    let Some(&e) = self.s.get(self.i) else {
                        return Err(self.error("unterminated escape"));
                    };
                    self.i += 1;
                    match e {
                        b'"' | b'\\' | b'/' => bytes.push(e),
                        b'b' => bytes.push(8),
                        b'f' => bytes.push(12),
                        b'n' => bytes.push(b'\n'),
                        b'r' => bytes.push(b'\r'),
                        b't' => bytes.push(b'\t'),
                        b'u' => {
                            let mut code = self.hex4()?;
                            // A surrogate pair encodes one character beyond the BMP.
                            if (0xd800..0xdc00).contains(&code)
                                && self.s[self.i..].starts_with(b"\\u")
                            {
                                self.i += 2;
                                let low = self.hex4()?;
                                code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
                            }
                            let ch = char::from_u32(code).unwrap_or('\u{fffd}');
                            bytes.extend_from_slice(ch.to_string().as_bytes());
                        }
                        _ => return Err(self.error("bad escape")),
                    }
                }
                _ => bytes.push(c),
            }
        }
        Ok(Cow::Owned(String::from_utf8_lossy(&bytes).into_owned()))
    }

    fn hex4(&mut self) -> Result<u32, String> {
        let digits = self
            .s
            .get(self.i..self.i + 4)
            .and_then(|d| std::str::from_utf8(d).ok())
            .and_then(|d| u32::from_str_radix(d, 16).ok())
            .ok_or_else(|| self.error("bad \\u escape"))?;
        self.i += 4;
        Ok(digits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_and_paths() {
        let j = Json::parse(
            r#" [{"A": {"Name": "x\"y\u00e9", "Value": -4}, "B": [1, 18446744073709551615, true, null], "C": {}}] "#,
        )
        .unwrap();
        let o = &j.as_arr().unwrap()[0];
        assert_eq!(o.path(&["A", "Name"]).unwrap().as_str().unwrap(), "x\"yé");
        assert_eq!(o.path(&["A", "Value"]).unwrap().as_i64().unwrap(), -4);
        let b = o.at("B").unwrap().as_arr().unwrap();
        assert_eq!(b[1].as_u64().unwrap(), u64::MAX);
        assert_eq!(b[2], Json::Bool(true));
        assert_eq!(b[3], Json::Null);
        assert_eq!(o.at("C").unwrap(), &Json::Obj(vec![]));
        assert!(o.at("D").unwrap_err().contains("no member `D`"));
    }

    #[test]
    fn malformed_input_is_an_error() {
        // What llvm-readelf-22 prints for a version definition: text inside an object.
        let bad = r#"{"Definition":{"Name":"V1"Predecessors: []
}}"#;
        assert!(Json::parse(bad)
            .unwrap_err()
            .contains("expected `,` or `}`"));
        assert!(Json::parse("[1, 2").is_err());
        assert!(Json::parse("{} x").is_err());
        assert!(Json::parse(r#""abc"#).is_err());
    }
}
