//! Unicode's simple case folding, in a table small enough for the wasm.
//!
//! A store compares fact texts ignoring case (SPEC §3): two texts are the same when their letters
//! fold to the same letters, as Unicode's caseless matching has it. std has no case folding, and
//! `char::to_lowercase` would bring its case tables into the wasm, several times this table's
//! size (BENCHMARKS.md). The letters that fold come in runs, such as A to Z (each 32 below
//! its folded form) or Ā, Ă, Ą, ... (every other code point, each 1 below it), so 206 runs hold
//! the whole mapping. A unit test checks it against std's case mappings for every `char`.

/// `count` letters from `first`, one apart or (`every_other`) two apart, each `delta` away from
/// its folded form.
struct Run {
    first: u32,
    delta: i32,
    count: u8,
    every_other: bool,
}

const fn run(first: u32, count: u8, step: u8, delta: i32) -> Run {
    Run {
        first,
        delta,
        count,
        every_other: step == 2,
    }
}

/// The Unicode version the table was written from: std's on the toolchain that wrote it.
#[cfg(test)]
const UNICODE_VERSION: (u8, u8, u8) = (17, 0, 0);

/// Unicode's simple case folding of `c` (CaseFolding.txt, statuses C and S): the letter that
/// every case form of `c` maps to, or `c` itself. Mostly its lowercase, but `ς` and `σ` both fold
/// to `σ`, and `µ` to `μ`; `ß` stays `ß` (only the full folding makes it "ss"), and so do `İ` and
/// `ı`, which fold to `i` only in Turkic languages.
///
/// ```text
/// fold('É') == 'é', fold('Σ') == 'σ', fold('ς') == 'σ', fold('é') == 'é', fold('İ') == 'İ'
/// ```
pub(crate) fn fold(c: char) -> char {
    let code = u32::from(c);
    // The last run that starts at or before `code`.
    let after = RUNS.partition_point(|run| run.first <= code);
    let Some(run) = after.checked_sub(1).and_then(|at| RUNS.get(at)) else {
        return c;
    };
    let offset = code - run.first;
    let (index, on_step) = if run.every_other {
        (offset >> 1, offset & 1 == 0)
    } else {
        (offset, true)
    };
    if !on_step || index >= u32::from(run.count) {
        return c;
    }
    char::from_u32(code.wrapping_add_signed(run.delta)).unwrap_or(c)
}

