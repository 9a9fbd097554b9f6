//! The shortest decimal that reads back as the same `f64` or `f32`: Ryū (Ulf Adams,
//! PLDI 2018), the small-table variant, ported from the `ryu` crate
//! (Apache-2.0, by David Tolnay, after Ulf Adams' C code) to safe Rust.
//!
//! Why here: `core`'s `{:e}` gives the same digits, but through the
//! formatting machinery it cost 2.5 times serde_json's formatter, and a
//! file of coordinates (canada.json) went slower through `kyaml::value`
//! than through serde_json's text. The tests hold it to `{:e}` and to
//! serde_json.

/// `value` (finite, not zero, sign ignored) as `mantissa × 10^exponent`
/// with the fewest digits that read back as it, the closest of those.
#[inline]
pub(super) fn shortest(value: f64) -> (u64, i32) {
    decimal(value.to_bits(), F64)
}

/// [`shortest`] for an `f32`: its own shortest digits, not an `f64`'s.
/// The same computation serves: an `f32`'s mantissas and exponents are
/// within an `f64`'s, for which the tables are exact. (The `ryu` crate
/// has a 32-bit twin for `f32`, nearly all of it the same lines; a port of
/// it gave the same digits as this for every `f32`.)
pub(super) fn shortest_f32(value: f32) -> (u64, i32) {
    decimal(value.to_bits().into(), F32)
}

/// A binary floating-point format: the bits of its mantissa (without the
/// implicit leading one) and of its exponent, and the exponent's bias.
#[derive(Clone, Copy)]
struct Format {
    mantissa_bits: u32,
    exponent_bits: u32,
    bias: i32,
}

const F64: Format = Format {
    mantissa_bits: 52,
    exponent_bits: 11,
    bias: 1023,
};

const F32: Format = Format {
    mantissa_bits: 23,
    exponent_bits: 8,
    bias: 127,
};

const POW5_INV_BITCOUNT: i32 = 125;
const POW5_BITCOUNT: i32 = 125;

/// [`shortest`] of the float whose bits are `bits`, in `format`.
#[inline(always)]
fn decimal(bits: u64, format: Format) -> (u64, i32) {
    let Format {
        mantissa_bits,
        exponent_bits,
        bias,
    } = format;
    let ieee_mantissa = bits & ((1u64 << mantissa_bits) - 1);
    let ieee_exponent = ((bits >> mantissa_bits) & ((1u64 << exponent_bits) - 1)) as u32;
    let (e2, m2) = if ieee_exponent == 0 {
        // 2 more bits for the bounds.
        (1 - bias - mantissa_bits as i32 - 2, ieee_mantissa)
    } else {
        (
            ieee_exponent as i32 - bias - mantissa_bits as i32 - 2,
            (1u64 << mantissa_bits) | ieee_mantissa,
        )
    };
    let accept_bounds = m2 & 1 == 0;
    // The interval of decimals that read back as the value.
    let mv = 4 * m2;
    let mm_shift = u32::from(ieee_mantissa != 0 || ieee_exponent <= 1);
    let (vr, mut vp, vm);
    let e10: i32;
    let mut vm_is_trailing_zeros = false;
    let mut vr_is_trailing_zeros = false;
    if e2 >= 0 {
        let q = log10_pow2(e2) - u32::from(e2 > 3);
        e10 = q as i32;
        let k = POW5_INV_BITCOUNT + pow5bits(q as i32) - 1;
        let i = -e2 + q as i32 + k;
        (vr, vp, vm) = mul_shift_all(m2, INV_POW5[q as usize], i as u32, mm_shift);
        if q <= 21 {
            // Only one of mp, mv and mm can be a multiple of 5, if any.
            if mv % 5 == 0 {
                vr_is_trailing_zeros = multiple_of_power_of_5(mv, q);
            } else if accept_bounds {
                vm_is_trailing_zeros = multiple_of_power_of_5(mv - 1 - u64::from(mm_shift), q);
            } else {
                vp -= u64::from(multiple_of_power_of_5(mv + 2, q));
            }
        }
    } else {
        let q = log10_pow5(-e2) - u32::from(-e2 > 1);
        e10 = q as i32 + e2;
        let i = -e2 - q as i32;
        let k = pow5bits(i) - POW5_BITCOUNT;
        let j = q as i32 - k;
        (vr, vp, vm) = mul_shift_all(m2, POW5[i as usize], j as u32, mm_shift);
        if q <= 1 {
            // mv = 4 * m2 has at least two trailing 0 bits.
            vr_is_trailing_zeros = true;
            if accept_bounds {
                vm_is_trailing_zeros = mm_shift == 1;
            } else {
                vp -= 1;
            }
        } else if q < 63 {
            vr_is_trailing_zeros = mv & ((1u64 << q) - 1) == 0;
        }
    }

    let (output, removed) = shortest_in(
        Interval {
            vr,
            vp,
            vm,
            vm_is_trailing_zeros,
            vr_is_trailing_zeros,
            accept_bounds,
        },
        0,
    );
    (output, e10 + removed)
}

