//! Numbers that carry the expression that produced them.
//!
//! A [`Term`] is computed and written by the same operation, so the formula a reason shows
//! cannot disagree with the value: `Term::num(10_000).label("clients").times(Term::ratio(3, 2))`
//! is the number 15000 *and* the text `10000 clients × 1.5`. Clamps are written where they
//! decide the value ([`Term::at_least`], [`Term::at_most`]), so an explanation never hides
//! the bound that set the number. Arithmetic is exact (rationals over `u128`); only
//! [`Term::ceil`], [`Term::floor`], [`Term::pow2`] and [`Term::round_up`] round, and they say so.
//!
//! The test module holds an evaluator for the text: every formula a plan can produce is
//! parsed back and recomputed (see `rules::tests`), so a wrong text fails a test.

use crate::digits::push_u64;
use crate::size::ByteSize;
use crate::version::Version;

/// Binding strength of a term's text, to place parentheses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Prec {
    /// `x rounded up to n`.
    Rounded,
    /// `a + b`, `a − b`.
    Sum,
    /// `a × b`, `a / b`.
    Product,
    /// A number, a function call or a parenthesised term.
    Atom,
}

/// An exact non-negative number and the text of how it was computed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Term {
    num: u128,
    den: u128,
    text: String,
    prec: Prec,
}