// Written by `cargo test print_fold_runs -- --ignored --nocapture` (below), from std's mappings.
#[rustfmt::skip]
static RUNS: [Run; 206] = [
    run(0x0041, 26, 1, 32), run(0x00B5, 1, 1, 775), run(0x00C0, 23, 1, 32), run(0x00D8, 7, 1, 32),
    run(0x0100, 24, 2, 1), run(0x0132, 3, 2, 1), run(0x0139, 8, 2, 1), run(0x014A, 23, 2, 1),
    run(0x0178, 1, 1, -121), run(0x0179, 3, 2, 1), run(0x017F, 1, 1, -268), run(0x0181, 1, 1, 210),
    run(0x0182, 2, 2, 1), run(0x0186, 1, 1, 206), run(0x0187, 1, 1, 1), run(0x0189, 2, 1, 205),
    run(0x018B, 1, 1, 1), run(0x018E, 1, 1, 79), run(0x018F, 1, 1, 202), run(0x0190, 1, 1, 203),
    run(0x0191, 1, 1, 1), run(0x0193, 1, 1, 205), run(0x0194, 1, 1, 207), run(0x0196, 1, 1, 211),
    run(0x0197, 1, 1, 209), run(0x0198, 1, 1, 1), run(0x019C, 1, 1, 211), run(0x019D, 1, 1, 213),
    run(0x019F, 1, 1, 214), run(0x01A0, 3, 2, 1), run(0x01A6, 1, 1, 218), run(0x01A7, 1, 1, 1),
    run(0x01A9, 1, 1, 218), run(0x01AC, 1, 1, 1), run(0x01AE, 1, 1, 218), run(0x01AF, 1, 1, 1),
    run(0x01B1, 2, 1, 217), run(0x01B3, 2, 2, 1), run(0x01B7, 1, 1, 219), run(0x01B8, 1, 1, 1),
    run(0x01BC, 1, 1, 1), run(0x01C4, 1, 1, 2), run(0x01C5, 1, 1, 1), run(0x01C7, 1, 1, 2),
    run(0x01C8, 1, 1, 1), run(0x01CA, 1, 1, 2), run(0x01CB, 9, 2, 1), run(0x01DE, 9, 2, 1),
    run(0x01F1, 1, 1, 2), run(0x01F2, 2, 2, 1), run(0x01F6, 1, 1, -97), run(0x01F7, 1, 1, -56),
    run(0x01F8, 20, 2, 1), run(0x0220, 1, 1, -130), run(0x0222, 9, 2, 1), run(0x023A, 1, 1, 10795),
    run(0x023B, 1, 1, 1), run(0x023D, 1, 1, -163), run(0x023E, 1, 1, 10792), run(0x0241, 1, 1, 1),
    run(0x0243, 1, 1, -195), run(0x0244, 1, 1, 69), run(0x0245, 1, 1, 71), run(0x0246, 5, 2, 1),
    run(0x0345, 1, 1, 116), run(0x0370, 2, 2, 1), run(0x0376, 1, 1, 1), run(0x037F, 1, 1, 116),
    run(0x0386, 1, 1, 38), run(0x0388, 3, 1, 37), run(0x038C, 1, 1, 64), run(0x038E, 2, 1, 63),
    run(0x0391, 17, 1, 32), run(0x03A3, 9, 1, 32), run(0x03C2, 1, 1, 1), run(0x03CF, 1, 1, 8),
    run(0x03D0, 1, 1, -30), run(0x03D1, 1, 1, -25), run(0x03D5, 1, 1, -15), run(0x03D6, 1, 1, -22),
    run(0x03D8, 12, 2, 1), run(0x03F0, 1, 1, -54), run(0x03F1, 1, 1, -48), run(0x03F4, 1, 1, -60),
    run(0x03F5, 1, 1, -64), run(0x03F7, 1, 1, 1), run(0x03F9, 1, 1, -7), run(0x03FA, 1, 1, 1),
    run(0x03FD, 3, 1, -130), run(0x0400, 16, 1, 80), run(0x0410, 32, 1, 32), run(0x0460, 17, 2, 1),
    run(0x048A, 27, 2, 1), run(0x04C0, 1, 1, 15), run(0x04C1, 7, 2, 1), run(0x04D0, 48, 2, 1),
    run(0x0531, 38, 1, 48), run(0x10A0, 38, 1, 7264), run(0x10C7, 1, 1, 7264),
    run(0x10CD, 1, 1, 7264), run(0x13A0, 80, 1, 38864), run(0x13F0, 6, 1, 8),
    run(0x1C80, 1, 1, -6222), run(0x1C81, 1, 1, -6221), run(0x1C82, 1, 1, -6212),
    run(0x1C83, 2, 1, -6210), run(0x1C85, 1, 1, -6211), run(0x1C86, 1, 1, -6204),
    run(0x1C87, 1, 1, -6180), run(0x1C88, 1, 1, 35267), run(0x1C89, 1, 1, 1),
    run(0x1C90, 43, 1, -3008), run(0x1CBD, 3, 1, -3008), run(0x1E00, 75, 2, 1),
    run(0x1E9B, 1, 1, -58), run(0x1E9E, 1, 1, -7615), run(0x1EA0, 48, 2, 1), run(0x1F08, 8, 1, -8),
    run(0x1F18, 6, 1, -8), run(0x1F28, 8, 1, -8), run(0x1F38, 8, 1, -8), run(0x1F48, 6, 1, -8),
    run(0x1F59, 4, 2, -8), run(0x1F68, 8, 1, -8), run(0x1F88, 8, 1, -8), run(0x1F98, 8, 1, -8),
    run(0x1FA8, 8, 1, -8), run(0x1FB8, 2, 1, -8), run(0x1FBA, 2, 1, -74), run(0x1FBC, 1, 1, -9),
    run(0x1FBE, 1, 1, -7173), run(0x1FC8, 4, 1, -86), run(0x1FCC, 1, 1, -9), run(0x1FD8, 2, 1, -8),
    run(0x1FDA, 2, 1, -100), run(0x1FE8, 2, 1, -8), run(0x1FEA, 2, 1, -112), run(0x1FEC, 1, 1, -7),
    run(0x1FF8, 2, 1, -128), run(0x1FFA, 2, 1, -126), run(0x1FFC, 1, 1, -9),
    run(0x2126, 1, 1, -7517), run(0x212A, 1, 1, -8383), run(0x212B, 1, 1, -8262),
    run(0x2132, 1, 1, 28), run(0x2160, 16, 1, 16), run(0x2183, 1, 1, 1), run(0x24B6, 26, 1, 26),
    run(0x2C00, 48, 1, 48), run(0x2C60, 1, 1, 1), run(0x2C62, 1, 1, -10743),
    run(0x2C63, 1, 1, -3814), run(0x2C64, 1, 1, -10727), run(0x2C67, 3, 2, 1),
    run(0x2C6D, 1, 1, -10780), run(0x2C6E, 1, 1, -10749), run(0x2C6F, 1, 1, -10783),
    run(0x2C70, 1, 1, -10782), run(0x2C72, 1, 1, 1), run(0x2C75, 1, 1, 1),
    run(0x2C7E, 2, 1, -10815), run(0x2C80, 50, 2, 1), run(0x2CEB, 2, 2, 1), run(0x2CF2, 1, 1, 1),
    run(0xA640, 23, 2, 1), run(0xA680, 14, 2, 1), run(0xA722, 7, 2, 1), run(0xA732, 31, 2, 1),
    run(0xA779, 2, 2, 1), run(0xA77D, 1, 1, -35332), run(0xA77E, 5, 2, 1), run(0xA78B, 1, 1, 1),
    run(0xA78D, 1, 1, -42280), run(0xA790, 2, 2, 1), run(0xA796, 10, 2, 1),
    run(0xA7AA, 1, 1, -42308), run(0xA7AB, 1, 1, -42319), run(0xA7AC, 1, 1, -42315),
    run(0xA7AD, 1, 1, -42305), run(0xA7AE, 1, 1, -42308), run(0xA7B0, 1, 1, -42258),
    run(0xA7B1, 1, 1, -42282), run(0xA7B2, 1, 1, -42261), run(0xA7B3, 1, 1, 928),
    run(0xA7B4, 8, 2, 1), run(0xA7C4, 1, 1, -48), run(0xA7C5, 1, 1, -42307),
    run(0xA7C6, 1, 1, -35384), run(0xA7C7, 2, 2, 1), run(0xA7CB, 1, 1, -42343),
    run(0xA7CC, 8, 2, 1), run(0xA7DC, 1, 1, -42561), run(0xA7F5, 1, 1, 1), run(0xFF21, 26, 1, 32),
    run(0x10400, 40, 1, 40), run(0x104B0, 36, 1, 40), run(0x10570, 11, 1, 39),
    run(0x1057C, 15, 1, 39), run(0x1058C, 7, 1, 39), run(0x10594, 2, 1, 39),
    run(0x10C80, 51, 1, 64), run(0x10D50, 22, 1, 32), run(0x118A0, 32, 1, 32),
    run(0x16E40, 32, 1, 32), run(0x16EA0, 25, 1, 27), run(0x1E900, 34, 1, 34),
];