/// The decimal interval of the values that read back as the float: `vr`
/// the value, `vp` and `vm` the bounds, scaled to integers, and what the
/// rounding needs to know of the digits below them.
struct Interval {
    vr: u64,
    vp: u64,
    vm: u64,
    vm_is_trailing_zeros: bool,
    vr_is_trailing_zeros: bool,
    accept_bounds: bool,
}

/// The shortest decimal in the interval, closest to the value, and how
/// many digits were removed to reach it; `last_removed_digit` is the digit
/// just below `vr`, if one was removed before (`f32`).
#[inline(always)]
fn shortest_in(interval: Interval, mut last_removed_digit: u64) -> (u64, i32) {
    let Interval {
        mut vr,
        mut vp,
        mut vm,
        mut vm_is_trailing_zeros,
        mut vr_is_trailing_zeros,
        accept_bounds,
    } = interval;
    let mut removed = 0i32;
    if vm_is_trailing_zeros || vr_is_trailing_zeros {
        // The general case (about 0.7% of values).
        while vp / 10 > vm / 10 {
            vm_is_trailing_zeros &= vm % 10 == 0;
            vr_is_trailing_zeros &= last_removed_digit == 0;
            last_removed_digit = vr % 10;
            (vr, vp, vm) = (vr / 10, vp / 10, vm / 10);
            removed += 1;
        }
        if vm_is_trailing_zeros {
            while vm % 10 == 0 {
                vr_is_trailing_zeros &= last_removed_digit == 0;
                last_removed_digit = vr % 10;
                (vr, vp, vm) = (vr / 10, vp / 10, vm / 10);
                removed += 1;
            }
        }
        if vr_is_trailing_zeros && last_removed_digit == 5 && vr % 2 == 0 {
            // Round to even when the exact value is …50…0.
            last_removed_digit = 4;
        }
        let up = (vr == vm && (!accept_bounds || !vm_is_trailing_zeros)) || last_removed_digit >= 5;
        return (vr + u64::from(up), removed);
    }
    // Two digits at a time first: the tens digit is the last removed.
    if vp / 100 > vm / 100 {
        last_removed_digit = vr % 100 / 10;
        (vr, vp, vm) = (vr / 100, vp / 100, vm / 100);
        removed += 2;
    }
    while vp / 10 > vm / 10 {
        last_removed_digit = vr % 10;
        (vr, vp, vm) = (vr / 10, vp / 10, vm / 10);
        removed += 1;
    }
    (vr + u64::from(vr == vm || last_removed_digit >= 5), removed)
}

/// `(m·mul) >> j` for `4m`, its upper bound `4m + 2` and its lower bound.
fn mul_shift_all(m: u64, mul: (u64, u64), j: u32, mm_shift: u32) -> (u64, u64, u64) {
    let shift = |m: u64| {
        let b0 = u128::from(m) * u128::from(mul.0);
        let b2 = u128::from(m) * u128::from(mul.1);
        (((b0 >> 64) + b2) >> (j - 64)) as u64
    };
    (
        shift(4 * m),
        shift(4 * m + 2),
        shift(4 * m - 1 - u64::from(mm_shift)),
    )
}

/// Whether 5^p divides `value`.
fn multiple_of_power_of_5(mut value: u64, p: u32) -> bool {
    const M_INV_5: u64 = 14757395258967641293; // 5 × M_INV_5 = 1 (mod 2^64)
    const N_DIV_5: u64 = 3689348814741910323; // 2^64 / 5
    let mut count = 0u32;
    loop {
        value = value.wrapping_mul(M_INV_5);
        if value > N_DIV_5 {
            break;
        }
        count += 1;
    }
    count >= p
}

