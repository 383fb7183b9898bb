//! Parses a formula's text and recomputes it: the test of "the explanation cannot
//! disagree with the value".

#![allow(
    clippy::many_single_char_names,
    reason = "an arithmetic parser: a, b are operands, n, d numerator and denominator"
)]

/// A parsed value: an exact fraction or a version.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Val {
    Num(u128, u128),
    Ver(u32, u32, u32),
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Num(Val),
    Word(String),
    Sym(&'static str),
}

fn unit(c: char) -> Option<(u128, u128)> {
    Some(match c {
        'k' | 'K' => (1 << 10, 1),
        'm' | 'M' => (1 << 20, 1),
        'g' | 'G' => (1 << 30, 1),
        'T' => (1 << 40, 1),
        '%' => (1, 100),
        _ => return None,
    })
}

fn lex(text: &str) -> Result<Vec<Tok>, String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == '.') {
                i += 1;
            }
            let s: String = chars[start..i].iter().collect();
            let s = s.trim_end_matches('.');
            let parts: Vec<&str> = s.split('.').collect();
            let val = match parts.as_slice() {
                [w] => Val::Num(w.parse().map_err(|_| format!("number {s}"))?, 1),
                [w, f] => {
                    let den = 10u128.pow(f.len() as u32);
                    let n: u128 = format!("{w}{f}")
                        .parse()
                        .map_err(|_| format!("number {s}"))?;
                    Val::Num(n, den)
                }
                [a, b, c] => Val::Ver(
                    a.parse().map_err(|_| s.to_owned())?,
                    b.parse().map_err(|_| s.to_owned())?,
                    c.parse().map_err(|_| s.to_owned())?,
                ),
                _ => return Err(format!("bad number {s}")),
            };
            let val = match (val, chars.get(i).copied().and_then(unit)) {
                (Val::Num(n, d), Some((un, ud)))
                    if chars.get(i + 1).is_none_or(|c| !c.is_alphanumeric()) =>
                {
                    i += 1;
                    Val::Num(n * un, d * ud)
                }
                (v, _) => v,
            };
            out.push(Tok::Num(val));
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len()
                && (chars[i].is_alphanumeric() || matches!(chars[i], '_' | '.' | '-'))
            {
                i += 1;
            }
            out.push(Tok::Word(chars[start..i].iter().collect()));
        } else {
            let sym = match c {
                '(' => "(",
                ')' => ")",
                ',' => ",",
                '+' => "+",
                '−' | '-' => "−",
                '×' => "×",
                '/' => "/",
                '=' => "=",
                '≥' => "≥",
                '≤' => "≤",
                '>' => ">",
                '<' => "<",
                ';' => ";",
                _ => return Err(format!("unexpected character {c:?}")),
            };
            out.push(Tok::Sym(sym));
            i += 1;
        }
    }
    Ok(out)
}

struct P {
    toks: Vec<Tok>,
    at: usize,
}

fn num(v: Val) -> Result<(u128, u128), String> {
    match v {
        Val::Num(n, d) => Ok((n, d)),
        Val::Ver(..) => Err("a version in arithmetic".into()),
    }
}

fn reduce(n: u128, d: u128) -> Val {
    let g = super::gcd(n, d).max(1);
    Val::Num(n / g, d / g)
}

impl P {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.at)
    }
    fn sym(&mut self, s: &str) -> bool {
        if matches!(self.peek(), Some(Tok::Sym(x)) if *x == s) {
            self.at += 1;
            true
        } else {
            false
        }
    }
    fn word_is(&self, offset: usize, w: &str) -> bool {
        matches!(self.toks.get(self.at + offset), Some(Tok::Word(x)) if x == w)
    }
    fn expect(&mut self, s: &str) -> Result<(), String> {
        if self.sym(s) {
            Ok(())
        } else {
            Err(format!("expected {s} at token {}", self.at))
        }
    }
    /// Words that label a number (not function names, not `rounded`).
    fn skip_labels(&mut self) -> (u128, u128) {
        let mut scale = (1, 1);
        while let Some(Tok::Word(w)) = self.peek() {
            let is_call = self.toks.get(self.at + 1) == Some(&Tok::Sym("("));
            if is_call || w == "rounded" {
                break;
            }
            match w.as_str() {
                "KiB" => scale.0 *= 1 << 10,
                "MiB" => scale.0 *= 1 << 20,
                "GiB" => scale.0 *= 1 << 30,
                _ => {}
            }
            self.at += 1;
        }
        scale
    }
    fn primary(&mut self) -> Result<Val, String> {
        self.skip_labels();
        let v = match self.peek().cloned() {
            Some(Tok::Num(v)) => {
                self.at += 1;
                v
            }
            Some(Tok::Sym("(")) => {
                self.at += 1;
                let v = self.rounded()?;
                self.expect(")")?;
                v
            }
            Some(Tok::Word(f)) => {
                self.at += 1;
                self.expect("(")?;
                let mut args = vec![self.rounded()?];
                while self.sym(",") {
                    args.push(self.rounded()?);
                }
                self.expect(")")?;
                call(&f, &args)?
            }
            t => return Err(format!("expected a number, found {t:?}")),
        };
        let (sn, sd) = self.skip_labels();
        Ok(match v {
            Val::Num(n, d) => reduce(n * sn, d * sd),
            v @ Val::Ver(..) => v,
        })
    }
    fn product(&mut self) -> Result<Val, String> {
        let mut v = self.primary()?;
        loop {
            if self.sym("×") {
                let (a, b) = (num(v)?, num(self.primary()?)?);
                v = reduce(a.0 * b.0, a.1 * b.1);
            } else if self.sym("/") {
                let (a, b) = (num(v)?, num(self.primary()?)?);
                if b.0 == 0 {
                    return Err("division by zero".into());
                }
                v = reduce(a.0 * b.1, a.1 * b.0);
            } else {
                return Ok(v);
            }
        }
    }
    fn sum(&mut self) -> Result<Val, String> {
        let mut v = self.product()?;
        loop {
            if self.sym("+") {
                let (a, b) = (num(v)?, num(self.product()?)?);
                v = reduce(a.0 * b.1 + b.0 * a.1, a.1 * b.1);
            } else if self.sym("−") {
                let (a, b) = (num(v)?, num(self.product()?)?);
                let (l, r) = (a.0 * b.1, b.0 * a.1);
                if r > l {
                    return Err("negative result".into());
                }
                v = reduce(l - r, a.1 * b.1);
            } else {
                return Ok(v);
            }
        }
    }
    fn rounded(&mut self) -> Result<Val, String> {
        let v = self.sum()?;
        let comma = self.peek() == Some(&Tok::Sym(",")) && self.word_is(1, "rounded");
        if comma {
            self.at += 1;
        }
        if self.word_is(0, "rounded") {
            if !(self.word_is(1, "up") && self.word_is(2, "to")) {
                return Err("expected 'rounded up to'".into());
            }
            self.at += 3;
            let (n, d) = num(v)?;
            let (s, sd) = num(self.primary()?)?;
            if sd != 1 || s == 0 {
                return Err("rounding step".into());
            }
            return Ok(Val::Num(n.div_ceil(d).div_ceil(s) * s, 1));
        }
        Ok(v)
    }
}