#[cfg(test)]
mod tests {
    use super::{fold, RUNS, UNICODE_VERSION};

    /// Simple case folding from std's case mappings: the lowercase of a letter's uppercase (each
    /// the first letter std gives, where the uppercase is one letter), except for the Turkic
    /// `İ` and `ı`, which CaseFolding.txt folds only under its T status.
    fn std_fold(c: char) -> char {
        if matches!(c, 'İ' | 'ı') {
            return c;
        }
        let mut upper = c.to_uppercase();
        let one = match (upper.next(), upper.next()) {
            (Some(upper), None) => upper,
            _ => c,
        };
        one.to_lowercase().next().unwrap()
    }

    /// The runs of `std_fold`: `(first, count, step, delta)`.
    fn std_runs() -> Vec<(u32, u32, u32, i64)> {
        let mut runs: Vec<(u32, u32, u32, i64)> = Vec::new(); // (first, last, step, delta)
        for c in char::MIN..=char::MAX {
            let folded = std_fold(c);
            if folded == c {
                continue;
            }
            let (code, delta) = (
                u32::from(c),
                i64::from(u32::from(folded)) - i64::from(u32::from(c)),
            );
            if let Some((first, last, step, run_delta)) = runs.last_mut() {
                let gap = code - *last;
                let joins = if first == last {
                    gap == 1 || gap == 2
                } else {
                    gap == *step
                };
                if *run_delta == delta && joins {
                    (*step, *last) = (gap, code);
                    continue;
                }
            }
            runs.push((code, code, 1, delta));
        }
        runs.into_iter()
            .map(|(first, last, step, delta)| (first, (last - first) / step + 1, step, delta))
            .collect()
    }