/// `e == 0 ? 1 : ceil(log2(5^e))`, for `0 <= e <= 3528`.
const fn pow5bits(e: i32) -> i32 {
    (((e as u32 * 1217359) >> 19) + 1) as i32
}

/// `floor(log10(2^e))`, for `0 <= e <= 1650`.
fn log10_pow2(e: i32) -> u32 {
    (e as u32 * 78913) >> 18
}

/// `floor(log10(5^e))`, for `0 <= e <= 2620`.
fn log10_pow5(e: i32) -> u32 {
    (e as u32 * 732923) >> 20
}

/// [`compute_pow5`] of every `i` the conversions ask for, worked out when
/// the crate is compiled (a table of 326 entries from the small ones).
static POW5: [(u64, u64); 326] = {
    let mut table = [(0, 0); 326];
    let mut i = 0;
    while i < table.len() {
        table[i] = compute_pow5(i as u32);
        i += 1;
    }
    table
};

/// [`compute_inv_pow5`] of every `q` the conversions ask for (at most
/// 291: `log10_pow2` of the largest binary exponent, 969).
static INV_POW5: [(u64, u64); 292] = {
    let mut table = [(0, 0); 292];
    let mut i = 0;
    while i < table.len() {
        table[i] = compute_inv_pow5(i as u32);
        i += 1;
    }
    table
};

/// 5^i as a 128-bit fraction (low, high), from the tables below.
const fn compute_pow5(i: u32) -> (u64, u64) {
    let base = i / POW5_TABLE.len() as u32;
    let base2 = base * POW5_TABLE.len() as u32;
    let offset = i - base2;
    let mul = POW5_SPLIT2[base as usize];
    if offset == 0 {
        return mul;
    }
    let m = POW5_TABLE[offset as usize];
    let b0 = (m as u128) * (mul.0 as u128);
    let b2 = (m as u128) * (mul.1 as u128);
    let delta = pow5bits(i as i32) - pow5bits(base2 as i32);
    let shifted_sum = (b0 >> delta)
        + (b2 << (64 - delta))
        + ((POW5_OFFSETS[(i / 16) as usize] >> ((i % 16) << 1)) & 3) as u128;
    (shifted_sum as u64, (shifted_sum >> 64) as u64)
}

/// 1/5^i as a 128-bit fraction (low, high), from the tables below.
const fn compute_inv_pow5(i: u32) -> (u64, u64) {
    let base = i.div_ceil(POW5_TABLE.len() as u32);
    let base2 = base * POW5_TABLE.len() as u32;
    let offset = base2 - i;
    let mul = POW5_INV_SPLIT2[base as usize]; // 1/5^base2
    if offset == 0 {
        return mul;
    }
    let m = POW5_TABLE[offset as usize]; // 5^offset
    let b0 = (m as u128) * ((mul.0 - 1) as u128);
    let b2 = (m as u128) * (mul.1 as u128);
    let delta = pow5bits(base2 as i32) - pow5bits(i as i32);
    let shifted_sum = ((b0 >> delta) + (b2 << (64 - delta)))
        + 1
        + ((POW5_INV_OFFSETS[(i / 16) as usize] >> ((i % 16) << 1)) & 3) as u128;
    (shifted_sum as u64, (shifted_sum >> 64) as u64)
}

const POW5_INV_SPLIT2: [(u64, u64); 15] = [
    (1, 2305843009213693952),
    (5955668970331000884, 1784059615882449851),
    (8982663654677661702, 1380349269358112757),
    (7286864317269821294, 2135987035920910082),
    (7005857020398200553, 1652639921975621497),
    (17965325103354776697, 1278668206209430417),
    (8928596168509315048, 1978643211784836272),
    (10075671573058298858, 1530901034580419511),
    (597001226353042382, 1184477304306571148),
    (1527430471115325346, 1832889850782397517),
    (12533209867169019542, 1418129833677084982),
    (5577825024675947042, 2194449627517475473),
    (11006974540203867551, 1697873161311732311),
    (10313493231639821582, 1313665730009899186),
    (12701016819766672773, 2032799256770390445),
];

