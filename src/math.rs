//! `exp2` and `log2` from IEEE-754 basic arithmetic only, so that every score is bit-identical in
//! the native build and in the browser.
//!
//! The standard library hands `powf`, `exp` and `ln` to the platform's libm: glibc natively and
//! a Rust port of musl in WebAssembly. Those can differ in the last bit, which would make the
//! golden traces disagree across targets and could even flip an eviction tie. Addition,
//! multiplication and division are exactly rounded everywhere (and Rust never fuses them into
//! FMAs), so series evaluated with them give the same bits on every target. Both functions are
//! accurate to a couple of units in the last place, far below what the widgets display.

use core::f64::consts::{LN_2, LOG2_E, SQRT_2};

use crate::float;

/// `2^x`, correctly rounded at every multiple of 1/64 (so `exp2(-1.5)` is the nearest double
/// to `2^-1.5`) and within a hair of half a unit in the last place elsewhere.
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
    // x = k/64 + r with k whole and |r| <= 1/128; the subtraction is exact (Sterbenz).
    let k = float::round(x * 64.0);
    let r = x - k / 64.0;
    let k = k as i32;
    let (m, j) = (k.div_euclid(64), k.rem_euclid(64) as usize);
    // 2^r - 1 by its Taylor series: |r ln 2| < 0.0055, so six terms reach full precision.
    let q = r * (C[0] + r * (C[1] + r * (C[2] + r * (C[3] + r * (C[4] + r * C[5])))));
    // 2^(j/64) is stored as hi + lo, so the only sizeable rounding is the final addition.
    // In bounds: j = k mod 64, and the table has 64 entries.
    #[allow(clippy::indexing_slicing)]
    let (hi, lo) = EXP2_SIXTY_FOURTHS[j];
    let mantissa = hi + (lo + hi * q);
    // Scale by 2^m in two halves so that each factor is a normal number.
    let half = m / 2;
    mantissa * pow2(half) * pow2(m - half)
}

/// `ln(2)^n / n!` for n = 1 to 6.
const C: [f64; 6] = [
    LN_2,
    0.24022650695910072,
    0.05550410866482158,
    0.009618129107628477,
    0.0013333558146428443,
    0.0001540353039338161,
];