fn call(f: &str, args: &[Val]) -> Result<Val, String> {
    let nums: Vec<(u128, u128)> = args.iter().map(|a| num(*a)).collect::<Result<_, _>>()?;
    let cmp = |a: &(u128, u128), b: &(u128, u128)| (a.0 * b.1).cmp(&(b.0 * a.1));
    let one = |name| match nums.as_slice() {
        [x] => Ok(*x),
        _ => Err(format!("{name} takes one argument")),
    };
    Ok(match f {
        "ceil" => one("ceil").map(|(n, d)| Val::Num(n.div_ceil(d), 1))?,
        "floor" => one("floor").map(|(n, d)| Val::Num(n / d, 1))?,
        "pow2" => {
            one("pow2").map(|(n, d)| Val::Num(n.div_ceil(d).max(1).next_power_of_two(), 1))?
        }
        "max" => nums
            .iter()
            .copied()
            .max_by(cmp)
            .map(|(n, d)| reduce(n, d))
            .ok_or("max()")?,
        "min" => nums
            .iter()
            .copied()
            .min_by(cmp)
            .map(|(n, d)| reduce(n, d))
            .ok_or("min()")?,
        "clamp" => match nums.as_slice() {
            [x, lo, hi] => {
                let v = if cmp(x, lo).is_lt() {
                    lo
                } else if cmp(x, hi).is_gt() {
                    hi
                } else {
                    x
                };
                reduce(v.0, v.1)
            }
            _ => return Err("clamp takes three arguments".into()),
        },
        _ => return Err(format!("unknown function {f}")),
    })
}

fn holds(a: Val, op: &str, b: Val) -> Result<bool, String> {
    let ord = match (a, b) {
        (Val::Num(an, ad), Val::Num(bn, bd)) => (an * bd).cmp(&(bn * ad)),
        (Val::Ver(a0, a1, a2), Val::Ver(b0, b1, b2)) => (a0, a1, a2).cmp(&(b0, b1, b2)),
        _ => return Err("comparing a number with a version".into()),
    };
    Ok(match op {
        "=" => ord.is_eq(),
        "≥" => ord.is_ge(),
        "≤" => ord.is_le(),
        ">" => ord.is_gt(),
        "<" => ord.is_lt(),
        _ => return Err(format!("unknown relation {op}")),
    })
}

/// Checks every part of `formula`: each chain of `=`, `≥`, `>`, `≤`, `<` holds when
/// recomputed. Returns, for each part that ends in `= value`, that value as written.
pub fn check(formula: &str) -> Result<Vec<String>, String> {
    let mut results = Vec::new();
    for part in formula.split("; ") {
        let toks = lex(part)?;
        let mut p = P { toks, at: 0 };
        // `name = …`: an assignment's name is not a number.
        let assigned =
            matches!(p.peek(), Some(Tok::Word(_))) && p.toks.get(1) == Some(&Tok::Sym("="));
        if assigned {
            p.at = 2;
        }
        let mut last = if assigned { "=" } else { "" };
        let mut left = p.rounded()?;
        let mut relations = 0;
        while let Some(Tok::Sym(op)) = p.peek().cloned() {
            if !matches!(op, "=" | "≥" | "≤" | ">" | "<") {
                break;
            }
            p.at += 1;
            let right = p.rounded()?;
            if !holds(left, op, right)? {
                return Err(format!("{left:?} {op} {right:?} does not hold in «{part}»"));
            }
            relations += 1;
            last = op;
            left = right;
        }
        if p.at != p.toks.len() {
            return Err(format!("trailing text in «{part}» at token {}", p.at));
        }
        if relations == 0 && !assigned {
            return Err(format!("«{part}» states no result"));
        }
        if last == "=" {
            results.push(part.rsplit(' ').next().unwrap_or_default().to_owned());
        }
    }
    Ok(results)
}
