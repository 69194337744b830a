//! `exp2` and `log2` from IEEE-754 basic arithmetic only, so that every score is bit-identical in
//! the native build and in the browser.
//!
//! The standard library hands `powf`, `exp` and `ln` to the platform's libm: glibc natively and
//! a Rust port of musl in WebAssembly. Those can differ in the last bit, which would make the
//! golden traces disagree across targets and could even flip an eviction tie. Addition,
//! multiplication and division are exactly rounded everywhere (and Rust never fuses them into
//! FMAs), so series evaluated with them give the same bits on every target. Both functions are
//! accurate to a couple of units in the last place, far below what the widgets display.

use std::f64::consts::{LN_2, LOG2_E, SQRT_2};

/// `2^x`. Exact at whole numbers: `exp2(-1.0) == 0.5`.
pub(crate) fn exp2(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x >= 1024.0 {
        return f64::INFINITY;
    }
    if x < -1075.0 {
        return 0.0;
    }
    // x = n + f with n whole and |f| <= 1/2; both steps are exact.
    let n = x.round();
    let y = (x - n) * LN_2;
    // e^y by its Taylor series in Horner form; |y| <= 0.35, so 14 terms reach full precision.
    let mut sum = 1.0;
    for k in (1..=14).rev() {
        sum = 1.0 + sum * y / f64::from(k);
    }
    // Scale by 2^n in two halves so that each factor is a normal number.
    let n = n as i32;
    let half = n / 2;
    sum * pow2(half) * pow2(n - half)
}

/// `log2(x)` for finite `x > 0`; `NaN` below 0, `-inf` at 0, `+inf` at `+inf`.
pub(crate) fn log2(x: f64) -> f64 {
    if x.is_nan() || x < 0.0 {
        return f64::NAN;
    }
    if x == 0.0 {
        return f64::NEG_INFINITY;
    }
    if x.is_infinite() {
        return f64::INFINITY;
    }
    if x < f64::MIN_POSITIVE {
        // Subnormal: make it normal first (2^54 is exact).
        return log2(x * pow2(54)) - 54.0;
    }
    // x = m * 2^k with m in [sqrt(1/2), sqrt(2)), read off the bits exactly.
    let bits = x.to_bits();
    let mut k = ((bits >> 52) & 0x7ff) as i32 - 1023;
    let mut m = f64::from_bits((bits & ((1u64 << 52) - 1)) | (1023u64 << 52));
    if m > SQRT_2 {
        m *= 0.5;
        k += 1;
    }
    // ln(m) = 2 atanh(s) = 2 (s + s^3/3 + s^5/5 + ...), with |s| <= 0.172.
    let s = (m - 1.0) / (m + 1.0);
    let s2 = s * s;
    let mut series = 0.0;
    for j in (0..=11).rev() {
        series = series * s2 + 1.0 / f64::from(2 * j + 1);
    }
    f64::from(k) + 2.0 * s * series * LOG2_E
}

/// `2^n` for `n` in `-1022..=1023`, built from its bits.
fn pow2(n: i32) -> f64 {
    f64::from_bits(((n + 1023) as u64) << 52)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        a == b || (a - b).abs() <= 4.0 * f64::EPSILON * b.abs()
    }

    #[test]
    fn exp2_is_exact_at_whole_numbers() {
        for n in -1022..1024 {
            assert_eq!(exp2(f64::from(n)), 2f64.powi(n), "2^{n}");
        }
        // Subnormal powers of two are exact too: 2^-1074 is the smallest positive f64.
        assert_eq!(exp2(-1074.0), f64::from_bits(1));
        assert_eq!(exp2(-1030.0), f64::from_bits(1 << 44));
    }

    #[test]
    fn exp2_matches_the_platform_closely() {
        for i in -4000..4000 {
            let x = f64::from(i) * 0.01731;
            assert!(close(exp2(x), x.exp2()), "exp2({x}) = {} vs {}", exp2(x), x.exp2());
        }
        assert_eq!(exp2(1024.0), f64::INFINITY);
        assert_eq!(exp2(-2000.0), 0.0);
        assert!(exp2(f64::NAN).is_nan());
    }

    #[test]
    fn log2_matches_the_platform_closely() {
        for i in 1..20000 {
            let x = f64::from(i) * 0.000_713;
            let (ours, platform) = (log2(x), x.log2());
            assert!((ours - platform).abs() <= 4.0 * f64::EPSILON * platform.abs().max(1.0), "log2({x})");
        }
        assert_eq!(log2(1.0), 0.0);
        assert_eq!(log2(8.0), 3.0);
        assert_eq!(log2(0.0), f64::NEG_INFINITY);
        assert!(log2(-1.0).is_nan());
        assert!(close(log2(f64::MIN_POSITIVE / 8.0), -1025.0));
    }
}