/// `2^(j/64)` for j = 0 to 63 as a pair `(hi, lo)` whose sum carries about 107 bits.
/// Generated with 60-digit decimal arithmetic.
#[rustfmt::skip]
const EXP2_SIXTY_FOURTHS: [(f64, f64); 64] = [
    (1.0, 0.0),
    (1.0108892860517005, -1.5234778603368577e-17),
    (1.0218971486541166, 5.109225028973444e-17),
    (1.0330248790212284, 7.600838874027088e-18),
    (1.0442737824274138, 8.551889705537965e-17),
    (1.0556451783605572, 1.759325738772092e-18),
    (1.0671404006768237, -7.899853966841582e-17),
    (1.0787607977571199, -6.656660436056593e-17),
    (1.0905077326652577, -3.046782079812471e-17),
    (1.102382583307841, 5.2660368715706944e-17),
    (1.1143867425958924, 1.0410278456845571e-16),
    (1.1265216186082418, 5.165856758795457e-17),
    (1.1387886347566916, 8.912812676025408e-17),
    (1.1511892299529827, 3.250710218863827e-17),
    (1.1637248587775775, 3.8292048369240935e-17),
    (1.1763969916502812, 5.554203254218079e-17),
    (1.189207115002721, 3.982015231465646e-17),
    (1.202156731452703, 6.644981499252301e-17),
    (1.215247359980469, -7.712630692681488e-17),
    (1.22848053610687, -1.89878163130253e-17),
    (1.241857812073484, 4.658027591836937e-17),
    (1.255380757024691, -6.7113898212968784e-18),
    (1.2690509571917332, 2.667932131342186e-18),
    (1.2828700160787783, 1.713594918243561e-17),
    (1.2968395546510096, 2.5382502794888315e-17),
    (1.3109612115247644, -7.181536135519454e-17),
    (1.3252366431597413, -2.8587312100388614e-17),
    (1.339667524053303, 8.927282594831732e-17),
    (1.3542555469368927, 7.70094837980299e-17),
    (1.3690024229745905, 9.593797919118849e-17),
    (1.383909881963832, -6.770511658794786e-17),
    (1.3989796725383112, -9.614213209051323e-17),
    (SQRT_2, -9.667293313452913e-17),
    (1.42961333839197, -1.2031642489053655e-17),
    (1.4451808069770467, -3.0237581349939873e-17),
    (1.460917794180647, -5.600377186075216e-17),
    (1.4768261459394993, -3.483994556892796e-17),
    (1.4929077282912648, 1.4192920154284036e-17),
    (1.5091644275934228, -1.016455327754295e-16),
    (1.5255981507445384, -1.1024941712342561e-16),
    (1.5422108254079407, 7.949834809697621e-17),
    (1.559004400237837, 3.7812070533575275e-17),
    (1.5759808451078865, -1.0136916471278304e-17),
    (1.593142151342267, -1.0094406542311964e-16),
    (1.6104903319492543, 2.4707192569797888e-17),
    (1.6280274218573478, -6.712955084707084e-17),
    (1.645755478153965, -1.0125679913674773e-16),
    (1.6636765803267364, 5.8909926967131e-17),
    (1.681792830507429, 8.199010020581497e-17),
    (1.7001063537185235, -8.0237193703977e-18),
    (1.718619298122478, -1.851380418263111e-17),
    (1.7373338352737062, 3.164389299292957e-17),
    (1.7562521603732995, 2.960140695448873e-17),
    (1.7753764925265212, 6.429731796556572e-17),
    (1.7947090750031072, 1.8227458427912087e-17),
    (1.8142521755003989, -9.969531538920349e-17),
    (1.8340080864093424, 3.283107224245627e-17),
    (1.8539791250833855, 9.761887490727594e-17),
    (1.8741676341103, -6.122763413004143e-17),
    (1.8945759815869656, 3.4034035352165297e-17),
    (1.9152065613971474, -1.0619946056195963e-16),
    (1.9360617934922943, 1.0332385960676326e-16),
    (1.9571441241754002, 8.960767791036668e-17),
    (1.978456026387951, 4.0388753109278167e-17),
];

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

    /// `a * b` as an unevaluated sum `(hi, lo)`, exactly (Dekker's product through a fused
    /// multiply-add).
    fn two_product(a: f64, b: f64) -> (f64, f64) {
        let hi = a * b;
        (hi, a.mul_add(b, -hi))
    }

    /// The square of a double-double `(hi, lo)`, to about 104 bits.
    fn square(hi: f64, lo: f64) -> (f64, f64) {
        let (p, e) = two_product(hi, hi);
        let e = e + 2.0 * hi * lo;
        let s = p + e;
        (s, e - (s - p))
    }

    #[test]
    fn the_table_holds_each_sixty_fourth_power_to_about_107_bits() {
        // (2^(j/64))^64 = 2^j: six squarings in double-double keep about 100 bits, while an error
        // in `lo` of even one part in 10^17 would show up 64 times larger.
        for (j, &(hi, lo)) in EXP2_SIXTY_FOURTHS.iter().enumerate() {
            let (mut h, mut l) = (hi, lo);
            for _ in 0..6 {
                (h, l) = square(h, l);
            }
            let power = 2f64.powi(j as i32);
            let relative = ((h - power) + l) / power;
            assert!(relative.abs() < 1e-28, "j = {j}: off by {relative:e}");
            assert!(
                lo.abs() <= hi * f64::EPSILON / 2.0,
                "j = {j}: lo is a rounding error"
            );
        }
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
    fn exp2_is_correctly_rounded_at_sixty_fourths() {
        // The nearest doubles, from 60-digit decimal arithmetic.
        assert_eq!(exp2(-1.5), 0.3535533905932738);
        assert_eq!(exp2(-0.25), 0.8408964152537145);
        assert_eq!(exp2(-0.75), 0.5946035575013605);
        assert_eq!(exp2(0.5), core::f64::consts::SQRT_2);
    }

    #[test]
    fn exp2_is_correctly_rounded_between_sixty_fourths_too() {
        // The nearest doubles, from 50-digit decimal arithmetic. Most points away from the
        // sixty-fourths round correctly; these also do, and a sign slip in the series' last term
        // would move each by one unit in the last place.
        let cases = [
            (-10.994872, 0.0004900199137312747),
            (-10.570773, 0.0006574765228188839),
            (-9.741037, 0.00116857253303869),
            (-1.024083, 0.4917227467917954),
            (2.430812, 5.391968244779108),
            (10.993017, 2038.1111262327074),
        ];
        for (x, expect) in cases {
            assert_eq!(exp2(x), expect, "exp2({x})");
        }
        // Far below the smallest subnormal, the answer is 0 without scaling by absurd powers.
        assert_eq!(exp2(-1e6), 0.0);
        assert_eq!(exp2(-1075.5), 0.0);
    }

    #[test]
    fn exp2_matches_the_platform_closely() {
        for i in -4000..4000 {
            let x = f64::from(i) * 0.01731;
            assert!(
                close(exp2(x), x.exp2()),
                "exp2({x}) = {} vs {}",
                exp2(x),
                x.exp2()
            );
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
            assert!(
                (ours - platform).abs() <= 4.0 * f64::EPSILON * platform.abs().max(1.0),
                "log2({x})"
            );
        }
        assert_eq!(log2(1.0), 0.0);
        assert_eq!(log2(8.0), 3.0);
        assert_eq!(log2(0.0), f64::NEG_INFINITY);
        assert!(log2(-1.0).is_nan());
        assert!(close(log2(f64::MIN_POSITIVE / 8.0), -1025.0));
    }
}