const fn gcd(mut a: u128, mut b: u128) -> u128 {
    if a <= u64::MAX as u128 && b <= u64::MAX as u128 {
        // The common case, in machine words: 128-bit division is a library call.
        return gcd64(a as u64, b as u64) as u128;
    }
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

const fn gcd64(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

/// `n / d` as a decimal when it has at most three decimals, else as `n/d`.
///
/// Its parts are printed as `u64` (every ratio is of two `u64`s, so they fit): printing a
/// `u128` costs the browser builds 2 KB of formatting and 128-bit division.
fn decimal(n: u64, d: u64) -> String {
    let g = gcd(u128::from(n), u128::from(d)).max(1);
    let (n, d) = (u128::from(n) / g, u128::from(d) / g);
    // Each part is at most `n`, so it fits a `u64`.
    let part = |v: u128| u64::try_from(v).unwrap_or(u64::MAX);
    if d == 1 {
        return whole(part(n));
    }
    for (scale, width) in [(10, 1), (100, 2), (1000, 3)] {
        if (n * scale) % d == 0 {
            let v = n * scale / d;
            let (int, frac) = (part(v / scale), part(v % scale));
            let mut text = whole(int);
            text.push('.');
            // `frac` is below `scale`: pad it to `width` digits.
            let shown = if frac >= 100 {
                3
            } else if frac >= 10 {
                2
            } else {
                1
            };
            for _ in shown..width {
                text.push('0');
            }
            push_u64(&mut text, frac);
            return text;
        }
    }
    let mut text = whole(part(n));
    text.push('/');
    push_u64(&mut text, part(d));
    text
}

/// Room for a term's text and what usually follows it (labels, operators, the operand),
/// so that building a formula does not grow each string several times.
const TEXT_CAPACITY: usize = 96;

/// `n` in decimal, in a string with room for the rest of a formula.
fn whole(n: u64) -> String {
    let mut text = String::with_capacity(TEXT_CAPACITY);
    push_u64(&mut text, n);
    text
}

impl Term {
    fn new(num: u128, den: u128, text: String, prec: Prec) -> Self {
        if den == 1 {
            // Whole: already in lowest terms (and 128-bit division is a library call).
            return Self {
                num,
                den,
                text,
                prec,
            };
        }
        let g = gcd(num, den).max(1);
        Self {
            num: num / g,
            den: den / g,
            text,
            prec,
        }
    }

    /// A whole number.
    pub fn num(n: impl Into<u64>) -> Self {
        let n = n.into();
        Self::new(u128::from(n), 1, whole(n), Prec::Atom)
    }

    /// A fraction, written as a decimal where it has one: `ratio(3, 2)` is `1.5`.
    pub fn ratio(n: u64, d: u64) -> Self {
        Self::new(u128::from(n), u128::from(d), decimal(n, d), Prec::Atom)
    }

    /// A share in thousandths written as a percentage: `percent_of_permille(50)` is `5%`.
    pub fn percent_of_permille(p: u32) -> Self {
        Self::new(
            u128::from(p),
            1000,
            format!("{}%", decimal(p.into(), 10)),
            Prec::Atom,
        )
    }

    /// A size in bytes, written as nginx writes sizes (`32k`, `4m`) or as given (`4M`).
    pub fn size(size: ByteSize) -> Self {
        let bytes = size.as_u64();
        Self::new(
            u128::from(bytes),
            1,
            size.nginx().unwrap_or_else(|| bytes.to_string()),
            Prec::Atom,
        )
    }

    /// A size in bytes written in the input's own notation (`4M`, `32K`).
    pub fn input_size(size: ByteSize) -> Self {
        Self::new(u128::from(size.as_u64()), 1, size.to_string(), Prec::Atom)
    }

    /// Adds a word after the number: `10000 clients`.
    #[must_use]
    pub fn label(mut self, word: &str) -> Self {
        self = self.wrapped(Prec::Atom);
        self.text.push(' ');
        self.text.push_str(word);
        self
    }

    /// Puts a name before the number: `backlog 1024`.
    #[must_use]
    pub fn named(mut self, name: &str) -> Self {
        self = self.wrapped(Prec::Atom);
        self.text.insert(0, ' ');
        self.text.insert_str(0, name);
        self
    }

    /// The value, rounded up to a whole number (exact for every whole term).
    pub fn value(&self) -> u64 {
        if self.den == 1 {
            return self.num.min(u128::from(u64::MAX)) as u64;
        }
        self.num.div_ceil(self.den).min(u128::from(u64::MAX)) as u64
    }

    /// The value in thousandths, rounded down (exact for every term with at most three
    /// decimals).
    pub fn thousandths(&self) -> u64 {
        (self.num * 1000 / self.den).min(u128::from(u64::MAX)) as u64
    }

    /// Whether the value is a whole number.
    pub fn is_whole(&self) -> bool {
        self.den == 1
    }

    /// The text of the expression.
    pub fn text(&self) -> &str {
        &self.text
    }

    fn wrapped(mut self, at_least: Prec) -> Self {
        if self.prec < at_least {
            self.text.insert(0, '(');
            self.text.push(')');
            self.prec = Prec::Atom;
        }
        self
    }

    fn binary(self, op: &str, rhs: Self, left: Prec, right: Prec) -> String {
        let (l, r) = (self.wrapped(left), rhs.wrapped(right));
        let mut text = l.text;
        text.push_str(op);
        text.push_str(&r.text);
        text
    }

    /// `self + rhs`.
    #[must_use]
    pub fn plus(self, rhs: Self) -> Self {
        let (n, d) = (self.num * rhs.den + rhs.num * self.den, self.den * rhs.den);
        let text = self.binary(" + ", rhs, Prec::Sum, Prec::Sum);
        Self::new(n, d, text, Prec::Sum)
    }

    /// `self − rhs`.
    ///
    /// # Panics
    /// When `rhs` is larger: the rules subtract only smaller terms.
    #[must_use]
    pub fn minus(self, rhs: Self) -> Self {
        let (l, r) = (self.num * rhs.den, rhs.num * self.den);
        assert!(l >= r, "negative formula");
        let d = self.den * rhs.den;
        let text = self.binary(" − ", rhs, Prec::Sum, Prec::Product);
        Self::new(l - r, d, text, Prec::Sum)
    }

    /// Adds a unit word that scales the value: `10 MiB` is 10 × 2²⁰ bytes.
    #[must_use]
    pub fn unit(self, word: &str, factor: u64) -> Self {
        let (n, d) = (self.num * u128::from(factor), self.den);
        let labelled = self.label(word);
        Self::new(n, d, labelled.text, Prec::Atom)
    }

    /// `self × rhs`.
    #[must_use]
    pub fn times(self, rhs: Self) -> Self {
        let (n, d) = (self.num * rhs.num, self.den * rhs.den);
        let text = self.binary(" × ", rhs, Prec::Product, Prec::Atom);
        Self::new(n, d, text, Prec::Product)
    }

    /// `self / rhs`, exact.
    ///
    /// # Panics
    /// When `rhs` is zero: every divisor in the rules is a validated positive input or a
    /// constant.
    #[must_use]
    pub fn over(self, rhs: Self) -> Self {
        assert!(rhs.num != 0, "division by zero in a formula");
        let (n, d) = (self.num * rhs.den, self.den * rhs.num);
        let text = self.binary(" / ", rhs, Prec::Product, Prec::Atom);
        Self::new(n, d, text, Prec::Product)
    }

    fn call(name: &str, args: Vec<Self>, num: u128, den: u128) -> Self {
        let mut text = String::with_capacity(
            name.len() + 2 + args.iter().map(|a| a.text.len() + 2).sum::<usize>(),
        );
        text.push_str(name);
        text.push('(');
        for (i, a) in args.into_iter().enumerate() {
            if i > 0 {
                text.push_str(", ");
            }
            text.push_str(&a.wrapped(Prec::Sum).text);
        }
        text.push(')');
        Self::new(num, den, text, Prec::Atom)
    }

    /// `ceil(self)`, written even when the value is already whole.
    #[must_use]
    pub fn ceil(self) -> Self {
        let n = self.num.div_ceil(self.den);
        Self::call("ceil", vec![self], n, 1)
    }

    /// `ceil(self)` where the value has a fraction; the term unchanged where it is whole.
    #[must_use]
    pub fn ceil_if_needed(self) -> Self {
        if self.is_whole() { self } else { self.ceil() }
    }

    /// `floor(self)`.
    #[must_use]
    pub fn floor(self) -> Self {
        let n = self.num / self.den;
        Self::call("floor", vec![self], n, 1)
    }

    /// `pow2(self)`: the smallest power of two at or above the value.
    #[must_use]
    pub fn pow2(self) -> Self {
        let n = self.num.div_ceil(self.den).max(1).next_power_of_two();
        Self::call("pow2", vec![self], n, 1)
    }

    /// The largest of `terms`.
    ///
    /// # Panics
    /// When `terms` is empty.
    pub fn max(terms: Vec<Self>) -> Self {
        let best = terms
            .iter()
            .max_by(|a, b| (a.num * b.den).cmp(&(b.num * a.den)))
            .map(|t| (t.num, t.den))
            .expect("max of no terms");
        Self::call("max", terms, best.0, best.1)
    }

    /// The smallest of `terms`.
    ///
    /// # Panics
    /// When `terms` is empty.
    pub fn min(terms: Vec<Self>) -> Self {
        let best = terms
            .iter()
            .min_by(|a, b| (a.num * b.den).cmp(&(b.num * a.den)))
            .map(|t| (t.num, t.den))
            .expect("min of no terms");
        Self::call("min", terms, best.0, best.1)
    }

    /// `clamp(self, lo, hi)`, written whether or not a bound decides.
    #[must_use]
    pub fn clamp(self, lo: Self, hi: Self) -> Self {
        let (mut n, mut d) = (self.num, self.den);
        if n * lo.den < lo.num * d {
            (n, d) = (lo.num, lo.den);
        }
        if n * hi.den > hi.num * d {
            (n, d) = (hi.num, hi.den);
        }
        Self::call("clamp", vec![self, lo, hi], n, d)
    }

    /// At least `lo`: written as `max(self, lo)` only when `lo` decides.
    #[must_use]
    pub fn at_least(self, lo: Self) -> Self {
        if self.num * lo.den < lo.num * self.den {
            Self::max(vec![self, lo])
        } else {
            self
        }
    }

    /// At most `hi`: written as `min(self, hi)` only when `hi` decides.
    #[must_use]
    pub fn at_most(self, hi: Self) -> Self {
        if self.num * hi.den > hi.num * self.den {
            Self::min(vec![self, hi])
        } else {
            self
        }
    }

    /// `self rounded up to step` (`, rounded up to` after a sum or product).
    #[must_use]
    pub fn round_up(self, step: u64) -> Self {
        let n = self.num.div_ceil(self.den).div_ceil(u128::from(step)) * u128::from(step);
        let this = self.wrapped(Prec::Sum);
        let mut text = this.text;
        text.push_str(if this.prec == Prec::Atom {
            " rounded up to "
        } else {
            ", rounded up to "
        });
        push_u64(&mut text, step);
        Self::new(n, 1, text, Prec::Rounded)
    }
}

/// The text of a reason's formula: equations and comparisons, joined by `; `.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Formula(String);

impl Formula {
    /// `term = value`.
    pub fn equals(term: &Term) -> Self {
        let mut f = Self::of(term);
        f.0.push_str(" = ");
        push_u64(&mut f.0, term.value());
        f
    }

    /// A formula that starts with the term's text.
    fn of(term: &Term) -> Self {
        let mut text = String::with_capacity(term.text.len() + TEXT_CAPACITY);
        text.push_str(&term.text);
        Self(text)
    }

    /// `term = size`, the value written as nginx writes sizes.
    pub fn equals_size(term: &Term) -> Self {
        let mut f = Self::of(term);
        f.0.push_str(" = ");
        f.0.push_str(&Term::size(ByteSize::bytes(term.value())).text);
        f
    }

    /// `term = Nm`, the value written in MiB as `ssl_session_cache` and other zone sizes
    /// take it (`1024m`, not `1g`).
    pub fn equals_mib(term: &Term) -> Self {
        let mut f = Self::of(term);
        f.0.push_str(" = ");
        push_u64(&mut f.0, term.value() >> 20);
        f.0.push('m');
        f
    }

    /// `name = …`, before an equation.
    #[must_use]
    pub fn named(self, name: &str) -> Self {
        Self([name, " = ", &self.0].concat())
    }

    /// `… op rhs`, a comparison that holds.
    #[must_use]
    pub fn compare(mut self, op: &str, rhs: &Term) -> Self {
        self.0.push(' ');
        self.0.push_str(op);
        self.0.push(' ');
        self.0.push_str(&rhs.text);
        self
    }

    /// `lhs op rhs`, a comparison on its own.
    pub fn comparison(lhs: &Term, op: &str, rhs: &Term) -> Self {
        Self::of(lhs).compare(op, rhs)
    }

    /// `input = value`: the value is an input as given.
    pub fn input(name: &str, value: impl std::fmt::Display) -> Self {
        Self(format!("{name} = {value}"))
    }

    /// `software have ≥ since` (or `<`): which side of a version gate the target is on.
    pub fn version_gate(software: &str, have: Version, since: Version) -> Self {
        let op = if have >= since { "≥" } else { "<" };
        Self(format!("{software} {have} {op} {since}"))
    }

    /// `self; other`.
    #[must_use]
    pub fn and(mut self, other: &Self) -> Self {
        self.0.push_str("; ");
        self.0.push_str(&other.0);
        self
    }

    /// The text.
    pub fn into_string(self) -> String {
        self.0
    }
}

pub mod eval;

#[cfg(test)]
mod tests {
    use super::eval::check;
    use super::*;

    #[test]
    fn thousandths_are_exact_for_three_decimals() {
        let t = Term::num(1u32).plus(Term::ratio(500, 1000).times(Term::num(6u32)));
        assert_eq!((t.value(), t.thousandths()), (4, 4000));
        assert_eq!(Term::ratio(3, 2).thousandths(), 1500);
        assert_eq!(Term::ratio(1, 3).thousandths(), 333);
    }

    #[test]
    fn texts_and_values_agree() {
        let wc = Term::num(10_000u32)
            .label("clients")
            .times(Term::ratio(3, 2))
            .over(Term::num(4u32).label("workers"))
            .ceil()
            .times(Term::num(1u32).plus(Term::ratio(0, 1)))
            .plus(Term::num(0u32).label("keepalive"))
            .plus(Term::num(32u32).label("spare"))
            .round_up(1024);
        assert_eq!(
            wc.text(),
            "ceil(10000 clients × 1.5 / 4 workers) × (1 + 0) + 0 keepalive + 32 spare, rounded up to 1024"
        );
        assert_eq!(wc.value(), 4096);
        check(&Formula::equals(&wc).into_string()).unwrap();
    }

    #[test]
    fn bounds_are_written_only_when_they_decide() {
        let free = Term::num(3000u32)
            .at_least(Term::num(1024u32))
            .at_most(Term::num(65_535u32));
        assert_eq!(free.text(), "3000");
        let low = Term::num(10u32).at_least(Term::num(512u32));
        assert_eq!((low.text(), low.value()), ("max(10, 512)", 512));
        let high = Term::num(129u32).at_most(Term::num(64u32));
        assert_eq!((high.text(), high.value()), ("min(129, 64)", 64));
        let shown = Term::num(3u32).clamp(Term::num(1u32), Term::num(9u32));
        assert_eq!((shown.text(), shown.value()), ("clamp(3, 1, 9)", 3));
    }

    #[test]
    fn rounding_and_powers() {
        let t = Term::num(1000u32).pow2();
        assert_eq!((t.text(), t.value()), ("pow2(1000)", 1024));
        let r = Term::max(vec![Term::num(5u32), Term::num(7u32)]).round_up(4);
        assert_eq!((r.text(), r.value()), ("max(5, 7) rounded up to 4", 8));
        let inexact = Term::num(7u32).times(Term::ratio(1, 2)).ceil_if_needed();
        assert_eq!((inexact.text(), inexact.value()), ("ceil(7 × 0.5)", 4));
        let exact = Term::num(8u32).times(Term::ratio(1, 2)).ceil_if_needed();
        assert_eq!((exact.text(), exact.value()), ("8 × 0.5", 4));
        let nested = Term::num(10u32).round_up(8).at_most(Term::num(12u32));
        assert_eq!(
            (nested.text(), nested.value()),
            ("min((10 rounded up to 8), 12)", 12)
        );
        check(&Formula::equals(&nested).into_string()).unwrap();
    }

    #[test]
    fn sizes_and_percentages() {
        let s = Term::size(ByteSize::kib(32)).times(Term::num(2u32));
        assert_eq!(Formula::equals_size(&s).into_string(), "32k × 2 = 64k");
        check("32k × 2 = 64k").unwrap();
        assert_eq!(Term::percent_of_permille(50).text(), "5%");
        check("1.2 × 10000 clients / 4 workers × 5% = 150").unwrap();
        check("ceil(10000 clients / 1000) MiB = 10m").unwrap();
    }

    #[test]
    fn the_evaluator_rejects_wrong_texts() {
        let cases = [
            ("max(2 × 4096, 100) rounded up to 1024 = 9216", false),
            ("clamp(129, 2, 64) = 129", false),
            ("10000 clients / 2 s × 200 ms = 1000", false),
            ("OpenSSL 3.5.1 ≥ 3.5.0", true),
            ("OpenSSL 3.0.2 ≥ 3.5.0", false),
            ("vcpu = 4", true),
            ("just words", false),
            (
                "max(worker_rlimit_nofile 10240, 524288) = 524288 ≥ 2 × 4096",
                true,
            ),
        ];
        for (text, holds) in cases {
            assert_eq!(check(text).is_ok(), holds, "{text}");
        }
    }
}