const POW5_INV_OFFSETS: [u32; 19] = [
    0x54544554, 0x04055545, 0x10041000, 0x00400414, 0x40010000, 0x41155555, 0x00000454, 0x00010044,
    0x40000000, 0x44000041, 0x50454450, 0x55550054, 0x51655554, 0x40004000, 0x01000001, 0x00010500,
    0x51515411, 0x05555554, 0x00000000,
];

const POW5_SPLIT2: [(u64, u64); 13] = [
    (0, 1152921504606846976),
    (0, 1490116119384765625),
    (1032610780636961552, 1925929944387235853),
    (7910200175544436838, 1244603055572228341),
    (16941905809032713930, 1608611746708759036),
    (13024893955298202172, 2079081953128979843),
    (6607496772837067824, 1343575221513417750),
    (17332926989895652603, 1736530273035216783),
    (13037379183483547984, 2244412773384604712),
    (1605989338741628675, 1450417759929778918),
    (9630225068416591280, 1874621017369538693),
    (665883850346957067, 1211445438634777304),
    (14931890668723713708, 1565756531257009982),
];

const POW5_OFFSETS: [u32; 21] = [
    0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x40000000, 0x59695995, 0x55545555, 0x56555515,
    0x41150504, 0x40555410, 0x44555145, 0x44504540, 0x45555550, 0x40004000, 0x96440440, 0x55565565,
    0x54454045, 0x40154151, 0x55559155, 0x51405555, 0x00000105,
];

const POW5_TABLE: [u64; 26] = [
    1,
    5,
    25,
    125,
    625,
    3125,
    15625,
    78125,
    390625,
    1953125,
    9765625,
    48828125,
    244140625,
    1220703125,
    6103515625,
    30517578125,
    152587890625,
    762939453125,
    3814697265625,
    19073486328125,
    95367431640625,
    476837158203125,
    2384185791015625,
    11920928955078125,
    59604644775390625,
    298023223876953125,
];

#[cfg(test)]
mod tests {
    use super::super::number::{f32_text, f64_text, NumberText, Spelling};
    use std::string::String;

    /// Both texts of a float: serde_json's, and the KYAML form the encoder
    /// makes of serde_json's.
    fn assert_spelled<T: serde::Serialize + core::fmt::LowerExp>(
        text: impl Fn(Spelling) -> NumberText,
        v: &T,
    ) {
        let expected = serde_json::to_string(v).unwrap();
        assert_eq!(text(Spelling::Json).as_str(), expected, "{v:e}");
        let mut expected_kyaml = String::new();
        crate::number::write_exponent_form(&mut expected_kyaml, &expected).unwrap();
        assert_eq!(text(Spelling::Kyaml).as_str(), expected_kyaml, "{v:e}");
    }

    /// Random bit patterns (xorshift64*), for `f64::from_bits` and `f32::from_bits`.
    pub(crate) fn random_bits(n: usize) -> impl Iterator<Item = u64> {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        (0..n).map(move |_| {
            state ^= state >> 12;
            state ^= state << 25;
            state ^= state >> 27;
            state.wrapping_mul(0x2545_F491_4F6C_DD1D)
        })
    }

    /// serde_json's spelling of every finite `f64` tried, ties included
    /// (`1394865425023536.2`, where `core`'s `{:e}` rounds the tie up).
    #[test]
    fn spelled_as_serde_json_spells_them() {
        let edges = [
            5e-324,
            f64::MIN_POSITIVE,
            f64::MAX,
            1.0,
            0.1,
            1e23,
            9007199254740993.0,
            1.3948654250235363e15,
            -0.0,
        ];
        let randoms = random_bits(300_000).map(f64::from_bits);
        let decimals = (0..100_000).map(|i| f64::from(i) / 1000.0 - 50.0);
        for v in edges.into_iter().chain(randoms).chain(decimals) {
            if !v.is_finite() {
                continue;
            }
            assert_spelled(|s| f64_text(v, s), &v);
        }
    }

    #[test]
    fn f32_spelled_as_serde_json_spells_them() {
        for bits in random_bits(300_000) {
            let v = f32::from_bits(bits as u32);
            if !v.is_finite() {
                continue;
            }
            assert_spelled(|s| f32_text(v, s), &v);
        }
    }
}