    /// Every `char`, against std's own mappings. A toolchain with another Unicode version
    /// (which assigns other letters) fails here rather than pass untested: write the table again
    /// with `print_fold_runs`, then its version.
    #[test]
    fn fold_is_std_simple_case_folding_for_every_char() {
        assert_eq!(
            char::UNICODE_VERSION,
            UNICODE_VERSION,
            "std's Unicode version is not the table's: run `cargo test print_fold_runs -- --ignored --nocapture`, paste its runs into src/case.rs and set UNICODE_VERSION"
        );
        for c in char::MIN..=char::MAX {
            assert_eq!(fold(c), std_fold(c), "U+{:04X}", u32::from(c));
        }
        assert_eq!(RUNS.len(), std_runs().len());
    }

    /// Whatever the Unicode version: the search's order, and letters that differ only in case
    /// fold alike.
    #[test]
    fn examples() {
        assert!(
            RUNS.windows(2).all(|pair| pair[0].first < pair[1].first),
            "sorted, for the search"
        );
        let same = [
            "Aa",
            "Éé",
            "Āā",
            "Σσς",
            "Жж",
            "Ⅻⅻ",
            "𐐀𐐨",
            "µΜμ",
            "ſSs",
            "ǄǅǆǄ",
            "\u{212A}Kk",
            "ẞß",
            "Ωω",
        ];
        for letters in same {
            let folded: Vec<char> = letters.chars().map(fold).collect();
            assert!(
                folded.windows(2).all(|pair| pair[0] == pair[1]),
                "{letters}: {folded:?}"
            );
        }
        for (c, folded) in [('İ', 'İ'), ('ı', 'ı'), ('i', 'i'), ('1', '1'), ('é', 'é')] {
            assert_eq!(fold(c), folded);
        }
    }

    #[test]
    #[ignore = "writes the table: cargo test print_fold_runs -- --ignored --nocapture"]
    fn print_fold_runs() {
        let runs = std_runs();
        println!("static RUNS: [Run; {}] = [", runs.len());
        let mut line = String::from("   ");
        for (first, count, step, delta) in runs {
            let item = format!(" run(0x{first:04X}, {count}, {step}, {delta}),");
            if line.len() + item.len() > 100 {
                println!("{line}");
                line = String::from("   ");
            }
            line.push_str(&item);
        }
        println!("{line}\n];");
    }
}
