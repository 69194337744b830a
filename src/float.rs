//! The rounding methods of `f64` that `core` lacks: std has them, but the wasm build is `no_std`
//! (see `src/lib.rs`). Both builds call these, so both run the same code; each gives exactly what
//! std's method gives, sign of zero included, and the tests compare them with std bit for bit.

/// `x` rounded toward zero, as `f64::trunc`.
///
/// ```text
/// 2.7 -> 2    -2.7 -> -2    -0.5 -> -0.0    1e300 -> 1e300    NaN -> NaN
/// ```
pub(crate) fn trunc(x: f64) -> f64 {
    const SIGN: u64 = 1 << 63;
    /// 2^52: from here on every `f64` is whole.
    const WHOLE_FROM: f64 = 4_503_599_627_370_496.0;
    // Bits compare as magnitudes do; NaN and the infinities are above 2^52 too.
    if x.to_bits() & !SIGN >= WHOLE_FROM.to_bits() {
        return x;
    }
    // Below 2^52 the casts are exact; the sign is put back so that -0.5 gives -0.0.
    f64::from_bits((x as i64 as f64).to_bits() | (x.to_bits() & SIGN))
}

/// The largest whole number at most `x`, as `f64::floor`.
pub(crate) fn floor(x: f64) -> f64 {
    let whole = trunc(x);
    if whole > x {
        whole - 1.0
    } else {
        whole
    }
}

/// `x` rounded to the nearest whole number, halves away from zero, as `f64::round`.
pub(crate) fn round(x: f64) -> f64 {
    let whole = trunc(x);
    // Exact: the fraction of `x` is representable.
    let part = x - whole;
    if part >= 0.5 {
        whole + 1.0
    } else if part <= -0.5 {
        whole - 1.0
    } else {
        whole
    }
}

/// `x` rounded to the nearest whole number, halves to the even one, as `f64::round_ties_even`.
pub(crate) fn round_ties_even(x: f64) -> f64 {
    let whole = trunc(x);
    let part = x - whole;
    // `whole` is below 2^52 here whenever `part` is not 0.
    let odd = (whole as i64) % 2 != 0;
    if part > 0.5 || (part == 0.5 && odd) {
        whole + 1.0
    } else if part < -0.5 || (part == -0.5 && odd) {
        whole - 1.0
    } else {
        whole
    }
}

/// The fractional part of `x`, as `f64::fract`.
pub(crate) fn fract(x: f64) -> f64 {
    x - trunc(x)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Ours against std's, bit for bit (any NaN matches any NaN).
    fn check(x: f64) {
        let same = |ours: f64, std: f64, what: &str| {
            assert!(
                ours.to_bits() == std.to_bits() || (ours.is_nan() && std.is_nan()),
                "{what}({x:e}): {ours:e}, std {std:e}"
            );
        };
        same(trunc(x), x.trunc(), "trunc");
        same(floor(x), x.floor(), "floor");
        same(round(x), x.round(), "round");
        same(round_ties_even(x), x.round_ties_even(), "round_ties_even");
        same(fract(x), x.fract(), "fract");
    }

    #[test]
    fn edges_match_std() {
        let edges = [
            0.0,
            0.3,
            0.5,
            0.7,
            1.0,
            1.5,
            2.5,
            3.5,
            0.49999999999999994,
            4503599627370495.5,
            4503599627370496.0,
            9007199254740993.0,
            1e300,
            f64::MAX,
            f64::MIN_POSITIVE,
            5e-324,
            f64::INFINITY,
            f64::NAN,
            1e15 + 0.5,
            2f64.powi(62) + 1024.0,
        ];
        for x in edges {
            check(x);
            check(-x);
        }
    }

    proptest! {
        #[test]
        fn every_double_matches_std(bits in any::<u64>()) {
            check(f64::from_bits(bits));
        }

        #[test]
        fn numbers_near_whole_and_half_match_std(whole in -1e6f64..1e6, step in -8i32..8) {
            let x = whole.trunc() + f64::from(step) / 16.0;
            check(x);
            check(x + f64::EPSILON * x.abs());
            check(x - f64::EPSILON * x.abs());
        }
    }
}
